import GPSLocation
import LocateSupport

/// One gettext catalogue (`.mo`), read directly: libgeonames' (`geonames.mo`, keyed by GeoNames
/// identifiers) and iso-codes' (`iso_3166-1.mo`, `iso_3166-2.mo`, keyed by the English ISO
/// names).
///
/// Reading the files here instead of through gettext means `locate` never calls `setlocale`: the
/// language of names cannot change how numbers are read or written, and a host program's locale
/// is not touched. The file is checked like any input: an entry out of bounds, not UTF-8 or with
/// control characters is no translation.
struct GettextCatalog: Sendable {
    /// Where the system's catalogues are.
    static let localeDirectory = "/usr/share/locale"

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

    /// The catalogue of `domain` for `language` (`ko`, `pt_BR`), or `nil` when there is none.
    static func load(domain: String, language: String, directory: String = localeDirectory) -> GettextCatalog? {
        guard !language.isEmpty, language.utf8.allSatisfy({ $0 != UInt8(ascii: "/") }), language != "..", language != "." else {
            return nil
        }
        let path = directory + "/" + language + "/LC_MESSAGES/" + domain + ".mo"
        guard let bytes = try? TrustedFile.read(path, owner: .anyone, limit: 16 << 20) else { return nil }
        return GettextCatalog(bytes: bytes)
    }

    /// The catalogue languages to look in for `languages`, most preferred first, as gettext
    /// would: for `pt_BR`, `pt_BR` then `pt`.
    static func searchOrder(_ languages: [String]) -> [String] {
        var names: [String] = []
        for language in languages {
            for name in [language, String(language.prefix { $0 != "_" })] where !names.contains(name) {
                names.append(name)
            }
        }
        return names
    }

    /// The languages that have a catalogue of `domain`.
    static func languages(domain: String, directory: String = localeDirectory) -> [String] {
        let names = (try? DirectoryHandle(path: directory, create: false, isPrivate: false))?.names() ?? []
        return names.sorted().filter { name in
            guard !name.hasPrefix(".") else { return false }
            return !FileSignature(path: directory + "/" + name + "/LC_MESSAGES/" + domain + ".mo").file.isMissing
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
            case 0: return translation(at: middle)
            case ..<0: low = middle + 1
            default: high = middle
            }
        }
        return nil
    }

    /// The bytes of every entry whose key starts with a byte in `first` (keys are sorted, so
    /// they are together) and of its translation, unchecked: the caller checks what it uses.
    func entries(startingWith first: ClosedRange<UInt8>) -> [(key: ArraySlice<UInt8>, translation: ArraySlice<UInt8>)] {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            guard let original = entry(table: originals, index: middle) else { return [] }
            if original.isEmpty || bytes[original.lowerBound] < first.lowerBound { low = middle + 1 } else { high = middle }
        }
        var found: [(key: ArraySlice<UInt8>, translation: ArraySlice<UInt8>)] = []
        for index in low..<count {
            guard let original = entry(table: originals, index: index), let byte = original.first.map({ bytes[$0] }),
                first.contains(byte)
            else { break }
            guard let translated = entry(table: translations, index: index), !translated.isEmpty else { continue }
            found.append((bytes[original], bytes[translated]))
        }
        return found
    }

    private func translation(at index: Int) -> String? {
        guard let translated = entry(table: translations, index: index), !translated.isEmpty else { return nil }
        return UntrustedText.shownText(bytes[translated])
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
