public import FoundationEssentials
import LocateSupport

/// One position, as a value: what gpsd reported for one fix, or the fallback coordinate
/// (CoreLocation's `CLLocation`).
///
/// Every measured field is optional: `nil` means gpsd did not know it (libgps reports such
/// fields as NaN; they never reach this type as NaN). A location is checked when it is made and
/// read-only after: a latitude off the globe, a NaN, a negative accuracy or a speed no receiver
/// reports is refused with ``GPSLocationError/invalidArgument(name:reason:)``.
public struct Location: Sendable, Hashable {
    /// Latitude in degrees, WGS 84, positive north.
    public internal(set) var latitude: Double {
        get { storage.fields.latitude }
        set { update { $0.latitude = newValue } }
    }
    /// Longitude in degrees, WGS 84, positive east.
    public internal(set) var longitude: Double {
        get { storage.fields.longitude }
        set { update { $0.longitude = newValue } }
    }
    /// When the receiver took the fix (UTC), if it said so.
    public internal(set) var time: Date? {
        get { storage.fields.time }
        set { update { $0.time = newValue } }
    }
    /// Altitude above mean sea level, metres.
    public internal(set) var altitudeMSL: Double? {
        get { storage.fields.altitudeMSL }
        set { update { $0.altitudeMSL = newValue } }
    }
    /// Altitude above the WGS 84 ellipsoid, metres.
    public internal(set) var altitudeHAE: Double? {
        get { storage.fields.altitudeHAE }
        set { update { $0.altitudeHAE = newValue } }
    }
    /// Estimated horizontal error, metres (gpsd `eph`): CoreLocation's `horizontalAccuracy`.
    public internal(set) var horizontalAccuracy: Double? {
        get { storage.fields.horizontalAccuracy }
        set { update { $0.horizontalAccuracy = newValue } }
    }
    /// Estimated vertical error, metres (gpsd `epv`).
    public internal(set) var verticalAccuracy: Double? {
        get { storage.fields.verticalAccuracy }
        set { update { $0.verticalAccuracy = newValue } }
    }
    /// Speed over ground, metres per second.
    public internal(set) var speed: Double? {
        get { storage.fields.speed }
        set { update { $0.speed = newValue } }
    }
    /// Estimated speed error, metres per second (gpsd `eps`).
    public internal(set) var speedAccuracy: Double? {
        get { storage.fields.speedAccuracy }
        set { update { $0.speedAccuracy = newValue } }
    }
    /// Course over ground, degrees from true north.
    public internal(set) var course: Double? {
        get { storage.fields.course }
        set { update { $0.course = newValue } }
    }
    /// Estimated course error, degrees (gpsd `epd`).
    public internal(set) var courseAccuracy: Double? {
        get { storage.fields.courseAccuracy }
        set { update { $0.courseAccuracy = newValue } }
    }
    /// Climb (positive) or sink rate, metres per second.
    public internal(set) var climb: Double? {
        get { storage.fields.climb }
        set { update { $0.climb = newValue } }
    }
    /// Horizontal dilution of precision, from gpsd's latest sky view.
    public internal(set) var hdop: Double? {
        get { storage.fields.hdop }
        set { update { $0.hdop = newValue } }
    }
    /// Whether the fix is two- or three-dimensional; `nil` for the fallback coordinate.
    public internal(set) var mode: FixMode? {
        get { storage.fields.mode }
        set { update { $0.mode = newValue } }
    }
    /// How many satellites the receiver used for the fix, from gpsd's latest sky view.
    public internal(set) var satellitesUsed: Int? {
        get { storage.fields.satellitesUsed }
        set { update { $0.satellitesUsed = newValue } }
    }
    /// The satellites of gpsd's latest sky view (its SKY report) when the fix came, if that view
    /// is of the fix's device and at most 5 s old: empty when gpsd gave none, for every location
    /// other than a live fix, and under reduced accuracy. Not part of the `Codable` record, so
    /// the last-fix cache keeps none.
    public internal(set) var satellites: [Satellite] {
        get { storage.fields.satellites }
        set { update { $0.satellites = newValue } }
    }
    /// The receiver's device path as gpsd names it, such as `/dev/ttyACM0`.
    public internal(set) var device: String? {
        get { storage.fields.device }
        set { update { $0.device = newValue } }
    }
    /// Where the position came from.
    public internal(set) var source: LocationSource {
        get { storage.fields.source }
        set { update { $0.source = newValue } }
    }
    /// How precise the position is: `reducedAccuracy` when snapped to a grid cell (and for the
    /// fallback).
    public internal(set) var accuracy: AccuracyAuthorization {
        get { storage.fields.accuracy }
        set { update { $0.accuracy = newValue } }
    }
    /// What the receiver said beyond the position (``Details``): how the fix was made, the
    /// dilutions, the heading; empty for every location other than a fix of full accuracy.
    public internal(set) var details: Details {
        get { storage.fields.details }
        set { update { $0.details = newValue } }
    }
    /// Whether the fix is believable beside the ones before it from the same receiver; `nil`
    /// when it was not checked (the fallback, a cached fix, reduced accuracy).
    public internal(set) var integrity: Integrity? {
        get { storage.fields.integrity }
        set { update { $0.integrity = newValue } }
    }

    /// The values, in storage that copies share until one of them changes (copy on write): a
    /// location is handed along a stream many times (decoded, queued, released, formatted), and a
    /// copy is then one reference, not the hundreds of bytes of its fields.
    private var storage: Storage

    /// The stored values: what a location is, compared and hashed as a whole.
    private struct Fields: Sendable, Hashable {
        var latitude: Double
        var longitude: Double
        var time: Date?
        var altitudeMSL: Double?
        var altitudeHAE: Double?
        var horizontalAccuracy: Double?
        var verticalAccuracy: Double?
        var speed: Double?
        var speedAccuracy: Double?
        var course: Double?
        var courseAccuracy: Double?
        var climb: Double?
        var hdop: Double?
        var mode: FixMode?
        var satellitesUsed: Int?
        var satellites: [Satellite]
        var device: String?
        var source: LocationSource
        var accuracy: AccuracyAuthorization
        var details: Details
        var integrity: Integrity?
    }

    /// Shared by copies, and never changed: a change makes new storage.
    private final class Storage: Sendable {
        let fields: Fields

        init(_ fields: Fields) {
            self.fields = fields
        }
    }

    /// Changes the fields of this copy alone, in storage of its own.
    private mutating func update(_ change: (inout Fields) -> Void) {
        var fields = storage.fields
        change(&fields)
        storage = Storage(fields)
    }

    /// Whether two locations have the same values in every field.
    public static func == (lhs: Location, rhs: Location) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }

    /// Hashes every field.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(storage.fields)
    }

    /// Creates a location; every measured field defaults to unknown.
    /// - Throws: ``GPSLocationError/invalidArgument(name:reason:)`` for a latitude or longitude
    ///   off the globe, or a value that is not finite or out of what a receiver reports
    ///   (a negative accuracy, a course beyond 360°, a time before 1980).
    public init(
        latitude: Double, longitude: Double, time: Date? = nil,
        altitudeMSL: Double? = nil, altitudeHAE: Double? = nil,
        horizontalAccuracy: Double? = nil, verticalAccuracy: Double? = nil,
        speed: Double? = nil, speedAccuracy: Double? = nil,
        course: Double? = nil, courseAccuracy: Double? = nil, climb: Double? = nil,
        hdop: Double? = nil, mode: FixMode?, satellitesUsed: Int? = nil, satellites: [Satellite] = [], device: String? = nil,
        source: LocationSource = .gpsd, accuracy: AccuracyAuthorization = .fullAccuracy, details: Details = Details(),
        integrity: Integrity? = nil
    ) throws(GPSLocationError) {
        func check(_ name: String, _ value: Double?, _ range: ClosedRange<Double>) throws(GPSLocationError) {
            guard let value else { return }
            guard value.isFinite, range.contains(value) else {
                throw .invalidArgument(name: name, reason: "\(value) is not in \(range.lowerBound)...\(range.upperBound)")
            }
        }
        try check("latitude", latitude, Plausible.latitude)
        try check("longitude", longitude, Plausible.longitude)
        try check("time", time?.timeIntervalSince1970, Plausible.time)
        // One call a field (an array of pairs would build its type's metadata at run time).
        try check("altitudeMSL", altitudeMSL, Plausible.altitude)
        try check("altitudeHAE", altitudeHAE, Plausible.altitude)
        try check("horizontalAccuracy", horizontalAccuracy, Plausible.error)
        try check("verticalAccuracy", verticalAccuracy, Plausible.error)
        try check("speedAccuracy", speedAccuracy, Plausible.error)
        try check("courseAccuracy", courseAccuracy, Plausible.error)
        try check("speed", speed, Plausible.speed)
        try check("course", course, Plausible.course)
        try check("climb", climb, Plausible.climb)
        try check("hdop", hdop, Plausible.dilution)
        try check("satellitesUsed", satellitesUsed.map(Double.init), 0...Double(Plausible.satellites.upperBound))
        try check("vdop", details.vdop, Plausible.dilution)
        try check("pdop", details.pdop, Plausible.dilution)
        try check("tdop", details.tdop, Plausible.dilution)
        try check("gdop", details.gdop, Plausible.dilution)
        try check("xAccuracy", details.xAccuracy, Plausible.error)
        try check("yAccuracy", details.yAccuracy, Plausible.error)
        try check("timeAccuracy", details.timeAccuracy, Plausible.error)
        try check("heading", details.heading, Plausible.course)
        try check("magneticVariation", details.magneticVariation, Plausible.magneticVariation)
        try check("geoidSeparation", details.geoidSeparation, Plausible.geoidSeparation)
        self.init(
            unchecked: latitude, longitude: longitude, time: time, altitudeMSL: altitudeMSL, altitudeHAE: altitudeHAE,
            horizontalAccuracy: horizontalAccuracy, verticalAccuracy: verticalAccuracy, speed: speed, speedAccuracy: speedAccuracy,
            course: course, courseAccuracy: courseAccuracy, climb: climb, hdop: hdop, mode: mode, satellitesUsed: satellitesUsed,
            satellites: satellites, device: device.map { UntrustedText.visible($0, limit: 256) }, source: source, accuracy: accuracy,
            details: details, integrity: integrity)
    }

    /// A location of values the library checked already (a decoded fix, a replayed point, a
    /// grid cell's centre).
    init(
        unchecked latitude: Double, longitude: Double, time: Date? = nil,
        altitudeMSL: Double? = nil, altitudeHAE: Double? = nil,
        horizontalAccuracy: Double? = nil, verticalAccuracy: Double? = nil,
        speed: Double? = nil, speedAccuracy: Double? = nil,
        course: Double? = nil, courseAccuracy: Double? = nil, climb: Double? = nil,
        hdop: Double? = nil, mode: FixMode?, satellitesUsed: Int? = nil, satellites: [Satellite] = [], device: String? = nil,
        source: LocationSource = .gpsd, accuracy: AccuracyAuthorization = .fullAccuracy, details: Details = Details(),
        integrity: Integrity? = nil
    ) {
        storage = Storage(
            Fields(
                latitude: latitude, longitude: longitude, time: time, altitudeMSL: altitudeMSL, altitudeHAE: altitudeHAE,
                horizontalAccuracy: horizontalAccuracy, verticalAccuracy: verticalAccuracy, speed: speed, speedAccuracy: speedAccuracy,
                course: course, courseAccuracy: courseAccuracy, climb: climb, hdop: hdop, mode: mode, satellitesUsed: satellitesUsed,
                satellites: satellites, device: device, source: source, accuracy: accuracy, details: details, integrity: integrity))
    }

    /// How far a fix's time may be ahead of this machine's clock and still count as now: a
    /// receiver and a clock that agree to within this are taken to agree.
    public static let clockSkewTolerance = Duration.seconds(5)

    /// The time from the fix's time to `now`, to the millisecond; a time ahead of `now` by less
    /// than `clockSkewTolerance` gives zero.
    /// - Returns: `nil` when the fix carries no time, or when its time is ahead of `now` by more
    ///   than the tolerance: then either clock is wrong, and the age cannot be known.
    public func age(at now: Date = Date()) -> Duration? {
        guard let time else { return nil }
        let age = now.timeIntervalSince(time)
        guard age.isFinite, age >= -Self.clockSkewTolerance.seconds, age < 1e15 else { return nil }
        return .milliseconds(Int64((max(0, age) * 1000).rounded()))
    }
}

extension Location {
    /// Whether this fix only repeats `previous`: gpsd reports one epoch several times (first a 2D
    /// fix, then the same time as 3D, or a position a later message of the same second corrects),
    /// and a repeat that changes nothing a record says about the position (its mode, or its
    /// latitude or longitude to the 7 decimals of a record) says nothing new. A repeat that does
    /// change them is a better fix of that epoch, and is not a repeat.
    func repeatsEpoch(of previous: Location) -> Bool {
        guard let time, time == previous.time, mode == previous.mode else { return false }
        func units(_ degrees: Double) -> Double { (degrees * 1e7).rounded() }
        return units(latitude) == units(previous.latitude) && units(longitude) == units(previous.longitude)
    }
}

/// The dimension of a fix. The corresponding gpsd values are `MODE_2D` and `MODE_3D`.
public enum FixMode: String, Sendable, Hashable, Codable {
    /// Latitude and longitude only.
    case twoDimensional = "2d"
    /// Latitude, longitude and altitude.
    case threeDimensional = "3d"
}

/// Where a `Location` came from.
public enum LocationSource: String, Sendable, Hashable, Codable {
    /// A live fix from gpsd.
    case gpsd
    /// The last-fix cache.
    case cache
    /// The configured fallback coordinate, not a measurement.
    case fallback
    /// A recorded track played back (``ReplayTrack``, or a host's own locations): not this
    /// machine's position, so it needs no permission and is never kept.
    case replay
    /// A position a host kept earlier (`locate record`'s history), handed out again under the
    /// reader's permission (``GPSLocationManager/admitKept(_:)``).
    case history
}
