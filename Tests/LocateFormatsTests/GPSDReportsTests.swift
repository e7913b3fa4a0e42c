import Foundation
import Testing

@testable import LocateFormats

/// gpsd's reports: what `locate serve` writes of its own is what gpsd 3.22 wrote for the same
/// requests (recorded from gpsd under gpsfake), to the byte, and the head of what gpsd writes is
/// read back as the class and receiver it names.
struct GPSDReportsTests {
    private func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func theAnswersAreGpsdsToTheByte() {
        #expect(text(GPSDReports.version) == #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#)
        #expect(
            text(GPSDReports.watch(WatchPolicy(enabled: true, json: true)))
                == #"{"class":"WATCH","enable":true,"json":true,"nmea":false,"raw":0,"scaled":false,"timing":false,"split24":false,"pps":false}"#
                + "\r\n")
        #expect(
            text(GPSDReports.watch(WatchPolicy(enabled: true, json: true, device: "/dev/pts/1")))
                == #"{"class":"WATCH","enable":true,"json":true,"nmea":false,"raw":0,"scaled":false,"timing":false,"split24":false,"pps":false,"device":"/dev/pts/1"}"#
                + "\r\n")
        #expect(
            text(GPSDReports.watch(WatchPolicy(enabled: false, nmea: true, raw: 2, scaled: true, split24: true, pps: true, timing: true)))
                == #"{"class":"WATCH","enable":false,"json":false,"nmea":true,"raw":2,"scaled":true,"timing":true,"split24":true,"pps":true}"#
                + "\r\n")
        let poll = GPSDReports.poll(now: Date(timeIntervalSince1970: 0), active: 0, tpv: [], gst: [], sky: [])
        #expect(text(poll) == #"{"class":"POLL","time":"1970-01-01T00:00:00.000Z","active":0,"tpv":[],"gst":[],"sky":[]}"# + "\r\n")
        let tpv = Array(#"{"class":"TPV","mode":3}"#.utf8)
        let sky = Array(#"{"class":"SKY","hdop":0.9}"#.utf8)
        #expect(
            text(GPSDReports.poll(now: Date(timeIntervalSince1970: 1.5), active: 2, tpv: [tpv, tpv], gst: [], sky: [sky]))
                == #"{"class":"POLL","time":"1970-01-01T00:00:01.500Z","active":2,"tpv":[{"class":"TPV","mode":3},{"class":"TPV","mode":3}],"gst":[],"sky":[{"class":"SKY","hdop":0.9}]}"#
                + "\r\n")
        let device = Array(#"{"class":"DEVICE","path":"/dev/pts/1"}"#.utf8)
        #expect(text(GPSDReports.devices([])) == #"{"class":"DEVICES","devices":[]}"# + "\r\n")
        #expect(
            text(GPSDReports.devices([device, device]))
                == #"{"class":"DEVICES","devices":[{"class":"DEVICE","path":"/dev/pts/1"},{"class":"DEVICE","path":"/dev/pts/1"}]}"#
                + "\r\n")
        #expect(text(GPSDReports.error("Can't open \"x\".\n")) == #"{"class":"ERROR","message":"Can't open \"x\".\n"}"# + "\r\n")
    }

    @Test func aTPVLosesItsTimingMembersForAWatchWithoutTiming() {
        let timing = Array(
            #"{"class":"TPV","device":"/dev/pts/1","mode":3,"lat":64.1,"geoidSep":45.000,"rtime": 1796245841.849211775,"sor": 0.000000000,"chars":70875,"sats": 8,"week":0,"tow":0.000,"rollovers":2,"eph":17.100,"sep":30.400}"#
                .utf8)
        #expect(
            text(GPSDReports.withoutTiming(timing))
                == #"{"class":"TPV","device":"/dev/pts/1","mode":3,"lat":64.1,"geoidSep":45.000,"eph":17.100,"sep":30.400}"#)
        let plain = Array(#"{"class":"TPV","mode":3,"eph":1.0}"#.utf8)
        #expect(GPSDReports.withoutTiming(plain) == plain)
    }

    @Test func aCellIsItsCentreAndTimeAlone() {
        let cell = GPSDReports.cell(
            latitude: 64.125, longitude: -21.95, time: Date(timeIntervalSince1970: 1_767_254_400), threeDimensional: true,
            device: "/dev/pts/1")
        #expect(
            text(cell)
                == #"{"class":"TPV","device":"/dev/pts/1","mode":3,"time":"2026-01-01T08:00:00.000Z","lat":64.125000000,"lon":-21.950000000}"#
        )
        #expect(
            text(GPSDReports.cell(latitude: 1, longitude: 2, time: nil, threeDimensional: false, device: nil))
                == #"{"class":"TPV","mode":2,"lat":1.000000000,"lon":2.000000000}"#)
        #expect(text(GPSDReports.noFix(device: nil)) == "{\"class\":\"TPV\",\"mode\":1}\r\n")
        #expect(text(GPSDReports.noFix(device: "/dev/pts/1")) == "{\"class\":\"TPV\",\"device\":\"/dev/pts/1\",\"mode\":1}\r\n")
    }

    /// What serve writes, and what gpsd writes, reads back as the class and receiver it names;
    /// a class not named here is `nil`, a line that does not start with a class no head, and a
    /// receiver's path is made visible.
    @Test func theHeadOfAReportIsItsClassAndReceiver() {
        #expect(GPSDReports.head(GPSDReports.version) == GPSDReports.Head(name: .version, device: nil))
        #expect(GPSDReports.head(GPSDReports.noFix(device: "/dev/pts/1")) == GPSDReports.Head(name: .tpv, device: "/dev/pts/1"))
        #expect(GPSDReports.head(GPSDReports.error("x")) == GPSDReports.Head(name: .error, device: nil))
        for name in GPSDReports.Class.allCases {
            #expect(GPSDReports.head(GPSDReports.start(name) + Array("}".utf8))?.name == name)
        }
        #expect(GPSDReports.head(Array(#"{"class":"AIS","device":"/dev/ais"}"#.utf8)) == GPSDReports.Head(name: nil, device: "/dev/ais"))
        #expect(GPSDReports.head(Array(#"{"device":"/dev/pts/1","class":"TPV"}"#.utf8)) == nil)
        #expect(GPSDReports.head(Array(#"{"class":"TPV"#.utf8)) == nil)
        let hidden = GPSDReports.head(Array("{\"class\":\"SKY\",\"device\":\"/dev/\u{1B}[2J\"}".utf8))
        #expect(hidden?.name == .sky && hidden?.device?.contains("\u{1B}") == false)
    }
}
