import Foundation
import HostileInput
import Testing

@testable import GPSLocation

/// Seeded mutations of valid gpsd messages, thousands of them: whatever the bytes, nothing
/// crashes and nothing outside the plausible ranges becomes a position. README gives the figures.
struct HostileMessageTests {
    static let gpsdSeeds = [
        #"{"class":"TPV","device":"/dev/pts/1","mode":3,"time":"2026-01-01T08:00:06.000Z","ept":0.005,"lat":64.150432167,"lon":-21.940456667,"altHAE":57.5000,"altMSL":12.5000,"epx":17.386,"epy":15.218,"epv":29.900,"track":12.5,"speed":3.3,"climb":0.1,"eps":34.77,"eph":17.100}"#,
        #"{"class":"SKY","device":"/dev/pts/1","hdop":0.90,"nSat":3,"uSat":2,"satellites":[{"PRN":2,"el":20.0,"az":0.0,"ss":30.0,"used":true},{"PRN":5,"el":28.0,"az":45.0,"ss":32.0,"used":true}]}"#,
        #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/pts/1","driver":"NMEA0183","activated":"2026-01-01T08:00:00.000Z"}]}"#,
        #"{"class":"POLL","time":"2026-01-01T08:00:07.120Z","active":1,"tpv":[{"class":"TPV","device":"/dev/pts/1","mode":2,"lat":1.25,"lon":2.5}],"gst":[],"sky":[]}"#,
        #"{"class":"ERROR","message":"No such device as /dev/x"}"#,
        #"{"class":"TPV","device":"/dev/pts/1","mode":1}"#,
    ]

    /// How many mutants the suite tries (README's figures).
    static let gpsdCount = 5000

    @Test func mutatedGPSDMessagesNeverBecomeImplausiblePositions() {
        var mutator = Mutator(seed: 4)
        var fixes = 0
        for var bytes in mutator.corpus(from: Self.gpsdSeeds, count: Self.gpsdCount) {
            let decoder = GPSDMessageDecoder()
            let length = bytes.count
            bytes.append(0)
            guard case .fix(let location) = decoder.decode(&bytes, 0..<length) else { continue }
            fixes += 1
            #expect(Plausible.isPosition(latitude: location.latitude, longitude: location.longitude))
            #expect(location.time.map { Plausible.time.contains($0.timeIntervalSince1970) } ?? true)
            #expect(location.altitudeMSL.map { Plausible.altitude.contains($0) } ?? true)
            #expect(location.horizontalAccuracy.map { Plausible.error.contains($0) } ?? true)
            #expect(!UntrustedText.hasHidden(location.device ?? ""), "\(location.device ?? "")")
            #expect(
                bytes.starts(with: Array(#"{"class":"TPV""#.utf8)) || bytes.starts(with: Array(#"{"class":"POLL""#.utf8))
                    || String(decoding: bytes, as: UTF8.self).contains(#""class":"TPV""#), "only a TPV is a fix")
        }
        #expect(fixes > 0 && fixes < Self.gpsdCount, "some mutants stay fixes, most do not")
    }
}
