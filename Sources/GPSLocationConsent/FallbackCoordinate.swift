public import GPSLocation

/// The coordinate `locate` prints when location is not allowed or not available: `[fallback]`
/// in the settings, or Seoul by default.
public struct FallbackCoordinate: Sendable, Hashable {
    /// The fallback as a `Location`: `source` fallback, reduced accuracy, nothing measured.
    public let location: Location

    /// Degrees north.
    public var latitude: Double { location.latitude }
    /// Degrees east.
    public var longitude: Double { location.longitude }

    /// Seoul (37.517829, 126.886270): the built-in default.
    public static let builtIn: FallbackCoordinate = {
        do {
            return try FallbackCoordinate(latitude: 37.517829, longitude: 126.886270)
        } catch {
            preconditionFailure("37.517829, 126.886270 is a coordinate")
        }
    }()

    /// Creates a coordinate.
    /// - Throws: `GPSLocationError.invalidArgument` for a latitude or longitude off the globe.
    public init(latitude: Double, longitude: Double) throws(GPSLocationError) {
        location = try Location(latitude: latitude, longitude: longitude, mode: nil, source: .fallback, accuracy: .reducedAccuracy)
    }
}
