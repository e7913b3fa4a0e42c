public import GPSLocation

/// The coordinate `locate` prints when location is not allowed or not available: `[fallback]`
/// in the settings, or Seoul by default.
public struct FallbackCoordinate: Sendable, Hashable {
    /// Degrees north.
    public var latitude: Double
    /// Degrees east.
    public var longitude: Double

    /// Seoul (37.517829, 126.886270): the built-in default.
    public static let builtIn = FallbackCoordinate(latitude: 37.517829, longitude: 126.886270)

    /// Creates a coordinate.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// The fallback as a `Location`: `source` fallback, reduced accuracy, nothing measured.
    public var location: Location {
        Location(latitude: latitude, longitude: longitude, mode: nil, source: .fallback, accuracy: .reducedAccuracy)
    }
}
