import FoundationEssentials
package import LocateFormats

extension Location {
    /// The position of a message as data (a replayed track's line, another device's message):
    /// marked ``LocationSource/replay``, with full accuracy whatever the message says (what a
    /// recording run was allowed is no permission here). A `locate` fix record is read as
    /// ``Location`` decodes one; an OwnTracks location gives its position, and its time (`tst`),
    /// accuracy (`acc`), altitude (`alt`), vertical accuracy (`vac`), speed (`vel`, km/h) and
    /// course (`cog`) when given, 2D unless it has an altitude.
    /// - Throws: `PositionMessage.Problem` for a value out of range, naming it.
    package init(replaying message: PositionMessage) throws(PositionMessage.Problem) {
        switch message.format {
        case .record:
            do throws(RecordProblem) {
                try self.init(record: FlatJSONRecord(members: message.members))
            } catch {
                throw PositionMessage.Problem(description: "not a fix record ('\(error.key.rawValue)': \(error.message))")
            }
            source = .replay
            accuracy = .fullAccuracy
        case .ownTracks(let location):
            do throws(GPSLocationError) {
                try self.init(
                    latitude: location.latitude, longitude: location.longitude,
                    time: location.time.map { Date(timeIntervalSince1970: Double($0)) },
                    altitudeMSL: location.altitude.map(Double.init), horizontalAccuracy: location.accuracy.map(Double.init),
                    verticalAccuracy: location.verticalAccuracy.map(Double.init), speed: location.velocity.map { Double($0) / 3.6 },
                    course: location.course.map(Double.init), mode: location.altitude == nil ? .twoDimensional : .threeDimensional,
                    source: .replay)
            } catch {
                throw PositionMessage.Problem(description: "not an OwnTracks location: \(error.description)")
            }
        }
    }
}
