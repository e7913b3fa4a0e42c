import Foundation
import HostileInput
import LocateSupport
import Testing

@testable import GPSLocation

/// Seeded mutations of valid gpsd messages, thousands of them: whatever the bytes, nothing
/// crashes and nothing outside the plausible ranges becomes a position. locate-privacy(7) gives the figures.
struct HostileMessageTests {
    static let gpsdSeeds = [
        #"{"class":"TPV","device":"/dev/pts/1","mode":3,"time":"2026-01-01T08:00:06.000Z","ept":0.005,"lat":64.150432167,"lon":-21.940456667,"altHAE":57.5000,"altMSL":12.5000,"epx":17.386,"epy":15.218,"epv":29.900,"track":12.5,"speed":3.3,"climb":0.1,"eps":34.77,"eph":17.100}"#,
        #"{"class":"SKY","device":"/dev/pts/1","hdop":0.90,"nSat":3,"uSat":2,"satellites":[{"PRN":2,"el":20.0,"az":0.0,"ss":30.0,"used":true},{"PRN":5,"el":28.0,"az":45.0,"ss":32.0,"used":true}]}"#,
        #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/pts/1","driver":"NMEA0183","activated":"2026-01-01T08:00:00.000Z"}]}"#,
        #"{"class":"POLL","time":"2026-01-01T08:00:07.120Z","active":1,"tpv":[{"class":"TPV","device":"/dev/pts/1","mode":2,"lat":1.25,"lon":2.5}],"gst":[],"sky":[]}"#,
        #"{"class":"ERROR","message":"No such device as /dev/x"}"#,
        #"{"class":"TPV","device":"/dev/pts/1","mode":1}"#,
    ]

    /// How many mutants the suite tries (locate-privacy(7)'s figures).
    static let gpsdCount = 5000

    /// What gpsd_json(5) documents of a TPV, independently of the decoder's own ranges: a
    /// position is degrees (latitude ±90, "+/- signifies North/South"; longitude ±180), error
    /// estimates are metres (or m/s) at 95% confidence, so never negative, speed over ground is
    /// never negative, course is degrees from true north, time is UTC from a GPS receiver, so no
    /// earlier than the GPS epoch (1980-01-06), and only modes 2 and 3 are fixes.
    enum Documented {
        static let latitude = -90.0...90.0
        static let longitude = -180.0...180.0
        static let course = 0.0...360.0
        static let gpsEpoch = 315_964_800.0
    }

    /// The TPV object a message carries: itself, or a POLL reply's first one.
    private static func tpv(_ bytes: [UInt8]) -> [String: Any]? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any] else { return nil }
        if object["class"] as? String == "POLL" { return (object["tpv"] as? [[String: Any]])?.first }
        return object["class"] as? String == "TPV" ? object : nil
    }

    @Test func mutatedGPSDMessagesBecomeOnlyTheFixesGpsdDocuments() {
        var mutator = Mutator(seed: 4)
        var fixes = 0
        var compared = 0
        for var bytes in mutator.corpus(from: Self.gpsdSeeds, count: Self.gpsdCount) {
            let message = bytes
            let decoder = GPSDMessageDecoder()
            let length = bytes.count
            bytes.append(0)
            guard case .fix(let location) = decoder.decode(&bytes, 0..<length) else { continue }
            fixes += 1
            #expect(Documented.latitude.contains(location.latitude) && Documented.longitude.contains(location.longitude), "\(location)")
            #expect(location.time.map { $0.timeIntervalSince1970 >= Documented.gpsEpoch } ?? true, "\(location)")
            for error in [
                location.horizontalAccuracy, location.verticalAccuracy, location.speedAccuracy, location.courseAccuracy, location.speed,
            ] {
                #expect(error.map { $0 >= 0 && $0.isFinite } ?? true, "\(location)")
            }
            #expect(location.course.map { Documented.course.contains($0) } ?? true, "\(location)")
            #expect(!UntrustedText.hasHidden(location.device ?? ""), "\(location.device ?? "")")
            // Where the message is JSON as gpsd writes it, the fix says what it said: a TPV of mode
            // 2 or 3, at that very position, from that very device.
            guard let tpv = Self.tpv(message) else {
                #expect(String(decoding: message, as: UTF8.self).contains(#""class":"TPV""#), "only a TPV is a fix")
                continue
            }
            compared += 1
            #expect([2, 3].contains(tpv["mode"] as? Int), "\(tpv)")
            #expect(tpv["lat"] as? Double == location.latitude && tpv["lon"] as? Double == location.longitude, "\(tpv) gave \(location)")
            if let device = tpv["device"] as? String { #expect(location.device == UntrustedText.visible(device, limit: 256)) }
        }
        #expect(fixes > 0 && fixes < Self.gpsdCount, "some mutants stay fixes, most do not: \(fixes)")
        #expect(compared > 0, "some fixes are compared with their message")
    }
}
