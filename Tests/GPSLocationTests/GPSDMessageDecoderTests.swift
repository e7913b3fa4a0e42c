import FoundationEssentials
import Testing

@testable import GPSLocation

/// Decoding goes through libgps's own parser (`gps_unpack`), as gpsd's messages do at run time.
struct GPSDMessageDecoderTests {
    private let fullFix =
        #"{"class":"TPV","device":"/dev/pts/1","mode":3,"time":"2026-01-01T08:00:06.000Z","ept":0.005,"lat":64.150432167,"lon":-21.940456667,"altHAE":57.5000,"altMSL":12.5000,"alt":12.5000,"epx":17.386,"epy":15.218,"epv":29.900,"track":12.5,"magtrack":346.7563,"magvar":-13.2,"speed":3.3,"climb":0.1,"eps":34.77,"epc":59.80,"geoidSep":45.000,"eph":17.100,"sep":30.400}"#

    private let sky =
        #"{"class":"SKY","device":"/dev/pts/1","hdop":0.90,"nSat":3,"uSat":2,"satellites":[{"PRN":2,"el":20.0,"az":0.0,"ss":30.0,"used":true},{"PRN":5,"el":28.0,"az":45.0,"ss":32.0,"used":true},{"PRN":12,"el":36.0,"az":90.0,"ss":0.0,"used":false}]}"#

    @Test func decodesEveryFieldOfAFullFix() throws {
        let report = GPSDMessageDecoder().decode(json: fullFix)
        guard case .fix(let location) = report else {
            Issue.record("expected a fix, got \(report)")
            return
        }
        #expect(location.latitude == 64.150432167)
        #expect(location.longitude == -21.940456667)
        #expect(location.time == Date(timeIntervalSince1970: 1_767_254_406))
        #expect(location.altitudeMSL == 12.5)
        #expect(location.altitudeHAE == 57.5)
        #expect(location.horizontalAccuracy == 17.1)
        #expect(location.verticalAccuracy == 29.9)
        #expect(location.speed == 3.3)
        #expect(location.speedAccuracy == 34.77)
        #expect(location.course == 12.5)
        #expect(location.courseAccuracy == nil)
        #expect(location.climb == 0.1)
        #expect(location.mode == .threeDimensional)
        #expect(location.device == "/dev/pts/1")
        #expect(location.source == .gpsd)
    }

    /// What gpsd says beyond the position: the fix type from `status` (a plain fix has none),
    /// the error by axis and of the time, the magnetic variation, the geoid separation, the
    /// sky view's dilutions and the heading of gpsd 3.22's broken ATT line.
    @Test func decodesTheReceiversDetails() throws {
        let decoder = GPSDMessageDecoder()
        _ = decoder.decode(
            json:
                #"{"class":"SKY","device":"/dev/pts/1","xdop":0.6,"ydop":0.5,"vdop":1.20,"tdop":0.80,"hdop":0.70,"gdop":1.6,"pdop":1.40,"satellites":[{"PRN":2,"el":20.0,"az":0.0,"ss":30.0,"used":true}]}"#
        )
        #expect(
            decoder.decode(json: #"{"class":"ATT","device":"/dev/pts/1",,"time":"2026-01-01T08:00:01.000Z""heading":123.400,"dip":0.700}"#)
                == .other)
        guard case .fix(let plain) = decoder.decode(json: fullFix) else { throw HarnessFailure.noFix }
        #expect(
            plain.details
                == Location.Details(
                    fix: .gps, vdop: 1.2, pdop: 1.4, tdop: 0.8, gdop: 1.6, xAccuracy: 17.386, yAccuracy: 15.218, timeAccuracy: 0.005,
                    heading: 123.4, magneticVariation: -13.2, geoidSeparation: 45))
        let rtk = fullFix.replacing(#""mode":3"#, with: #""status":3,"mode":3"#)
        guard case .fix(let fixed) = decoder.decode(json: rtk) else { throw HarnessFailure.noFix }
        #expect(fixed.details.fix == .rtkFixed)
        for (status, type) in [
            (2, Location.FixType.dgps), (4, .rtkFloat), (5, .deadReckoning), (6, .gnssDeadReckoning), (7, .surveyed), (8, .simulated),
            (9, .pps),
        ] {
            guard case .fix(let location) = decoder.decode(json: fullFix.replacing(#""mode":3"#, with: #""status":\#(status),"mode":3"#))
            else {
                throw HarnessFailure.noFix
            }
            #expect(location.details.fix == type, "status \(status)")
        }
        let otherDevice = GPSDMessageDecoder()
        guard case .fix(let alone) = otherDevice.decode(json: fullFix) else { throw HarnessFailure.noFix }
        #expect(alone.details.heading == nil && alone.details.vdop == nil, "no sky view or heading: none of theirs")
    }

    private enum HarnessFailure: Error { case noFix }

    @Test func modeOneIsNoFixNotAnError() {
        #expect(GPSDMessageDecoder().decode(json: #"{"class":"TPV","device":"/dev/pts/1","mode":1}"#) == .noFix)
    }

    @Test func modeZeroSaysNothingInTheStreamAndNoFixInAPoll() {
        #expect(GPSDMessageDecoder().decode(json: #"{"class":"TPV","device":"/dev/pts/1","mode":0}"#) == .other)
        let poll =
            #"{"class":"POLL","time":"2026-01-01T08:00:07.120Z","active":1,"tpv":[{"class":"TPV","device":"/dev/pts/1","mode":0}],"gst":[],"sky":[]}"#
        #expect(GPSDMessageDecoder().decode(json: poll) == .noFix)
    }

    @Test func unknownValuesAreNilNeverNaN() throws {
        let report = GPSDMessageDecoder().decode(
            json: #"{"class":"TPV","device":"/dev/pts/1","mode":2,"time":"2026-01-01T08:00:06.000Z","lat":1.25,"lon":2.5}"#)
        guard case .fix(let location) = report else {
            Issue.record("expected a fix, got \(report)")
            return
        }
        #expect(location.mode == .twoDimensional)
        #expect(location.details == Location.Details(fix: .gps))
        #expect(location.altitudeMSL == nil && location.altitudeHAE == nil)
        #expect(location.horizontalAccuracy == nil && location.speed == nil && location.course == nil)
        #expect(location.satellitesUsed == nil)
    }

    /// TPVs that libgps parses without complaint, but that no receiver on earth can have sent.
    @Test(arguments: [
        #"{"class":"TPV","mode":3,"lat":95.0,"lon":20.0}"#, #"{"class":"TPV","mode":3,"lat":10.0,"lon":500.0}"#,
        #"{"class":"TPV","mode":2,"lat":1e300,"lon":1e300}"#, #"{"class":"TPV","mode":3,"lat":-90.5,"lon":0}"#,
        #"{"class":"TPV","mode":9,"lat":12.5,"lon":99.5}"#,
    ])
    func aPositionOffTheGlobeIsNoFix(json: String) {
        #expect(GPSDMessageDecoder().decode(json: json) == .noFix)
    }

    @Test func implausibleValuesOfARealPositionAreUnknown() throws {
        let json =
            #"{"class":"TPV","mode":3,"time":"2026-01-01T00:00:00.000Z","lat":10.5,"lon":20.5,"altMSL":1e12,"eph":-5,"epv":1e300,"speed":-3,"track":720,"climb":1e9,"epx":-1,"geoidSep":9e9,"magvar":400}"#
        guard case .fix(let location) = GPSDMessageDecoder().decode(json: json) else {
            Issue.record("a real position with junk around it is still a fix")
            return
        }
        #expect(location.latitude == 10.5 && location.longitude == 20.5)
        #expect(location.altitudeMSL == nil && location.horizontalAccuracy == nil && location.verticalAccuracy == nil)
        #expect(location.speed == nil && location.course == nil && location.climb == nil)
        #expect(location.details.xAccuracy == nil && location.details.geoidSeparation == nil && location.details.magneticVariation == nil)
    }

    /// A fix has a time, as CoreLocation's always do: a TPV without one (a receiver's first
    /// epochs, GGA before RMC), or with one no receiver can have, is no fix yet.
    @Test(arguments: [
        #"{"class":"TPV","device":"/dev/pts/1","mode":3,"lat":10.5,"lon":20.5}"#,
        #"{"class":"TPV","device":"/dev/pts/1","mode":3,"time":"3000-01-01T00:00:00.000Z","lat":10.5,"lon":20.5}"#,
        #"{"class":"POLL","time":"2026-01-01T08:00:07.120Z","active":1,"tpv":[{"class":"TPV","device":"/dev/pts/1","mode":2,"lat":1,"lon":2}],"gst":[],"sky":[]}"#,
    ])
    func aReportWithoutATimeIsNoFixYet(json: String) {
        #expect(GPSDMessageDecoder().decode(json: json) == .noFix)
    }

    /// libgps 3.22's gps_unpack loops forever on these (an object of a known class inside an
    /// array under an unknown key); the decoder parses each line once, so it answers at once.
    @Test(
        .timeLimit(.minutes(1)),
        arguments: [
            #"{"class":"TPV","x":[{"class":"TPV"}]}"#,
            #"{"class":"DEVICES","x":[{"class":"DEVICE","path":"/dev/pts/1"}]}"#,
        ])
    func aLineThatHangsGpsUnpackSaysNothing(json: String) {
        #expect(GPSDMessageDecoder().decode(json: json) == .other)
    }

    @Test func aFixWithoutCoordinatesIsNoFix() {
        #expect(
            GPSDMessageDecoder().decode(json: #"{"class":"TPV","device":"/dev/pts/1","mode":3,"time":"2026-01-01T08:00:06.000Z"}"#)
                == .noFix)
    }

    @Test func carriesTheLatestSkyViewIntoFollowingFixes() throws {
        let decoder = GPSDMessageDecoder()
        #expect(decoder.decode(json: sky) == .other)
        guard case .fix(let location) = decoder.decode(json: fullFix) else {
            Issue.record("expected a fix")
            return
        }
        #expect(location.satellitesUsed == 2)
        #expect(location.hdop == 0.9)
        #expect(
            location.satellites == [
                try Satellite(prn: 2, elevation: 20, azimuth: 0, signalStrength: 30, isUsed: true),
                try Satellite(prn: 5, elevation: 28, azimuth: 45, signalStrength: 32, isUsed: true),
                try Satellite(prn: 12, elevation: 36, azimuth: 90, signalStrength: 0, isUsed: false),
            ])
    }

    /// A satellite's unknown values (gpsd's NaN, or numbers no sky has) are unknown, and a
    /// satellite without a PRN is left out; the next SKY replaces the view.
    @Test func aSkyViewKeepsOnlyWhatASkyCanHold() throws {
        let decoder = GPSDMessageDecoder()
        let odd =
            #"{"class":"SKY","device":"/dev/pts/1","satellites":[{"PRN":7,"el":95.0,"az":-3.0,"ss":300.0,"used":false},"#
            + #"{"PRN":0,"el":10.0,"az":10.0,"ss":10.0,"used":true},{"PRN":9,"used":true}]}"#
        _ = decoder.decode(json: odd)
        guard case .fix(let location) = decoder.decode(json: fullFix) else {
            Issue.record("expected a fix")
            return
        }
        #expect(
            location.satellites == [try Satellite(prn: 7, isUsed: false), try Satellite(prn: 9, isUsed: true)], "\(location.satellites)")
        _ = decoder.decode(json: sky)
        guard case .fix(let next) = decoder.decode(json: fullFix) else {
            Issue.record("expected a fix")
            return
        }
        #expect(next.satellites.map(\.prn) == [2, 5, 12])
        // A smaller view after a larger one keeps nothing of the larger.
        _ = decoder.decode(json: #"{"class":"SKY","device":"/dev/pts/1","satellites":[{"PRN":31,"el":5.0,"az":7.0,"ss":9.0,"used":true}]}"#)
        guard case .fix(let last) = decoder.decode(json: fullFix) else {
            Issue.record("expected a fix")
            return
        }
        #expect(last.satellites.map(\.prn) == [31])
        // A sky view of another receiver goes with none of this one's fixes.
        let other = fullFix.replacingOccurrences(of: "\"device\":\"/dev/pts/1\"", with: "\"device\":\"/dev/ttyACM0\"")
        guard other != fullFix, case .fix(let elsewhere) = decoder.decode(json: other) else {
            Issue.record("expected a fix of another device")
            return
        }
        #expect(elsewhere.satellites.isEmpty && elsewhere.device == "/dev/ttyACM0")
        #expect(throws: GPSLocationError.self) { try Satellite(prn: 0, isUsed: true) }
        #expect(throws: GPSLocationError.self) { try Satellite(prn: 3, elevation: .nan, isUsed: true) }
    }

    @Test func readsTheFirstFixOutOfAPollReply() {
        let poll =
            #"{"class":"POLL","time":"2026-01-01T08:00:07.120Z","active":1,"tpv":["# + fullFix + #"],"gst":[],"sky":["# + sky + #"]}"#
        guard case .fix(let location) = GPSDMessageDecoder().decode(json: poll) else {
            Issue.record("expected a fix from the POLL reply")
            return
        }
        #expect(location.latitude == 64.150432167)
        #expect(location.satellitesUsed == 2)
    }

    @Test func anEmptyPollIsNoFix() {
        #expect(
            GPSDMessageDecoder().decode(json: #"{"class":"POLL","time":"2026-01-01T08:00:07.120Z","active":0,"tpv":[],"gst":[],"sky":[]}"#)
                == .noFix)
    }

    @Test func readsGpsdsErrors() {
        #expect(
            GPSDMessageDecoder().decode(json: #"{"class":"ERROR","message":"No such device as /dev/nope"}"#)
                == .error("No such device as /dev/nope"))
    }

    @Test func readsTheDeviceList() {
        let devices =
            #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/ttyACM0","activated":"2026-01-01T08:00:00.000Z"},{"class":"DEVICE","path":"/dev/pts/3"}]}"#
        #expect(GPSDMessageDecoder().decode(json: devices) == .devices(["/dev/ttyACM0", "/dev/pts/3"]))
        #expect(GPSDMessageDecoder().decode(json: #"{"class":"DEVICES","devices":[]}"#) == .devices([]))
    }
}
