/// Reading gpsd's reply to `?POLL;`, which libgps does not parse itself (libgps 3.22 through
/// 3.27 has no POLL case), so its first TPV and SKY objects are cut out and unpacked one by one.
/// It works on the line's bytes, as they came from the socket.
enum PollResponse {
    private static let prefix = Array(#"{"class":"POLL""#.utf8)

    /// Whether `line` is a POLL reply.
    static func isPoll(_ line: some Collection<UInt8>) -> Bool {
        line.starts(with: prefix)
    }

    /// The first JSON object in the array `key` of `line` (for example `"tpv":[{...},...]`),
    /// or `nil` when the array is missing, empty or cut short. Braces inside strings are skipped.
    static func firstObject(inArray key: String, of line: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        let opening = Array("\"\(key)\":[{".utf8)
        guard let start = firstIndex(of: opening, in: line) else { return nil }
        var depth = 0
        var inString = false
        var escaped = false
        for index in (start + opening.count - 1)..<line.endIndex {
            let byte = line[index]
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"): depth += 1
            case UInt8(ascii: "}"):
                depth -= 1
                if depth == 0 { return line[(start + opening.count - 1)...index] }
            default: break
            }
        }
        return nil
    }

    /// Where `pattern` first starts in `line`.
    private static func firstIndex(of pattern: [UInt8], in line: ArraySlice<UInt8>) -> Int? {
        guard let first = pattern.first, line.count >= pattern.count else { return nil }
        var index = line.startIndex
        while index <= line.endIndex - pattern.count {
            if line[index] == first, line[index..<(index + pattern.count)].elementsEqual(pattern) { return index }
            index += 1
        }
        return nil
    }
}
