import LocateSupport

/// Traccar's OsmAnd protocol, as Traccar's own clients send it (written here only; nothing here
/// reads it): one position as an `application/x-www-form-urlencoded` form of `id`, `lat`, `lon`,
/// `timestamp` (Unix seconds), `speed` (knots), `bearing` (degrees), `altitude` and `accuracy`
/// (metres), an unknown value left out.
package enum OsmAnd {
    /// The fields, each spelled once.
    package enum Key: String, Sendable {
        case id
        case deviceID = "deviceid"
        case latitude = "lat"
        case longitude = "lon"
        case timestamp, speed, bearing, altitude, accuracy
    }

    /// Knots in a metre a second, as Traccar converts them back.
    package static let knotsPerMetreASecond = 3600.0 / 1852.0

    /// The form of one position: `device` (the device's own fields, `id=...` and any other,
    /// already encoded) first, then the coordinates with 7 decimals, the time, and what is known
    /// of speed (from metres a second), bearing, altitude and accuracy.
    package static func form(
        device: String, latitude: Double, longitude: Double, time: Int, speed: Double?, bearing: Double?, altitude: Double?,
        accuracy: Double?
    ) -> String {
        var fields = device.isEmpty ? [] : [device]
        func add(_ key: Key, _ value: Double?, _ decimals: Int) {
            guard let value, let text = NumberFormatting.fixed(value, decimals: decimals) else { return }
            fields.append(key.rawValue + "=" + text)
        }
        add(.latitude, latitude, 7)
        add(.longitude, longitude, 7)
        fields.append(Key.timestamp.rawValue + "=" + String(time))
        add(.speed, speed.map { $0 * knotsPerMetreASecond }, 2)
        add(.bearing, bearing, 1)
        add(.altitude, altitude, 1)
        add(.accuracy, accuracy, 1)
        return fields.joined(separator: "&")
    }

    /// Whether `query` (a URL's, without its `?`) names the device: an `id` or `deviceid` field.
    package static func namesDevice(_ query: String) -> Bool {
        query.split(separator: "&").contains { field in
            let name = field.prefix { $0 != "=" }
            return (name == Key.id.rawValue || name == Key.deviceID.rawValue) && field.count > name.count + 1
        }
    }
}
