import Foundation
import GPSLocation
import LocateFormats
import Testing

@testable import GPSDService

/// One served client's rules, over a scripted connection: what it is sent for each request
/// and each record, as gpsd would send it, and where consent makes it differ.
struct ServedClientTests {
    private let now = ContinuousClock.now

    /// A client that asked `request`, with gpsd knowing one receiver, `/dev/r0`.
    private func client(
        _ request: String? = #"?WATCH={"enable":true,"json":true}"#, authorization: Authorization = TestAuthorization.always,
        speaks: ServedProtocol = .gpsd
    ) -> (ServedClient, ScriptedTransport, Upstream) {
        let transport = ScriptedTransport()
        let client = scriptedClient(transport, authorization: authorization, speaks: speaks)
        var upstream = Upstream()
        upstream.note(RelayedRecord(TestRecords.devices(["/dev/r0"]), sequence: 0))
        if let request {
            transport.send(request)
            client.read(upstream, sequence: 1, now: now)
        }
        return (client, transport, upstream)
    }

    private func classes(_ transport: ScriptedTransport) -> [String] {
        transport.lines.map { line in
            guard line.hasPrefix(#"{"class":""#) else { return String(line.prefix(6)) }
            return String(line.dropFirst(10).prefix { $0 != "\"" })
        }
    }

    @Test func aWatchWithoutEndGetsTheBannerTheReceiversAndItsPolicy() {
        // gps3, as Home Assistant's gpsd integration uses it: no `;`, no line end.
        let (_, transport, _) = client(#"?WATCH={"enable":true,"json":true}"#)
        #expect(classes(transport) == ["VERSION", "DEVICES", "WATCH"])
        #expect(transport.lines[1].hasPrefix(#"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/r0","driver":"NMEA0183","#))
        #expect(transport.lines[1].contains(#""bps":4800,"parity":"N","stopbits":1,"cycle":1.00}]}"#))
    }

    @Test func aWatcherGetsGpsdsLinesAsGpsdWroteThemAndASkyEveryEpoch() {
        let (client, transport, _) = client()
        for number in 1...3 {
            client.offer(RelayedRecord(TestRecords.sky(number), sequence: UInt64(2 * number)))
            client.offer(RelayedRecord(TestRecords.fix(number), sequence: UInt64(2 * number + 1)))
        }
        client.flush(now: now)
        #expect(classes(transport) == ["VERSION", "DEVICES", "WATCH", "SKY", "TPV", "SKY", "TPV", "SKY", "TPV"])
        let tpv = transport.lines[4]
        #expect(tpv.hasPrefix(#"{"class":"TPV","device":"/dev/r1","mode":3,"time":"#) && tpv.contains(#""epx":17.386,"epy":15.218"#))
        #expect(!tpv.contains("rtime"), "timing members only to a watch that asks for them")
        #expect(client.session.deliveries == 3 && client.session.accuracy == .fullAccuracy)
    }

    @Test func timingAndPPSGoOnlyToTheWatchesThatAskForThem() {
        let (client, transport, _) = client(#"?WATCH={"enable":true,"json":true,"timing":true,"pps":true};"#)
        let toff = GPSDMessage(kind: .timing, device: "/dev/r1", bytes: Array(#"{"class":"TOFF","device":"/dev/r1","real_sec":1}"#.utf8))
        client.offer(RelayedRecord(toff, sequence: 2))
        client.offer(RelayedRecord(TestRecords.fix(1), sequence: 3))
        client.flush(now: now)
        #expect(classes(transport).suffix(2) == ["TOFF", "TPV"])
        #expect(transport.lines.last?.contains(#""rtime": 1796245841.849211775"#) == true)
        let (plain, plainTransport, _) = self.client()
        plain.offer(RelayedRecord(toff, sequence: 2))
        plain.flush(now: now)
        #expect(classes(plainTransport) == ["VERSION", "DEVICES", "WATCH"])
    }

    @Test func rawAndNMEAWatchesGetTheReceiversSentences() {
        let gga = TestRecords.sentence("$GPGGA,080004.00,6407.79892,N,02154.00000,W,1,08,0.9,20.0,M,45.0,M,,*4A")
        for request in [#"?WATCH={"enable":true,"raw":1}"#, #"?WATCH={"raw":2}"#, #"?WATCH={"enable":true,"nmea":true};"#] {
            let (client, transport, _) = client(request)
            client.offer(RelayedRecord(gga, sequence: 2))
            client.offer(RelayedRecord(TestRecords.fix(1), sequence: 3))
            client.flush(now: now)
            #expect(transport.lines.last == String(decoding: gga.bytes, as: UTF8.self) + "\r\n", "\(request)")
        }
        let (json, transport, _) = client()
        json.offer(RelayedRecord(gga, sequence: 2))
        json.flush(now: now)
        #expect(classes(transport) == ["VERSION", "DEVICES", "WATCH"])
    }

    @Test func aDeviceWatchGetsThatReceiversReportsOnly() {
        let (client, transport, upstream) = client(#"?WATCH={"enable":true,"json":true,"device":"/dev/r0"};"#)
        client.offer(RelayedRecord(TestRecords.fix(1), sequence: 2))
        client.flush(now: now)
        #expect(classes(transport) == ["VERSION", "DEVICES", "WATCH"])
        transport.send(#"?WATCH={"enable":true,"device":"/dev/nope"};"#)
        client.read(upstream, sequence: 3, now: now)
        #expect(transport.lines.last == #"{"class":"ERROR","message":"No such device as /dev/nope"}"# + "\r\n")
    }

    @Test func aDeniedClientIsToldWhyOnlyAfterItAsksAndGetsNoPosition() {
        let transport = ScriptedTransport()
        let client = scriptedClient(transport, authorization: TestAuthorization.denied)
        client.flush(now: now)
        #expect(classes(transport) == ["VERSION"], "no ERROR before the client asked anything")
        var upstream = Upstream()
        upstream.note(RelayedRecord(TestRecords.devices(["/dev/r0"]), sequence: 0))
        transport.send(#"?WATCH={"enable":true,"json":true};"#)
        client.read(upstream, sequence: 1, now: now)
        client.offer(RelayedRecord(TestRecords.sky(1), sequence: 1))
        client.offer(RelayedRecord(TestRecords.fix(1), sequence: 2))
        client.flush(now: now)
        #expect(classes(transport) == ["VERSION", "DEVICES", "WATCH", "ERROR"])
        #expect(transport.lines.last == #"{"class":"ERROR","message":"gpspipe: denied: denied"}"# + "\r\n")
        // A silent watch is kept alive with a TPV that says nothing.
        client.tick(now: now.advanced(by: .seconds(3)))
        #expect(transport.lines.last == "{\"class\":\"TPV\",\"mode\":1}\r\n")
        #expect(client.session.deliveries == 0 && client.session.denial == .denied)
    }

    @Test func reducedAccuracyGetsTheCellOfAFixAndNothingElse() {
        let (client, transport, _) = client(
            #"?WATCH={"enable":true,"json":true,"nmea":true};"#, authorization: TestAuthorization.reduced)
        client.offer(RelayedRecord(TestRecords.sky(1), sequence: 2))
        client.offer(
            RelayedRecord(TestRecords.sentence("$GPGGA,080004.00,6407.79892,N,02154.00000,W,1,08,0.9,20.0,M,45.0,M,,*4A"), sequence: 3))
        client.offer(RelayedRecord(TestRecords.fix(1), sequence: 4))
        client.offer(RelayedRecord(TestRecords.fix(2), sequence: 5))
        client.flush(now: now)
        #expect(classes(transport) == ["VERSION", "DEVICES", "WATCH", "TPV", "$GPGGA", "$GPRMC", "$GPGSA"])
        #expect(
            transport.lines[3]
                == #"{"class":"TPV","device":"/dev/r1","mode":3,"time":"2026-01-01T08:00:01.000Z","lat":64.125000000,"lon":-21.941438574}"#
                + "\r\n")
        #expect(client.session.accuracy == .reducedAccuracy)
    }

    @Test func aPollGivesOnlyWhatWasTakenWhileTheClientWasAllowedIt() {
        let (client, transport, _) = client(#"?WATCH={"enable":true,"json":true};?POLL;"#)
        #expect(transport.lines.last?.hasPrefix(#"{"class":"POLL","#) == true)
        #expect(transport.lines.last?.contains(#""active":1,"tpv":[],"gst":[],"sky":[]}"#) == true, "nothing taken since it came")
        var upstream = Upstream()
        upstream.note(RelayedRecord(TestRecords.devices(["/dev/r1"]), sequence: 0))
        for (index, message) in [TestRecords.sky(1), TestRecords.fix(1)].enumerated() {
            let record = RelayedRecord(message, sequence: UInt64(2 + index))
            upstream.note(record)
            client.offer(record)
        }
        transport.send("?POLL;")
        client.read(upstream, sequence: 4, now: now)
        let poll = transport.lines.last ?? ""
        #expect(
            poll.contains(#""active":1,"tpv":[{"class":"TPV","device":"/dev/r1","mode":3,"#) && poll.contains(#""sky":[{"class":"SKY""#))
        // Denied and allowed again: what was taken before is gone from a POLL too.
        client.authorize(TestAuthorization.denied, sequence: 4)
        client.authorize(TestAuthorization.always, sequence: 4)
        transport.send("?POLL;")
        client.read(upstream, sequence: 4, now: now)
        #expect(transport.lines.last?.contains(#""tpv":[],"gst":[],"sky":[]}"#) == true)
    }

    @Test func aReaderThatStopsHoldsBackAndLosesItsOldestRecordsNotMemory() {
        let (client, transport, _) = client()
        transport.reading = .stalled
        for number in 1...400 {
            client.offer(RelayedRecord(TestRecords.fix(number), sequence: UInt64(number)))
            client.flush(now: now)
        }
        #expect(client.dropped > 250)
        transport.readsAll()
        client.flush(now: now)
        let delivered = transport.lines.compactMap { line in
            Int(line.components(separatedBy: "/dev/r").dropFirst().first?.prefix { $0.isNumber } ?? "")
        }
        #expect(delivered.last == 400 && delivered.count < 150, "the newest, in order: \(delivered)")
        #expect(delivered == delivered.sorted())
    }

    @Test func aClientWithTooMuchUnreadGetsNoNewRecordUntilItReads() throws {
        let (client, transport, _) = client()
        transport.reading = .takes(bytes: 1_000_000)
        var number = 1
        while client.heldBackUntil == nil, number < 200 {
            client.offer(RelayedRecord(TestRecords.fix(number), sequence: UInt64(number)))
            client.flush(now: now)
            number += 1
        }
        let heldUntil = try #require(client.heldBackUntil)
        #expect(transport.unreadCount < ServedClient.inFlightLimit + 600)
        let written = transport.written.count
        client.offer(RelayedRecord(TestRecords.fix(number), sequence: UInt64(number)))
        client.flush(now: heldUntil)
        #expect(transport.written.count == written)
        // Looked at later and later while it does not read.
        let later = try #require(client.heldBackUntil)
        #expect(heldUntil.duration(to: later) >= ServedClient.heldBackShortest * 2)
        transport.readsAll()
        client.flush(now: later)
        #expect(transport.written.count > written && client.heldBackUntil == nil)
    }

    @Test func aClientThatFloodsAndNeverReadsIsNoLongerReadAndItsEndIsSeen() {
        let (client, transport, upstream) = client(nil)
        transport.reading = .stalled
        for _ in 0..<2000 { transport.send("?DEVICES;") }
        for _ in 0..<20 where client.wantsInput { client.read(upstream, sequence: 1, now: now) }
        #expect(!client.wantsInput, "answers wait: its requests are read no more")
        #expect(!transport.inbound.isEmpty)
        client.hangUp(now: now)
        #expect(client.state == .closed && transport.isClosed)
    }

    @Test func aClientsEndIsAnsweredThenClosed() {
        let (client, transport, upstream) = client(nil)
        transport.send("?DEVICES;")
        transport.hasEnded = true
        client.read(upstream, sequence: 1, now: now)
        client.read(upstream, sequence: 1, now: now)
        #expect(classes(transport) == ["VERSION", "DEVICES"])
        #expect(client.state == .closed && transport.isClosed)
    }

    @Test func aRefusedClientIsToldOnceItAsksThenEnded() {
        let transport = ScriptedTransport()
        let client = scriptedClient(transport, refusal: "its program cannot be identified")
        var upstream = Upstream()
        upstream.note(RelayedRecord(TestRecords.devices(["/dev/r0"]), sequence: 0))
        client.flush(now: now)
        #expect(classes(transport) == ["VERSION"])
        transport.send(#"?WATCH={"enable":true,"json":true}"#)
        client.read(upstream, sequence: 1, now: now)
        client.offer(RelayedRecord(TestRecords.fix(1), sequence: 1))
        client.flush(now: now)
        #expect(transport.lines.last == #"{"class":"ERROR","message":"gpspipe: refused: its program cannot be identified"}"# + "\r\n")
        #expect(transport.isShutDown && client.state != .closed)
        client.tick(now: now.advanced(by: .seconds(2)))
        #expect(client.state == .closed)
    }

    @Test func anNMEAClientGetsSentencesFromTheStartAndSilenceWhenDenied() {
        let gga = TestRecords.sentence("$GPGGA,080004.00,6407.79892,N,02154.00000,W,1,08,0.9,20.0,M,45.0,M,,*4A")
        let (client, transport, _) = client(nil, speaks: .nmea)
        client.offer(RelayedRecord(gga, sequence: 1))
        client.flush(now: now)
        #expect(transport.lines == [String(decoding: gga.bytes, as: UTF8.self) + "\r\n"])
        client.authorize(TestAuthorization.denied, sequence: 2)
        client.offer(RelayedRecord(gga, sequence: 2))
        client.tick(now: now.advanced(by: .seconds(5)))
        client.flush(now: now)
        #expect(transport.lines.count == 1 && client.state == .open)
    }

    /// A read of a full segment whose request its end cut (after a blank) is answered as gpsd
    /// would, and the next read is a segment of its own: no trap, no wait for more.
    @Test func aFullReadEndingWithinARequestIsASegmentLikeAnyOther() {
        let (client, transport, upstream) = client(nil)
        transport.send("?VERSION; ?" + String(repeating: "A", count: GPSDRequest.segmentSize - 11))
        client.read(upstream, sequence: 1, now: now)
        transport.send("B?VERSION;")
        client.read(upstream, sequence: 1, now: now)
        transport.send("?VERSION;")
        client.read(upstream, sequence: 1, now: now)
        #expect(classes(transport) == ["VERSION", "VERSION", "ERROR", "VERSION"])
    }

    /// A denied client that never asks anything (GeoClue's NMEA source, a silent reader) is an
    /// attempt in the access log all the same.
    @Test func aDeniedClientThatNeverAsksIsAnAttempt() {
        for speaks in [ServedProtocol.gpsd, .nmea] {
            let (client, _, _) = client(nil, authorization: TestAuthorization.denied, speaks: speaks)
            #expect(client.session.denial == .denied)
        }
    }

    /// A sentence names no receiver: a watch of one receiver gets it only when gpsd has that
    /// one alone (then it can only be that one's).
    @Test func aDeviceWatchGetsSentencesOnlyWhenTheyCanBeTold() {
        let gga = TestRecords.sentence("$GPGGA,080004.00,6407.79892,N,02154.00000,W,1,08,0.9,20.0,M,45.0,M,,*4A")
        let (client, transport, _) = client(#"?WATCH={"enable":true,"nmea":true,"device":"/dev/r0"};"#)
        client.offer(RelayedRecord(gga, sequence: 2, soleDevice: nil))
        client.offer(RelayedRecord(gga, sequence: 3, soleDevice: "/dev/r9"))
        client.flush(now: now)
        #expect(classes(transport) == ["VERSION", "DEVICES", "WATCH"])
        client.offer(RelayedRecord(gga, sequence: 4, soleDevice: "/dev/r0"))
        client.flush(now: now)
        #expect(classes(transport) == ["VERSION", "DEVICES", "WATCH", "$GPGGA"])
    }

    /// A client whose program becomes another app's (a section pinned to it) is judged anew:
    /// nothing taken before reaches it, even when the new app's authorization is the same.
    @Test func aClientReassignedToAnotherAppGetsNothingTakenBefore() {
        let (client, transport, _) = client()
        transport.reading = .stalled
        client.offer(RelayedRecord(TestRecords.fix(1), sequence: 2))
        client.flush(now: now)
        client.reassign(to: "pinned", authorization: TestAuthorization.always, sequence: 3)
        client.offer(RelayedRecord(TestRecords.fix(2), sequence: 3))
        transport.readsAll()
        client.flush(now: now)
        #expect(transport.lines.compactMap { line in line.contains("/dev/r1") ? line : nil }.isEmpty, "\(transport.lines)")
        #expect(transport.lines.last?.contains("/dev/r2") == true && client.session.app == "pinned")
    }

    /// A client that does not read, its app denied and allowed over and over: one ERROR waits
    /// for it at most, not one a change.
    @Test func denialsPileNoMoreThanOneErrorForAClientThatDoesNotRead() {
        let (client, transport, _) = client()
        transport.reading = .stalled
        for _ in 0..<1000 {
            client.authorize(TestAuthorization.denied, sequence: 2)
            client.authorize(TestAuthorization.always, sequence: 2)
        }
        client.authorize(TestAuthorization.denied, sequence: 2)
        transport.readsAll()
        client.flush(now: now)
        #expect(classes(transport) == ["VERSION", "DEVICES", "WATCH", "ERROR"], "\(classes(transport))")
    }
}
