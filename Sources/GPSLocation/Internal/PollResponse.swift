/// Reading gpsd's reply to `?POLL;`, which libgps does not parse itself (libgps 3.22 through
/// 3.27 has no POLL case), so its first TPV and SKY objects are cut out and unpacked one by one.
enum PollResponse {
    private static let prefix = Array(#"{"class":"POLL""#.utf8)

    /// Whether `line` is a POLL reply.
    static func isPoll(_ line: some Collection<UInt8>) -> Bool {
        line.starts(with: prefix)
    }

    /// Whether `line` is a POLL reply.
    static func isPoll(_ line: String) -> Bool {
        isPoll(line.utf8)
    }

    /// The first JSON object in the array `key` of `line` (for example `"tpv":[{...},...]`),
    /// or `nil` when the array is missing, empty or cut short. Braces inside strings are skipped.
    static func firstObject(inArray key: String, of line: String) -> Substring? {
        guard let keyRange = line.firstRange(of: "\"\(key)\":[") else { return nil }
        let rest = line[keyRange.upperBound...]
        guard rest.first == "{" else { return nil }
        var depth = 0
        var inString = false
        var escaped = false
        for index in rest.indices {
            let character = rest[index]
            if inString {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
                continue
            }
            switch character {
            case "\"": inString = true
            case "{": depth += 1
            case "}":
                depth -= 1
                if depth == 0 { return rest[...index] }
            default: break
            }
        }
        return nil
    }
}
