import Foundation
import GPSLocation
import HostileInput
import LocateFormats
import LocateSupport
import Testing

@testable import GPSDService

/// The service's side of gpsd's protocol on its own: requests read as gpsd 3.22 reads them (the
/// forms real clients send, and hostile segments), a client's watch policy, a cell's sentences
/// and the receivers kept as gpsd tells of them (the reports it writes are LocateFormats',
/// tested in GPSDReportsTests).
struct GPSDProtocolTests {
    /// Every request of a segment, taken one at a time as a client's are.
    private func requests(in segment: ArraySlice<UInt8>) -> [GPSDRequest] {
        var requests: [GPSDRequest] = []
        var rest = segment
        var startsSegment = true
        while case .request(let request, let after) = GPSDRequest.next(rest, startsSegment: startsSegment) {
            requests.append(request)
            rest = after
            startsSegment = false
        }
        return requests
    }

    private func parse(_ text: String) -> [GPSDRequest] {
        requests(in: Array(text.utf8)[...])
    }

    private func change(_ build: (inout WatchChange) -> Void) -> WatchChange {
        var change = WatchChange(leadingMembersOf: Array("{}".utf8)[...])
        build(&change)
        return change
    }

    private func watch(_ build: (inout WatchChange) -> Void) -> GPSDRequest {
        .watch(change(build))
    }

    @Test func requestsAreReadAsTheClientsSendThem() {
        // gpspipe -w; the Python client and gps3 (no `;`, no line end); libgps with a POLL.
        let json = watch {
            $0.json = true
        }
        #expect(parse(#"?WATCH={"enable":true,"json":true};"# + "\n") == [json])
        #expect(parse(#"?WATCH={"enable":true,"json":true}"#) == [json])
        #expect(parse(#"?WATCH={"enable":true,"json":true};?POLL;"#) == [json, .poll])
        #expect(parse(#"?WATCH={"enable":true,"json":true}?POLL;"#) == [json, .poll])
        #expect(parse("?VERSION;\n?POLL;") == [.version, .poll])
        #expect(parse("?DEVICES;\r\n") == [.devices])
        #expect(parse("?DEVICE;") == [.device(path: nil)])
        #expect(parse(#"?DEVICE={"path":"/dev/ttyACM0"};"#) == [.device(path: "/dev/ttyACM0")])
        #expect(parse(#"?DEVICE={"path":"/dev/ttyACM0","bps":9600};"#) == [.configure])
        #expect(parse("?WATCH;") == [.watch(nil)])
        // gpspipe -r, gpsmon's raw watch, and a device.
        #expect(parse(#"?WATCH={"enable":true,"raw":1}"#) == [watch { $0.raw = 1 }])
        #expect(parse(#"?WATCH={"raw":2}"#) == [watch { $0.raw = 2 }])
        #expect(
            parse(#"?WATCH={"enable":true,"json":true,"pps":true,"timing":true,"scaled":true,"split24":true,"device":"/dev/pts/1"};"#)
                == [
                    watch {
                        $0.json = true
                        $0.pps = true
                        $0.timing = true
                        $0.scaled = true
                        $0.split24 = true
                        $0.device = "/dev/pts/1"
                    }
                ])
        #expect(parse(#"?WATCH={"enable":false}"#) == [watch { $0.enable = false }])
    }

    @Test func whatGpsdDoesNotKnowIsAnErrorOrNothingAsFromGpsd() {
        // A segment that does not start with `?`, blanks included, is ignored whole, as gpsd ignores it.
        #expect(parse("hello\n?POLL;") == [])
        #expect(parse("xyz;") == [])
        #expect(parse(" ?VERSION;") == [] && parse("\n?VERSION;") == [])
        // An unknown request quotes the rest of the segment as gpsd does, with a line end.
        #expect(parse("?FOO;") == [.unrecognized(message: "Unrecognized request '?FOO;\n'")])
        #expect(parse("?FOO;\r\n") == [.unrecognized(message: "Unrecognized request '?FOO;\n'")])
        // `?POLL` needs its `;`; what follows a request it does not know is taken with it.
        #expect(parse("?POLL") == [.unrecognized(message: "Unrecognized request '?POLL\n'")])
        #expect(parse("?POLL;xyz\n") == [.poll, .unrecognized(message: "Unrecognized request 'xyz\n'")])
        // A stray `;` between requests is passed over; a NUL ends the segment, as a C string.
        #expect(parse(#"?WATCH={"json":false}"# + "\n;\n?VERSION;") == [watch { $0.json = false }, .version])
        #expect(parse("?VERSION;\u{0}?VERSION;") == [.version])
        #expect(
            String(decoding: GPSDReports.error("Unrecognized request '?FOO;\n?BAR\u{1B}\n'"), as: UTF8.self)
                == #"{"class":"ERROR","message":"Unrecognized request '?FOO;\n?BAR\u001b\n'"}"# + "\r\n")
        // A WATCH gpsd cannot read enables the watch; the members it knows, of the right type, apply.
        #expect(parse(#"?WATCH={"foo":1};"#) == [.watch(.invalid)])
        #expect(parse(#"?WATCH={"raw":true};"#) == [.watch(.invalid)])
        #expect(parse(#"?WATCH={"enable":true"#) == [.watch(.invalid)])
        #expect(parse(#"?WATCH={"json":true,"bogus":1};"#) == [watch { $0.json = true }])
        #expect(
            parse(#"?WATCH={"bogus":1,"json":true,"raw":3};"#)
                == [
                    watch {
                        $0.json = true
                        $0.raw = 3
                    }
                ])
        #expect(WatchChange.invalid.enable)
        // libgps writes a WATCH into 80 bytes: gpspipe's, cut in a device path, keeps what came before.
        #expect(
            parse(#"?WATCH={"enable":true,"json":true,"scaled":true,"split24":true,"device":"/dev/p"# + "\n")
                == [
                    watch {
                        $0.json = true
                        $0.scaled = true
                        $0.split24 = true
                    }
                ])
    }

    /// A read that ends within a request is a segment of its own, as gpsd reads it: its end is
    /// an ERROR, and what comes after is a segment gpsd ignores.
    @Test func aRequestCutByAReadIsTwoSegmentsAsForGpsd() {
        #expect(parse(#"?POLL;?WATCH={"enable":tr"#) == [.poll, .watch(.invalid)])
        #expect(parse(#"ue,"json":true}"#) == [])
        #expect(
            parse("?VERSION;" + String(repeating: " ", count: 8178) + "?VER")
                == [.version, .unrecognized(message: "Unrecognized request '?VER\n'")])
    }

    @Test func aPolicyChangesAsGpsdChangesIt() {
        var policy = WatchPolicy()
        policy.apply(
            change {
                $0.json = true
                $0.device = "/dev/pts/1"
            })
        #expect(policy == WatchPolicy(enabled: true, json: true, device: "/dev/pts/1"))
        // A later WATCH keeps json and clears the device, as gpsd does.
        policy.apply(change { $0.nmea = true })
        #expect(policy == WatchPolicy(enabled: true, json: true, nmea: true))
        policy.apply(change { $0.enable = false })
        #expect(policy == WatchPolicy(enabled: false, json: true, nmea: true))
        #expect(!policy.wantsSentences)
    }

    @Test func hostileSegmentsGiveBoundedAnswers() {
        var mutator = Mutator(seed: 23)
        let seeds = [
            #"?WATCH={"enable":true,"json":true};"#, "?POLL;?DEVICES;", #"?WATCH={"device":"/dev/pts/1"}"#, #"?DEVICE={"path":"x"}"#,
        ]
        for round in 0..<3000 {
            let segment = mutator.mutate(Array(seeds[round % seeds.count].utf8)).prefix(GPSDRequest.segmentSize)
            for request in requests(in: segment) {
                if case .unrecognized(let message) = request {
                    let line = GPSDReports.error(message)
                    #expect(line.count < 6 * GPSDRequest.segmentSize + 64 && !line.dropLast(2).contains { $0 < 0x20 }, "\(message)")
                }
            }
        }
    }

    @Test func aCellsSentencesAreChecksummedAndSayNothingFiner() throws {
        // 59.99999' of a degree rounds to 60.0000': the degree goes up instead.
        let cell = try Location(
            latitude: -33.9999999, longitude: 151.5, time: Date(timeIntervalSince1970: 1_767_254_400.5), mode: .threeDimensional,
            satellitesUsed: 8, accuracy: .reducedAccuracy)
        let lines = String(decoding: NMEASentences.sentences(ofCell: cell), as: UTF8.self).split(separator: "\r\n").map(String.init)
        #expect(lines.count == 3)
        #expect(lines[0].hasPrefix("$GPGGA,080000.50,3400.0000,S,15130.0000,E,1,,,,M,,M,,*"), "\(lines[0])")
        #expect(lines[1].hasPrefix("$GPRMC,080000.50,A,3400.0000,S,15130.0000,E,,,010126,,,A*"), "\(lines[1])")
        #expect(lines[2].hasPrefix("$GPGSA,A,3,"))
        for line in lines {
            let body = line.dropFirst().prefix { $0 != "*" }
            #expect(line.hasSuffix("*" + String(format: "%02X", body.utf8.reduce(UInt8(0), ^))))
        }
    }

    @Test func theReceiversAreKeptAsGpsdTellsOfThem() {
        var upstream = Upstream()
        upstream.note(RelayedRecord(TestRecords.devices(["/dev/pts/1", "/dev/pts/2"]), sequence: 0))
        #expect(upstream.devices.map(\.path) == ["/dev/pts/1", "/dev/pts/2"])
        let activated = #"{"class":"DEVICE","path":"/dev/pts/3","driver":"u-blox","activated":"2026-12-02T21:08:58.535Z"}"#
        upstream.note(RelayedRecord(GPSDMessage(kind: .device, device: nil, bytes: Array(activated.utf8)), sequence: 1))
        let removed = #"{"class":"DEVICE","path":"/dev/pts/1","activated":0}"#
        upstream.note(RelayedRecord(GPSDMessage(kind: .device, device: nil, bytes: Array(removed.utf8)), sequence: 2))
        #expect(upstream.devices.map(\.path) == ["/dev/pts/2", "/dev/pts/3"])
        let report = String(decoding: upstream.devicesReport, as: UTF8.self)
        #expect(report.hasPrefix(#"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/pts/2","driver":"NMEA0183""#))
        #expect(report.hasSuffix(activated + "]}\r\n"))
        #expect(String(decoding: upstream.deviceReport("/dev/pts/3"), as: UTF8.self) == activated + "\r\n")
        #expect(
            String(decoding: upstream.deviceReport("/nope"), as: UTF8.self) == #"{"class":"ERROR","message":"Can't open /nope."}"# + "\r\n")
        upstream.forget()
        #expect(String(decoding: upstream.devicesReport, as: UTF8.self) == #"{"class":"DEVICES","devices":[]}"# + "\r\n")
    }
}
