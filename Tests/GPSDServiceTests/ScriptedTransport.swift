import Foundation
import LocateFormats

@testable import GPSDService
@testable import GPSLocation

/// A client's connection played by a test: what the client sends, whether it reads, and
/// everything the service wrote, each write with a note the test takes at that moment.
final class ScriptedTransport: ClientTransport {
    /// How the client's end takes what is written.
    enum Reading: Equatable {
        /// It reads everything at once.
        case reads
        /// It reads nothing (stopped with Ctrl-Z, busy): the connection takes nothing more.
        case stalled
        /// The connection takes up to `bytes` more, then nothing: a write cut within a line.
        case takes(bytes: Int)
    }

    var reading = Reading.reads
    /// What the client sent that the service has not read.
    var inbound: [UInt8] = []
    /// Whether the client closed its end.
    var hasEnded = false
    /// Everything written, in order.
    private(set) var written: [UInt8] = []
    /// Each write: where it starts in `written`, how long it is, and the note taken then.
    private(set) var writes: [(offset: Int, count: Int, note: Int)] = []
    /// Written and not read by the client.
    private(set) var unreadCount = 0
    private(set) var isClosed = false
    private(set) var isShutDown = false
    /// What a write notes (the test's generation of the authorization, say).
    var note: () -> Int = { 0 }

    func send(_ text: String) {
        inbound += Array(text.utf8)
    }

    func receive(limit: Int) -> TransportInput {
        if inbound.isEmpty { return hasEnded ? .ended : .nothing }
        let taken = Array(inbound.prefix(limit))
        inbound.removeFirst(taken.count)
        return .bytes(taken)
    }

    func send(_ bytes: [UInt8]) -> TransportOutput {
        guard !isClosed else { return .failed }
        let count: Int
        switch reading {
        case .reads: count = bytes.count
        case .stalled: count = 0
        case .takes(let limit):
            count = min(limit, bytes.count)
            reading = limit - count > 0 ? .takes(bytes: limit - count) : .stalled
        }
        guard count > 0 else { return .full }
        writes.append((written.count, count, note()))
        written += bytes.prefix(count)
        if reading != .reads { unreadCount += count }
        return .sent(count)
    }

    func unread() -> Int? { unreadCount }

    /// The client reads everything written so far, and from now on.
    func readsAll() {
        reading = .reads
        unreadCount = 0
    }

    func shutdownSending() { isShutDown = true }

    func close() { isClosed = true }

    /// Where each line written lies, complete (with its line end) or not.
    var lineRanges: [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = 0
        var index = 0
        while index < written.count {
            if written[index] == 0x0A {
                ranges.append(start..<(index + 1))
                start = index + 1
            }
            index += 1
        }
        if start < written.count { ranges.append(start..<written.count) }
        return ranges
    }

    /// The lines written, complete or not.
    var lines: [String] { lineRanges.map { String(decoding: written[$0], as: UTF8.self) } }

    /// Whether `written[range]` holds `needle`.
    func contains(_ needle: [UInt8], in range: Range<Int>) -> Bool {
        positions(of: needle, in: range).first != nil
    }

    /// Where `needle` ends each time it is in `written[range]`.
    func positions(of needle: [UInt8], in range: Range<Int>) -> [Int] {
        var found: [Int] = []
        var index = range.lowerBound
        while index + needle.count <= range.upperBound {
            var matches = true
            for offset in 0..<needle.count where written[index + offset] != needle[offset] {
                matches = false
                break
            }
            if matches { found.append(index + needle.count) }
            index += 1
        }
        return found
    }

    /// The number written at `position`, if digits are there.
    func number(at position: Int, before end: Int) -> Int? {
        var value = 0
        var index = position
        while index < end, (0x30...0x39).contains(written[index]) {
            value = value * 10 + Int(written[index] - 0x30)
            index += 1
        }
        return index > position ? value : nil
    }

    /// The notes of the writes that hold any of `range`.
    func notes(covering range: Range<Int>) -> [Int] {
        writes.filter { $0.offset < range.upperBound && $0.offset + $0.count > range.lowerBound }.map(\.note)
    }
}

/// Records of a receiver for the tests: TPVs with a fix, SKYs and sentences, each naming
/// itself in its device (`/dev/rN`), as gpsd writes them.
enum TestRecords {
    static func fix(_ number: Int, latitude: Double = 64.1466) -> GPSDMessage {
        let device = "/dev/r\(number)"
        let time = Date(timeIntervalSince1970: 1_767_254_400 + Double(number))
        let location = Location(
            unchecked: latitude, longitude: -21.9426, time: time, altitudeMSL: 42.5, horizontalAccuracy: 17.1, mode: .threeDimensional,
            device: device)
        let line =
            #"{"class":"TPV","device":"\#(device)","mode":3,"time":"2026-01-01T08:00:00.000Z","ept":0.005,"lat":\#(latitude),"lon":-21.942600000,"altHAE":89.4000,"altMSL":42.5000,"alt":42.5000,"epx":17.386,"epy":15.218,"epv":29.900,"rtime": 1796245841.849211775,"sor": 0.000000000,"chars":70875,"sats": 8,"week":0,"tow":0.000,"rollovers":2,"eph":17.100,"sep":30.400}"#
        return GPSDMessage(kind: .fix(location), device: device, bytes: Array(line.utf8))
    }

    static func sky(_ number: Int) -> GPSDMessage {
        let line =
            #"{"class":"SKY","device":"/dev/r\#(number)","hdop":0.90,"nSat":1,"uSat":1,"satellites":[{"PRN":2,"el":20.0,"az":0.0,"ss":30.0,"used":true}]}"#
        return GPSDMessage(kind: .sky, device: "/dev/r\(number)", bytes: Array(line.utf8))
    }

    static func sentence(_ body: String) -> GPSDMessage {
        GPSDMessage(kind: .sentence, device: nil, bytes: Array(body.utf8))
    }

    static func devices(_ paths: [String]) -> GPSDMessage {
        let objects = paths.map {
            #"{"class":"DEVICE","path":"\#($0)","driver":"NMEA0183","activated":"2026-12-02T21:08:58.535Z","flags":1,"native":0,"bps":4800,"parity":"N","stopbits":1,"cycle":1.00}"#
        }
        return GPSDMessage(
            kind: .devices, device: nil, bytes: Array((#"{"class":"DEVICES","devices":["# + objects.joined(separator: ",") + "]}").utf8))
    }

    /// The numbers of the records whose reports `transport` wrote in `range`, named in their devices.
    static func numbers(in range: Range<Int>, of transport: ScriptedTransport) -> [Int] {
        transport.positions(of: devicePrefix, in: range).compactMap { transport.number(at: $0, before: range.upperBound) }.filter { $0 > 0 }
    }

    private static let devicePrefix = Array(#""device":"/dev/r"#.utf8)
}

/// Authorizations as the tests switch between them.
enum TestAuthorization {
    static let always = Authorization(decision: AuthorizationDecision(status: .authorizedAlways), appState: .unattended)
    static let reduced = Authorization(
        decision: AuthorizationDecision(status: .authorizedAlways, accuracy: .reducedAccuracy), appState: .unattended)
    static let denied = Authorization(decision: AuthorizationDecision(status: .denied), appState: .unattended)
}

/// A client of the service over a scripted transport.
func scriptedClient(
    _ transport: ScriptedTransport, authorization: Authorization = TestAuthorization.always, speaks: ServedProtocol = .gpsd,
    refusal: String? = nil, pace: ReducedAccuracyPace = ReducedAccuracyPace()
) -> ServedClient {
    var identity = ClientIdentity(uid: 1000, pid: 4242, program: "/usr/bin/gpspipe", app: "gpspipe")
    identity.refusal = refusal
    return ServedClient(
        transport: transport, identity: identity, speaks: speaks, authorization: authorization, authorizedSince: 0,
        version: GPSDReports.line(GPSDReports.version), explain: { "denied: \($0.rawValue)" }, pace: pace, now: .now)
}
