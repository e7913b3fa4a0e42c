/// One satellite of the receiver's sky view, as gpsd's SKY report gives it: which one, where it
/// stands in the sky seen from the receiver, how strong its signal is, and whether the fix used
/// it. CoreLocation has no such type (an iPhone does not show its satellites); gpsd's clients
/// (cgps, navigation programs) do.
///
/// A sky view is a position too: the satellites' elevations and azimuths at a known time place
/// the receiver on the earth. So a location handed out under reduced accuracy carries none, and
/// nothing unauthorized carries any.
public struct Satellite: Sendable, Hashable {
    /// The satellite's number (PRN) as NMEA 2.x-4.0 numbers them (1 to 437).
    public internal(set) var prn: Int
    /// Elevation above the horizon, degrees (-90 to 90), when known.
    public internal(set) var elevation: Double?
    /// Azimuth, degrees from true north (0 to 360), when known.
    public internal(set) var azimuth: Double?
    /// Signal-to-noise ratio, dB-Hz (0 to 254), when known.
    public internal(set) var signalStrength: Double?
    /// Whether the receiver used the satellite for the fix.
    public internal(set) var isUsed: Bool

    /// The numbers a satellite's values must be in to be believed.
    static let prns = 1...437
    static let elevations = -90.0...90.0
    static let azimuths = 0.0...360.0
    static let signalStrengths = 0.0...254.0

    /// Creates a satellite of a sky view.
    /// - Throws: ``GPSLocationError/invalidArgument(name:reason:)`` for a PRN outside 1...437 or
    ///   a value that is not finite or outside its range.
    public init(
        prn: Int, elevation: Double? = nil, azimuth: Double? = nil, signalStrength: Double? = nil, isUsed: Bool
    )
        throws(GPSLocationError)
    {
        guard Self.prns.contains(prn) else { throw .invalidArgument(name: "prn", reason: "\(prn) is not in 1...437") }
        func check(_ name: String, _ value: Double?, _ range: ClosedRange<Double>) throws(GPSLocationError) {
            guard let value, !(value.isFinite && range.contains(value)) else { return }
            throw .invalidArgument(name: name, reason: "\(value) is not in \(range.lowerBound)...\(range.upperBound)")
        }
        try check("elevation", elevation, Self.elevations)
        try check("azimuth", azimuth, Self.azimuths)
        try check("signalStrength", signalStrength, Self.signalStrengths)
        self.init(unchecked: prn, elevation: elevation, azimuth: azimuth, signalStrength: signalStrength, isUsed: isUsed)
    }

    /// A satellite of values the library checked already.
    init(unchecked prn: Int, elevation: Double?, azimuth: Double?, signalStrength: Double?, isUsed: Bool) {
        self.prn = prn
        self.elevation = elevation
        self.azimuth = azimuth
        self.signalStrength = signalStrength
        self.isUsed = isUsed
    }
}
