import FoundationEssentials
import Glibc
import HostileInput
import Testing

@testable import GPSLocation

/// `TPVScan` reads gpsd's plain TPV lines instead of libgps's parser: every line, read by a
/// decoder that uses it and by one that leaves everything to libgps, must give the same report
/// (the same fix, to the last bit of every number, or the same refusal), in the same sequence
/// (a SKY's satellites and dilutions go with the TPVs of its device that follow).
struct TPVScanTests {
    /// Feeds `lines` in order to both decoders and compares each report.
    private func expectSameReports(_ lines: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        let scanning = GPSDMessageDecoder()
        let libgps = GPSDMessageDecoder(readsTPVItself: false)
        for line in lines {
            let fast = scanning.decode(json: line)
            let reference = libgps.decode(json: line)
            #expect(fast == reference, "\(line)", sourceLocation: sourceLocation)
        }
    }

    /// TPVs as gpsd 3.22 wrote them for real receivers (from its regression logs), with a SKY
    /// between them.
    @Test func readsGpsdsOwnLinesAsLibgpsDoes() {
        expectSameReports([
            #"{"class":"SKY","device":"/dev/ttyUSB0","xdop":0.62,"ydop":0.89,"vdop":1.30,"tdop":0.71,"hdop":1.05,"gdop":1.94,"pdop":1.67,"satellites":[{"PRN":10,"el":57.0,"az":57.0,"ss":43.0,"used":true},{"PRN":15,"el":24.0,"az":302.0,"ss":0.0,"used":false}]}"#,
            #"{"class":"TPV","device":"/dev/ttyUSB0","mode":3,"time":"2005-06-08T10:34:48.283Z","ept":0.005,"lat":46.498293369,"lon":7.567411672,"altHAE":1343.127,"altMSL":1297.620,"alt":1297.620,"epx":7.610,"epy":11.067,"epv":8.750,"track":10.3788,"magtrack":9.9512,"magvar":-0.4,"speed":0.091,"climb":-0.085,"eps":22.13,"epc":17.50,"geoidSep":45.507,"eph":13.410,"sep":19.340}"#,
            #"{"class":"TPV","device":"/dev/ttyUSB0","status":2,"mode":3,"time":"2013-05-21T19:16:57.000Z","leapseconds":16,"ept":0.005,"lat":52.123456789,"lon":-0.987654321,"altHAE":59.900,"altMSL":13.000,"alt":13.000,"epx":2.567,"epy":3.123,"epv":5.750,"track":0.0000,"speed":0.000,"climb":0.000,"eps":6.25,"epc":11.50,"ecefx":3917123.12,"ecefy":-67000.56,"ecefz":5012345.78,"ecefvx":0.00,"ecefvy":0.00,"ecefvz":0.00,"ecefpAcc":4.21,"ecefvAcc":0.14,"velN":0.000,"velE":0.000,"velD":-0.000,"geoidSep":46.900,"eph":3.830,"sep":6.940}"#,
            #"{"class":"TPV","device":"/dev/ttyS0","mode":1,"time":"2016-03-06T23:42:03.000Z","ept":0.005}"#,
            #"{"class":"TPV","device":"/dev/ttyS0","mode":2,"time":"2002-08-23T06:46:52.000Z","ept":0.005,"lat":37.371430000,"lon":-122.015085000,"epx":15.000,"epy":15.000,"track":58.1300,"speed":0.000,"eps":30.00,"eph":22.000,"sep":22.000}"#,
            #"{"class":"TPV","device":"/dev/ttyS0","mode":0}"#,
            #"{"class":"TPV","device":"/dev/ttyS0","mode":3,"lat":-33.9,"lon":151.2}"#,
        ])
    }

    /// Lines in forms the scan leaves to libgps, and forms it reads: both must still agree.
    @Test func agreesOnEveryOddForm() {
        let base =
            #"{"class":"TPV","device":"/dev/pts/1","mode":3,"time":"2026-01-01T08:00:06.125Z","lat":64.150432167,"lon":-21.940456667,"eph":17.1}"#
        let variants = [
            base,
            base.replacing(#""mode":3"#, with: #""mode":3.0"#),
            base.replacing(#""mode":3"#, with: #""mode":"3""#),
            base.replacing(#""mode":3"#, with: #""mode":-3"#),
            base.replacing(#""mode":3"#, with: #""mode":2147483648"#),
            base.replacing(#""lat":64.150432167"#, with: #""lat":"64.15""#),
            base.replacing(#""lat":64.150432167"#, with: #""lat":6.415e1"#),
            base.replacing(#""lat":64.150432167"#, with: #""lat":64E0"#),
            base.replacing(#""lat":64.150432167"#, with: #""lat":-0.0000000001"#),
            base.replacing(#""lat":64.150432167"#, with: #""lat":0064.1504321670000000000001"#),
            base.replacing(#""lat":64.150432167"#, with: #""lat":null"#),
            base.replacing(#""lat":64.150432167"#, with: #""lat":true"#),
            base.replacing(#""lat":64.150432167"#, with: #""lat":[1]"#),
            base.replacing(#""lat":64.150432167"#, with: #""lat": 64.15"#),
            base.replacing(#""lat":64.150432167"#, with: #""lat":64.15,"lat":10.5"#),
            base.replacing(#""lon":-21.940456667"#, with: #""lon":1e400"#),
            base.replacing(#""lon":-21.940456667"#, with: #""lon":-.5"#),
            base.replacing(#""lon":-21.940456667"#, with: #""lon":5."#),
            base.replacing(#""time":"2026-01-01T08:00:06.125Z""#, with: #""time":"2026-01-01T08:00:06Z""#),
            base.replacing(#""time":"2026-01-01T08:00:06.125Z""#, with: #""time":"2026-01-01T08:00:06.123456789012345Z""#),
            base.replacing(#""time":"2026-01-01T08:00:06.125Z""#, with: #""time":"2026-01-01T08:00:06.1234567890123456Z""#),
            base.replacing(#""time":"2026-01-01T08:00:06.125Z""#, with: #""time":"2024-02-29T23:59:60.999Z""#),
            base.replacing(#""time":"2026-01-01T08:00:06.125Z""#, with: #""time":"2026-02-31T08:00:06.1Z""#),
            base.replacing(#""time":"2026-01-01T08:00:06.125Z""#, with: #""time":"2026-13-01T08:00:06.1Z""#),
            base.replacing(#""time":"2026-01-01T08:00:06.125Z""#, with: #""time":"1969-12-31T23:59:59.5Z""#),
            base.replacing(#""time":"2026-01-01T08:00:06.125Z""#, with: #""time":"2026-01-01T08:00:06.125+01:00""#),
            base.replacing(#""time":"2026-01-01T08:00:06.125Z""#, with: #""time":"2026-01-01 08:00:06.125Z""#),
            base.replacing(#""time":"2026-01-01T08:00:06.125Z""#, with: #""time":1767254406"#),
            base.replacing(#""time":"2026-01-01T08:00:06.125Z""#, with: #""time":"""#),
            base.replacing(#""device":"/dev/pts/1""#, with: #""device":"""#),
            base.replacing(#""device":"/dev/pts/1""#, with: #""device":"/dev/\u0041""#),
            base.replacing(#""device":"/dev/pts/1""#, with: #""device":"/dev/\"x""#),
            base.replacing(#""device":"/dev/pts/1""#, with: #""device":"\#(String(repeating: "d", count: 127))""#),
            base.replacing(#""device":"/dev/pts/1""#, with: #""device":"\#(String(repeating: "d", count: 128))""#),
            base.replacing(#""device":"/dev/pts/1""#, with: #""device":7"#),
            base.replacing(#","device":"/dev/pts/1""#, with: ""),
            base.replacing(#""class":"TPV""#, with: #""class":"TPV","class":"SKY""#),
            base.replacing(#""eph":17.1"#, with: #""eph":17.1,"newKey":"text""#),
            base.replacing(#""eph":17.1"#, with: #""eph":17.1,"newKey":{"a":1}"#),
            base.replacing(#""eph":17.1"#, with: #""eph":17.1,"datum":"WGS84""#),
            base.replacing(#""eph":17.1"#, with: #""eph":17.1,"status":2,"magvar":-13.2,"geoidSep":45,"epx":1,"epy":2,"ept":0.005"#),
            base.replacing(#""eph":17.1"#, with: #""eph":"17.1""#),
            base.replacing(#""eph":17.1"#, with: #""eph":17.1,"#),
            base + " ",
            base + "x",
            String(base.dropLast()),
            base.replacing(#"{"class":"TPV","#, with: #"{"device":"/dev/x","class":"TPV","#),
            base.replacing(#"{"class":"TPV","#, with: #"{ "class":"TPV","#),
        ]
        expectSameReports(variants)
    }

    /// Random TPVs from gpsd's keys and random values of every kind, each with a sky view of its
    /// device or another's before it: the scan and libgps agree on all of them.
    @Test func agreesOnRandomLines() {
        var random = Mutator(seed: 38)
        let keys = [
            "device", "mode", "status", "time", "lat", "lon", "altHAE", "altMSL", "alt", "eph", "epv", "epx", "epy", "ept", "speed",
            "eps", "track", "epd", "climb", "epc", "magvar", "magtrack", "geoidSep", "sep", "leapseconds", "datum", "ecefx", "velN",
            "dgpsSta", "unknownKey",
        ]
        let values = [
            "3", "2", "1", "0", "-1", "64.150432167", "-21.9404", "1e2", "-1.5E-3", "0", "007", "3.0", "99999999999", #""x""#,
            #""/dev/ttyUSB0""#, #""2026-01-01T08:00:06.125Z""#, #""2026-06-30T23:59:60Z""#, #""2026-01-01T08:00:06.1Z""#, "null",
            "true", "[]", "1.", "-", #""WGS84""#,
        ]
        var lines: [String] = []
        for _ in 0..<3000 {
            var members = [#""class":"TPV""#]
            for _ in 0..<random.number(in: 0..<9) {
                let key = random.pick(keys)
                let value = random.pick(values)
                members.append(#""\#(key)":\#(value)"#)
            }
            // Most lines make a fix: a mode, a position and a time.
            if random.number(in: 0..<4) > 0 {
                members += [#""mode":3"#, #""lat":10.5"#, #""lon":-20.25"#, #""time":"2026-01-01T08:00:06.000Z""#]
                members.shuffle(using: &random)
                if let index = members.firstIndex(of: #""class":"TPV""#), random.number(in: 0..<3) > 0 { members.swapAt(0, index) }
            }
            if random.number(in: 0..<3) == 0 {
                let device = random.number(in: 0..<2) == 0 ? "/dev/ttyUSB0" : "/dev/pts/1"
                lines.append(
                    #"{"class":"SKY","device":"\#(device)","vdop":1.20,"hdop":0.70,"pdop":1.40,"satellites":[{"PRN":2,"el":20.0,"az":0.0,"ss":30.0,"used":true}]}"#
                )
            }
            lines.append("{" + members.joined(separator: ",") + "}")
        }
        expectSameReports(lines)
    }

    /// gpsd's lines broken in the ways files and sockets break text (bits flipped, cuts, hostile
    /// bytes): whatever each becomes, both read it alike.
    @Test func agreesOnMutatedLines() {
        var mutator = Mutator(seed: 3822)
        let line = Array(
            #"{"class":"TPV","device":"/dev/ttyUSB0","status":2,"mode":3,"time":"2013-05-21T19:16:57.000Z","ept":0.005,"lat":52.123456789,"lon":-0.987654321,"altHAE":59.900,"altMSL":13.000,"epx":2.567,"epy":3.123,"epv":5.750,"track":0.0000,"speed":0.000,"climb":0.000,"eps":6.25,"geoidSep":46.900,"eph":3.830}"#
                .utf8)
        let scanning = GPSDMessageDecoder()
        let libgps = GPSDMessageDecoder(readsTPVItself: false)
        for _ in 0..<3000 {
            // One line, as the connection hands it over: without a line end or NUL inside.
            var mutated = mutator.mutate(line)
            mutated.removeAll { $0 == 0 || $0 == 0x0A }
            var forScan = mutated + [0]
            var forLibgps = forScan
            let fast = scanning.decode(&forScan, 0..<mutated.count)
            let reference = libgps.decode(&forLibgps, 0..<mutated.count)
            #expect(fast == reference, "\(String(decoding: mutated, as: UTF8.self))")
        }
    }

    // MARK: - Hostile review (h38r)

    /// Under a comma-decimal C locale (an app that calls `setlocale(LC_ALL, "")` for a German
    /// user), libgps 3.22 reads a time's fraction with `strtod`, which then stops at the `.`: its
    /// TPVs lose their milliseconds. The scan reads the time gpsd sent, whatever the locale
    /// (every other number goes through `safe_atof` on both sides, which ignores it).
    @Test func theScanReadsATimesFractionWhateverTheLocale() throws {
        let german = newlocale(LC_NUMERIC_MASK, "de_DE.utf8", nil)
        try #require(german != nil, "de_DE.utf8 is not installed (Scripts/bootstrap makes it)")
        let previous = uselocale(german)
        defer {
            uselocale(previous)
            freelocale(german)
        }
        let line = #"{"class":"TPV","device":"/dev/ttyUSB0","mode":3,"time":"2026-01-01T08:00:06.125Z","lat":64.15,"lon":-21.94}"#
        let report = GPSDMessageDecoder().decode(json: line)
        guard case .fix(let location) = report else {
            Issue.record("expected a fix, got \(report)")
            return
        }
        #expect(location.time == Date(timeIntervalSince1970: 1_767_254_406.125))
    }

    /// Edge values of what the scan reads itself (times, integers, numbers, devices), alone and
    /// each after a SKY of its device (from a hostile review).
    @Test func agreesOnEdgeValues() {
        let times = [
            "1970-01-01T00:00:00Z", "1970-01-01T00:00:01Z", "1980-01-06T00:00:00.000Z", "2038-01-19T03:14:07.999Z",
            "2038-01-19T03:14:08Z", "2100-02-29T12:00:00Z", "2000-02-29T12:00:00Z", "2026-04-31T12:00:00Z",
            "2026-06-30T23:59:60.5Z", "2026-12-31T23:59:60Z", "9999-12-31T23:59:60.999999999999999Z",
            "2026-01-01T08:00:06.000000000000000Z", "2026-01-01T08:00:06.999999999999999Z", "2026-01-01T08:00:06.0000000005Z",
            "2026-01-01T08:00:06.3Z", "2026-01-01T08:00:06.1000000009Z", "2026-01-01T08:00:61Z", "2026-01-01T08:00:06z",
            "2026-01-01t08:00:06Z", "2026-00-01T08:00:06Z", "2026-01-00T08:00:06Z", "2026-01-32T08:00:06Z", "+026-01-01T08:00:06Z",
            "2026-1-01T08:00:06.5Z", "2026-01-01T08:00:06.5ZZ", "2026-01-01T08:00:06,5Z", "2026-01-01T08:00:06.5e1Z",
            "1969-12-31T23:59:60Z", "2026-02-29T00:00:00Z",
        ]
        let ints = ["3", "2", "03", "-0", "000000003", "0000000003", "-3", "4", "1", "0", "999999999", "-999999999", "2.0", "2e0", "-"]
        var lines: [String] = []
        for time in times {
            lines.append(#"{"class":"TPV","device":"/dev/a","mode":3,"time":"\#(time)","lat":1.5,"lon":2.5}"#)
        }
        for value in ints {
            lines.append(#"{"class":"TPV","device":"/dev/a","mode":\#(value),"time":"2026-01-01T08:00:06Z","lat":1.5,"lon":2.5}"#)
            lines.append(
                #"{"class":"TPV","device":"/dev/a","mode":3,"status":\#(value),"time":"2026-01-01T08:00:06Z","lat":1.5,"lon":2.5}"#)
            lines.append(
                #"{"class":"TPV","device":"/dev/a","mode":3,"leapseconds":\#(value),"time":"2026-01-01T08:00:06Z","lat":1.5,"lon":2.5}"#)
        }
        let numbers = [
            "0", "-0", "00", "-00.000", "1e400", "-1e-400", "1E+2", "1e-2", "4.9e-324", "2.2250738585072011e-308",
            "0.1000000000000000055511151231257827",
            "179769313486231570814527423731704356798070567525844996598917476803157260780028538760589558632766878171540458953514382464234321326889464182768467546703537516986049910576551282076245490090389328944075868508455133942304583236903222948165808559332123348274797826204144723168738177180919299881250404026184124858368",
            "90.000000000000000000001", "1e", "-", ".5", "5.", "+1", "0x10", "1e0000000000000000000000000000000001",
            "123456789012345678901234567890", "12345678901234567890123456789012345678", "1234567890123456789012345678901234567890",
        ]
        for value in numbers {
            lines.append(#"{"class":"TPV","device":"/dev/a","mode":3,"time":"2026-01-01T08:00:06Z","lat":\#(value),"lon":2.5}"#)
            lines.append(
                #"{"class":"TPV","device":"/dev/a","mode":3,"time":"2026-01-01T08:00:06Z","lat":1.5,"lon":\#(value),"eph":\#(value)}"#)
        }
        let devices = [
            "", "\u{7F}", "é", "/dev/\u{80}", String(repeating: "d", count: 39), String(repeating: "d", count: 40), "a}b", "a,\"b",
        ]
        for device in devices {
            lines.append(#"{"class":"TPV","device":"\#(device)","mode":3,"time":"2026-01-01T08:00:06Z","lat":1.5,"lon":2.5}"#)
        }
        let odd = [
            #"{"class":"TPV","mode":3,"time":"2026-01-01T08:00:06Z","lat":1.5,"lon":2.5,"Lat":7}"#,
            #"{"class":"TPV","mode":3,"time":"2026-01-01T08:00:06Z","lat":1.5,"lon":2.5,"abcdefghijabcdefghijabcdefghij":7}"#,
            #"{"class":"TPV","mode":3,"time":"2026-01-01T08:00:06Z","lat":1.5,"lon":2.5,"abcdefghijabcdefghijabcdefghijk":7}"#,
            #"{"class":"TPV","mode":3,"time":"2026-01-01T08:00:06Z","lat":1.5,"lon":2.5,"datum":"\#(String(repeating: "W", count: 39))"}"#,
            #"{"class":"TPV","mode":3,"time":"2026-01-01T08:00:06Z","lat":1.5,"lon":2.5,"class":"TPV"}"#,
            #"{"class":"TPV","mode":3,"time":"2026-01-01T08:00:06Z","lat":1.5,"lon":2.5}}"#,
            #"{"class":"TPV","mode":3,"time":"2026-01-01T08:00:06Z","lat":1.5,"lon":2.5}"# + "\r",
            #"{"class":"TPV","mode":3,"time":"2026-01-01T08:00:06Z","time":"2026-01-01T08:00:07.5Z","lat":1.5,"lon":2.5}"#,
            #"{"class":"TPV","mode":3,"time":"2026-01-01T08:00:06.5Z","time":"2026-01-01T08:00:07Z","lat":1.5,"lon":2.5}"#,
        ]
        lines += odd
        // With a sky view of the same device before each.
        var sequence: [String] = []
        for line in lines {
            sequence.append(
                #"{"class":"SKY","device":"/dev/a","hdop":0.7,"satellites":[{"PRN":2,"el":20.0,"az":0.0,"ss":30.0,"used":true}]}"#)
            sequence.append(line)
        }
        expectSameReports(lines)
        expectSameReports(sequence)
    }
}
