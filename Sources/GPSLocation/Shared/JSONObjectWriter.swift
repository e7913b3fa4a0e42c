/// Writes one flat JSON object straight into bytes, members in the order they are added: the one
/// way JSON is written (records, status events, settings answers, the last-fix cache).
package struct JSONObjectWriter {
    private var bytes: [UInt8] = [UInt8(ascii: "{")]
    private var isEmpty = true

    package init() {}

    /// `"key":`, quoted once, for a key written many times (a record field).
    package static func encodedKey(_ key: String) -> [UInt8] {
        var bytes: [UInt8] = []
        FlatJSON.appendQuoted(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        return bytes
    }

    /// Adds a member under a key from `encodedKey(_:)`; `appendValue` appends the value's JSON text.
    package mutating func add(encodedKey: [UInt8], value appendValue: (inout [UInt8]) -> Void) {
        if !isEmpty { bytes.append(UInt8(ascii: ",")) }
        isEmpty = false
        bytes += encodedKey
        appendValue(&bytes)
    }

    /// Adds a member; `appendValue` appends the value's JSON text.
    package mutating func add(_ key: String, value appendValue: (inout [UInt8]) -> Void) {
        add(encodedKey: Self.encodedKey(key), value: appendValue)
    }

    /// Adds a member whose value is already JSON text (a number, `true`, `null`).
    package mutating func add(_ key: String, json value: String) {
        add(key) { $0 += value.utf8 }
    }

    /// Adds a string member, or `null`.
    package mutating func add(_ key: String, string value: String?) {
        add(key) { bytes in
            if let value { FlatJSON.appendQuoted(value, to: &bytes) } else { bytes += "null".utf8 }
        }
    }

    /// Adds a boolean member.
    package mutating func add(_ key: String, bool value: Bool) {
        add(key, json: value ? "true" : "false")
    }

    /// Appends the finished object and a newline to `output` (one JSON Lines record).
    package func appendLine(to output: inout [UInt8]) {
        output += bytes
        output += [UInt8(ascii: "}"), UInt8(ascii: "\n")]
    }

    /// The finished object.
    package var text: String { String(decoding: bytes + [UInt8(ascii: "}")], as: UTF8.self) }
}
