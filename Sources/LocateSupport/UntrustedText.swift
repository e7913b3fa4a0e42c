/// Text from outside `locate` (arguments, the environment, files, gpsd), made safe to show.
///
/// Showing text on a terminal runs the escape sequences in it: a purpose or a device path from
/// gpsd could clear the screen, repaint the permission prompt or reorder what follows (a
/// bidirectional override). Text can also hide in plain sight: a zero-width space, a word joiner,
/// a byte-order mark or a run of tag characters shows as nothing, so two paths or names that
/// look the same differ, or a message carries words no one sees. Every message and record that
/// carries outside text passes through `visible(_:)` first (JSON through `FlatJSON`, which
/// escapes the same scalars): `isHidden(_:)` is the one rule of what is shown as an escape.
public enum UntrustedText {
    /// `text` with every hidden scalar (see `isHidden(_:)`) written out as `\u{XX}`: controls
    /// (line breaks and tabs included), format characters (bidirectional formatting, zero-width
    /// spaces and joiners, the byte-order mark, tag characters), the other default-ignorable
    /// code points (variation selectors, the Hangul fillers), blank fillers such as the blank
    /// Braille pattern, and the line and paragraph separators. Everything else is kept, so plain
    /// text is unchanged.
    public static func visible(_ text: String) -> String {
        guard hasHidden(text) else { return text }
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
    public static func visible(_ text: String, limit: Int) -> String {
        let shown = visible(text)
        return shown.count <= limit ? shown : String(shown.prefix(max(0, limit - 1))) + "…"
    }

    /// Whether `text` has a scalar that `visible(_:)` would write out (see `isHidden(_:)`).
    package static func hasHidden(_ text: String) -> Bool {
        // Printable ASCII, most text, is decided on its bytes.
        guard text.utf8.contains(where: { $0 < 0x20 || $0 >= 0x7F }) else { return false }
        return text.unicodeScalars.contains(where: isHidden)
    }

    /// The text in `bytes` when they are valid UTF-8 with nothing `visible(_:)` would write out,
    /// else `nil`: the one check for text read from files (place names and their translations).
    /// The format characters scripts use inside words (zero-width space, non-joiner and joiner,
    /// the soft hyphen: Tibetan, Khmer, Persian and Indic names in the translation catalogues
    /// have them) are taken out first, so such a name is shown, legible and with nothing hidden,
    /// rather than dropped (a text of nothing else is `nil`). Printable ASCII, most of it, is
    /// taken without decoding twice.
    package static func shownText(_ bytes: ArraySlice<UInt8>) -> String? {
        if bytes.allSatisfy({ (0x20..<0x7F).contains($0) }) { return String(decoding: bytes, as: UTF8.self) }
        guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
        guard hasHidden(text) else { return text }
        var kept = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where !isInWordFormatting(scalar) {
            guard !isHidden(scalar) else { return nil }
            kept.append(scalar)
        }
        return kept.isEmpty ? nil : String(kept)
    }

    /// A scalar a terminal does not show as itself: it acts on what follows, or shows as
    /// nothing (or as a blank that is not a space). That is
    /// - a control (general category Cc: C0 controls, DEL, C1 controls);
    /// - a format character (Cf): the bidirectional formatting characters (Bidi_Control), the
    ///   zero-width space, non-joiner and joiner, the word joiner and invisible operators
    ///   (U+2060…U+2064), the byte-order mark (U+FEFF), the soft hyphen, the interlinear
    ///   annotation characters, the tag characters (U+E0001, U+E0020…U+E007F) and the rest;
    /// - any other default-ignorable code point (Default_Ignorable_Code_Point): variation
    ///   selectors, the combining grapheme joiner, the Hangul fillers U+115F, U+1160, U+3164
    ///   and U+FFA0, and the code points Unicode reserves for more of them;
    /// - a blank filler that is none of those but shows as an empty cell: U+2800 BRAILLE
    ///   PATTERN BLANK, U+1D159 MUSICAL SYMBOL NULL NOTEHEAD, U+16FE4 KHITAN SMALL SCRIPT FILLER;
    /// - the line and paragraph separators (Zl, Zp).
    ///
    /// Spaces (Zs) are not hidden: they show as the space they are.
    package static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x20..<0x7F: return false
        case 0x00..<0x20, 0x7F...0x9F: return true
        case 0x2800, 0x1D159, 0x16FE4: return true  // blank fillers, shown as an empty cell
        default:
            let properties = scalar.properties
            switch properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator: return true
            default: return properties.isDefaultIgnorableCodePoint || properties.isBidiControl
            }
        }
    }

    /// The format characters that scripts use inside words, which `shownText(_:)` takes out.
    private static func isInWordFormatting(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00AD, 0x200B, 0x200C, 0x200D: true
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
