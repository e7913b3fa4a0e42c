import FoundationEssentials
import GPSLocation
import GPSLocationMQTT
import LocateFormats
import LocateSupport

/// What `locate publish --as` writes, and on which topics: OwnTracks' records on its topic
/// layout, Home Assistant's MQTT discovery with a JSON attributes topic, or locate's own `--json`
/// record. Positions go out only as the command hands them over (each through the gate); the
/// status messages (`online`, `offline`, not authorized) carry no position.
///
/// To an HTTP endpoint each record is the body of one POST: OwnTracks' JSON (with its HTTP
/// mode's `X-Limit-U` and `X-Limit-D`), locate's record, or Traccar's OsmAnd form; no status goes
/// (HTTP has no last will and keeps nothing retained to clear).
struct PublishFormat: Sendable {
    enum Kind: String, Sendable, CaseIterable {
        case owntracks, homeassistant, json, osmand
    }

    /// What an HTTP endpoint gets besides the body: the device's name (OwnTracks' `X-Limit-D`,
    /// and its tracker id), and the URL's query (OsmAnd's `id=...`), sent in the form instead.
    struct HTTPDestination: Sendable {
        let device: String
        let query: String
    }

    let kind: Kind
    /// The topic of the URL: OwnTracks' `owntracks/USER/DEVICE`, or the base of the others.
    let topic: String
    let qos: MQTTQoS
    /// `--retain`: the broker keeps the newest position for subscribers that come later.
    let retain: Bool
    /// When the session started (OwnTracks' `lwt` says when the device first connected).
    let started: Date
    /// Set for an HTTP endpoint.
    var http: HTTPDestination? = nil

    /// The topics under `topic` that `kind` uses.
    var positionTopic: String { kind == .homeassistant ? topic + "/attributes" : topic }
    var eventTopic: String { topic + "/event" }
    var statusTopic: String { kind == .homeassistant ? topic + "/availability" : topic + "/status" }

    /// OwnTracks' tracker id: the last two letters or digits of the device (the topic's last
    /// level), as its apps default to the device's last two characters.
    var trackerID: String {
        let device = http?.device ?? topic.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? ""
        return String(device.filter { $0.isASCII && ($0.isLetter || $0.isNumber) }.suffix(2))
    }

    /// Home Assistant's object id (of the discovery topic and the unique id), one for each
    /// topic: `/` becomes `_`, letters and digits stay, `-` becomes `--` and every other byte
    /// (`_` too) `-` and its two hex digits, so that no two topics share a config.
    var objectID: String {
        var id = ""
        for byte in topic.utf8 {
            switch byte {
            case UInt8(ascii: "/"): id += "_"
            case UInt8(ascii: "-"): id += "--"
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                id.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = Array("0123456789abcdef".unicodeScalars)
                id += "-"
                id.unicodeScalars.append(hex[Int(byte >> 4)])
                id.unicodeScalars.append(hex[Int(byte & 0xF)])
            }
        }
        return id
    }

    /// The object part of the suggested entity id, as Home Assistant's are: `locate_` and the
    /// topic in lower case, each run of other characters than letters and digits one `_`.
    var entitySlug: String {
        let words = topic.lowercased().split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }
        return (["locate"] + words).joined(separator: "_")
    }

    /// Checks what `kind` needs of the topic: OwnTracks' three levels (`owntracks/USER/DEVICE`;
    /// its Recorder ignores a shorter one), none empty, the device with a letter or digit for
    /// the tracker id.
    /// Where `broker` is published to, and for an HTTP endpoint what its records carry besides:
    /// OsmAnd's query (`?id=...`) leaves the URL for the form (Traccar reads one or the other, not
    /// both), and OwnTracks' device is this machine's name.
    static func destination(_ broker: MQTTBroker, kind: Kind) -> (MQTTBroker, HTTPDestination?) {
        guard broker.isHTTP else { return (broker, nil) }
        let device = HostName.current ?? "locate"
        guard kind == .osmand, let query = broker.topic.firstIndex(of: "?"),
            let bare = try? MQTTBroker(parsing: "\(broker)/\(broker.topic[..<query])", allowsHTTP: true)
        else {
            return (broker, HTTPDestination(device: device, query: ""))
        }
        return (bare, HTTPDestination(device: device, query: String(broker.topic[broker.topic.index(after: query)...])))
    }

    /// Over HTTP: OwnTracks needs the user (`X-Limit-U`), OsmAnd the device's `id` in the query,
    /// and Home Assistant's discovery is MQTT's.
    static func check(_ kind: Kind, broker: MQTTBroker) throws(UsageError) {
        if broker.isHTTP {
            switch kind {
            case .homeassistant:
                throw UsageError(
                    message:
                        "'--as homeassistant' is Home Assistant's MQTT discovery: publish to mqtt[s]://, or use '--as owntracks' with its OwnTracks webhook"
                )
            case .owntracks where broker.user == nil:
                throw UsageError(message: "'--as owntracks' over HTTP needs the user in the URL (http[s]://USER@HOST/PATH), its X-Limit-U")
            case .osmand where !OsmAnd.namesDevice(broker.topic.firstIndex(of: "?").map { String(broker.topic[$0...].dropFirst()) } ?? ""):
                throw UsageError(message: "'--as osmand' needs the device's identifier in the URL: http[s]://HOST:5055/?id=DEVICE")
            default:
                return
            }
        }
        guard kind != .osmand else {
            throw UsageError(message: "'--as osmand' is Traccar's HTTP protocol: publish to http[s]://HOST:5055/?id=DEVICE")
        }
        guard kind == .owntracks else { return }
        let topic = broker.topic
        let levels = topic.split(separator: "/", omittingEmptySubsequences: false)
        guard levels.count >= 3 else {
            throw UsageError(message: "'--as owntracks' publishes to owntracks/USER/DEVICE: give a topic of three levels")
        }
        guard !levels.contains(where: \.isEmpty) else {
            throw UsageError(message: "'--as owntracks': the topic has an empty level (owntracks/USER/DEVICE)")
        }
        guard levels.last?.contains(where: { $0.isASCII && ($0.isLetter || $0.isNumber) }) == true else {
            throw UsageError(
                message: "'--as owntracks': the device (the topic's last level) needs a letter or digit for OwnTracks' tracker id")
        }
    }

    // MARK: - Positions

    /// The records of one location handed out.
    func location(_ location: Location, now: Date) -> MQTTMessage {
        switch kind {
        case .owntracks:
            let text = OwnTracks.locationMessage(
                Self.ownTracks(location, now: now), trackerID: trackerID, createdAt: Int(now.timeIntervalSince1970))
            return message(positionTopic, text, retain: retain)
        case .homeassistant:
            let text = HomeAssistant.attributes(
                latitude: location.latitude, longitude: location.longitude, accuracy: location.horizontalAccuracy,
                altitude: location.altitudeMSL, speed: location.speed, course: location.course,
                time: location.time.flatMap(UTCTimestamp.iso8601), authorization: location.accuracy.rawValue)
            return message(positionTopic, text, retain: retain)
        case .json:
            var format = JSONFormat(includesEvents: false)
            return message(positionTopic, Self.line(RecordSource(location: location, now: now, place: nil), &format), retain: retain)
        case .osmand:
            let text = OsmAnd.form(
                device: http?.query ?? "", latitude: location.latitude, longitude: location.longitude,
                time: Int((location.time ?? now).timeIntervalSince1970), speed: location.speed, bearing: location.course,
                altitude: location.altitudeMSL, accuracy: location.horizontalAccuracy)
            return message(positionTopic, text, retain: false)
        }
    }

    /// The record of a region event (OwnTracks' `transition`, locate's region record), or
    /// `nil`: Home Assistant finds its zones itself, and an `initial` state is no transition.
    func transition(_ event: RegionEvent, now: Date) -> MQTTMessage? {
        switch kind {
        case .owntracks:
            guard event.kind != .initial else { return nil }
            let text = OwnTracks.transitionMessage(
                Self.ownTracks(event.location, now: now), entering: event.kind == .enter, region: event.region.name,
                waypointTime: Self.waypointTime(of: event.region), trackerID: trackerID)
            return message(eventTopic, text, retain: false)
        case .homeassistant, .osmand:
            return nil
        case .json:
            var format = JSONFormat(includesEvents: false, fields: RecordKind.region.fields(includingPlaces: false))
            let source = RecordSource(location: event.location, now: now, place: nil, event: .region(event))
            return message(eventTopic, Self.line(source, &format), retain: false)
        }
    }

    /// OwnTracks' `wtst` of `region`: its apps and Recorder tell regions apart by it, so the same
    /// definition (name, centre, radius) has the same one in every run, and another definition
    /// another: a time from 2017 to 2023 drawn from the definition's FNV-1a hash.
    static func waypointTime(of region: CircularRegion) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        let definition = "\(region.name)|\(region.latitude)|\(region.longitude)|\(region.radius)"
        for byte in definition.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return 1_500_000_000 + Int(hash % 200_000_000)
    }

    /// OwnTracks' values of `location`: its time (or `now`), and its accuracy, altitude,
    /// vertical accuracy, speed (km/h) and course as whole numbers.
    private static func ownTracks(_ location: Location, now: Date) -> OwnTracks.Location {
        OwnTracks.Location(
            latitude: location.latitude, longitude: location.longitude, time: Int((location.time ?? now).timeIntervalSince1970),
            accuracy: OwnTracks.whole(location.horizontalAccuracy), altitude: OwnTracks.whole(location.altitudeMSL),
            verticalAccuracy: OwnTracks.whole(location.verticalAccuracy), velocity: OwnTracks.whole(location.speed.map { $0 * 3.6 }),
            course: OwnTracks.whole(location.course))
    }

    // MARK: - Status

    /// The last will: what the broker publishes when the connection is lost; none over HTTP.
    var will: MQTTMessage? {
        guard http == nil else { return nil }
        return switch kind {
        // OwnTracks' apps send theirs on the location topic, not retained (a retained one
        // would replace the retained location).
        case .owntracks: message(topic, ownTracksLWT, retain: false)
        case .homeassistant: message(statusTopic, "offline", retain: true)
        // Made at the start for an end no one knows yet: no time (the clean end's `offline` has one).
        case .json: message(statusTopic, Self.status("offline", at: nil), retain: true)
        case .osmand: nil
        }
    }

    /// What is announced (again on every connection) while location is authorized.
    var online: MQTTMessage? {
        guard http == nil else { return nil }
        return switch kind {
        case .owntracks, .osmand: nil
        case .homeassistant: message(statusTopic, "online", retain: true)
        case .json: message(statusTopic, Self.status("online"), retain: true)
        }
    }

    /// What is announced while location is not authorized (or paused), `reason` saying why
    /// in a keyword (`denied`, `not_determined`, `paused`): a status, never a position, and
    /// nothing local (no path, no advice).
    func unavailable(reason: String) -> MQTTMessage? {
        guard http == nil else { return nil }
        return switch kind {
        case .owntracks: message(topic, ownTracksLWT, retain: false)
        case .homeassistant: message(statusTopic, "offline", retain: true)
        case .json: message(statusTopic, Self.status("not_authorized", reason: reason), retain: true)
        case .osmand: nil
        }
    }

    /// What goes out at a clean end (a clean disconnect keeps the will to the broker): the will,
    /// and locate's status with the time of the end.
    var farewell: [MQTTMessage] {
        guard http == nil else { return [] }
        return kind == .json ? [message(statusTopic, Self.status("offline"), retain: true)] : will.map { [$0] } ?? []
    }

    /// The empty retained message that clears the retained position (not authorized, paused),
    /// whatever this run's `--retain`: an earlier run may have left one.
    var clearRetained: MQTTMessage? { http == nil ? MQTTMessage(topic: positionTopic, payload: [], qos: qos, retain: true) : nil }

    /// An HTTP endpoint's headers for `user`: the body's type, and OwnTracks' user and device.
    func httpHeaders(user: String?) -> [String] {
        switch kind {
        case .osmand: return ["Content-Type: application/x-www-form-urlencoded"]
        case .owntracks:
            return ["Content-Type: application/json", "X-Limit-U: \(user ?? "")", "X-Limit-D: \(http?.device ?? "")"]
        case .json, .homeassistant: return ["Content-Type: application/json"]
        }
    }

    /// Home Assistant's discovery config for a `device_tracker` (announced on every connection,
    /// retained), with its availability; `nil` for the other formats.
    var discovery: MQTTMessage? {
        guard kind == .homeassistant else { return nil }
        var device = JSONObjectWriter()
        device.add("identifiers", json: "[" + FlatJSON.quoted("locate_" + objectID) + "]")
        device.add("name", string: topic)
        device.add("manufacturer", string: "locate")
        device.add("model", string: "gpsd")
        var origin = JSONObjectWriter()
        origin.add("name", string: "locate")
        origin.add("sw_version", string: Usage.version)
        var config = JSONObjectWriter()
        config.add("name", json: "null")
        config.add("unique_id", string: "locate_\(objectID)_gps")
        // The entity id suggested (Home Assistant makes it unique): `object_id` for the versions
        // before 2025.10, which read only that (2024.3 included), `default_entity_id` for the
        // later ones, which deprecated it; the same id either way.
        config.add("object_id", string: entitySlug)
        config.add("default_entity_id", string: "device_tracker.\(entitySlug)")
        config.add("json_attributes_topic", string: positionTopic)
        config.add("availability_topic", string: statusTopic)
        config.add("payload_available", string: "online")
        config.add("payload_not_available", string: "offline")
        config.add("source_type", string: "gps")
        config.add("qos", json: String(qos.rawValue))
        config.add("device", json: device.text)
        config.add("origin", json: origin.text)
        return message("homeassistant/device_tracker/locate_\(objectID)/config", config.text, retain: true)
    }

    // MARK: - Pieces

    private var ownTracksLWT: String { OwnTracks.willMessage(connectedAt: Int(started.timeIntervalSince1970)) }

    private func message(_ topic: String, _ text: String, retain: Bool) -> MQTTMessage {
        MQTTMessage(topic: topic, text: text, qos: qos, retain: retain)
    }

    /// locate's status object, as `--json --events` writes one, at `time` (none when `nil`).
    private static func status(_ event: String, reason: String? = nil, at time: Date? = Date()) -> String {
        var object = JSONObjectWriter()
        object.add("type", string: "status")
        object.add("event", string: event)
        if let time { object.add("time", FieldValue.time(time)) }
        if let reason { object.add("reason", string: reason) }
        return object.text
    }

    /// One record of `format`, without its line end.
    private static func line(_ source: RecordSource, _ format: inout JSONFormat) -> String {
        var bytes: [UInt8] = []
        _ = format.record(source, to: &bytes)
        if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}
