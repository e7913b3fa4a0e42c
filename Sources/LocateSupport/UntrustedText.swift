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
        guard hasHidden(text) else { return String(text) }
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

    /// Whether `text` has a scalar that `visible(_:)` would write out (a control, a bidirectional
    /// override, a line separator).
    package static func hasHidden(_ text: some StringProtocol) -> Bool {
        text.unicodeScalars.contains(where: isHidden)
    }

    /// The text in `bytes` when they are valid UTF-8 with nothing `visible(_:)` would write out,
    /// else `nil`: the one check for text read from files. Printable ASCII, most of it, is taken
    /// without decoding twice.
    package static func shownText(_ bytes: ArraySlice<UInt8>) -> String? {
        if bytes.allSatisfy({ (0x20..<0x7F).contains($0) }) { return String(decoding: bytes, as: UTF8.self) }
        guard let text = String(validating: bytes, as: UTF8.self), !hasHidden(text) else { return nil }
        return text
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

extension String {
    /// The string with `0`s in front up to `width` characters.
    func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
