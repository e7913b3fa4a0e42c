import Foundation
import LocateSupport
import Testing

@testable import GPSLocation

/// The GPX scanner and reader on what XML allows and hostile documents do: line ends of every
/// kind, text split by comments, white space of any size, quotes holding a `>`, and more route
/// or waypoint points than wait in memory.
struct GPXScannerTests {
    private func locations(_ text: String) throws(GPSLocationError) -> [Location] {
        try ReplayTrack(parsing: Array(text.utf8), name: "track").allLocations()
    }

    private func problem(_ text: String) -> String? {
        do {
            _ = try locations(text)
            return nil
        } catch {
            return error.description
        }
    }

    /// CR, LF and CRLF each end one line, as TrackLines counts them (CR-only files put every
    /// problem on line 1 before).
    @Test(arguments: ["\n", "\r", "\r\n"])
    func everyKindOfLineEndCountsOnce(end: String) {
        let gpx = ["<gpx>", "<trk><trkseg>", "<trkpt lat=\"1\" lon=\"0\">", "<ele>high</ele></trkpt>"].joined(separator: end)
        #expect(problem(gpx) == "track:4: <ele> is not a number in range")
        let mixed = "<gpx>\r\n<trk>\r<trkseg>\n\r\n\r<trkpt lat=\"91\" lon=\"0\"/>"
        #expect(problem(mixed) == "track:6: a <trkpt> needs lat and lon in range")
    }

    /// A CRLF whose CR ends one chunk of input and whose LF starts the next is one line end.
    @Test func aCRLFAcrossChunksIsOneLineEnd() {
        let head = "<gpx>"
        let padding = String(repeating: " ", count: ChunkedInput.chunkSize - 1 - head.utf8.count)
        let gpx = head + padding + "\r\n<trkpt lat=\"91\" lon=\"0\"/></gpx>"
        #expect(problem(gpx) == "track:2: a <trkpt> needs lat and lon in range")
    }

    /// XML's text of `<ele>1<!-- c -->0</ele>` is "10": comments and processing instructions
    /// split no text, and CDATA is text.
    @Test(arguments: [
        "<ele>1<!-- c -->0</ele>", "<ele>1<?pi x?>0</ele>", "<ele><![CDATA[10]]></ele>", "<ele> 1<![CDATA[0]]> </ele>",
        "<ele>\n  <!-- metres -->\n  10\n</ele>",
    ])
    func textAroundCommentsIsJoined(element: String) throws {
        let location = try #require(try locations("<gpx><trkpt lat=\"1\" lon=\"2\">\(element)</trkpt></gpx>").first)
        #expect(location.altitudeMSL == 10)
    }

    /// An element inside a value is no value: said so, not read as the text after it.
    @Test func aValueHoldingElementsIsRefused() {
        #expect(
            problem("<gpx><trkpt lat=\"1\" lon=\"2\">\n<ele>1<b/>0</ele></trkpt></gpx>") == "track:2: <ele> holds elements, not a value")
    }

    /// White space around a value is not the value, however much there is; white space inside
    /// it makes it no number, and text longer than a value is said to be so.
    @Test func whiteSpaceAroundAValueHasNoLimit() throws {
        let space = String(repeating: " \t\n", count: 100_000)
        let gpx = "<gpx><trkpt lat=\"1\" lon=\"2\"><ele>\(space)10\(space)</ele><time>\(space)2026-01-01T08:00:00Z</time></trkpt>\n"
        let location = try #require(try locations(gpx + "</gpx>").first)
        #expect(location.altitudeMSL == 10 && location.time == Date(timeIntervalSince1970: 1_767_254_400))
        // Line numbers go on through it (a value's problem is on the line of its end tag).
        #expect(problem(gpx + "<trkpt lat=\"91\" lon=\"0\"/></gpx>") == "track:\(300_002): a <trkpt> needs lat and lon in range")
        #expect(
            problem("<gpx><trkpt lat=\"1\" lon=\"2\"><ele>1\(space)0</ele></trkpt></gpx>")
                == "track:\(100_001): <ele> is not a number in range")
        let long = String(repeating: "1", count: 300)
        #expect(problem("<gpx><trkpt lat=\"1\" lon=\"2\"><ele>\(long)</ele></trkpt></gpx>") == "track:1: <ele> is not a number in range")
    }

    /// A `>` inside a quoted attribute value does not end the tag; a `<` there is an error.
    @Test func quotesHoldWhatTheyHold() throws {
        let location = try #require(try locations(#"<gpx><trkpt note="a>b" lat='1' lon="2" x='"'><ele>3</ele></trkpt></gpx>"#).first)
        #expect(location.latitude == 1 && location.longitude == 2 && location.altitudeMSL == 3)
        #expect(
            problem("<gpx>\n<trkpt lat=\"1 lon=\"2\">\n<ele>3</ele></trkpt></gpx>")
                == "track:2: an attribute value is not closed in its tag")
    }

    /// Plain decimals and other forms read alike.
    @Test func numbersReadAsDecimals() {
        for (text, value) in [
            ("64.1234567", 64.1234567), ("-0.5", -0.5), ("+12", 12), ("1e1", 10), (".5", 0.5), ("0000000000000000001", 1),
        ] {
            #expect(GPXTrackReader.number(Array(text.utf8)[...], in: -100...100) == value, "\(text)")
        }
        for text in ["", "-", "1.2.3", "1,5", "inf", "nan", "0x10", "1 0"] {
            #expect(GPXTrackReader.number(Array(text.utf8)[...], in: -100...100) == nil, "\(text)")
        }
    }

    /// More waypoints than wait in memory: a document in memory (or a file) is read again from
    /// the first one not kept, so every waypoint comes, in order, in one pass and a part.
    @Test func moreWaypointsThanWaitAreReadAgainFromWhereTheyStopped() throws {
        let count = GPXTrackReader.deferredLimit + 1_500
        var gpx = "<gpx>\n"
        for index in 0..<count { gpx += "<wpt lat=\"\(Double(index) / 1_000_000)\" lon=\"1\"><ele>\(index % 100)</ele></wpt>\n" }
        let all = try locations(gpx + "</gpx>")
        #expect(all.count == count)
        #expect(all.map(\.latitude) == (0..<count).map { Double($0) / 1_000_000 })
        #expect(all.last?.altitudeMSL == Double((count - 1) % 100))
        // A route after them wins; a track after that wins again.
        let route = gpx + "<rte><rtept lat=\"5\" lon=\"5\"/><rtept lat=\"6\" lon=\"6\"/></rte>"
        #expect(try locations(route + "</gpx>").map(\.latitude) == [5, 6])
        #expect(try locations(route + "<trk><trkseg><trkpt lat=\"7\" lon=\"7\"/></trkseg></trk></gpx>").map(\.latitude) == [7])
    }

    /// A pipe cannot be read again: more route or waypoint points than wait is an error there,
    /// naming the line, and saying what to do.
    @Test func moreWaypointsThanWaitFromAPipeIsAnError() throws {
        let pipe = Pipe()
        let writer = pipe.fileHandleForWriting
        Thread.detachNewThread {
            var gpx = "<gpx>\n"
            for _ in 0..<(GPXTrackReader.deferredLimit + 1) { gpx += "<wpt lat=\"1\" lon=\"1\"/>\n" }
            try? writer.write(contentsOf: Data((gpx + "</gpx>\n").utf8))
            try? writer.close()
        }
        let piped = ReplayTrack(readingFrom: pipe.fileHandleForReading.fileDescriptor, name: "standard input")
        #expect(
            throws: GPSLocationError.invalidTrack(
                file: "standard input", line: GPXTrackReader.deferredLimit + 2,
                reason: "has more than 20000 route or waypoint points before its end; name the file instead of piping it")
        ) { try piped.allLocations() }
    }
}
