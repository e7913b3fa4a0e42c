import FoundationEssentials
import GPSLocation
import GPSLocationConsent
import GPSLocationPlaces
import LocateFormats
import LocateSupport

/// The value of one field of a record, before it is written in a format.
enum FieldValue: Equatable {
    case number(Double, decimals: Int)
    case text(String)
    case time(Date)
    case flag(Bool)
    case unknown
}

/// What a record is written from: the location handed out (a live fix that passed the permission
/// check, or the fallback), why it is the fallback, whether it is only the best fix seen when
/// time ran out, the time of writing, and the place of that location when places were asked for.
/// The place is looked up from the location handed out, never from anything else, so it reveals
/// no more than the coordinates beside it.
struct RecordSource {
    let location: Location
    var reason: FallbackReason?
    var timedOut = false
    let now: Date
    let place: Placemark?
    /// The region or visit event, for the records of `monitor` and `visits`.
    var event: EventRecord? = nil
    /// The device the event is of, with `--by`.
    var device: String? = nil
}

/// One field of a record: its key (the JSON key and CSV column, from the one table of them,
/// `RecordKey`) and how it is read off a record.
struct RecordField: Sendable {
    let key: RecordKey
    let value: @Sendable (RecordSource) -> FieldValue
    /// A number field's reading, which `value` wraps: a format writing many records calls it
    /// directly (a closure of the table captures nothing, so calling it costs no reference
    /// count, where `value`'s captures cost one for every field of every record).
    let number: (@Sendable (RecordSource) -> Double?)?

    /// The key as the record spells it.
    var name: String { key.rawValue }

    init(_ key: RecordKey, value: @escaping @Sendable (RecordSource) -> FieldValue) {
        self.key = key
        self.value = value
        number = nil
    }

    /// A number field of `key`, written with the key's decimals.
    init(number key: RecordKey, _ read: @escaping @Sendable (RecordSource) -> Double?) {
        let decimals = key.decimals ?? 0
        self.key = key
        value = { record in read(record).map { .number($0, decimals: decimals) } ?? .unknown }
        number = read
    }
}

/// The fields of a record, in the order locate(1) lists them. JSON, CSV and `--format` all write from this one
/// table, so they agree on names, units and precision (coordinates 7 decimals, metres 0.1,
/// speeds 0.01, degrees 0.1, seconds 0.1).
enum RecordFields {
    static let all: [RecordField] = [
        // A fallback is never a fix: a consumer that reads only `type` cannot take it for one.
        RecordField(.type) { record in .text(record.location.source == .fallback ? "fallback" : "fix") },
        RecordField(.time) { record in record.location.time.map(FieldValue.time) ?? .unknown },
        RecordField(number: .latitude) { $0.location.latitude },
        RecordField(number: .longitude) { $0.location.longitude },
        RecordField(number: .altitudeMSL) { $0.location.altitudeMSL },
        RecordField(number: .altitudeHAE) { $0.location.altitudeHAE },
        RecordField(number: .horizontalAccuracy) { $0.location.horizontalAccuracy },
        RecordField(number: .verticalAccuracy) { $0.location.verticalAccuracy },
        RecordField(number: .speed) { $0.location.speed },
        RecordField(number: .speedAccuracy) { $0.location.speedAccuracy },
        RecordField(number: .course) { $0.location.course },
        RecordField(number: .courseAccuracy) { $0.location.courseAccuracy },
        RecordField(number: .climb) { $0.location.climb },
        RecordField(.mode) { record in record.location.mode.map { .text($0.rawValue) } ?? .unknown },
        RecordField(number: .satellitesUsed) { $0.location.satellitesUsed.map(Double.init) },
        RecordField(.device) { record in record.location.device.map(FieldValue.text) ?? .unknown },
        RecordField(.source) { record in .text(record.location.source.rawValue) },
        // A replayed track's fixes are not of now: their age says nothing.
        RecordField(number: .age) { record in record.location.source == .replay ? nil : record.location.age(at: record.now)?.seconds },
        RecordField(.accuracy) { record in .text(record.location.accuracy.rawValue) },
        RecordField(.reason) { record in record.reason.map { .text($0.rawValue) } ?? .unknown },
        RecordField(.timedOut) { record in .flag(record.timedOut) },
        RecordField(.fix) { record in record.location.details.fix.map { .text($0.rawValue) } ?? .unknown },
        RecordField(number: .hdop) { $0.location.hdop },
        RecordField(number: .vdop) { $0.location.details.vdop },
        RecordField(number: .pdop) { $0.location.details.pdop },
        RecordField(number: .tdop) { $0.location.details.tdop },
        RecordField(number: .gdop) { $0.location.details.gdop },
        RecordField(number: .xAccuracy) { $0.location.details.xAccuracy },
        RecordField(number: .yAccuracy) { $0.location.details.yAccuracy },
        RecordField(number: .timeAccuracy) { $0.location.details.timeAccuracy },
        RecordField(number: .heading) { $0.location.details.heading },
        RecordField(number: .magneticVariation) { $0.location.details.magneticVariation },
        RecordField(number: .geoidSeparation) { $0.location.details.geoidSeparation },
        RecordField(.integrity) { record in record.location.integrity.map { .text($0.name) } ?? .unknown },
        RecordField(.integrityReason) { record in record.location.integrity?.reason.map { .text($0.rawValue) } ?? .unknown },
    ]

    /// The fields `--geocode` adds: the place of the location written (see `PlaceFinder`), in
    /// the language of `--lang`, `LANGUAGE` or the locale; unknown when there is none.
    static let places: [RecordField] = [
        RecordField(.city) { record in record.place?.city.map(FieldValue.text) ?? .unknown },
        RecordField(.state) { record in record.place?.state.map(FieldValue.text) ?? .unknown },
        RecordField(.country) { record in record.place?.country.map(FieldValue.text) ?? .unknown },
        RecordField(.countryCode) { record in record.place?.countryCode.map(FieldValue.text) ?? .unknown },
        RecordField(.timeZone) { record in record.place.map { .text($0.timeZone) } ?? .unknown },
    ]

    /// The fields of a JSON record or CSV row: `all`, then `places` with `--geocode`.
    static func record(includingPlaces: Bool) -> [RecordField] {
        includingPlaces ? all + places : all
    }

    /// "City, state, country" without repeats (`%place`).
    static let place = RecordField(.place) { record in record.place.map { .text($0.formatted) } ?? .unknown }

    /// The fix's time as whole Unix seconds (`%epoch`), for consumers that take no ISO 8601
    /// (OwnTracks' `tst`, Traccar's `timestamp`); `--json`'s `time` stays ISO 8601.
    static let epoch = RecordField(.epoch) { record in
        record.location.time.map { .number(($0.timeIntervalSince1970).rounded(.down), decimals: 0) } ?? .unknown
    }

    /// The field of `key`.
    static func field(_ key: RecordKey) -> RecordField? {
        (all + places + [place, epoch]).first { $0.key == key }
    }
}

extension FieldValue {
    /// Appends the value as bare text (numbers fixed-point, times ISO 8601, `true`/`false`, text
    /// with its hidden scalars made visible by `UntrustedText.visible`, as every output shows
    /// outside text: text lines, CSV and `--format` alike).
    /// - Returns: `false`, appending nothing, when the value is unknown or has no text.
    func appendPlain(to bytes: inout [UInt8]) -> Bool {
        switch self {
        case .number(let value, let decimals): return NumberFormatting.append(value, decimals: decimals, to: &bytes)
        case .text(let text): bytes += UntrustedText.visible(text).utf8
        case .time(let date): return UTCTimestamp.append(date, to: &bytes)
        case .flag(let flag): bytes += flag ? Self.trueText : Self.falseText
        case .unknown: return false
        }
        return true
    }

    // Made once: a literal's bytes made into an array for each value would cost an allocation.
    private static let trueText = Array("true".utf8)
    private static let falseText = Array("false".utf8)
    static let nullText = Array("null".utf8)

    /// Appends the value as JSON: text and times quoted, numbers and flags bare, unknown `null`.
    func appendJSON(to bytes: inout [UInt8]) {
        switch self {
        case .text(let text):
            FlatJSON.appendQuoted(text, to: &bytes)
        case .time:
            bytes.append(UInt8(ascii: "\""))
            _ = appendPlain(to: &bytes)
            bytes.append(UInt8(ascii: "\""))
        case .number, .flag, .unknown:
            if !appendPlain(to: &bytes) { bytes += Self.nullText }
        }
    }
}
