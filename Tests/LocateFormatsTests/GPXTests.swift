import Foundation
import LocateSupport
import Testing

@testable import LocateFormats

/// GPX: what the writer writes reads back as the same points, the writer's lines are GPX 1.1's
/// to the byte, and what other programs write is read.
struct GPXTests {
    private func points(_ bytes: [UInt8]) throws(TrackProblem) -> [GPX.Point] {
        var reader = GPX.Reader(TrackInput(bytes: bytes))
        var points: [GPX.Point] = []
        while let point = try reader.next() { points.append(point) }
        return points
    }

    private func document(_ shape: GPX.Writer.Shape, _ write: (inout GPX.Writer, inout [UInt8]) -> Void) -> [UInt8] {
        var writer = GPX.Writer(shape: shape, creator: "test")
        var output: [UInt8] = []
        writer.prologue(to: &output)
        write(&writer, &output)
        writer.epilogue(to: &output)
        return output
    }

    /// Random points at the writer's precision, every value the writer writes drawn: read back,
    /// they are the points written, of both shapes and across segments.
    @Test(arguments: [GPX.Writer.Shape.waypoint, .track])
    func writtenPointsReadBackTheSame(shape: GPX.Writer.Shape) throws {
        var generator = SystemRandomNumberGenerator()
        func some<Value>(_ make: () -> Value) -> Value? { Bool.random(using: &generator) ? make() : nil }
        func decimal(_ range: ClosedRange<Int>, _ decimals: Int) -> Double {
            Double(Int.random(in: range, using: &generator)) / (0..<decimals).reduce(1.0) { scale, _ in scale * 10 }
        }
        var written: [GPX.Point] = []
        for _ in 0..<500 {
            var point = GPX.Point(latitude: decimal(-900_000_000...900_000_000, 7), longitude: decimal(-1_800_000_000...1_800_000_000, 7))
            point.elevation = some { decimal(-100_000...1_000_000, 1) }
            // A time as the reader holds one: read from the text of a millisecond.
            point.time = some { Date(timeIntervalSince1970: decimal(0...4_102_444_800_000, 3)) }
                .flatMap(UTCTimestamp.iso8601).flatMap(UTCTimestamp.parse)
            point.hdop = some { decimal(0...10_000, 2) }
            // West of -180 is 180 east, the same meridian (read back as 180).
            point.magneticVariation = some { decimal(-1_799...1_800, 1) }
            point.geoidHeight = some { decimal(-2_000...2_000, 1) }
            point.description = some { ["a <b> & \"c\" 'd' &amp;", "Café ½ \u{1F6F0}", "no_fix"].randomElement(using: &generator)! }
            point.source = some { "fallback" }
            point.fix = some { GPX.Fix.allCases.randomElement(using: &generator) }.flatMap { $0 }
            point.satellites = some { Int.random(in: 0...64, using: &generator) }
            point.vdop = some { decimal(0...10_000, 2) }
            point.pdop = some { decimal(0...10_000, 2) }
            written.append(point)
        }
        let bytes = document(shape) { writer, output in
            for point in written {
                writer.append(point, to: &output)
                if Int.random(in: 0..<10, using: &generator) == 0 { _ = writer.endSegment(to: &output) }
            }
        }
        let read = try points(bytes)
        #expect(read.count == written.count)
        for (point, wanted) in zip(read, written) {
            #expect(point == wanted)
        }
    }

    /// The lines of a waypoint and of a track, as `locate --gpx` writes them and gpsbabel reads
    /// them; a variation west is GPX's 0 to 360, text is escaped.
    @Test func theLinesAreGPXOwn() throws {
        var point = GPX.Point(latitude: 64.1504322, longitude: -21.9404567)
        point.elevation = 12.5
        point.time = Date(timeIntervalSince1970: 1_767_254_406.25)
        point.magneticVariation = -13.2
        point.geoidHeight = 45
        point.fix = .dgps
        point.satellites = 8
        (point.hdop, point.vdop, point.pdop) = (0.9, 1.25, 1.5)
        let declaration = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">
            """
        #expect(
            String(decoding: document(.waypoint) { writer, output in writer.append(point, to: &output) }, as: UTF8.self)
                == declaration + """

                    <wpt lat="64.1504322" lon="-21.9404567"><ele>12.5</ele><time>2026-01-01T08:00:06.250Z</time><magvar>346.8</magvar><geoidheight>45.0</geoidheight><fix>dgps</fix><sat>8</sat><hdop>0.90</hdop><vdop>1.25</vdop><pdop>1.50</pdop></wpt>
                    </gpx>

                    """)
        #expect(try points(document(.waypoint) { writer, output in writer.append(point, to: &output) }) == [point])
        var bare = GPX.Point(latitude: 1, longitude: 2)
        bare.fix = .twoDimensional
        bare.description = "a <b> & \"c\""
        let track = document(.track) { writer, output in
            writer.append(bare, to: &output)
            let ended = writer.endSegment(to: &output)
            let endedAgain = writer.endSegment(to: &output)
            #expect(ended && !endedAgain, "one end, not a second")
            writer.append(bare, to: &output)
        }
        #expect(
            String(decoding: track, as: UTF8.self) == declaration + """

                <trk><name>test</name>
                <trkseg>
                <trkpt lat="1.0000000" lon="2.0000000"><desc>a &lt;b&gt; &amp; &quot;c&quot;</desc><fix>2d</fix></trkpt>
                </trkseg>
                <trkseg>
                <trkpt lat="1.0000000" lon="2.0000000"><desc>a &lt;b&gt; &amp; &quot;c&quot;</desc><fix>2d</fix></trkpt>
                </trkseg>
                </trk>
                </gpx>

                """)
        #expect(try points(track) == [bare, bare])
    }

    /// A Garmin-style track (a waypoint before it, extensions with a `time` of their own, an
    /// offset time, a comment holding a point), GPX 1.0's speed and course, and a route.
    @Test func whatOtherProgramsWriteIsRead() throws {
        let garmin = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
              <wpt lat="1" lon="1"><name>ignored: there is a track</name></wpt>
              <!-- <trkpt lat="9" lon="9"> in a comment is no point -->
              <trk><name>Run &amp; back</name><trkseg>
                <trkpt lat="37.5178" lon='126.8863'><ele>30.5</ele><time>2026-01-01T08:00:00Z</time><hdop>1.2</hdop>
                  <extensions><gpxtpx:hr>120</gpxtpx:hr><x:time>1999-01-01T00:00:00Z</x:time></extensions></trkpt>
                <trkpt lat="-33.5" lon="-70.25"><time>2026-01-01T05:00:01-03:00</time></trkpt>
                <trkpt lat="0" lon="0"/>
              </trkseg></trk>
            </gpx>
            """
        var first = GPX.Point(latitude: 37.5178, longitude: 126.8863)
        (first.elevation, first.time, first.hdop) = (30.5, Date(timeIntervalSince1970: 1_767_254_400), 1.2)
        var second = GPX.Point(latitude: -33.5, longitude: -70.25)
        second.time = Date(timeIntervalSince1970: 1_767_254_401)
        #expect(try points(Array(garmin.utf8)) == [first, second, GPX.Point(latitude: 0, longitude: 0)])

        let version10 =
            #"<gpx version="1.0"><trk><trkseg><trkpt lat="1" lon="2"><course>359.5</course><speed>4.25</speed></trkpt></trkseg></trk></gpx>"#
        var moving = GPX.Point(latitude: 1, longitude: 2)
        (moving.speed, moving.course) = (4.25, 359.5)
        #expect(try points(Array(version10.utf8)) == [moving])

        let route = #"<gpx><wpt lat="1" lon="1"/><rte><rtept lat="2" lon="2"/><rtept lat="3" lon="3"/></rte></gpx>"#
        #expect(try points(Array(route.utf8)).map(\.latitude) == [2, 3])

        // A variation east as it is, GPX's none as no fix, a description in CDATA with a bare `&`
        // and references, white space around values.
        let logger = """
            <gpx><wpt lat="1" lon="2">
              <magvar> 13.5 </magvar><geoidheight>-31.2</geoidheight>
              <desc><![CDATA[Fish & chips]]> &#233;&#x1F6F0;&lt;&bogus;</desc><src>
                a logger</src><fix>none</fix><sat>012</sat><vdop>2</vdop><pdop>3.5</pdop>
            </wpt></gpx>
            """
        var logged = GPX.Point(latitude: 1, longitude: 2)
        (logged.magneticVariation, logged.geoidHeight, logged.satellites, logged.vdop, logged.pdop) = (13.5, -31.2, 12, 2, 3.5)
        (logged.description, logged.source) = ("Fish & chips é\u{1F6F0}<&bogus;", "a logger")
        #expect(try points(Array(logger.utf8)) == [logged])
    }

    /// A value the reader cannot take is an error on its line, as for the values read before;
    /// an element inside a value is no value.
    @Test(arguments: [
        ("<magvar>361</magvar>", "<magvar> is not a number in range"),
        ("<magvar>-1</magvar>", "<magvar> is not a number in range"),
        ("<geoidheight>1e9</geoidheight>", "<geoidheight> is not a number in range"),
        ("<vdop>x</vdop>", "<vdop> is not a number in range"),
        ("<pdop>-0.5</pdop>", "<pdop> is not a number in range"),
        ("<sat>-1</sat>", "<sat> is not a number of satellites (0 to 255)"),
        ("<sat>256</sat>", "<sat> is not a number of satellites (0 to 255)"),
        ("<sat>8.0</sat>", "<sat> is not a number of satellites (0 to 255)"),
        ("<fix>4d</fix>", "<fix> is not none, 2d, 3d, dgps or pps"),
        ("<fix></fix>", "<fix> is not none, 2d, 3d, dgps or pps"),
        ("<desc><b>bold</b></desc>", "<desc> holds elements, not a value"),
    ])
    func malformedValuesAreErrorsOnTheirLine(_ child: String, _ reason: String) {
        let document = "<gpx>\n<trk><trkseg>\n<trkpt lat=\"1\" lon=\"2\">\n\(child)\n</trkpt></trkseg></trk></gpx>"
        do {
            let read = try points(Array(document.utf8))
            Issue.record("read \(read)")
        } catch {
            #expect(error.line == 4 && error.reason == reason, "\(error.line ?? 0): \(error.reason)")
        }
    }
}
