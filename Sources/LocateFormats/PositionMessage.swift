package import LocateSupport

/// A JSON message that carries a position, in one of the formats `locate` reads positions
/// from (a replayed track's JSON Lines, a fleet's messages): a `locate` fix record, or an
/// OwnTracks location. Which records are positions is decided here only: OwnTracks' other
/// `_type`s, `locate`'s status, region and visit records and its fallback coordinate are not.
package struct PositionMessage: Sendable {
    /// The format of the position.
    package enum Format: Sendable {
        /// A `locate` fix record (`"type":"fix"`, or no type), read by its `RecordKey`s.
        case record
        /// An OwnTracks location (`"_type":"location"`), read.
        case ownTracks(OwnTracks.Location)
    }

    /// Its format, and the OwnTracks location read.
    package let format: Format
    /// The message's members: the record's values, and any other field (a device's name).
    package let members: [String: FlatJSON.Value]

    /// The position in `payload`, or `nil` for a record that is not one.
    /// - Throws: `Problem` for a payload that is not a flat JSON object, or an OwnTracks location
    ///   whose values are not numbers.
    package init?(json payload: ArraySlice<UInt8>) throws(Problem) {
        guard let members = FlatJSON.parse(Array(payload)) else { throw Problem(description: "not a flat JSON object") }
        if members[OwnTracks.Key.type.rawValue] != nil {
            let location: OwnTracks.Location?
            do throws(OwnTracks.Problem) {
                location = try OwnTracks.Location(members: members)
            } catch {
                throw Problem(description: error.description)
            }
            guard let location else { return nil }
            format = .ownTracks(location)
        } else {
            if let type = members[RecordKey.type.rawValue], type != .string("fix") { return nil }
            // The fallback stands in for a position; it is not one the receiver had.
            if members[RecordKey.source.rawValue] == .string("fallback") { return nil }
            format = .record
        }
        self.members = members
    }

    /// A payload that is no position message, and why.
    package struct Problem: Error, Sendable {
        package let description: String

        package init(description: String) {
            self.description = description
        }
    }
}
