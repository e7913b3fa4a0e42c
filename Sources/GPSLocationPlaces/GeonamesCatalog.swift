import GPSLocation

/// One language's translations of libgeonames' names: its gettext catalogue
/// (`/usr/share/locale/LANG/LC_MESSAGES/geonames.mo`, from libgeonames-common), read directly.
///
/// The keys are GeoNames identifiers: a place's id for its name (`1835848` → 서울특별시), `CC.code`
/// for a first-level division (`KR.11`), `CC` for a country (`KR` → 대한민국). Reading the file
/// here instead of through gettext means `locate` never calls `setlocale`: the language of names
/// cannot change how numbers are read or written, and a host program's locale is not touched.
/// The file is checked like any input: an entry out of bounds, not UTF-8 or with control
/// characters is no translation.
struct GeonamesCatalog: Sendable {
    private let bytes: [UInt8]
    private let isBigEndian: Bool
    private let count: Int
    private let originals: Int
    private let translations: Int

    /// The catalogue in `bytes`, or `nil` when they are not a gettext catalogue.
    init?(bytes: [UInt8]) {
        guard bytes.count >= 28 else { return nil }
        switch (bytes[0], bytes[1], bytes[2], bytes[3]) {
        case (0xde, 0x12, 0x04, 0x95): isBigEndian = false
        case (0x95, 0x04, 0x12, 0xde): isBigEndian = true
        default: return nil
        }
        let count = ByteWords.word(bytes, at: 8, bigEndian: isBigEndian)
        let originals = ByteWords.word(bytes, at: 12, bigEndian: isBigEndian)
        let translations = ByteWords.word(bytes, at: 16, bigEndian: isBigEndian)
        guard count <= 1_000_000, originals <= bytes.count - count * 8, translations <= bytes.count - count * 8 else { return nil }
        self.bytes = bytes
        self.count = count
        self.originals = originals
        self.translations = translations
    }

    /// The catalogues for `languages`, most preferred first, as gettext would pick them: for
    /// `pt_BR`, `pt_BR` then `pt`. Languages without a catalogue are skipped.
    static func load(languages: [String], directory: String = "/usr/share/locale") -> [GeonamesCatalog] {
        var names: [String] = []
        for language in languages {
            for name in [language, String(language.prefix { $0 != "_" })] where !names.contains(name) {
                names.append(name)
            }
        }
        return names.compactMap { name in
            guard name.utf8.allSatisfy({ $0 != UInt8(ascii: "/") }), name != "..", name != "." else { return nil }
            let path = directory + "/" + name + "/LC_MESSAGES/geonames.mo"
            guard let bytes = try? TrustedFile.read(path, owner: .anyone, limit: 16 << 20) else { return nil }
            return GeonamesCatalog(bytes: bytes)
        }
    }

    /// The translation of `key`, or `nil` when the catalogue has none.
    func translation(of key: String) -> String? {
        let wanted = Array(key.utf8)
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            guard let original = entry(table: originals, index: middle) else { return nil }
            switch compare(original, wanted) {
            case 0:
                guard let translated = entry(table: translations, index: middle), !translated.isEmpty,
                    let text = String(validating: bytes[translated], as: UTF8.self),
                    !UntrustedText.hasHidden(text)
                else { return nil }
                return text
            case ..<0: low = middle + 1
            default: high = middle
            }
        }
        return nil
    }

    private func entry(table: Int, index: Int) -> Range<Int>? {
        let length = word(at: table + index * 8)
        let offset = word(at: table + index * 8 + 4)
        guard offset <= bytes.count, length <= bytes.count - offset else { return nil }
        return offset..<(offset + length)
    }

    private func compare(_ range: Range<Int>, _ wanted: [UInt8]) -> Int {
        for (position, byte) in zip(range, wanted) where bytes[position] != byte {
            return Int(bytes[position]) - Int(byte)
        }
        return range.count - wanted.count
    }

    private func word(at offset: Int) -> Int {
        ByteWords.word(bytes, at: offset, bigEndian: isBigEndian)
    }
}
