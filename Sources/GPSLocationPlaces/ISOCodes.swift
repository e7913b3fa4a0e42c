import GPSLocation
import LocateSupport

/// Debian's iso-codes tables of countries (ISO 3166-1) and their subdivisions (ISO 3166-2): the
/// English names that are the keys of iso-codes' translation catalogues. Missing or malformed
/// files are empty tables; an entry whose code or name is not valid is skipped.
struct ISOCodes: Sendable {
    /// A country: its alpha-2 code, its ISO name and the shorter name people use, when it has one
    /// ("Korea, Republic of"; "Holy See (Vatican City State)").
    struct Country: Sendable, Equatable {
        let code: String
        let name: String
        let commonName: String?

        /// The name a person reads: the common name, else the ISO name.
        var displayName: String { commonName ?? name }
    }

    /// A subdivision: its code (`KR-11`), its ISO name (`Seoul-teukbyeolsi`), and whether it is
    /// of the first level (it has no parent subdivision).
    struct Subdivision: Sendable, Equatable {
        let code: String
        let name: String
        let isFirstLevel: Bool
    }

    /// Where iso-codes keeps its tables.
    static let directory = "/usr/share/iso-codes/json"
    /// The files the tables come from (to stamp what is derived from them).
    static let files = [directory + "/iso_3166-1.json", directory + "/iso_3166-2.json"]

    /// Countries by alpha-2 code.
    let countries: [String: Country]
    /// Subdivisions by the alpha-2 code of their country.
    let subdivisions: [String: [Subdivision]]

    /// The system's tables (empty when iso-codes is not installed).
    static func load(directory: String = directory) -> ISOCodes {
        func table(_ name: String, _ key: String) -> [[String: FlatJSON.Value]] {
            guard let bytes = (try? TrustedFile.read(directory + "/" + name, owner: .anyone, limit: 8 << 20)).flatMap({ $0 }) else {
                return []
            }
            return FlatJSON.objects(inArray: key, of: bytes) ?? []
        }
        return ISOCodes(countries: table("iso_3166-1.json", "3166-1"), subdivisions: table("iso_3166-2.json", "3166-2"))
    }

    /// The tables from the entries of `iso_3166-1.json` and `iso_3166-2.json`.
    init(countries countryEntries: [[String: FlatJSON.Value]], subdivisions subdivisionEntries: [[String: FlatJSON.Value]]) {
        var countries: [String: Country] = [:]
        for entry in countryEntries {
            guard case .string(let code) = entry["alpha_2"], Self.isCountryCode(code), let name = Self.name(entry["name"]) else { continue }
            countries[code] = Country(code: code, name: name, commonName: Self.name(entry["common_name"]))
        }
        var subdivisions: [String: [Subdivision]] = [:]
        for entry in subdivisionEntries {
            guard case .string(let code) = entry["code"], let name = Self.name(entry["name"]) else { continue }
            let parts = code.split(separator: "-", maxSplits: 1)
            guard parts.count == 2, Self.isCountryCode(String(parts[0])), (1...8).contains(parts[1].utf8.count),
                parts[1].utf8.allSatisfy({
                    (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                })
            else { continue }
            subdivisions[String(parts[0]), default: []].append(Subdivision(code: code, name: name, isFirstLevel: entry["parent"] == nil))
        }
        self.countries = countries
        self.subdivisions = subdivisions
    }

    private static func isCountryCode(_ code: String) -> Bool {
        code.utf8.count == 2 && code.utf8.allSatisfy { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }
    }

    /// A name: 1 to 200 bytes of visible text.
    private static func name(_ value: FlatJSON.Value?) -> String? {
        guard case .string(let name) = value, (1...200).contains(name.utf8.count), !UntrustedText.hasHidden(name) else { return nil }
        return name
    }
}
