import GPSLocation
import GPSLocationConsent
import GPSLocationPlaces

/// `[fallback] place = NAME` in the settings, resolved offline among English names.
enum FallbackPlace {
    static func coordinate(of name: String) throws(GPSLocationError) -> FallbackCoordinate {
        let place = try PlaceFinder(language: .english).uniquePlace(named: name)
        return try FallbackCoordinate(latitude: place.latitude, longitude: place.longitude)
    }
}
