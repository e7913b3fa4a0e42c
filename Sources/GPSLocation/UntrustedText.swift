/// Text from outside `locate` (arguments, the environment, files, gpsd), made safe to show.
///
/// Showing text on a terminal runs the escape sequences in it: a purpose or a device path from
/// gpsd could clear the screen, repaint the permission prompt or reorder what follows (a
/// bidirectional override). Every message and record that carries outside text passes through
/// `visible(_:)` first.
public enum UntrustedText {
    /// `text` with every control character written out as `\u{XX}`: C0 controls (line breaks
    /// and tabs included), DEL, C1 controls, bidirectional formatting characters and the line and
    /// paragraph separators. Everything else is kept, so plain text is unchanged.
    public static func visible(_ text: some StringProtocol) -> String {
        guard text.unicodeScalars.contains(where: isHidden) else { return String(text) }
        var result = ""
        for scalar in text.unicodeScalars {
            if isHidden(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true).leftPadded(to: 2) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// `visible(text)`, cut to at most `limit` characters (the cut marked with `…`).
    public static func visible(_ text: some StringProtocol, limit: Int) -> String {
        let shown = visible(text)
        return shown.count <= limit ? shown : String(shown.prefix(max(0, limit - 1))) + "…"
    }

    /// A scalar that changes how a terminal shows what follows instead of showing itself.
    package static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true  // bidirectional formatting
        case 0x2028, 0x2029: true  // line and paragraph separators
        default: false
        }
    }
}

/// The name of an app whose permission applies (`--app`, `LOCATE_APP`, `[app "NAME"]`).
///
/// A strict charset, so a name can never change the meaning of the settings file it is written
/// to nor of a terminal it is shown on: 1 to 64 ASCII letters, digits, `.`, `_` and `-`,
/// starting with a letter or a digit.
public struct AppName: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The name.
    public let rawValue: String

    /// The longest name.
    public static let maximumLength = 64

    /// Checks `text` as an app name.
    /// - Throws: `InvalidNameError` when it is empty, too long, or has a character outside the charset.
    public init(_ text: String) throws(InvalidNameError) {
        let allowed = { (byte: UInt8) in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: "-")
        }
        let bytes = Array(text.utf8)
        guard (1...Self.maximumLength).contains(bytes.count), bytes.allSatisfy(allowed),
              let first = bytes.first, first != UInt8(ascii: "."), first != UInt8(ascii: "_"), first != UInt8(ascii: "-") else {
            throw InvalidNameError(text: text)
        }
        rawValue = text
    }

    /// The name itself.
    public var description: String { rawValue }

    /// Names in code-point order, as `locate permission status` lists them.
    public static func < (lhs: AppName, rhs: AppName) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// A name that is not a valid `AppName`.
public struct InvalidNameError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The text as given (shown made visible).
    public var text: String

    /// Creates an error for `text`.
    public init(text: String) {
        self.text = text
    }

    /// What is wrong and what a name may be.
    public var description: String {
        "'\(UntrustedText.visible(text, limit: 80))' is not an app name (expected 1 to \(AppName.maximumLength) ASCII letters, digits, '.', '_' or '-', starting with a letter or digit)"
    }
}

extension String {
    /// The string with `0`s in front up to `width` characters.
    func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
