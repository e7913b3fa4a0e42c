import LocateSupport

/// Home Assistant's MQTT `device_tracker`, written here only: the JSON attributes of a position
/// (what its `json_attributes_topic` takes: `latitude`, `longitude`, `gps_accuracy` make the
/// tracker's position) and the discovery config that makes the entity.
package enum HomeAssistant {
    /// The attribute keys of a position, each spelled once.
    package enum Key: String, Sendable {
        case latitude, longitude
        case accuracy = "gps_accuracy"
        case altitude, speed, course, time
        /// locate's own: `full` or `reduced`.
        case accuracyAuthorization = "accuracy"
    }

    /// A position's attributes: coordinates with 7 decimals, the accuracy (0 when unknown, as
    /// Home Assistant requires one), altitude in metres, speed in m/s and course in degrees
    /// (`null` when unknown), the fix's time (ISO 8601) and locate's accuracy authorization.
    package static func attributes(
        latitude: Double, longitude: Double, accuracy: Double?, altitude: Double?, speed: Double?, course: Double?, time: String?,
        authorization: String
    ) -> String {
        var object = JSONObjectWriter()
        func number(_ key: Key, _ value: Double?, _ decimals: Int) {
            object.add(key.rawValue, json: value.flatMap { NumberFormatting.fixed($0, decimals: decimals) } ?? "null")
        }
        number(.latitude, latitude, 7)
        number(.longitude, longitude, 7)
        number(.accuracy, accuracy ?? 0, 1)
        number(.altitude, altitude, 1)
        number(.speed, speed, 2)
        number(.course, course, 1)
        if let time { object.add(Key.time.rawValue, string: time) } else { object.add(Key.time.rawValue, json: "null") }
        object.add(Key.accuracyAuthorization.rawValue, string: authorization)
        return object.text
    }
}
