import GPSLocation
import HostileInput
import LocateSupport
import Testing

@testable import locate

/// The lines `locate geocode --batch` reads: which are points, and what each of the others says.
struct BatchLineTests {
    private func point(_ text: String) -> (Double, Double)? {
        if case .point(let latitude, let longitude, _) = BatchLine(Array(text.utf8)[...]) { return (latitude, longitude) }
        return nil
    }

    private func problem(_ text: String) -> String? {
        if case .invalid(let reason) = BatchLine(Array(text.utf8)[...]) { return reason }
        return nil
    }

    @Test(arguments: [
        ("37.5 126.9", 37.5, 126.9), ("37.5\t126.9", 37.5, 126.9), ("  37.5   126.9  ", 37.5, 126.9), ("37.5,126.9", 37.5, 126.9),
        ("37.5 , 126.9", 37.5, 126.9), ("-33.8568,151.2153\r", -33.8568, 151.2153), ("90 180", 90, 180), ("-90 -180", -90, -180),
        ("1e1 2", 10, 2), (#"{"lat":1.5,"lon":-2.5}"#, 1.5, -2.5), (#" {"lon":2,"x":[1,{"y":null}],"lat":1} "#, 1, 2),
    ])
    func pointsAreReadInEveryForm(text: String, latitude: Double, longitude: Double) throws {
        let read = try #require(point(text), "\(text): \(problem(text) ?? "?")")
        #expect(read.0 == latitude && read.1 == longitude)
    }

    @Test(arguments: [
        ("", "an empty line"), ("   ", "an empty line"), ("37.5", "not LAT LON or LAT,LON: '37.5'"),
        ("1 2 3", "not LAT LON or LAT,LON: '1 2 3'"),
        ("1,2,3", "not LAT LON or LAT,LON: '1,2,3'"), (",1 2", "not LAT LON or LAT,LON: ',1 2'"),
        ("1 2,", "not LAT LON or LAT,LON: '1 2,'"),
        ("91 0", "not a coordinate: '91' (expected a number from -90 to 90)"),
        ("0 180.1", "not a coordinate: '180.1' (expected a number from -180 to 180)"),
        ("nan 0", "not a coordinate: 'nan' (expected a number from -90 to 90)"),
        ("0x10 5", "not a coordinate: '0x10' (expected a number from -90 to 90)"),
        ("1,5 2,5", "not LAT LON or LAT,LON: '1,5 2,5'"),
        ("\u{1B}[2J 1", "not a coordinate: '\\u{1B}[2J' (expected a number from -90 to 90)"),
        (#"{"lat":"1","lon":2}"#, #"a JSON object without numbers "lat" and "lon""#),
        (#"{"lat":1,"lat":1,"lon":2}"#, "not a JSON object (or one with a key twice)"),
        (#"{"lat":1,"lon":2"#, "not a JSON object (or one with a key twice)"),
        (#"{"lat":91,"lon":2}"#, "not a coordinate: 91, 2"),
    ])
    func everyOtherLineSaysWhatIsWrong(text: String, reason: String) {
        #expect(problem(text) == reason)
    }

    @Test func jsonMembersAreKeptInOrderAndStatusEventsPassThrough() throws {
        guard
            case .point(_, _, let members?) = BatchLine(Array(#"{"type":"fix","lat":1,"lon":2,"nested":{"a":[1]},"city":null}"#.utf8)[...])
        else {
            Issue.record("not a point")
            return
        }
        #expect(members.map(\.key) == ["type", "lat", "lon", "nested", "city"])
        #expect(String(decoding: members[3].value, as: UTF8.self) == #"{"a":[1]}"#)
        let event = #"{"type":"status","event":"no_fix"}"#
        guard case .passthrough(let bytes) = BatchLine(Array(event.utf8)[...]) else {
            Issue.record("not passed through")
            return
        }
        #expect(String(decoding: bytes, as: UTF8.self) == event)
    }

    @Test func hostileLinesAreNeverACrash() {
        var mutator = Mutator(seed: 1984)
        let seeds = ["37.5 126.9", "-33.8568,151.2153", #"{"type":"fix","lat":64.1,"lon":-21.9,"a":[{"b":"c"}]}"#]
        for line in mutator.corpus(from: seeds, count: 400) {
            switch BatchLine(line[...]) {
            case .point(let latitude, let longitude, _): #expect(abs(latitude) <= 90 && abs(longitude) <= 180)
            case .passthrough(let bytes): #expect(FlatJSON.members(of: bytes) != nil)
            case .invalid(let reason): #expect(!UntrustedText.hasHidden(reason) && reason.count < 200)
            }
        }
    }
}
