package import GPSLocation
import LocateFormats
import LocateSupport

/// What names the device of a fleet's record (`locate monitor --by KEY`): the MQTT topic it
/// came on, or a field of its JSON payload (OwnTracks' `tid`, or any other).
package enum DeviceKey: Sendable, Hashable {
    /// The topic: what `mosquitto_sub -v` writes before the first space of a line.
    case topic
    /// A field of the JSON record, a string or a number.
    case field(String)

    /// `topic`, or the name of a field.
    package init(_ text: String) {
        self = text == "topic" ? .topic : .field(text)
    }
}

/// Why a fleet's record was skipped: the reason in words.
package struct DeviceRecordProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the record.
    package let description: String
}

/// A position one device of a fleet published: data, like a replayed track (the device's own
/// consent was applied where it published), so no permission of this machine applies and it is
/// never kept. Each is marked ``LocationSource/replay``.
package struct DeviceLocation: Sendable, Hashable {
    /// The device's name, from its ``DeviceKey``.
    package let device: String
    /// Where it was.
    package let location: Location

    /// The longest device name, in bytes of UTF-8.
    package static let maximumNameLength = 256

    /// The position in one message: `payload`, a JSON object that is an OwnTracks location
    /// (`{"_type":"location","lat":…,"lon":…,"tst":…,"acc":…,"tid":…}`) or a `locate` fix record,
    /// which came on `topic` (`nil` when there is none, as in a JSON Lines file). This is where
    /// an MQTT subscription's messages come in, as `mosquitto_sub -v` lines do.
    /// - Returns: `nil` for a record that is not a position (another OwnTracks `_type`, a
    ///   status or event record of `locate`): skipped without a word.
    /// - Throws: `DeviceRecordProblem` for a payload that is not a flat JSON object, a position
    ///   out of range, or no device name (the key missing, empty, longer than
    ///   ``maximumNameLength``, or with a space, control or invisible character).
    package static func parse(topic: String?, payload: ArraySlice<UInt8>, by key: DeviceKey) throws(DeviceRecordProblem) -> DeviceLocation?
    {
        let message: PositionMessage
        let location: Location
        do throws(PositionMessage.Problem) {
            guard let parsed = try PositionMessage(json: payload) else { return nil }
            message = parsed
            location = try Location(replaying: message)
        } catch {
            throw DeviceRecordProblem(description: error.description)
        }
        let device: String
        switch key {
        case .topic:
            guard let topic else { throw DeviceRecordProblem(description: "has no topic (--by topic needs mosquitto_sub -v lines)") }
            device = topic
        case .field(let name):
            switch message.members[name] {
            case .string(let text)?: device = text
            case .number(let number)? where number.isFinite: device = NumberFormatting.plain(number)
            default: throw DeviceRecordProblem(description: "has no '\(UntrustedText.visible(name, limit: 40))' to name its device")
            }
        }
        try checkName(device)
        return DeviceLocation(device: device, location: location)
    }

    /// The position on one line: a `mosquitto_sub -v` line (the topic, a space, the payload) or
    /// a JSON object alone; see ``parse(topic:payload:by:)``.
    package static func parse(line: ArraySlice<UInt8>, by key: DeviceKey) throws(DeviceRecordProblem) -> DeviceLocation? {
        let start = line.firstIndex { $0 != 0x20 && $0 != 0x09 } ?? line.endIndex
        guard start < line.endIndex else { return nil }
        if line[start] == UInt8(ascii: "{") { return try parse(topic: nil, payload: line[start...], by: key) }
        guard let space = line[start...].firstIndex(of: 0x20) else {
            throw DeviceRecordProblem(description: "neither a JSON object nor a topic, a space and a JSON payload")
        }
        guard let topic = String(validating: line[start..<space], as: UTF8.self) else {
            throw DeviceRecordProblem(description: "its topic is not UTF-8")
        }
        do throws(DeviceRecordProblem) {
            try checkName(topic)
        } catch {
            throw DeviceRecordProblem(description: "its topic '\(UntrustedText.visible(topic, limit: 80))' \(error.description)")
        }
        return try parse(topic: topic, payload: line[(space + 1)...], by: key)
    }

    /// Checks that `name` can name a device in every output: 1 to 256 bytes, no space, no
    /// control or invisible character.
    private static func checkName(_ name: String) throws(DeviceRecordProblem) {
        guard !name.isEmpty, name.utf8.count <= maximumNameLength else {
            throw DeviceRecordProblem(description: "is not a device name (1 to \(maximumNameLength) bytes)")
        }
        guard !UntrustedText.hasHidden(name), !name.unicodeScalars.contains(where: { $0.properties.isWhitespace }) else {
            throw DeviceRecordProblem(description: "is not a device name (it has a space, control or invisible character)")
        }
    }
}
