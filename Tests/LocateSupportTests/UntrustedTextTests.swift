import LocateSupport
import Testing

/// One rule of what outside text may not show raw (`UntrustedText.isHidden`), applied the same
/// way by the text escaping (`visible`) and the JSON escaping (`FlatJSON`).
struct UntrustedTextTests {
    /// One scalar of each class a terminal does not show as itself, with the escape `visible`
    /// writes for it.
    static let hiddenClasses: [(class: String, scalar: Unicode.Scalar, escape: String)] = [
        ("C0 control", "\u{1B}", "\\u{1B}"), ("line feed", "\n", "\\u{0A}"), ("tab", "\t", "\\u{09}"),
        ("DEL", "\u{7F}", "\\u{7F}"), ("C1 control", "\u{9B}", "\\u{9B}"),
        ("bidirectional override", "\u{202E}", "\\u{202E}"), ("bidirectional isolate", "\u{2066}", "\\u{2066}"),
        ("Arabic letter mark", "\u{061C}", "\\u{61C}"), ("left-to-right mark", "\u{200E}", "\\u{200E}"),
        ("zero-width space", "\u{200B}", "\\u{200B}"), ("zero-width non-joiner", "\u{200C}", "\\u{200C}"),
        ("zero-width joiner", "\u{200D}", "\\u{200D}"), ("word joiner", "\u{2060}", "\\u{2060}"),
        ("invisible times", "\u{2062}", "\\u{2062}"), ("byte-order mark", "\u{FEFF}", "\\u{FEFF}"),
        ("soft hyphen", "\u{00AD}", "\\u{AD}"), ("Mongolian vowel separator", "\u{180E}", "\\u{180E}"),
        ("interlinear annotation anchor", "\u{FFF9}", "\\u{FFF9}"),
        ("combining grapheme joiner", "\u{034F}", "\\u{34F}"), ("variation selector 16", "\u{FE0F}", "\\u{FE0F}"),
        ("variation selector 17", "\u{E0100}", "\\u{E0100}"), ("Khmer inherent vowel", "\u{17B4}", "\\u{17B4}"),
        ("reserved default-ignorable", "\u{2065}", "\\u{2065}"),
        ("Hangul choseong filler", "\u{115F}", "\\u{115F}"), ("Hangul jungseong filler", "\u{1160}", "\\u{1160}"),
        ("Hangul filler", "\u{3164}", "\\u{3164}"), ("halfwidth Hangul filler", "\u{FFA0}", "\\u{FFA0}"),
        ("Braille pattern blank", "\u{2800}", "\\u{2800}"), ("musical null notehead", "\u{1D159}", "\\u{1D159}"),
        ("language tag", "\u{E0001}", "\\u{E0001}"), ("tag latin capital A", "\u{E0041}", "\\u{E0041}"),
        ("cancel tag", "\u{E007F}", "\\u{E007F}"), ("line separator", "\u{2028}", "\\u{2028}"),
        ("paragraph separator", "\u{2029}", "\\u{2029}"),
    ]

    @Test(arguments: hiddenClasses.indices)
    func everyClassOfHiddenScalarIsShownAsAnEscape(index: Int) {
        let (name, scalar, escape) = Self.hiddenClasses[index]
        let text = "a" + String(scalar) + "b"
        #expect(UntrustedText.isHidden(scalar), "\(name)")
        #expect(UntrustedText.hasHidden(text), "\(name)")
        #expect(UntrustedText.visible(text) == "a" + escape + "b", "\(name)")
        #expect(!UntrustedText.hasHidden(UntrustedText.visible(text)), "\(name)")
    }

    @Test(arguments: [
        "plain ASCII", "Reykjavík", "서울특별시", "東京都", "Αθήνα", "القاهرة", "दिल्ली", "e\u{301}", "a\u{A0}b", "a\u{3000}b", "😀", "🇰🇷",
        "100 %", "\\u{1B}",
    ])
    func visibleTextIsKeptAsItIs(text: String) {
        #expect(!UntrustedText.hasHidden(text))
        #expect(UntrustedText.visible(text) == text)
    }

    @Test func aStringMixingEveryClassWithTextKeepsTheText() {
        let hidden = Self.hiddenClasses.map { String($0.scalar) }.joined(separator: "x")
        let text = "home" + hidden + "Reykjavík\u{E0068}\u{E006F}\u{E006D}\u{E0065}\u{E007F}서울"
        let shown = UntrustedText.visible(text)
        #expect(!UntrustedText.hasHidden(shown))
        #expect(!shown.unicodeScalars.contains { UntrustedText.isHidden($0) })
        #expect(shown.hasPrefix("home\\u{1B}x\\u{0A}x"))
        #expect(shown.hasSuffix("Reykjavík\\u{E0068}\\u{E006F}\\u{E006D}\\u{E0065}\\u{E007F}서울"))
        #expect(shown.split(separator: "x").count == Self.hiddenClasses.count)
        // A cut keeps the text before it and adds nothing hidden.
        let cut = UntrustedText.visible(text, limit: 20)
        #expect(cut.count == 20 && cut.hasSuffix("…") && !UntrustedText.hasHidden(cut))
    }

    /// The rule covers the Unicode classes it names, whatever scalar of them: every control,
    /// format character, default-ignorable code point and separator, and no space or letter.
    @Test func theRuleCoversWholeUnicodeClasses() {
        var missed: [UInt32] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let properties = scalar.properties
            let mustHide: Bool
            switch properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator: mustHide = true
            default: mustHide = properties.isDefaultIgnorableCodePoint || properties.isBidiControl
            }
            if mustHide != UntrustedText.isHidden(scalar), ![0x2800, 0x1D159, 0x16FE4].contains(value) { missed.append(value) }
        }
        #expect(missed.isEmpty, "\(missed.prefix(20).map { String($0, radix: 16) })")
        #expect(!UntrustedText.isHidden(" ") && !UntrustedText.isHidden("\u{A0}") && !UntrustedText.isHidden("\u{3000}"))
    }

    @Test(arguments: hiddenClasses.indices)
    func jsonEscapesTheSameScalarsAndReadsThemBack(index: Int) throws {
        let (name, scalar, _) = Self.hiddenClasses[index]
        let text = "a" + String(scalar) + "b\u{E0041}c"
        var bytes = Array(#"{"k":"#.utf8)
        FlatJSON.appendQuoted(text, to: &bytes)
        bytes.append(UInt8(ascii: "}"))
        let json = String(decoding: bytes, as: UTF8.self)
        #expect(!json.unicodeScalars.contains { UntrustedText.isHidden($0) }, "\(name): \(json.debugDescription)")
        #expect(json.contains(#"b\udb40\udc41c"#), "a tag character is a surrogate pair: \(json)")
        #expect(FlatJSON.parse(bytes)?["k"] == .string(text), "\(name): the text itself is kept, escaped")
    }

    @Test func passedThroughJSONIsEscapedByTheSameRule() throws {
        let text = "x\u{200B}\u{2060}\u{FEFF}\u{E0041}\u{E007F}\u{3164}\u{2800}\u{202E}y"
        var value: [UInt8] = []
        FlatJSON.appendQuoted(text, to: &value)
        // Raw in the input (JSON allows any of them unescaped inside a string), escaped in the output.
        let raw = Array(("{\"a\":[\"" + text + "\"],\"b\":\"" + text + "\"}").utf8)
        var escaped: [UInt8] = []
        FlatJSON.appendEscapingHidden(raw[...], to: &escaped)
        let output = String(decoding: escaped, as: UTF8.self)
        #expect(!output.unicodeScalars.contains { UntrustedText.isHidden($0) }, "\(output.debugDescription)")
        let members = try #require(FlatJSON.members(of: escaped[...]))
        #expect(members.map(\.key) == ["a", "b"])
        #expect(FlatJSON.scalar(members[1].value) == .string(text))
        #expect(Array(members[1].value) == value, "the same escapes as a quoted string")
    }

    @Test func textFromFilesLosesOnlyTheFormattingScriptsUseInsideWords() {
        func shown(_ text: String) -> String? { UntrustedText.shownText(Array(text.utf8)[...]) }
        #expect(shown("Reykjavík") == "Reykjavík" && shown("Seoul") == "Seoul")
        #expect(shown("می\u{200C}خواهم") == "میخواهم", "Persian's non-joiner")
        #expect(shown("ක්\u{200D}ව") == "ක්ව" && shown("ཏེ་ཧི་རན\u{200B}།") == "ཏེ་ཧི་རན།" && shown("Bey\u{AD}rut") == "Beyrut")
        for hidden in ["a\u{2060}b", "\u{FEFF}a", "a\u{E0041}", "a\u{202E}b", "\u{3164}", "a\u{1B}b", "a\u{2028}b", "\u{200B}"] {
            #expect(shown(hidden) == nil, "\(hidden.unicodeScalars.map { String($0.value, radix: 16) })")
        }
        #expect(UntrustedText.shownText([0x61, 0xFF][...]) == nil, "not UTF-8")
    }
}
