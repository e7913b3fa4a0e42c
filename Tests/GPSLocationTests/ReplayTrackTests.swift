import Foundation
import LocateSupport
import Testing

@testable import GPSLocation

struct ReplayTrackTests {
    private func track(_ text: String) throws(GPSLocationError) -> ReplayTrack {
        try ReplayTrack(parsing: Array(text.utf8), name: "track")
    }

    private func problem(_ text: String) -> String? {
        do {
            _ = try track(text).allLocations()
            return nil
        } catch {
            return error.description
        }
    }

    /// What GPX gives a point (what it holds of other programs' GPX is GPXTests'), as a location.
    @Test func gpxTrackPointsWithTimesElevationAndHDOP() throws {
        let gpx = """
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
              <trkpt lat="37.5178" lon="126.8863"><ele>30.5</ele><time>2026-01-01T08:00:00Z</time><hdop>1.2</hdop></trkpt>
              <trkpt lat="-33.5" lon="-70.25"><time>2026-01-01T05:00:01-03:00</time></trkpt>
              <trkpt lat="0" lon="0"/>
            </trkseg></trk></gpx>
            """
        let locations = try track(gpx).allLocations()
        #expect(locations.count == 3)
        #expect(locations[0].latitude == 37.5178 && locations[0].longitude == 126.8863)
        #expect(locations[0].altitudeMSL == 30.5 && locations[0].mode == .threeDimensional)
        #expect(locations[0].horizontalAccuracy == 1.2, "the hdop is the accuracy, as DESIGN says")
        #expect(locations[0].time == Date(timeIntervalSince1970: 1_767_254_400))
        #expect(locations[1].time == Date(timeIntervalSince1970: 1_767_254_401), "an offset is honoured")
        #expect(locations[1].horizontalAccuracy == nil, "no hdop: taken as exact")
        #expect(locations.allSatisfy { $0.source == .replay })
    }

    /// A point as `locate --gpx` writes one replays as the location it was written from: the
    /// mode or the fix's type, the satellites, the dilutions, the variation (west, from GPX's 0
    /// to 360) and the geoid's separation.
    @Test func gpxPointsCarryEveryValueLocateWrites() throws {
        let gpx = """
            <gpx version="1.1" creator="locate"><trk><name>locate</name><trkseg>
            <trkpt lat="64.1504322" lon="-21.9404567"><ele>12.5</ele><time>2026-01-01T08:00:06.250Z</time><magvar>346.8</magvar><geoidheight>45.0</geoidheight><fix>dgps</fix><sat>8</sat><hdop>0.90</hdop><vdop>1.25</vdop><pdop>1.50</pdop></trkpt>
            <trkpt lat="64.1504322" lon="-21.9404567"><ele>12.5</ele><fix>2d</fix></trkpt>
            </trkseg></trk></gpx>
            """
        let locations = try track(gpx).allLocations()
        #expect(locations.count == 2)
        let first = try #require(locations.first)
        #expect(first.mode == .threeDimensional && first.satellitesUsed == 8 && first.hdop == 0.9)
        #expect(first.altitudeMSL == 12.5 && first.altitudeHAE == 57.5)
        #expect(
            first.details
                == Location.Details(fix: .dgps, vdop: 1.25, pdop: 1.5, magneticVariation: -13.2, geoidSeparation: 45))
        #expect(locations[1].mode == .twoDimensional, "the fix's mode, not the elevation's")
    }

    @Test func gpxWithoutTrackUsesRoutesThenWaypoints() throws {
        let route = #"<gpx><wpt lat="1" lon="1"/><rte><rtept lat="2" lon="2"/><rtept lat="3" lon="3"/></rte></gpx>"#
        #expect(try track(route).allLocations().map(\.latitude) == [2, 3])
        #expect(try track(#"<gpx><wpt lat="1" lon="1"/></gpx>"#).allLocations().map(\.latitude) == [1])
    }

    @Test func nmeaGivesOneFixPerEpochWithTheRMCDate() throws {
        let nmea = """
            $GPRMC,080000.00,A,6408.40000,N,02154.60686,W,6.41,0.0,010126,,,A*71
            $GPGGA,080000.00,6408.40000,N,02154.60686,W,1,08,0.9,30.0,M,45.0,M,,*47
            $GPGSA,A,3,02,05,12,15,18,24,25,29,,,,,1.6,0.9,1.3*3D
            $GPRMC,080001.00,A,6408.40178,N,02154.60687,W,6.41,359.6,010126,,,A*00
            $GPRMC,080002.00,V,,,,,,,010126,,,N*7F
            $GPRMC,080001.00,A,6408.40178,N,02154.60687,W,6.41,359.6,010126,,,A*76
            $GPGGA,080001.00,6408.40178,N,02154.60687,W,1,08,0.9,30.1,M,45.0,M,,*48
            """
        let locations = try track(nmea).allLocations()
        #expect(locations.count == 2, "the bad checksum and the V sentence are skipped")
        #expect(abs(locations[0].latitude - 64.14) < 1e-9 && abs(locations[0].longitude - -21.910114) < 1e-6)
        #expect(locations[0].time == Date(timeIntervalSince1970: 1_767_254_400), "an extension's <time> is not the point's")
        #expect(locations[1].time == Date(timeIntervalSince1970: 1_767_254_401))
        #expect(locations[0].altitudeMSL == 30 && locations[0].altitudeHAE == 75 && locations[0].satellitesUsed == 8)
        #expect(abs((locations[0].speed ?? 0) - 6.41 * 1852 / 3600) < 1e-9)
        #expect(locations[0].horizontalAccuracy == 0.9)
        #expect(locations[0].details.pdop == 1.6 && locations[0].details.vdop == 1.3, "GSA's dilutions")
        #expect(locations[1].details.pdop == nil, "no GSA in the second epoch")
    }

    /// GSA's mode is the fix's: a 2D fix stays 2D though GGA gives an altitude.
    @Test func nmeaTakesTheModeOfGSA() throws {
        let nmea = """
            $GPRMC,080000.00,A,6408.40000,N,02154.60686,W,6.41,0.0,010126,,,A*71
            $GPGGA,080000.00,6408.40000,N,02154.60686,W,1,08,0.9,30.0,M,45.0,M,,*47
            $GPGSA,A,2,,,,,,,,,,,,,1.60,0.90,1.30*0F
            """
        let location = try #require(try track(nmea).allLocations().first)
        #expect(location.mode == .twoDimensional && location.altitudeMSL == 30)
    }

    /// gpsd's receiver logs start with `#` comments; some receivers' RMC and GGA of one epoch
    /// disagree on the position (bundg_zeus_9.log of gpsd's regressions), and gpsd reports the first.
    @Test func aReceiverLogWithCommentsAndDisagreeingSentences() throws {
        let log = """
            # Name: a receiver
            # Date: 2018-08-20
            $GPRMC,094737,A,5251.0093,N,00518.8170,E,5.6,230.5,200818,1.4,E,A*1F
            $GPGGA,094737,5251.0085,N,00518.8151,E,1,12,0.60,-4,M,46.8,M,,*4B
            """
        let location = try #require(try track(log).allLocations().first)
        #expect(abs(location.latitude - (52 + 51.0093 / 60)) < 1e-9 && abs(location.longitude - (5 + 18.8170 / 60)) < 1e-9)
        #expect(location.altitudeMSL == -4 && location.satellitesUsed == 12, "the rest of GGA still counts")
        #expect(location.time == Date(timeIntervalSince1970: 1_534_758_457))
    }

    @Test func jsonLinesTakeFixRecordsAndSkipTheRest() throws {
        let lines = """
            {"type":"status","event":"no_fix","time":"2026-01-01T08:00:00.000Z","message":"no fix yet"}
            {"type":"fix","time":"2026-01-01T08:00:05.000Z","lat":64.14,"lon":-21.91,"h_acc":3.1,"mode":"3d","source":"gpsd"}

            {"lat":64.15,"lon":-21.92}
            """
        let locations = try track(lines).allLocations()
        #expect(locations.map(\.latitude) == [64.14, 64.15])
        #expect(locations.allSatisfy { $0.source == .replay }, "a replayed record is a replay, whatever it said")
    }

    @Test func aTrackWrittenOnWindowsReadsAlike() throws {
        let bom = "\u{FEFF}"
        let jsonLines = bom + "{\"lat\":1.5,\"lon\":2.5}\r\n{\"lat\":1.6,\"lon\":2.6}\r\n"
        #expect(try track(jsonLines).allLocations().map(\.latitude) == [1.5, 1.6])
        let gpx = bom + "<gpx>\r\n<trkpt lat=\"1\" lon=\"2\">\r\n<time>2026-01-01T08:00:00Z</time>\r\n</trkpt>\r\n</gpx>\r\n"
        #expect(try track(gpx).allLocations().map(\.latitude) == [1])
        let nmea = bom + "$GPRMC,080000.00,A,6408.40000,N,02154.60686,W,6.41,0.0,010126,,,A*71\r\n"
        #expect(try track(nmea).allLocations().count == 1)
    }

    @Test(arguments: [
        ("hello", "track: not GPX, NMEA 0183 or JSON Lines"),
        ("", "track: not GPX, NMEA 0183 or JSON Lines"),
        ("<html><body/></html>", "track:1: not a GPX document (its root is not <gpx>)"),
        ("<gpx>\n<trkpt lat=\"91\" lon=\"0\"/></gpx>", "track:2: a <trkpt> needs lat and lon in range"),
        ("<gpx><trkpt lat=\"1\" lon=\"0\"><time>noon</time></trkpt></gpx>", "track:1: <time> is not an ISO 8601 time with a zone"),
        ("<gpx><trkpt lat=\"1\" lon=\"0\">", "track:1: a point is not closed before the end of the file"),
        ("<gpx>\n<trkpt lat=\"1\" lon=\"0\">\n<trkpt lat=\"2\" lon=\"0\">", "track:3: a point opens inside the point of line 2"),
        ("<gpx><trkpt lat=\"1\" lon=\"0\"", "track:1: a tag is not closed"),
        ("<gpx><!-- open", "track:1: '-->' is missing"),
        ("<gpx></gpx>", "track: has no fix"),
        ("$GPGSV,2,1,08*70\n", "track: has no fix"),
        ("{\"lat\":1,\"lon\":2}\n{\"lat\":1,", "track:2: not a flat JSON object"),
        ("{\"lat\":100,\"lon\":2}", "track:1: not a fix record ('lat': 100.0 is out of range)"),
    ])
    func whatIsNoTrackIsAnErrorOnItsLine(_ text: String, _ expected: String) {
        #expect(problem(text) == expected)
    }

    @Test func aMissingFileAndADirectoryAreErrorsNamingThem() {
        #expect(throws: GPSLocationError.invalidTrack(file: "/nonexistent/track.gpx", line: nil, reason: "no such file")) {
            try ReplayTrack(contentsOf: "/nonexistent/track.gpx")
        }
        #expect(throws: GPSLocationError.self) { try ReplayTrack(contentsOf: "/tmp") }
    }

    @Test func timestampsParseOnlyWithAZone() {
        #expect(UTCTimestamp.parse("2026-01-01T08:00:05.250Z") == Date(timeIntervalSince1970: 1_767_254_405.25))
        #expect(UTCTimestamp.parse("2026-01-01T09:00:05+01:00") == Date(timeIntervalSince1970: 1_767_254_405))
        #expect(UTCTimestamp.parse("2024-02-29T00:00:00Z") != nil)
        for bad in ["2026-01-01T08:00:05", "2026-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-01-01 08:00:05Z", "2026-01-01T08:00:05.Z"]
        {
            #expect(UTCTimestamp.parse(bad) == nil, "\(bad)")
        }
    }
}

struct MotionDetectorTests {
    @Test func stationaryAfterAMinuteWithinTheAccuracyAndMovingWhenItLeaves() {
        var detector = MotionDetector(stationaryAfter: .seconds(60))
        var events: [String] = []
        for second in stride(from: 0.0, through: 90, by: 10) {
            let fix = RegionMonitorTests.fix(north: second.truncatingRemainder(dividingBy: 20) == 0 ? 0 : 3, accuracy: 4, second: second)
            if let event = detector.observe(fix) { events.append("\(Int(second)) \(event.name)") }
        }
        if let event = detector.observe(RegionMonitorTests.fix(north: 30, accuracy: 4, second: 100)) { events.append("100 \(event.name)") }
        #expect(events == ["60 stationary", "100 moving"])
    }
}
