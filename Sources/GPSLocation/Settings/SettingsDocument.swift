/// The syntax of locate's INI files, without meaning: `[section]` or `[app "NAME"]` headers,
/// `key = value` lines, and `#` or `;` comments (also after a value, when preceded by white space).
/// A value may be in double quotes, where `#` and `;` are literal and `\"` and `\\` are escapes.
struct SettingsDocument {
    /// One `key = value` line.
    struct Entry {
        var section: SectionName
        var key: String
        var value: String
        var line: Int
        var keyColumn: Int
        var valueColumn: Int
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

    var headers: [Header] = []
    var entries: [Entry] = []

    /// Parses `bytes`, the content of `file`.
    /// - Throws: `ConfigurationError` naming the line and column of the first problem.
    init(bytes: [UInt8], file: String) throws(ConfigurationError) {
        var current: SectionName?
        for (index, rawLine) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let lineNumber = index + 1
            func fail(_ column: Int, _ message: String) -> ConfigurationError {
                ConfigurationError(file: file, line: lineNumber, column: column, message: message)
            }
            var lineBytes = Array(rawLine)
            if lineBytes.last == UInt8(ascii: "\r") { lineBytes.removeLast() }
            if let bad = lineBytes.firstIndex(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) {
                throw fail(bad + 1, "unexpected control character (expected text)")
            }
            guard let text = String(validating: lineBytes, as: UTF8.self) else {
                throw fail(Self.firstInvalidUTF8(lineBytes) + 1, "not UTF-8 text")
            }
            let characters = Array(text)
            var position = 0
            func skipSpaces() {
                while position < characters.count, characters[position] == " " || characters[position] == "\t" { position += 1 }
            }
            skipSpaces()
            guard position < characters.count, characters[position] != "#", characters[position] != ";" else { continue }
            if characters[position] == "[" {
                let section = try Self.header(characters, from: position, fail: fail)
                headers.append(Header(section: section, line: lineNumber))
                current = section
                continue
            }
            let keyStart = position
            while position < characters.count, characters[position].isLetter || characters[position].isNumber || characters[position] == "_" || characters[position] == "-" {
                position += 1
            }
            guard position > keyStart else { throw fail(position + 1, "expected a key, a [section] or a comment") }
            let key = String(characters[keyStart..<position])
            skipSpaces()
            guard position < characters.count, characters[position] == "=" else { throw fail(position + 1, "expected '=' after '\(key)'") }
            position += 1
            skipSpaces()
            let valueStart = position
            let value = try Self.value(characters, from: &position, fail: fail)
            guard let section = current else { throw fail(keyStart + 1, "'\(key)' is outside any section (expected a [section] first)") }
            if entries.contains(where: { $0.section == section && $0.key == key }) {
                throw fail(keyStart + 1, "'\(key)' is set twice in \(section.description)")
            }
            entries.append(Entry(section: section, key: key, value: value, line: lineNumber, keyColumn: keyStart + 1, valueColumn: valueStart + 1))
        }
    }

    private static func header(_ characters: [Character], from start: Int, fail: (Int, String) -> ConfigurationError) throws(ConfigurationError) -> SectionName {
        guard let close = characters[start...].firstIndex(of: "]") else { throw fail(characters.count + 1, "expected ']' to close the section name") }
        let rest = characters[(close + 1)...].drop { $0 == " " || $0 == "\t" }
        if let first = rest.first, first != "#", first != ";" {
            throw fail(close + 2 + (characters.count - close - 1 - rest.count), "unexpected text after ']'")
        }
        let inside = String(characters[(start + 1)..<close]).trimmingSpaces
        let parts = inside.split(separator: " ", maxSplits: 1).map { String($0).trimmingSpaces }
        guard let name = parts.first, !name.isEmpty else { throw fail(start + 2, "empty section name") }
        guard parts.count == 2 else { return SectionName(name: name, app: nil) }
        let quoted = parts[1]
        guard quoted.count >= 2, quoted.hasPrefix("\""), quoted.hasSuffix("\""), !quoted.dropFirst().dropLast().contains("\"") else {
            throw fail(start + 3 + name.count, "expected a quoted name, as in [app \"weather\"]")
        }
        return SectionName(name: name, app: String(quoted.dropFirst().dropLast()))
    }

    private static func value(_ characters: [Character], from position: inout Int, fail: (Int, String) -> ConfigurationError) throws(ConfigurationError) -> String {
        if position < characters.count, characters[position] == "\"" {
            let open = position
            var result = ""
            position += 1
            while true {
                guard position < characters.count else { throw fail(open + 1, "unterminated quoted value (expected a closing '\"')") }
                let character = characters[position]
                position += 1
                if character == "\"" { break }
                if character == "\\" {
                    guard position < characters.count, characters[position] == "\"" || characters[position] == "\\" else {
                        throw fail(position, "unknown escape (expected \\\" or \\\\)")
                    }
                    result.append(characters[position])
                    position += 1
                } else {
                    result.append(character)
                }
            }
            let trailing = characters[position...].drop { $0 == " " || $0 == "\t" }
            if let first = trailing.first, first != "#", first != ";" {
                throw fail(characters.count - trailing.count + 1, "unexpected text after the quoted value")
            }
            return result
        }
        var end = position
        while end < characters.count {
            if (characters[end] == "#" || characters[end] == ";"), end == position || characters[end - 1] == " " || characters[end - 1] == "\t" { break }
            end += 1
        }
        let value = String(characters[position..<end]).trimmingSpaces
        position = end
        return value
    }

    private static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int {
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        var consumed = 0
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                offset += UTF8.width(scalar)
                consumed = offset
            case .emptyInput: return consumed
            case .error: return consumed
            }
        }
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        let characters = Array(self)
        guard let first = characters.firstIndex(where: { $0 != " " && $0 != "\t" }),
              let last = characters.lastIndex(where: { $0 != " " && $0 != "\t" }) else { return "" }
        return String(characters[first...last])
    }
}
