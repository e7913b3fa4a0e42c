import Foundation
import GPSLocation
import Testing

struct LocationCodingTests {
    @Test func encodesTheRecordKeysAndDecodesThemBack() throws {
        let location = try Location(
            latitude: 37.5178281, longitude: 126.886269, time: Date(timeIntervalSince1970: 1_767_254_405.25), altitudeMSL: 30.5,
            horizontalAccuracy: 4.2, speed: 1.5, course: 271.3, mode: .threeDimensional, satellitesUsed: 9, device: "/dev/ttyACM0")
        let data = try JSONEncoder().encode(location)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["lat"] as? Double == 37.5178281)
        #expect(object["time"] as? String == "2026-01-01T08:00:05.250Z")
        #expect(object["h_acc"] as? Double == 4.2)
        #expect(object["sats_used"] as? Int == 9)
        #expect(object["mode"] as? String == "3d")
        #expect(object["v_acc"] is NSNull, "unknown values are null, as in records")
        #expect(try JSONDecoder().decode(Location.self, from: data) == location)
    }

    @Test func decodesALocateRecord() throws {
        let record =
            #"{"type":"fix","time":"2026-01-01T08:00:05.000Z","lat":64.14,"lon":-21.91,"alt_msl":null,"h_acc":3.1,"mode":"2d","source":"gpsd","age":0.4,"accuracy":"full","reason":null,"timed_out":false}"#
        let location = try JSONDecoder().decode(Location.self, from: Data(record.utf8))
        #expect(location.latitude == 64.14 && location.longitude == -21.91)
        #expect(location.horizontalAccuracy == 3.1 && location.mode == .twoDimensional && location.altitudeMSL == nil)
        #expect(location.time == Date(timeIntervalSince1970: 1_767_254_405))
    }

    @Test(arguments: [
        #"{"lat":91,"lon":0}"#, #"{"lat":0,"lon":180.5}"#, #"{"lon":0}"#, #"{"lat":0,"lon":0,"h_acc":-1}"#,
        #"{"lat":0,"lon":0,"time":"yesterday"}"#, #"{"lat":0,"lon":0,"time":"2026-01-01T08:00:05"}"#, #"{"lat":0,"lon":0,"mode":"4d"}"#,
        #"{"lat":0,"lon":0,"source":"satellite"}"#,
    ])
    func refusesWhatNoFixCanBe(_ json: String) {
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Location.self, from: Data(json.utf8)) }
    }
}
