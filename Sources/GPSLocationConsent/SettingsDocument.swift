import GPSLocation

/// The syntax of locate's INI files, without meaning: `[section]` or `[app "NAME"]` headers,
/// `key = value` lines, and `#` or `;` comments (also after a value, when preceded by white space).
/// A value may be in double quotes, where `#` and `;` are literal and `\"` and `\\` are escapes.
/// It reads the lines of `SettingsLines`, the model the editor changes, so line numbers are the
/// editor's indexes plus one.
struct SettingsDocument {
    /// One `key = value` line.
    struct Entry {
        var section: SectionName
        var key: String
        var value: String
        var line: Int
        var keyColumn: Int
        var valueColumn: Int
        /// Where the value is written in the line's bytes (quotes included), so that an edit
        /// keeps what surrounds it: the indentation, the spacing and an inline comment.
        var valueBytes: Range<Int>
    }

    /// A section header: a plain name, or `app` with its quoted name.
    struct SectionName: Hashable {
        var name: String
        var app: String?

        var description: String { app.map { "[\(name) \"\($0)\"]" } ?? "[\(name)]" }
    }

    struct Header {
        var section: SectionName
        var line: Int
    }

    /// A key of a section.
    private struct SectionKey: Hashable {
        var section: SectionName
        var key: String
    }

    var headers: [Header] = []
    var entries: [Entry] = []

    /// Parses `lines`, the content of `file`. The syntax is ASCII, so a line is read as bytes;
    /// columns in messages count characters, as a person sees them.
    /// - Throws: `GPSLocationError.invalidSettings` naming the line and column of the first problem.
    init(_ lines: SettingsLines, file: String) throws(GPSLocationError) {
        var current: SectionName?
        /// The keys set so far, by section, once there are more than a few: a key set twice is
        /// found in constant time, so a file of ten thousand sections parses in linear time. A
        /// usual file (a few keys) is searched instead: the first `Set` of a type costs the
        /// Swift runtime a scan of every protocol conformance of the binary (for `Hashable`),
        /// more than parsing the file.
        var seen: Set<SectionKey>?
        for (index, line) in lines.lines.enumerated() {
            var reader = LineReader(bytes: line.content, file: file, line: index + 1)
            try reader.check()
            reader.skipSpaces()
            guard let first = reader.peek, first != UInt8(ascii: "#"), first != UInt8(ascii: ";") else { continue }
            if first == UInt8(ascii: "[") {
                let section = try reader.header()
                headers.append(Header(section: section, line: reader.line))
                current = section
                continue
            }
            let keyStart = reader.position
            while let byte = reader.peek, Self.isKeyByte(byte) { reader.position += 1 }
            guard reader.position > keyStart else { throw reader.fail(at: reader.position, "expected a key, a [section] or a comment") }
            let key = reader.text(keyStart..<reader.position)
            reader.skipSpaces()
            guard reader.peek == UInt8(ascii: "=") else { throw reader.fail(at: reader.position, "expected '=' after '\(key)'") }
            reader.position += 1
            reader.skipSpaces()
            let valueStart = reader.position
            let value = try reader.value()
            var valueEnd = reader.position
            while valueEnd > valueStart, LineReader.isSpace(line.content[valueEnd - 1]) { valueEnd -= 1 }
            guard let section = current else {
                throw reader.fail(at: keyStart, "'\(key)' is outside any section (expected a [section] first)")
            }
            if Self.isSetTwice(SectionKey(section: section, key: key), in: entries, seen: &seen) {
                throw reader.fail(at: keyStart, "'\(key)' is set twice in \(section.description)")
            }
            entries.append(
                Entry(
                    section: section, key: key, value: value, line: reader.line,
                    keyColumn: reader.column(keyStart), valueColumn: reader.column(valueStart), valueBytes: valueStart..<valueEnd))
        }
    }

    /// Whether `key` is among the keys of `entries` (and notes it in `seen`, which is made once
    /// there are more than `searched` of them).
    private static func isSetTwice(_ key: SectionKey, in entries: [Entry], seen: inout Set<SectionKey>?) -> Bool {
        let searched = 32
        if seen == nil, entries.count >= searched {
            seen = Set(entries.lazy.map { SectionKey(section: $0.section, key: $0.key) })
        }
        if let inserted = seen?.insert(key).inserted { return !inserted }
        return entries.contains { $0.section == key.section && $0.key == key.key }
    }

    /// A byte of a key: an ASCII letter, digit, `_` or `-`, or part of a non-ASCII letter (such a
    /// key is unknown, and named as such).
    private static func isKeyByte(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
            || byte >= 0x80
    }
}

/// One line of a settings file, read byte by byte from `position`.
private struct LineReader {
    let bytes: [UInt8]
    let file: String
    let line: Int
    var position = 0
    /// Whether every byte is ASCII, so a byte offset is a character offset.
    private var isASCII = true

    init(bytes: [UInt8], file: String, line: Int) {
        self.bytes = bytes
        self.file = file
        self.line = line
    }

    var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    /// Refuses control characters and bytes that are not UTF-8.
    mutating func check() throws(GPSLocationError) {
        if let bad = bytes.firstIndex(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) {
            throw problem(bad + 1, "unexpected control character (expected text)")
        }
        isASCII = bytes.allSatisfy { $0 < 0x80 }
        guard isASCII || String(validating: bytes, as: UTF8.self) != nil else {
            throw problem(Self.firstInvalidUTF8(bytes) + 1, "not UTF-8 text")
        }
    }

    /// The 1-based column, in characters, of the byte at `offset`.
    func column(_ offset: Int) -> Int {
        isASCII ? offset + 1 : String(decoding: bytes[..<min(offset, bytes.count)], as: UTF8.self).count + 1
    }

    func fail(at offset: Int, _ message: String) -> GPSLocationError {
        problem(column(offset), message)
    }

    private func problem(_ column: Int, _ message: String) -> GPSLocationError {
        .invalidSettings(SettingsProblem(file: file, line: line, column: column, message: message))
    }

    func text(_ range: Range<Int>) -> String {
        String(decoding: bytes[range], as: UTF8.self)
    }

    static func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    private static func isComment(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "#") || byte == UInt8(ascii: ";") }

    mutating func skipSpaces() {
        while let byte = peek, Self.isSpace(byte) { position += 1 }
    }

    /// `[name]` or `[name "app"]`, optionally followed by a comment, from `position` (at `[`).
    mutating func header() throws(GPSLocationError) -> SettingsDocument.SectionName {
        let start = position
        guard let close = bytes[start...].firstIndex(of: UInt8(ascii: "]")) else {
            throw problem(column(bytes.count), "expected ']' to close the section name")
        }
        position = close + 1
        skipSpaces()
        if let byte = peek, !Self.isComment(byte) { throw fail(at: position, "unexpected text after ']'") }
        var inside = bytes[(start + 1)..<close]
        Self.trim(&inside)
        let nameEnd = inside.firstIndex(of: UInt8(ascii: " ")) ?? inside.endIndex
        let name = String(decoding: inside[..<nameEnd], as: UTF8.self)
        guard !name.isEmpty else { throw fail(at: start + 1, "empty section name") }
        var quoted = inside[nameEnd...]
        Self.trim(&quoted)
        guard !quoted.isEmpty else { return SettingsDocument.SectionName(name: name, app: nil) }
        guard quoted.count >= 2, quoted.first == UInt8(ascii: "\""), quoted.last == UInt8(ascii: "\""),
            !quoted.dropFirst().dropLast().contains(UInt8(ascii: "\""))
        else {
            throw problem(column(start) + 2 + name.count, "expected a quoted name, as in [app \"weather\"]")
        }
        return SettingsDocument.SectionName(name: name, app: String(decoding: quoted.dropFirst().dropLast(), as: UTF8.self))
    }

    /// A value from `position`: quoted (with `\"` and `\\` escapes), or up to a comment that
    /// follows white space, without surrounding spaces.
    mutating func value() throws(GPSLocationError) -> String {
        if peek == UInt8(ascii: "\"") {
            let open = position
            var result: [UInt8] = []
            position += 1
            while true {
                guard let byte = peek else { throw fail(at: open, "unterminated quoted value (expected a closing '\"')") }
                position += 1
                if byte == UInt8(ascii: "\"") { break }
                if byte == UInt8(ascii: "\\") {
                    guard let escaped = peek, escaped == UInt8(ascii: "\"") || escaped == UInt8(ascii: "\\") else {
                        throw fail(at: position - 1, "unknown escape (expected \\\" or \\\\)")
                    }
                    result.append(escaped)
                    position += 1
                } else {
                    result.append(byte)
                }
            }
            skipSpaces()
            if let byte = peek, !Self.isComment(byte) { throw fail(at: position, "unexpected text after the quoted value") }
            return String(decoding: result, as: UTF8.self)
        }
        var end = position
        while end < bytes.count {
            if Self.isComment(bytes[end]), end == position || Self.isSpace(bytes[end - 1]) { break }
            end += 1
        }
        var value = bytes[position..<end]
        Self.trim(&value)
        position = end
        return String(decoding: value, as: UTF8.self)
    }

    /// Drops spaces and tabs at both ends.
    private static func trim(_ slice: inout ArraySlice<UInt8>) {
        while let first = slice.first, isSpace(first) { slice = slice.dropFirst() }
        while let last = slice.last, isSpace(last) { slice = slice.dropLast() }
    }

    private static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): offset += UTF8.width(scalar)
            case .emptyInput, .error: return offset
            }
        }
    }
}
