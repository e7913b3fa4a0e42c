/// Writes one flat JSON object straight into bytes, members in the order they are added: the one
/// way JSON is written (records, status events, settings answers, the last-fix cache).
///
/// A record stream writes into its output buffer in place: `init(appendingTo:)` takes the buffer
/// over (the caller leaves its own variable empty, so the buffer is not copied) and `finishLine()`
/// hands it back with the object and a line end appended.
package struct JSONObjectWriter {
    private var bytes: [UInt8]
    private var isEmpty = true

    /// A new object on its own.
    package init() {
        bytes = [UInt8(ascii: "{")]
    }

    /// An object appended to `bytes`, which the writer holds until `finishLine()`.
    package init(appendingTo bytes: [UInt8]) {
        self.bytes = bytes
        self.bytes.append(UInt8(ascii: "{"))
    }

    /// Adds a member; `appendValue` appends the value's JSON text.
    package mutating func add(_ key: String, value appendValue: (inout [UInt8]) -> Void) {
        startMember()
        FlatJSON.appendQuoted(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendValue(&bytes)
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

    /// The bytes given to `init(appendingTo:)` (or none), the object and a line end (one JSON
    /// Lines record).
    package consuming func finishLine() -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// The finished object, for an object made on its own.
    package var text: String { String(decoding: bytes + [UInt8(ascii: "}")], as: UTF8.self) }

    private mutating func startMember() {
        if !isEmpty { bytes.append(UInt8(ascii: ",")) }
        isEmpty = false
    }
}
