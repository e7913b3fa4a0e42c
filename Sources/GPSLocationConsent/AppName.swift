import GPSLocation

/// The name of an app whose permission applies (`--app`, `LOCATE_APP`, `[app "NAME"]`).
///
/// A strict charset, so a name can never change the meaning of the settings file it is written
/// to nor of a terminal it is shown on: 1 to 64 ASCII letters, digits, `.`, `_` and `-`,
/// starting with a letter or a digit.
struct AppName: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The name.
    let rawValue: String

    /// The longest name.
    static let maximumLength = 64

    /// Checks `text` as an app name.
    /// - Throws: `GPSLocationError.invalidAppName` when it is empty, too long, or has a
    ///   character outside the charset.
    init(_ text: String) throws(GPSLocationError) {
        let allowed = { (byte: UInt8) in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: "-")
        }
        let bytes = Array(text.utf8)
        guard (1...Self.maximumLength).contains(bytes.count), bytes.allSatisfy(allowed),
            let first = bytes.first, first != UInt8(ascii: "."), first != UInt8(ascii: "_"), first != UInt8(ascii: "-")
        else {
            throw .invalidAppName(text: text)
        }
        rawValue = text
    }

    /// The name itself.
    var description: String { rawValue }

    /// Names in code-point order, as `locate permission status` lists them.
    static func < (lhs: AppName, rhs: AppName) -> Bool { lhs.rawValue < rhs.rawValue }
}
