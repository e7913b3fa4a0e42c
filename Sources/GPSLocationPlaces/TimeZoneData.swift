import GPSLocation
import LocateSupport

/// What the system's tzdata says about zones, which Debian keeps current: every zone's principal
/// city, with its country and coordinate (`zone.tab`), and the old names that are links to
/// current zones (`tzdata.zi`: `Europe/Kiev` is `Europe/Kyiv`). Missing files are empty data.
/// Every line is checked; one that is not well formed is skipped.
struct TimeZoneData: Sendable {
    /// A zone's principal city, as `zone.tab` has it.
    struct PrincipalCity: Sendable, Equatable {
        /// The zone, such as `Asia/Singapore`.
        let zone: String
        /// The ISO 3166-1 code of the city's country.
        let countryCode: String
        let latitude: Double
        let longitude: Double

        /// The city's English name, from the zone's last part (`America/Ciudad_Juarez`:
        /// "Ciudad Juarez").
        var name: String {
            String(String.UnicodeScalarView((zone.split(separator: "/").last ?? "").unicodeScalars.map { $0 == "_" ? " " : $0 }))
        }
    }

    /// The system's tzdata.
    static let directory = "/usr/share/zoneinfo"
    /// The files the data comes from (to stamp what is derived from them).
    static let files = [directory + "/zone.tab", directory + "/tzdata.zi"]

    let principalCities: [PrincipalCity]
    /// Old name → the zone it is a link to.
    private let links: [String: String]
    /// The zones `zone.tab` lists.
    private let listedZones: Set<String>

    init(principalCities: [PrincipalCity], links: [String: String]) {
        self.principalCities = principalCities
        self.links = links
        listedZones = Set(principalCities.map(\.zone))
    }

    /// The system's data (empty when tzdata is not installed).
    static func load(directory: String = directory) -> TimeZoneData {
        let zoneTab = (try? TrustedFile.read(directory + "/zone.tab", owner: .anyone, limit: 1 << 20)).flatMap { $0 } ?? []
        let tzdata = (try? TrustedFile.read(directory + "/tzdata.zi", owner: .anyone, limit: 4 << 20)).flatMap { $0 } ?? []
        return TimeZoneData(principalCities: principalCities(zoneTab: zoneTab), links: links(tzdata: tzdata))
    }

    /// The current id of `zone`: itself when `zone.tab` lists it (a zone a country is known by,
    /// even when tzdata's own data makes it a link, as `Europe/Vatican`); otherwise the zone it
    /// is a link to, when `zone.tab` lists that one; otherwise itself.
    func current(_ zone: String) -> String {
        if listedZones.contains(zone) { return zone }
        var target = zone
        for _ in 0..<8 {
            guard let next = links[target] else { break }
            target = next
        }
        return listedZones.contains(target) ? target : zone
    }

    /// The lines of `zone.tab`: `CC<TAB>±DDMM[SS]±DDDMM[SS]<TAB>Zone[<TAB>comment]`.
    static func principalCities(zoneTab: [UInt8]) -> [PrincipalCity] {
        lines(zoneTab).compactMap { line in
            let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
            guard fields.count >= 3, let countryCode = countryCode(fields[0]), let zone = zoneName(fields[2]),
                let (latitude, longitude) = coordinate(fields[1])
            else { return nil }
            return PrincipalCity(zone: zone, countryCode: countryCode, latitude: latitude, longitude: longitude)
        }
    }

    /// The `L TARGET NAME` lines of `tzdata.zi`.
    static func links(tzdata: [UInt8]) -> [String: String] {
        var links: [String: String] = [:]
        for line in lines(tzdata) {
            let fields = line.split(separator: UInt8(ascii: " "))
            guard fields.count == 3, fields[0].elementsEqual("L".utf8), let target = zoneName(fields[1]), let name = zoneName(fields[2])
            else { continue }
            links[name] = target
        }
        return links
    }

    private static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        bytes.split(separator: UInt8(ascii: "\n")).filter { $0.first != UInt8(ascii: "#") }
    }

    private static func countryCode(_ field: ArraySlice<UInt8>) -> String? {
        guard field.count == 2, field.allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) else { return nil }
        return String(decoding: field, as: UTF8.self)
    }

    /// A zone id: 1 to 64 of `A-Z a-z 0-9 / _ + -`, not starting with `/` or `.`.
    static func zoneName(_ field: ArraySlice<UInt8>) -> String? {
        guard (1...64).contains(field.count), field.first != UInt8(ascii: "/"),
            field.allSatisfy({ byte in
                (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "/_+-".utf8.contains(byte)
            })
        else { return nil }
        return String(decoding: field, as: UTF8.self)
    }

    /// `±DDMM±DDDMM` or `±DDMMSS±DDDMMSS` (ISO 6709), in degrees.
    static func coordinate(_ field: ArraySlice<UInt8>) -> (Double, Double)? {
        let text = Array(field)
        guard text.count == 11 || text.count == 15 else { return nil }
        let withSeconds = text.count == 15
        let latitudeLength = withSeconds ? 7 : 5
        guard let latitude = angle(text[0..<latitudeLength], degreeDigits: 2),
            let longitude = angle(text[latitudeLength...], degreeDigits: 3),
            abs(latitude) <= 90, abs(longitude) <= 180
        else { return nil }
        return (latitude, longitude)
    }

    private static func angle(_ text: ArraySlice<UInt8>, degreeDigits: Int) -> Double? {
        guard let sign = text.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
        let digits = text.dropFirst()
        guard digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        var parts: [Int] = []
        var rest = digits[...]
        for length in [degreeDigits, 2, 2] where !rest.isEmpty {
            parts.append(rest.prefix(length).reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) })
            rest = rest.dropFirst(length)
        }
        guard parts.count >= 2, parts[1] < 60, parts.count < 3 || parts[2] < 60 else { return nil }
        let value = Double(parts[0]) + Double(parts[1]) / 60 + Double(parts.count > 2 ? parts[2] : 0) / 3600
        return sign == UInt8(ascii: "-") ? -value : value
    }
}
