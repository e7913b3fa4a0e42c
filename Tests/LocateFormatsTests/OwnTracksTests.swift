import LocateSupport
import Testing

@testable import LocateFormats

/// OwnTracks' JSON: what is written reads back as the same location, the lines are OwnTracks'
/// own to the byte, and what an OwnTracks app sends is read.
struct OwnTracksTests {
    @Test func aWrittenLocationReadsBackTheSame() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            // OwnTracks leaves out a zero (the apps' "not known"), so a written zero reads back as nil: none is drawn.
            func some(_ range: ClosedRange<Int>) -> Int? {
                guard Bool.random(using: &generator) else { return nil }
                let value = Int.random(in: range, using: &generator)
                return value == 0 ? nil : value
            }
            let written = OwnTracks.Location(
                latitude: (Double.random(in: -90...90, using: &generator) * 1e7).rounded() / 1e7,
                longitude: (Double.random(in: -180...180, using: &generator) * 1e7).rounded() / 1e7,
                time: some(1...4_000_000_000), accuracy: some(1...5_000), altitude: some(-400...9_000), verticalAccuracy: some(1...500),
                velocity: some(1...300), course: some(1...359))
            let text = OwnTracks.locationMessage(written, trackerID: "vn", createdAt: 1_700_000_000)
            let members = try #require(FlatJSON.parse(Array(text.utf8)), "\(text)")
            #expect(try OwnTracks.Location(members: members) == written, "\(text)")
        }
    }

    @Test func theLinesAreOwnTracksOwn() {
        let location = OwnTracks.Location(
            latitude: 64.1504322, longitude: -21.9404567, time: 1_764_454_327, accuracy: 17, altitude: 13, verticalAccuracy: 30,
            velocity: 0,
            course: nil)
        #expect(
            OwnTracks.locationMessage(location, trackerID: "an", createdAt: 1_764_454_328)
                == #"{"_type":"location","lat":64.1504322,"lon":-21.9404567,"tst":1764454327,"acc":17,"alt":13,"vac":30,"tid":"an","created_at":1764454328}"#
        )
        var unknown = location
        unknown.accuracy = nil
        #expect(
            OwnTracks.transitionMessage(unknown, entering: false, region: "home", waypointTime: 1_764_450_000, trackerID: "an")
                == #"{"_type":"transition","wtst":1764450000,"lat":64.1504322,"lon":-21.9404567,"tst":1764454327,"alt":13,"vac":30,"acc":0,"event":"leave","desc":"home","tid":"an","t":"c"}"#
        )
        #expect(OwnTracks.willMessage(connectedAt: 1_764_450_000) == #"{"_type":"lwt","tst":1764450000}"#)
    }

    /// A message as OwnTracks' Android app publishes one (its extra keys ignored), and what is
    /// no location.
    @Test func whatAnAppSendsIsRead() throws {
        let app =
            #"{"_type":"location","acc":12,"alt":45,"batt":83,"bs":1,"cog":270,"conn":"m","created_at":1764454330,"lat":51.5007,"lon":-0.1246,"m":1,"tid":"ph","tst":1764454329,"vac":3,"vel":18}"#
        let appMembers = try #require(FlatJSON.parse(Array(app.utf8)))
        let location = try #require(try OwnTracks.Location(members: appMembers))
        #expect(
            location
                == OwnTracks.Location(
                    latitude: 51.5007, longitude: -0.1246, time: 1_764_454_329, accuracy: 12, altitude: 45, verticalAccuracy: 3,
                    velocity: 18,
                    course: 270))
        let card = try #require(FlatJSON.parse(Array(#"{"_type":"card","name":"me"}"#.utf8)))
        #expect(try OwnTracks.Location(members: card) == nil)
        for (bad, reason) in [
            (#"{"_type":"location","lon":1,"tst":1}"#, "needs lat and lon"),
            (#"{"_type":"location","lat":"1","lon":1}"#, "'lat' is not a number"),
            (#"{"_type":"location","lat":1,"lon":1,"tst":1e300}"#, "'tst' is out of range"),
        ] {
            let members = try #require(FlatJSON.parse(Array(bad.utf8)))
            #expect(throws: OwnTracks.Problem.self, "\(bad)") { try OwnTracks.Location(members: members) }
            do { _ = try OwnTracks.Location(members: members) } catch {
                #expect(error.description.contains(reason), "\(error.description)")
            }
        }
    }
}
