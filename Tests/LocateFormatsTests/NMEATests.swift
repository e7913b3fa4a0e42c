import Foundation
import LocateSupport
import Testing

@testable import LocateFormats

/// NMEA 0183: the sentences written read back as the same fixes, the sentences are NMEA's to
/// the byte, and what real receivers write is read.
struct NMEATests {
    private func fixes(_ text: String) throws(TrackProblem) -> [NMEA.Fix] {
        try fixes(Array(text.utf8))
    }

    private func fixes(_ bytes: [UInt8]) throws(TrackProblem) -> [NMEA.Fix] {
        var reader = NMEA.Reader(TrackInput(bytes: bytes))
        var fixes: [NMEA.Fix] = []
        while let fix = try reader.next() { fixes.append(fix) }
        return fixes
    }

    /// Random fixes at the sentences' precision, one epoch after another (each at least a
    /// hundredth of a second and less than a day after the one before, so no two share a time
    /// of day): read back, they are the fixes written.
    @Test func writtenFixesReadBackTheSame() throws {
        var generator = SystemRandomNumberGenerator()
        func some<Value>(_ make: () -> Value) -> Value? { Bool.random(using: &generator) ? make() : nil }
        func decimal(_ range: ClosedRange<Int>, _ decimals: Int) -> Double {
            Double(Int.random(in: range, using: &generator)) / (0..<decimals).reduce(1.0) { scale, _ in scale * 10 }
        }
        /// A coordinate as the reader makes one of `ddmm.mmmm`.
        func coordinate(_ maximum: Int) -> Double {
            let degrees = Int.random(in: 0..<maximum, using: &generator)
            let value = Double(degrees) + decimal(0...599_999, 4) / 60
            return Bool.random(using: &generator) ? value : -value
        }
        // In centiseconds, from 1980 (NMEA's two-digit years are 1980 to 2079).
        var centiseconds = Int.random(in: 31_553_280_000...300_000_000_000, using: &generator)
        var written: [NMEA.Fix] = []
        var bytes: [UInt8] = []
        for _ in 0..<1_000 {
            centiseconds += Int.random(in: 1..<8_640_000, using: &generator)
            var fix = NMEA.Fix(latitude: coordinate(90), longitude: coordinate(180))
            // The time as the reader makes it of RMC's date and time of day.
            let text = try #require(UTCTimestamp.iso8601(Date(timeIntervalSince1970: Double(centiseconds) / 100)))
            let (date, clock) = (Array(text.utf8)[0..<10], Array(text.utf8)[11..<23])
            fix.time = UTCTimestamp.nmea(
                date: String(decoding: [date[8], date[9], date[5], date[6], date[2], date[3]], as: UTF8.self),
                time: String(decoding: clock.filter { $0 != UInt8(ascii: ":") }.dropLast(), as: UTF8.self))
            fix.knots = some { decimal(0...10_000_000, 3) }
            fix.course = some { decimal(0...36_000, 2) }
            fix.quality = NMEA.Quality.allCases.randomElement(using: &generator)
            fix.satellites = some { Int.random(in: 0...99, using: &generator) }
            fix.hdop = some { decimal(0...9_999, 2) }
            fix.altitude = some { decimal(-100_000...1_000_000, 1) }
            fix.geoidSeparation = some { decimal(-10_000...10_000, 1) }
            // GSA, and with it PDOP and VDOP, only for a fix with a mode.
            fix.mode = some { NMEA.Mode.allCases.randomElement(using: &generator) }.flatMap { $0 }
            if fix.mode != nil {
                fix.pdop = some { decimal(0...9_999, 2) }
                fix.vdop = some { decimal(0...9_999, 2) }
            }
            written.append(fix)
            bytes += NMEA.sentences(fix)
        }
        let read = try fixes(bytes)
        #expect(read.count == written.count)
        for (fix, wanted) in zip(read, written) {
            #expect(fix == wanted)
        }
    }

    /// A fix's sentences, to the byte (checksums as `gpsd` and GeoClue check them), read back
    /// as the fix; a fix with nothing but its position, time and mode (what `locate serve`
    /// writes of a grid cell); a fix without a mode has no GSA.
    @Test func theSentencesAreNMEAOwn() throws {
        var fix = NMEA.Fix(latitude: 64.14, longitude: -(21 + 54.6069 / 60))
        fix.time = Date(timeIntervalSince1970: 1_767_254_400)
        (fix.knots, fix.course, fix.quality, fix.satellites, fix.hdop, fix.altitude, fix.geoidSeparation) =
            (6.41, 359.6, .gps, 8, 0.9, 30, 45)
        (fix.mode, fix.pdop, fix.vdop) = (.threeDimensional, 1.6, 1.3)
        let sentences = NMEA.sentences(fix)
        #expect(
            String(decoding: sentences, as: UTF8.self)
                == "$GPGGA,080000.00,6408.4000,N,02154.6069,W,1,08,0.90,30.0,M,45.0,M,,*70\r\n"
                + "$GPRMC,080000.00,A,6408.4000,N,02154.6069,W,6.410,359.60,010126,,,A*7F\r\n"
                + "$GPGSA,A,3,,,,,,,,,,,,,1.60,0.90,1.30*0E\r\n")
        #expect(try fixes(sentences) == [fix])
        var cell = NMEA.Fix(latitude: -33.9999999, longitude: 151.5)
        // 59.999994' of a degree rounds to 60.0000': the degree goes up instead; 59.996 s is the next minute.
        cell.time = Date(timeIntervalSince1970: 1_767_254_459.996)
        cell.mode = .twoDimensional
        let lines = String(decoding: NMEA.sentences(cell), as: UTF8.self).split(separator: "\r\n")
        #expect(
            lines.map { $0.prefix { $0 != "*" } } == [
                "$GPGGA,080100.00,3400.0000,S,15130.0000,E,1,,,,M,,M,,", "$GPRMC,080100.00,A,3400.0000,S,15130.0000,E,,,010126,,,A",
                "$GPGSA,A,2,,,,,,,,,,,,,,,",
            ])
        cell.mode = nil
        #expect(String(decoding: NMEA.sentences(cell), as: UTF8.self).split(separator: "\r\n").count == 2, "no mode, no GSA")
        #expect(NMEA.sentences(NMEA.Fix(latitude: 1, longitude: 2)).isEmpty, "no time, no sentences")
    }

    /// A real receiver's epoch whose RMC and GGA disagree on the position (bundg_zeus_9.log of
    /// gpsd's regressions: the first stands), and a bundled track's first epochs, with the
    /// sentences of other kinds and a GGA before its RMC.
    @Test func whatReceiversWriteIsRead() throws {
        let zeus = """
            # Name: a receiver
            $GPRMC,094737,A,5251.0093,N,00518.8170,E,5.6,230.5,200818,1.4,E,A*1F
            $GPGGA,094737,5251.0085,N,00518.8151,E,1,12,0.60,-4,M,46.8,M,,*4B
            """
        var expected = NMEA.Fix(latitude: 52 + 51.0093 / 60, longitude: 5 + 18.8170 / 60)
        expected.time = Date(timeIntervalSince1970: 1_534_758_457)
        (expected.knots, expected.course, expected.quality, expected.satellites, expected.hdop, expected.altitude) =
            (5.6, 230.5, .gps, 12, 0.6, -4)
        expected.geoidSeparation = 46.8
        #expect(try fixes(zeus) == [expected])

        let running = """
            $GPRMC,080000.00,A,6408.40000,N,02154.60686,W,6.41,0.0,010126,,,A*71
            $GPGGA,080000.00,6408.40000,N,02154.60686,W,1,08,0.9,30.0,M,45.0,M,,*47
            $GPGSA,A,3,02,05,12,15,18,24,25,29,,,,,1.6,0.9,1.3*3D
            $GPGSV,2,1,08,02,20,000,30,05,28,045,32,12,36,090,34,15,44,135,36*70
            $GPGGA,080001.00,6408.40178,N,02154.60687,W,2,08,0.9,30.1,M,45.0,M,,*4B
            $GPRMC,080001.00,A,6408.40178,N,02154.60687,W,6.41,359.6,010126,,,A*76
            """
        let read = try fixes(running)
        #expect(read.count == 2)
        #expect(read.map(\.time) == [Date(timeIntervalSince1970: 1_767_254_400), Date(timeIntervalSince1970: 1_767_254_401)])
        #expect(read.map(\.quality) == [.gps, .dgps] && read.map(\.knots) == [6.41, 6.41] && read.map(\.course) == [0, 359.6])
        #expect(read[1].latitude == 64 + 8.40178 / 60 && read[1].longitude == -(21 + 54.60687 / 60))
        #expect(read.map(\.mode) == [.threeDimensional, nil] && read.map(\.pdop) == [1.6, nil] && read.map(\.vdop) == [1.3, nil])
        #expect(read.map(\.hdop) == [0.9, 0.9] && read.map(\.satellites) == [8, 8], "GGA's stand beside GSA's")
    }

    /// A multi-GNSS receiver's epoch: a GGA without satellites or HDOP, and a GSA a
    /// constellation (NMEA 4.10's, with a system id) whose satellites add up, the first one's
    /// mode and dilutions standing; a GSA before the log's first epoch, or one that says there is
    /// no fix, changes nothing.
    @Test func theGSAsOfAnEpochGiveItsModeDilutionsAndSatellites() throws {
        let log = """
            $GPGSA,A,3,,,,,,,,,,,,,1.60,0.90,1.30*0E
            $GNRMC,120000.00,A,3731.0697,N,12653.1762,E,0.010,,150326,,,D*65
            $GNGGA,120000.00,3731.0697,N,12653.1762,E,2,,,41.5,M,18.2,M,,*68
            $GNGSA,A,3,02,05,12,15,,,,,,,,,1.40,0.80,1.10,1*0C
            $GNGSA,A,3,65,71,72,,,,,,,,,,1.40,0.80,1.10,2*0F
            $GNGSA,A,2,81,,,,,,,,,,,,9.90,9.90,9.90,3*0B
            $GPRMC,080000.00,A,6408.4000,N,02154.6069,W,,,010126,,,A*45
            $GPGSA,A,1,,,,,,,,,,,,,99.99,99.99,99.99*30
            """
        let read = try fixes(log)
        #expect(read.count == 2)
        #expect(read.map(\.mode) == [.threeDimensional, nil] && read.map(\.satellites) == [8, nil])
        #expect(read.map(\.pdop) == [1.4, nil] && read.map(\.hdop) == [0.8, nil] && read.map(\.vdop) == [1.1, nil])
    }

    /// A GSA that says there is a fix is read by its grammar, as RMC and GGA are: a field that
    /// breaks it is an error on its line; one with a wrong checksum is skipped.
    @Test(arguments: [
        ("$GPGSA,X,3,,,,,,,,,,,,,1.6,0.9,1.3*27", "GSA field 1 is 'X', not A or M"),
        ("$GPGSA,A,3,ab,,,,,,,,,,,,1.6,0.9,1.3*3D", "GSA field 3 is 'ab', not a satellite's id"),
        ("$GPGSA,A,3,12.5,,,,,,,,,,,,1.6,0.9,1.3*26", "GSA field 3 is '12.5', not a satellite's id"),
        ("$GPGSA,A,3,,,,,,,,,,,,,-1,0.9,1.3*0B", "GSA field 15 is '-1', not a PDOP"),
        ("$GPGSA,A,3,,,,,,,,,,,,,-1,0.9,1.3*0C", nil),
    ])
    func aMalformedGSAIsAnErrorOnItsLine(_ gsa: String, _ reason: String?) {
        let log = "$GPRMC,080000.00,A,6408.4000,N,02154.6069,W,,,010126,,,A*45\n" + gsa + "\n"
        do {
            let read = try fixes(log)
            #expect(reason == nil && read.count == 1 && read.first?.pdop == nil, "read \(read)")
        } catch {
            #expect(error.line == 2 && error.reason == reason, "\(error.line ?? 0): \(error.reason)")
        }
    }
}
