import Foundation
import GPSLocation
import HostileInput
import Testing

@testable import locate

/// serve's side of gpsd's protocol on its own: the requests it reads (as the real clients send
/// them, and hostile lines), the TPV it writes, and its NMEA sentences.
struct ServeProtocolTests {
    private func parse(_ text: String) -> [GPSDRequest] {
        GPSDRequest.parse(line: Array(text.utf8)[...])
    }

    @Test func theClientsRequestsAreReadAsTheyAreSent() {
        // gpspipe -w, the Python module (no semicolon), gpspipe -r with a device, the C POLL client.
        #expect(parse(#"?WATCH={"enable":true,"json":true};"#) == [.watch(enable: true, json: true, nmea: nil, device: nil)])
        #expect(parse(#"?WATCH={"enable":true,"json":true}"#) == [.watch(enable: true, json: true, nmea: nil, device: nil)])
        #expect(
            parse(#"?WATCH={"enable":true,"nmea":true,"device":"/dev/ttyUSB0"};"#)
                == [.watch(enable: true, json: nil, nmea: true, device: "/dev/ttyUSB0")])
        #expect(parse(#"?WATCH={"enable":true,"json":true};?POLL;"#) == [.watch(enable: true, json: true, nmea: nil, device: nil), .poll])
        #expect(parse("?WATCH;") == [.watch(enable: nil, json: nil, nmea: nil, device: nil)])
        #expect(parse("?DEVICES;\r") == [.devices])
        #expect(parse("?VERSION;") == [.version])
        #expect(parse("hello") == [], "a line that is no request gets no answer, as from gpsd")
        #expect(parse("?FOO;") == [.unrecognized(message: "Unrecognized request '?FOO;'")])
        #expect(parse(#"?WATCH={"enable":true,json}"#).first.map { if case .unrecognized = $0 { true } else { false } } == true)
    }

    @Test func hostileLinesGiveBoundedAnswers() {
        var mutator = Mutator(seed: 23)
        let seeds = [#"?WATCH={"enable":true,"json":true};"#, "?POLL;?DEVICES;", #"?WATCH={"device":"/dev/pts/1"}"#]
        for round in 0..<3000 {
            let line = mutator.mutate(Array(seeds[round % seeds.count].utf8)).prefix(GPSDRequest.maximumLine)
            for request in GPSDRequest.parse(line: line) {
                if case .unrecognized(let message) = request {
                    #expect(message.utf8.count < 400 && !message.contains("\u{1B}"), "\(message)")
                }
            }
        }
    }

    @Test func aTPVIsCompactInGpsdsOrderAndAReducedOneIsTheCellAlone() throws {
        let fix = try Location(
            latitude: 64.1466, longitude: -21.9426, time: Date(timeIntervalSince1970: 1_767_254_400), altitudeMSL: 42.5,
            altitudeHAE: 89.4, horizontalAccuracy: 17.1, speed: 1.029, course: 45, mode: .threeDimensional, device: "/dev/pts/1")
        let line = String(decoding: GPSDReports.tpv(fix, device: "/dev/pts/1"), as: UTF8.self)
        #expect(
            line
                == #"{"class":"TPV","device":"/dev/pts/1","mode":3,"time":"2026-01-01T08:00:00.000Z","lat":64.146600000,"lon":-21.942600000,"altHAE":89.4000,"altMSL":42.5000,"alt":42.5000,"track":45.0000,"speed":1.029,"eph":17.100}"#
                + "\r\n")
        let cell = try Location(
            latitude: 64.125, longitude: -21.95, time: fix.time, horizontalAccuracy: 5560, mode: .threeDimensional,
            accuracy: .reducedAccuracy)
        let reduced = String(decoding: GPSDReports.tpv(cell, device: nil), as: UTF8.self)
        #expect(reduced == #"{"class":"TPV","mode":3,"time":"2026-01-01T08:00:00.000Z","lat":64.125000000,"lon":-21.950000000}"# + "\r\n")
        #expect(String(decoding: GPSDReports.tpv(nil, device: nil), as: UTF8.self) == "{\"class\":\"TPV\",\"mode\":1}\r\n")
    }

    @Test func nmeaSentencesAreChecksummedAndCarryMinutesOver() throws {
        // 59.99999' of a degree rounds to 60.0000': the degree goes up instead.
        let fix = try Location(
            latitude: -33.9999999, longitude: 151.5, time: Date(timeIntervalSince1970: 1_767_254_400.5), altitudeMSL: 12,
            speed: 5, course: 90, hdop: 0.9, mode: .threeDimensional, satellitesUsed: 8)
        let lines = String(decoding: NMEASentences.sentences(for: fix), as: UTF8.self).split(separator: "\r\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("$GPGGA,080000.50,3400.0000,S,15130.0000,E,1,08,0.9,12.0,M,,M,,*"), "\(lines[0])")
        #expect(lines[1].hasPrefix("$GPRMC,080000.50,A,3400.0000,S,15130.0000,E,9.719,90.0,010126,,,A*"), "\(lines[1])")
        #expect(lines[2].hasPrefix("$GPGSA,A,3,"))
        for line in lines {
            let body = line.dropFirst().prefix { $0 != "*" }
            #expect(line.hasSuffix("*" + String(format: "%02X", body.utf8.reduce(UInt8(0), ^))))
        }
        // A cell as the reducer makes it keeps the fix's satellite count; the sentences do not say it.
        let cell = try Location(
            latitude: 64.125, longitude: -21.95, time: fix.time, mode: .twoDimensional, satellitesUsed: 8, accuracy: .reducedAccuracy)
        let reduced = String(decoding: NMEASentences.sentences(for: cell), as: UTF8.self)
        #expect(reduced.hasPrefix("$GPGGA,080000.50,6407.5000,N,02157.0000,W,1,,,,M,,M,,*"), "\(reduced)")
    }
}
