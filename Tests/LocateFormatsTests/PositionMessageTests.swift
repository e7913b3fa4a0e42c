import Testing

@testable import LocateFormats

/// Which messages carry a position: a `locate` fix record or an OwnTracks location; every other
/// record is none, and a payload that is no flat JSON object, or an OwnTracks location with a
/// value that is no number, is refused.
struct PositionMessageTests {
    private func message(_ text: String) throws(PositionMessage.Problem) -> PositionMessage? {
        try PositionMessage(json: ArraySlice(text.utf8))
    }

    @Test func aFixRecordOrAnOwnTracksLocationIsAPosition() throws {
        let record = try #require(try message(#"{"type":"fix","lat":1,"lon":2,"van":"12"}"#))
        guard case .record = record.format else {
            Issue.record("\(record.format)")
            return
        }
        #expect(record.members["van"] == .string("12"))
        #expect(try message(#"{"lat":1,"lon":2}"#) != nil)
        let ownTracks = try #require(try message(#"{"_type":"location","lat":52.5,"lon":13.25,"tst":1767225600,"acc":7,"tid":"ab"}"#))
        guard case .ownTracks(let location) = ownTracks.format else {
            Issue.record("\(ownTracks.format)")
            return
        }
        #expect(location == OwnTracks.Location(latitude: 52.5, longitude: 13.25, time: 1_767_225_600, accuracy: 7))
    }

    @Test func otherRecordsAreNone() throws {
        for text in [
            #"{"_type":"transition","lat":1,"lon":2}"#, #"{"_type":"lwt","tst":1}"#, #"{"type":"status","event":"no_fix"}"#,
            #"{"type":"region","lat":1,"lon":2}"#, #"{"type":"fallback","lat":1,"lon":2}"#, #"{"lat":1,"lon":2,"source":"fallback"}"#,
        ] {
            #expect(try message(text) == nil, "\(text)")
        }
    }

    @Test func whatIsNoMessageIsRefused() {
        for text in ["{", "", #"{"a":{"b":1}}"#, #"{"_type":"location","lat":"1","lon":2}"#, #"{"_type":"location","lon":2}"#] {
            #expect(throws: PositionMessage.Problem.self, "\(text)") { try message(text) }
        }
    }
}
