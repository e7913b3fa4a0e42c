import GPSLocation
import LocateSupport

/// A named place, as `CLPlacemark` gives one: a city (or town) of at least about 15,000 people,
/// its first-level division, its country and its time zone, from the system's offline data.
///
/// Names are in the language the ``PlaceFinder`` was made for, where libgeonames' or
/// iso-codes' catalogues have a translation, and in English otherwise.
public struct Placemark: Sendable, Hashable {
    /// The city or town, such as "Seoul" or "서울특별시"; `nil` for a coordinate farther than
    /// ``PlaceFinder/cityRange`` from any place, whose state, country and time zone are then the
    /// nearest place's (and ``distance`` how far that place is).
    public var city: String?
    /// The first-level division (state, province, region), such as "Île-de-France Region";
    /// `nil` when the data has none.
    public var state: String?
    /// The country, as the data names it ("Republic of Korea", "대한민국"); `nil` at sea (a
    /// coordinate in no country's borders nor its territorial waters), where the placemark is
    /// the nearest place on land.
    public var country: String?
    /// The ISO 3166-1 alpha-2 code of the country, such as "KR" (`XK` for Kosovo); `nil` at sea.
    public var countryCode: String?
    /// The IANA time zone identifier, such as "Asia/Seoul".
    public var timeZone: String
    /// The place's own latitude (its centre point in the data; the nearest place's when
    /// ``city`` is `nil`), in degrees.
    public var latitude: Double
    /// The place's own longitude, in degrees.
    public var longitude: Double
    /// The place's population in the data (0 for a principal city of tzdata, which has none).
    public var population: Int
    /// The great-circle distance in metres from the coordinate that was looked up to the place's
    /// own coordinate; `nil` for a place found by name.
    public var distance: Double?

    /// "City, state, country", with a part left out when it is unknown or repeats the one
    /// before it (the city-state "Seoul, Seoul" is "Seoul, Republic of Korea"; far from any
    /// city, "Krasnoyarsk Krai, Russia").
    public var formatted: String {
        var parts: [String] = []
        for part in [city, state, country].compactMap({ $0 }) where !part.isEmpty && part != parts.last {
            parts.append(part)
        }
        var text = ""
        for part in parts {
            text += text.isEmpty ? part : ", " + part
        }
        return text
    }
}

/// The language of place names: libgeonames' translations for a list of languages, most
/// preferred first, or English.
public struct PlaceLanguage: Sendable, Hashable {
    /// Language names as gettext's `LANGUAGE` has them (`ko`, `pt_BR`); empty for English.
    public let languages: [String]

    /// Names in `languages`, most preferred first (the first eight); names that are not a plain
    /// language name (letters, digits, `_`, `-`) are ignored.
    public init(languages: [String]) {
        self.languages = languages.prefix(Self.maximumLanguages).filter { language in
            !language.isEmpty && language.count <= 32
                && language.unicodeScalars.allSatisfy {
                    $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-")
                }
        }
    }

    /// English, the data's own names (`--lang C`).
    public static let english = PlaceLanguage(languages: [])

    /// The most languages taken from a list: gettext's own lists are a few names long.
    static let maximumLanguages = 8

    /// The user's language as gettext would choose it: `LANGUAGE` (a colon-separated list), or
    /// else the first of `LC_ALL`, `LC_MESSAGES` and `LANG` that is set (`ko_KR.UTF-8` gives
    /// `ko_KR`, then `ko`). "C" and "POSIX" mean English. Unlike gettext, `LANGUAGE` counts even
    /// when the locale is "C", so `LANGUAGE=ko` alone is enough.
    public static func environment(_ environment: [String: String]) -> PlaceLanguage {
        self.environment(EnvironmentVariables(environment))
    }

    /// `environment(_:)`, for variables looked up one at a time.
    static func environment(_ environment: EnvironmentVariables) -> PlaceLanguage {
        if let list = environment["LANGUAGE"], !list.isEmpty {
            return PlaceLanguage(languages: list.split(separator: ":").map(String.init))
        }
        let locale = ["LC_ALL", "LC_MESSAGES", "LANG"].lazy.compactMap { environment[$0] }.first { !$0.isEmpty } ?? "C"
        return Self.locale(locale) ?? .english
    }

    /// The language of a locale name as the C library names locales,
    /// `language[_TERRITORY][.codeset][@modifier]` (`de_DE.UTF-8`, `sr_RS@latin`, `ko`), its
    /// language part used; `C` and `POSIX` (`C.UTF-8` too) are English. `nil` for text that is
    /// not a locale name.
    public static func locale(_ name: String) -> PlaceLanguage? {
        func all(_ text: Substring, _ allowed: (UInt8) -> Bool) -> Bool { text.utf8.allSatisfy(allowed) }
        let letter = { (byte: UInt8) in (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) }
        let word = { (byte: UInt8) in
            letter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
        var rest = Substring(name)
        if let at = rest.firstIndex(of: "@") {
            guard all(rest[rest.index(after: at)...], word), rest.index(after: at) < rest.endIndex else { return nil }
            rest = rest[..<at]
        }
        if let dot = rest.firstIndex(of: ".") {
            guard all(rest[rest.index(after: dot)...], word), rest.index(after: dot) < rest.endIndex else { return nil }
            rest = rest[..<dot]
        }
        if rest == "C" || rest == "POSIX" { return .english }
        let parts = rest.split(separator: "_", maxSplits: 1, omittingEmptySubsequences: false)
        guard let language = parts.first, (2...3).contains(language.count), all(language, letter),
            parts.count == 1 || (1...8).contains(parts[1].count) && all(parts[1], word)
        else { return nil }
        return PlaceLanguage(languages: [String(rest)])
    }

    /// The language of this process's environment.
    public static var current: PlaceLanguage { environment(EnvironmentVariables.process) }
}
