/// The ranges a value must be in to be believed, whoever reported it: gpsd (whose JSON libgps
/// accepts whatever the numbers are) or the last-fix cache (a file anyone could have written).
/// A position outside them is no position; any other value outside them is unknown.
enum Plausible {
    static let latitude = -90.0...90.0
    static let longitude = -180.0...180.0
    /// Metres: from below the deepest mine to above low orbit.
    static let altitude = -100_000.0...10_000_000.0
    /// Estimated errors: metres, metres per second or degrees.
    static let error = 0.0...10_000_000.0
    /// Metres per second.
    static let speed = 0.0...100_000.0
    /// Degrees from true north.
    static let course = 0.0...360.0
    /// Metres per second, up or down.
    static let climb = -100_000.0...100_000.0
    /// Seconds since 1970: from the GPS epoch (1980-01-06) to 2200-01-01.
    static let time = 315_964_800.0...7_258_118_400.0
    /// Dilution of precision.
    static let dilution = 0.0...10_000.0
    /// Satellites used in a fix.
    static let satellites = 0...255
    /// Magnetic variation, degrees east (positive) or west.
    static let magneticVariation = -180.0...180.0
    /// The geoid's height above the ellipsoid, metres (EGM96 spans about -107 to +86).
    static let geoidSeparation = -200.0...200.0

    /// `value` when it is finite and in `range`, otherwise `nil`.
    static func value(_ value: Double, in range: ClosedRange<Double>) -> Double? {
        value.isFinite && range.contains(value) ? value : nil
    }

    /// Whether `location`'s coordinate is a place on the earth.
    static func isPosition(latitude: Double, longitude: Double) -> Bool {
        latitude.isFinite && longitude.isFinite && Self.latitude.contains(latitude) && Self.longitude.contains(longitude)
    }
}
