package import LocateSupport

/// OwnTracks' JSON, as its apps and Recorder write it, read and written here only: a location
/// (`"_type":"location"`), a region transition and the last will. Numbers other than the
/// coordinates are whole, and left out when unknown or zero, as OwnTracks' apps send them.
package enum OwnTracks {
    /// The keys, each spelled once.
    package enum Key: String, Sendable {
        case type = "_type"
        case latitude = "lat"
        case longitude = "lon"
        case time = "tst"
        case accuracy = "acc"
        case altitude = "alt"
        case verticalAccuracy = "vac"
        case velocity = "vel"
        case course = "cog"
        case trackerID = "tid"
        case createdAt = "created_at"
        case waypointTime = "wtst"
        case event
        case trigger = "t"
        case description = "desc"
    }

    /// A location message's values.
    package struct Location: Sendable, Equatable {
        package var latitude: Double
        package var longitude: Double
        /// `tst`: the fix's time, Unix seconds.
        package var time: Int?
        /// `acc`, `alt`, `vac`: metres.
        package var accuracy: Int?
        package var altitude: Int?
        package var verticalAccuracy: Int?
        /// `vel`: km/h.
        package var velocity: Int?
        /// `cog`: degrees from true north.
        package var course: Int?

        package init(
            latitude: Double, longitude: Double, time: Int?, accuracy: Int? = nil, altitude: Int? = nil, verticalAccuracy: Int? = nil,
            velocity: Int? = nil, course: Int? = nil
        ) {
            (self.latitude, self.longitude, self.time) = (latitude, longitude, time)
            (self.accuracy, self.altitude, self.verticalAccuracy, self.velocity, self.course) =
                (accuracy, altitude, verticalAccuracy, velocity, course)
        }

        /// The location in a message's members; `nil` when the message is another `_type`.
        /// - Throws: `Problem` when a value is not a number, or `lat` or `lon` is missing.
        package init?(members: [String: FlatJSON.Value]) throws(Problem) {
            guard members[Key.type.rawValue] == .string("location") else { return nil }
            func number(_ key: Key) throws(Problem) -> Double? {
                switch members[key.rawValue] {
                case nil, .null?: return nil
                case .number(let value)? where value.isFinite: return value
                default: throw Problem(description: "'\(key.rawValue)' is not a number")
                }
            }
            func whole(_ key: Key) throws(Problem) -> Int? {
                guard let value = try number(key) else { return nil }
                guard abs(value) < 1e15 else { throw Problem(description: "'\(key.rawValue)' is out of range") }
                return Int(value.rounded())
            }
            guard let latitude = try number(.latitude), let longitude = try number(.longitude) else {
                throw Problem(description: "an OwnTracks location needs lat and lon")
            }
            self.init(
                latitude: latitude, longitude: longitude, time: try whole(.time), accuracy: try whole(.accuracy),
                altitude: try whole(.altitude), verticalAccuracy: try whole(.verticalAccuracy), velocity: try whole(.velocity),
                course: try whole(.course))
        }

        /// Adds `lat`, `lon` (7 decimals), `tst` and each other value that is known and not zero.
        package func write(to object: inout JSONObjectWriter) {
            object.add(Key.latitude.rawValue, json: NumberFormatting.fixed(latitude, decimals: 7) ?? "0")
            object.add(Key.longitude.rawValue, json: NumberFormatting.fixed(longitude, decimals: 7) ?? "0")
            if let time { object.add(Key.time.rawValue, json: String(time)) }
            for (key, value) in [
                (Key.accuracy, accuracy), (.altitude, altitude), (.verticalAccuracy, verticalAccuracy), (.velocity, velocity),
                (.course, course),
            ] {
                if let value, value != 0 { object.add(key.rawValue, json: String(value)) }
            }
        }
    }

    /// A whole number of a measured value, as OwnTracks writes one: rounded, `nil` when unknown
    /// or not finite.
    package static func whole(_ value: Double?) -> Int? {
        guard let value, value.isFinite, abs(value) < 1e15 else { return nil }
        return Int(value.rounded())
    }

    /// A location message: `_type`, the location, the tracker id and when it was sent.
    package static func locationMessage(_ location: Location, trackerID: String, createdAt: Int) -> String {
        var object = JSONObjectWriter()
        object.add(Key.type.rawValue, string: "location")
        location.write(to: &object)
        object.add(Key.trackerID.rawValue, string: trackerID)
        object.add(Key.createdAt.rawValue, json: String(createdAt))
        return object.text
    }

    /// A region transition: `enter` or `leave` of the region `name` (defined at `waypointTime`),
    /// at `location`, whose accuracy is given as 0 when unknown (the apps require one).
    package static func transitionMessage(
        _ location: Location, entering: Bool, region name: String, waypointTime: Int, trackerID: String
    ) -> String {
        var object = JSONObjectWriter()
        object.add(Key.type.rawValue, string: "transition")
        object.add(Key.waypointTime.rawValue, json: String(waypointTime))
        location.write(to: &object)
        if location.accuracy == nil || location.accuracy == 0 { object.add(Key.accuracy.rawValue, json: "0") }
        object.add(Key.event.rawValue, string: entering ? "enter" : "leave")
        object.add(Key.description.rawValue, string: name)
        object.add(Key.trackerID.rawValue, string: trackerID)
        object.add(Key.trigger.rawValue, string: "c")
        return object.text
    }

    /// The last will: `{"_type":"lwt","tst":…}`, when the device first connected.
    package static func willMessage(connectedAt: Int) -> String {
        var object = JSONObjectWriter()
        object.add(Key.type.rawValue, string: "lwt")
        object.add(Key.time.rawValue, json: String(connectedAt))
        return object.text
    }

    /// A message that is no OwnTracks location, and why.
    package struct Problem: Error, Sendable {
        package let description: String
    }
}
