/// The one JSON reader and quoting of the libraries and the command (`package`): one object on
/// one line, with scalar members (what `locate` writes in records, status events and the
/// last-fix cache, and reads back from the cache), and, in gpsd's replies, the first object of a
/// member's array, found by skipping nested values. Strict and bounded, so hostile bytes are an
/// error, never a crash or a long wait.
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
        guard let range = reader.firstObject(inArray: key) else { return nil }
        return bytes[(bytes.startIndex + range.lowerBound)..<(bytes.startIndex + range.upperBound)]
    }

    /// Appends `text` as a JSON string literal (RFC 8259): quotes, backslashes and control
    /// characters escaped.
    package static func appendQuoted(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                bytes += [UInt8(ascii: "\\"), byte]
            case UInt8(ascii: "\n"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case UInt8(ascii: "\r"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case UInt8(ascii: "\t"): bytes += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case 0..<0x20:
                bytes += Array("\\u00".utf8)
                bytes += [hexDigit(byte >> 4), hexDigit(byte & 0xF)]
            default:
                bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }

    private struct Reader {
        let bytes: [UInt8]
        var position = 0

        mutating func object() -> [String: Value]? {
            skipSpace()
            guard take(UInt8(ascii: "{")) else { return nil }
            var members: [String: Value] = [:]
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

        /// The range of the first object of the array member `key` of the object at the start.
        mutating func firstObject(inArray key: String) -> Range<Int>? {
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
                    skipSpace()
                    let start = position
                    guard position < bytes.count, bytes[position] == UInt8(ascii: "{"), skipValue(depth: 0) else { return nil }
                    return start..<position
                }
                guard skipValue(depth: 0) else { return nil }
                skipSpace()
            } while take(UInt8(ascii: ","))
            return nil
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
            while position < bytes.count, "+-.eE0123456789".utf8.contains(bytes[position]) { position += 1 }
            guard position > start, position - start <= 64,
                let value = Double(String(decoding: bytes[start..<position], as: UTF8.self)), value.isFinite
            else { return nil }
            return value
        }

        private mutating func string() -> String? {
            guard take(UInt8(ascii: "\"")) else { return nil }
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
            while position < bytes.count, " \t\r\n".utf8.contains(bytes[position]) { position += 1 }
        }
    }
}
