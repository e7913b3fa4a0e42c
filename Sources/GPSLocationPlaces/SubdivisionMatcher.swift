import GPSLocation
import LocateSupport

/// Which ISO 3166-2 subdivision each of libgeonames' first-level divisions is, so that a state
/// libgeonames does not translate can be translated by iso-codes' catalogues (keyed by the ISO
/// name). GeoNames' division codes are not ISO's (Bavaria is `DE.02`, ISO `DE-BY`), and neither
/// are its English names ("Bavaria", ISO "Bayern"), so the two are matched by all the names each
/// has in the languages both have catalogues for: `DE.02` is "Bayern" in libgeonames' German
/// catalogue, which is `DE-BY`'s ISO name. A match needs a name in common; the most whole names
/// in common wins, then the most names in common without their generic words ("Province",
/// "Oblast", "-do": "Jiangsu" is "Jiangsu Sheng", but "Moscow Oblast" is not "Moscow"); a tie
/// goes to a first-level subdivision, then to the one with the same code; a tie after that is
/// no match.
enum SubdivisionMatcher {
    /// A first-level division as libgeonames has it.
    struct Division: Hashable, Sendable {
        let countryCode: String
        let code: String
        let name: String

        /// Its key in libgeonames' catalogues, `CC.code`.
        var catalogKey: String { countryCode + "." + code }
    }

    /// The ISO name of the subdivision each division is (by catalogue key), for those matched.
    static func match(
        _ divisions: Set<Division>, iso: ISOCodes, localeDirectory: String = GettextCatalog.localeDirectory
    ) -> [String: String] {
        // Every name of each division and subdivision, as bytes, checked when they are folded.
        var divisionNames: [[UInt8]: Set<[UInt8]>] = [:]
        for division in divisions { divisionNames[Array(division.catalogKey.utf8)] = [Array(division.name.utf8)] }
        var isoNames: [[UInt8]: Set<[UInt8]>] = [:]
        for subdivision in iso.subdivisions.values.joined() { isoNames[Array(subdivision.name.utf8)] = [Array(subdivision.name.utf8)] }
        for language in GettextCatalog.languages(domain: "iso_3166-2", directory: localeDirectory) {
            for (domain, first) in [("geonames", UInt8(ascii: "A")...UInt8(ascii: "Z")), ("iso_3166-2", 1...255)] {
                guard let catalog = GettextCatalog.load(domain: domain, language: language, directory: localeDirectory) else { continue }
                let isGeonames = domain == "geonames"
                for entry in catalog.entries(startingWith: first) {
                    let key = Array(entry.key)
                    if isGeonames {
                        divisionNames[key]?.insert(Array(entry.translation))
                    } else {
                        isoNames[key]?.insert(Array(entry.translation))
                    }
                }
            }
        }
        var matched: [String: String] = [:]
        var divisionsByCountry: [String: [Division]] = [:]
        for division in divisions { divisionsByCountry[division.countryCode, default: []].append(division) }
        for (countryCode, countryDivisions) in divisionsByCountry {
            guard let candidates = iso.subdivisions[countryCode] else { continue }
            // Which candidates have each form, whole and core.
            var wholeOwners: [[UInt8]: [Int]] = [:]
            var coreOwners: [[UInt8]: [Int]] = [:]
            for (index, candidate) in candidates.enumerated() {
                let forms = Forms(isoNames[Array(candidate.name.utf8)] ?? [])
                for form in forms.whole { wholeOwners[form, default: []].append(index) }
                for form in forms.cores { coreOwners[form, default: []].append(index) }
            }
            for division in countryDivisions {
                let forms = Forms(divisionNames[Array(division.catalogKey.utf8)] ?? [])
                var scores: [Int: (whole: Int, core: Int)] = [:]
                for form in forms.whole { for index in wholeOwners[form] ?? [] { scores[index, default: (0, 0)].whole += 1 } }
                for form in forms.cores { for index in coreOwners[form] ?? [] { scores[index, default: (0, 0)].core += 1 } }
                var best: (rank: [Int], name: String)?
                var isTied = false
                for (index, score) in scores {
                    let candidate = candidates[index]
                    let rank = [
                        score.whole, score.core, candidate.isFirstLevel ? 1 : 0,
                        candidate.code == countryCode + "-" + division.code ? 1 : 0,
                    ]
                    if let current = best, rank.lexicographicallyPrecedes(current.rank) { continue }
                    isTied = best.map { $0.rank == rank && $0.name != candidate.name } ?? false
                    best = (rank, candidate.name)
                }
                if let best, !isTied { matched[division.catalogKey] = best.name }
            }
        }
        return matched
    }

    /// A place's names compared two ways: whole (folded, words joined by one space) and without
    /// their generic words, as UTF-8.
    private struct Forms {
        var whole = Set<[UInt8]>()
        var cores = Set<[UInt8]>()

        /// The forms of `names`; a name that is not valid text is left out.
        init(_ names: Set<[UInt8]>) {
            for name in names {
                guard let text = UntrustedText.shownText(name[...]) else { continue }
                let words = Self.words(text)
                if !words.isEmpty { whole.insert(Array(words.joined(separator: [UInt8(ascii: " ")]))) }
                let core = words.filter { !Self.genericWords.contains($0) }
                if !core.isEmpty { cores.insert(Array(core.joined(separator: [UInt8(ascii: " ")]))) }
            }
        }

        /// The words of `name`, folded as place names are (`PlaceNameFolding`), apostrophes
        /// dropped ("Arhangel'skaja" is one word).
        static func words(_ name: String) -> [[UInt8]] {
            var words: [[UInt8]] = []
            var word: [UInt8] = []
            func endWord() {
                if !word.isEmpty { words.append(word) }
                word.removeAll(keepingCapacity: true)
            }
            for scalar in String(decoding: PlaceNameFolding.fold(name), as: UTF8.self).unicodeScalars {
                if scalar.isASCII {
                    let byte = UInt8(scalar.value)
                    if (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
                        word.append(byte)
                    } else if byte != UInt8(ascii: "'") && byte != UInt8(ascii: "`") {
                        endWord()
                    }
                } else if scalar == "’" || scalar == "ʼ" {
                    continue
                } else if scalar.properties.isAlphabetic || scalar.properties.numericType != nil
                    || [.nonspacingMark, .spacingMark, .enclosingMark].contains(scalar.properties.generalCategory)
                {
                    word += String(scalar).utf8
                } else {
                    endWord()
                }
            }
            endWord()
            return words
        }

        /// Words that say what kind of division a name is, in the languages and romanizations
        /// the names come in.
        static let genericWords: Set<[UInt8]> = Set(
            [
                "province", "provincia", "region", "regione", "state", "estado", "oblast", "oblasti", "prefecture",
                "county", "governorate", "department", "departement", "departamento", "district", "municipality", "city", "of",
                "the", "autonomous", "autonoma", "republic", "respublika", "kray", "krai", "kraj", "okrug", "voivodeship",
                "capital", "territory", "special", "administrative", "metropolitan", "federal", "do", "si", "teukbyeolsi",
                "gwangyeoksi", "teukbyeoljachido", "gun", "parish", "division", "emirate", "sheng", "shi", "zizhiqu", "wilayah",
                "wilaya", "ostan", "vilayat", "rayon", "canton", "kanton", "land", "comunidad", "community", "de", "du", "des",
                "la", "le", "el", "al", "and", "et", "y", "i", "e", "zone", "area",
            ].map { Array($0.utf8) })
    }
}
