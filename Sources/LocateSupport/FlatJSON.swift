/// The one JSON reader and quoting of the libraries and the command (`package`): one object on
/// one line, with scalar members (what `locate` writes in records, status events and the
/// last-fix cache, and reads back from the cache); the objects of a member's array, found by
/// skipping nested values (gpsd's POLL replies, iso-codes' tables); and the members of any
/// object as spans of bytes (the JSON Lines `locate geocode --batch` passes through). Strict and
/// bounded, so hostile bytes are an error, never a crash or a long wait.
package enum FlatJSON {
    /// A member's value.
    package enum Value: Hashable, Sendable {
        case string(String)
        case number(Double)
        case bool(Bool)
        case null
    }

    /// The members of the object in `bytes`, or `nil` when it is not one flat object (nested
    /// values, bad syntax, duplicate keys, non-finite numbers, more than `maximumSize` bytes).
    package static func parse(_ bytes: [UInt8], maximumSize: Int = 64 * 1024) -> [String: Value]? {
        guard bytes.count <= maximumSize else { return nil }
        var reader = Reader(bytes: bytes)
        return reader.object()
    }

    /// The bytes of the first object of the array `key` of the object in `bytes` (such as a
    /// POLL reply's `"tpv":[{...},...]`), or `nil` when there is none, or the JSON is not well
    /// formed up to the point where it is found (values nested deeper than 32 are refused).
    package static func firstObject(inArray key: String, of bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        var reader = Reader(bytes: Array(bytes))
        guard let range = reader.objects(inArray: key, limit: 1)?.first else { return nil }
        return bytes[(bytes.startIndex + range.start)..<(bytes.startIndex + range.end)]
    }

    /// The bytes of every object of the array `key` of the object in `bytes` (such as a DEVICES
    /// report's `"devices":[{...},...]`), or `nil` when the JSON is not well formed up to the
    /// end of that array (values nested deeper than 32 are refused).
    package static func objectSpans(inArray key: String, of bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>]? {
        var reader = Reader(bytes: Array(bytes))
        guard let ranges = reader.objects(inArray: key, limit: .max) else { return nil }
        return ranges.map { bytes[(bytes.startIndex + $0.start)..<(bytes.startIndex + $0.end)] }
    }

    /// The members of the flat objects of the array `key` of the object in `bytes` (such as
    /// iso-codes' `{"3166-1":[{...},...]}`), or `nil` when the JSON is not well formed up to the
    /// end of that array or an element is not a flat object.
    package static func objects(inArray key: String, of bytes: [UInt8]) -> [[String: Value]]? {
        var reader = Reader(bytes: bytes)
        guard let ranges = reader.objects(inArray: key, limit: .max) else { return nil }
        var objects: [[String: Value]] = []
        for range in ranges {
            var element = Reader(bytes: Array(bytes[range.start..<range.end]))
            guard let object = element.object() else { return nil }
            objects.append(object)
        }
        return objects
    }

    /// The members of the object in `bytes`, in order, each with the bytes of its value as they
    /// are (nested values included), or `nil` when it is not one well-formed object with unique
    /// keys (values nested deeper than 32 are refused).
    package static func members(of bytes: ArraySlice<UInt8>) -> [(key: String, value: ArraySlice<UInt8>)]? {
        var reader = Reader(bytes: Array(bytes))
        guard let members = reader.members() else { return nil }
        return members.map { ($0.key, bytes[(bytes.startIndex + $0.value.lowerBound)..<(bytes.startIndex + $0.value.upperBound)]) }
    }

    /// The scalar members at the start of the object in `bytes`, in order, up to the first that
    /// cannot be read (a nested value, bad syntax, the end of a cut object): what a reader that
    /// takes members as it goes (gpsd's) has taken by then.
    package static func leadingMembers(of bytes: ArraySlice<UInt8>) -> [(key: String, value: Value)] {
        var reader = Reader(bytes: Array(bytes))
        return reader.leadingMembers()
    }

    /// The scalar in `bytes` (a member's value from `members(of:)`), or `nil` when it is not one.
    package static func scalar(_ bytes: ArraySlice<UInt8>) -> Value? {
        var reader = Reader(bytes: Array(bytes))
        return reader.scalar()
    }

    /// `text` as a JSON string, quoted as ``appendQuoted(_:to:)`` quotes it.
    package static func quoted(_ text: String) -> String {
        var bytes: [UInt8] = []
        appendQuoted(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends `text` as a JSON string literal (RFC 8259): quotes, backslashes and control
    /// characters escaped, and so is every scalar `UntrustedText.visible` shows as an escape
    /// (`UntrustedText.isHidden`: DEL, C1 controls, format characters such as bidirectional
    /// formatting, zero-width spaces and tag characters, the other default-ignorable code points,
    /// blank fillers, line and paragraph separators), as `\uXXXX` (a surrogate pair beyond the
    /// Basic Multilingual Plane): outside text in a record cannot drive or hide from the terminal
    /// that shows it, in JSON as in text, and a JSON reader gets the text back as it was.
    package static func appendQuoted(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 where byte >= 0x80 || byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0x7F
        {
            // Something to escape or to decode: the slow path, for this string.
            appendEscaped(text.unicodeScalars, to: &bytes)
            bytes.append(UInt8(ascii: "\""))
            return
        }
        bytes += text.utf8
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends the JSON text `value` (a member's value as `members(of:)` found it) with every
    /// scalar `UntrustedText` shows as an escape written as a `\u` escape: the same escaping as
    /// `appendQuoted`, for JSON passed through (such scalars can only be inside its strings).
    package static func appendEscapingHidden(_ value: ArraySlice<UInt8>, to bytes: inout [UInt8]) {
        guard value.contains(where: { $0 >= 0x7F }) else {
            bytes += value
            return
        }
        for scalar in String(decoding: value, as: UTF8.self).unicodeScalars {
            if UntrustedText.isHidden(scalar) {
                appendUnicodeEscape(scalar, to: &bytes)
            } else {
                bytes += String(scalar).utf8
            }
        }
    }

    /// The escaping of `appendQuoted`, scalar by scalar (without the quotes).
    private static func appendEscaped(_ scalars: String.UnicodeScalarView, to bytes: inout [UInt8]) {
        for scalar in scalars {
            switch scalar {
            case "\"", "\\": bytes += [UInt8(ascii: "\\"), UInt8(scalar.value)]
            case "\n": bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case "\r": bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case "\t": bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            default:
                if UntrustedText.isHidden(scalar) {
                    appendUnicodeEscape(scalar, to: &bytes)
                } else {
                    bytes += String(scalar).utf8
                }
            }
        }
    }

    /// `\uXXXX` for a scalar of the Basic Multilingual Plane, `\uXXXX\uXXXX` (its UTF-16
    /// surrogate pair, as RFC 8259 writes it) for one beyond it, such as a tag character.
    private static func appendUnicodeEscape(_ scalar: Unicode.Scalar, to bytes: inout [UInt8]) {
        for unit in scalar.utf16 {
            bytes += [UInt8(ascii: "\\"), UInt8(ascii: "u")]
            for shift in stride(from: 12, through: 0, by: -4) { bytes.append(hexDigit(UInt8((unit >> UInt16(shift)) & 0xF))) }
        }
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    private struct Reader {
        let bytes: [UInt8]
        var position = 0

        /// A byte a JSON number may have (a test on bytes: a string's `contains` is generic, and slow).
        static func isNumberByte(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E")
        }

        mutating func object() -> [String: Value]? {
            skipSpace()
            guard take(UInt8(ascii: "{")) else { return nil }
            // Room for a record's members from the start: growing a dictionary rehashes it.
            var members: [String: Value] = Dictionary(minimumCapacity: 24)
            skipSpace()
            if take(UInt8(ascii: "}")) { return end() ? members : nil }
            repeat {
                skipSpace()
                guard let key = string() else { return nil }
                skipSpace()
                guard take(UInt8(ascii: ":")), members[key] == nil else { return nil }
                skipSpace()
                guard let value = value() else { return nil }
                members[key] = value
                skipSpace()
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")), end() else { return nil }
            return members
        }

        /// The ranges of the first `limit` objects of the array member `key` of the object at
        /// the start (those before the first value that is not an object). Pairs, not
        /// `Range<Int>`: an array of ranges makes the Swift runtime check `Int: Comparable` by
        /// scanning every protocol conformance of the binary, on the path of every `--once`.
        mutating func objects(inArray key: String, limit: Int) -> [(start: Int, end: Int)]? {
            skipSpace()
            guard take(UInt8(ascii: "{")) else { return nil }
            repeat {
                skipSpace()
                guard let name = string() else { return nil }
                skipSpace()
                guard take(UInt8(ascii: ":")) else { return nil }
                skipSpace()
                if name == key {
                    guard take(UInt8(ascii: "[")) else { return nil }
                    var ranges: [(start: Int, end: Int)] = []
                    skipSpace()
                    if take(UInt8(ascii: "]")) { return ranges }
                    repeat {
                        skipSpace()
                        let start = position
                        guard position < bytes.count, bytes[position] == UInt8(ascii: "{"), skipValue(depth: 0) else { return nil }
                        ranges.append((start, position))
                        if ranges.count == limit { return ranges }
                        skipSpace()
                    } while take(UInt8(ascii: ","))
                    return take(UInt8(ascii: "]")) ? ranges : nil
                }
                guard skipValue(depth: 0) else { return nil }
                skipSpace()
            } while take(UInt8(ascii: ","))
            return nil
        }

        /// The members of the object that is the whole input, with the ranges of their values.
        mutating func leadingMembers() -> [(key: String, value: Value)] {
            var members: [(key: String, value: Value)] = []
            skipSpace()
            guard take(UInt8(ascii: "{")) else { return members }
            repeat {
                skipSpace()
                guard let key = string() else { return members }
                skipSpace()
                guard take(UInt8(ascii: ":")) else { return members }
                skipSpace()
                guard let value = value() else { return members }
                members.append((key, value))
                skipSpace()
            } while take(UInt8(ascii: ","))
            return members
        }

        mutating func members() -> [(key: String, value: Range<Int>)]? {
            skipSpace()
            guard take(UInt8(ascii: "{")) else { return nil }
            var members: [(key: String, value: Range<Int>)] = []
            var keys = Set<String>()
            skipSpace()
            if take(UInt8(ascii: "}")) { return end() ? members : nil }
            repeat {
                skipSpace()
                guard let key = string(), keys.insert(key).inserted else { return nil }
                skipSpace()
                guard take(UInt8(ascii: ":")) else { return nil }
                skipSpace()
                let start = position
                guard skipValue(depth: 1) else { return nil }
                members.append((key, start..<position))
                skipSpace()
            } while take(UInt8(ascii: ","))
            guard take(UInt8(ascii: "}")), end() else { return nil }
            return members
        }

        /// The scalar that is the whole input.
        mutating func scalar() -> Value? {
            skipSpace()
            guard let value = value(), end() else { return nil }
            return value
        }

        /// Steps over one value of any kind, nested up to 32 deep.
        private mutating func skipValue(depth: Int) -> Bool {
            guard depth < 32, position < bytes.count else { return false }
            switch bytes[position] {
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                let close = bytes[position] == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]")
                let isObject = close == UInt8(ascii: "}")
                position += 1
                skipSpace()
                if take(close) { return true }
                repeat {
                    skipSpace()
                    if isObject {
                        guard string() != nil else { return false }
                        skipSpace()
                        guard take(UInt8(ascii: ":")) else { return false }
                        skipSpace()
                    }
                    guard skipValue(depth: depth + 1) else { return false }
                    skipSpace()
                } while take(UInt8(ascii: ","))
                return take(close)
            default:
                return value() != nil
            }
        }

        private mutating func end() -> Bool {
            skipSpace()
            return position == bytes.count
        }

        private mutating func value() -> Value? {
            guard position < bytes.count else { return nil }
            switch bytes[position] {
            case UInt8(ascii: "\""): return string().map(Value.string)
            case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
            case UInt8(ascii: "n"): return literal("null") ? .null : nil
            default: return number().map(Value.number)
            }
        }

        private mutating func number() -> Double? {
            let start = position
            while position < bytes.count, Self.isNumberByte(bytes[position]) { position += 1 }
            guard position > start, position - start <= 64,
                let value = Double(String(decoding: bytes[start..<position], as: UTF8.self)), value.isFinite
            else { return nil }
            return value
        }

        private mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
            // Most strings have no escapes: checked and decoded in one step.
            var end = position
            while end < bytes.count, bytes[end] != UInt8(ascii: "\""), bytes[end] != UInt8(ascii: "\\"), bytes[end] >= 0x20 { end += 1 }
            if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
                guard let text = String(validating: bytes[position..<end], as: UTF8.self) else { return nil }
                position = end + 1
                return text
            }
            var scalars = String.UnicodeScalarView()
            var utf8: [UInt8] = []
            func flush() -> Bool {
                guard !utf8.isEmpty else { return true }
                guard let text = String(validating: utf8, as: UTF8.self) else { return false }
                scalars.append(contentsOf: text.unicodeScalars)
                utf8.removeAll()
                return true
            }
            while position < bytes.count {
                let byte = bytes[position]
                position += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return flush() ? String(scalars) : nil
                case UInt8(ascii: "\\"):
                    guard flush(), position < bytes.count else { return nil }
                    let escape = bytes[position]
                    position += 1
                    switch escape {
                    case UInt8(ascii: "\""): scalars.append("\"")
                    case UInt8(ascii: "\\"): scalars.append("\\")
                    case UInt8(ascii: "/"): scalars.append("/")
                    case UInt8(ascii: "b"): scalars.append("\u{8}")
                    case UInt8(ascii: "f"): scalars.append("\u{C}")
                    case UInt8(ascii: "n"): scalars.append("\n")
                    case UInt8(ascii: "r"): scalars.append("\r")
                    case UInt8(ascii: "t"): scalars.append("\t")
                    case UInt8(ascii: "u"):
                        guard let scalar = unicodeEscape() else { return nil }
                        scalars.append(scalar)
                    default: return nil
                    }
                case 0..<0x20:
                    return nil
                default:
                    utf8.append(byte)
                }
            }
            return nil
        }

        /// The scalar of `XXXX` after `\u` (a surrogate pair takes two escapes).
        private mutating func unicodeEscape() -> Unicode.Scalar? {
            guard let high = hex4() else { return nil }
            if (0xD800...0xDBFF).contains(high) {
                guard take(UInt8(ascii: "\\")), take(UInt8(ascii: "u")), let low = hex4(), (0xDC00...0xDFFF).contains(low) else {
                    return nil
                }
                return Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
            }
            return Unicode.Scalar(high)
        }

        private mutating func hex4() -> UInt32? {
            guard position + 4 <= bytes.count,
                let value = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16)
            else { return nil }
            position += 4
            return value
        }

        private mutating func literal(_ word: String) -> Bool {
            let expected = Array(word.utf8)
            guard bytes[position...].starts(with: expected) else { return false }
            position += expected.count
            return true
        }

        private mutating func take(_ byte: UInt8) -> Bool {
            guard position < bytes.count, bytes[position] == byte else { return false }
            position += 1
            return true
        }

        private mutating func skipSpace() {
            while position < bytes.count,
                bytes[position] == 0x20 || bytes[position] == 0x09 || bytes[position] == 0x0D || bytes[position] == 0x0A
            {
                position += 1
            }
        }
    }
}
