import FoundationEssentials
import GPSLocation
import Testing
@testable import locate

struct RecordFormatTests {
    private let fixTime = Date(timeIntervalSince1970: 1_767_254_406.25)  // 2026-01-01T08:00:06.250Z

    private var fullFix: Location {
        Location(
            latitude: 64.150432167, longitude: -21.940456667, time: fixTime,
            altitudeMSL: 12.5, altitudeHAE: 57.5, horizontalAccuracy: 17.1, verticalAccuracy: 29.9,
            speed: 3.3, speedAccuracy: 0.25, course: 359.96, courseAccuracy: 2, climb: -0.125,
            mode: .threeDimensional, satellitesUsed: 8, device: "/dev/ttyACM0")
    }

    @Test func textIsLatitudeAndLongitudeWithSixDecimals() {
        #expect(TextRecordFormat().record(fullFix, now: fixTime) == "64.150432 -21.940457")
    }

    @Test func jsonHasEveryFieldInOrderWithNumbersAsNumbers() {
        let record = JSONRecordFormat().record(fullFix, now: fixTime.addingTimeInterval(2))
        #expect(record == #"{"type":"fix","time":"2026-01-01T08:00:06.250Z","lat":64.1504322,"lon":-21.9404567,"alt_msl":12.5,"alt_hae":57.5,"h_acc":17.1,"v_acc":29.9,"speed":3.30,"speed_acc":0.25,"course":360.0,"course_acc":2.0,"climb":-0.13,"mode":"3d","sats_used":8,"device":"/dev/ttyACM0","source":"gpsd","age":2.0,"accuracy":"full","reason":null,"timed_out":false}"#)
    }

    @Test func jsonWritesUnknownValuesAsNull() {
        let bare = Location(latitude: 1, longitude: 2, mode: .twoDimensional)
        let record = JSONRecordFormat().record(bare, now: fixTime)
        #expect(record == #"{"type":"fix","time":null,"lat":1.0000000,"lon":2.0000000,"alt_msl":null,"alt_hae":null,"h_acc":null,"v_acc":null,"speed":null,"speed_acc":null,"course":null,"course_acc":null,"climb":null,"mode":"2d","sats_used":null,"device":null,"source":"gpsd","age":null,"accuracy":"full","reason":null,"timed_out":false}"#)
    }

    @Test func jsonEscapesStrings() {
        #expect(JSONObjectWriter.quoted("a\"b\\c\nd\u{1}") == #""a\"b\\c\nd\u0001""#)
    }

    @Test(arguments: [
        (64.150432167, 6, "64.150432"), (-21.940456667, 6, "-21.940457"), (-0.0000001, 6, "0.000000"),
        (0.5, 0, "1"), (-0.5, 0, "-1"), (1e-7, 7, "0.0000001"), (12345.678, 1, "12345.7"), (2.675, 2, "2.68"),
    ])
    func numbersAreFixedPointWithoutExponent(value: Double, decimals: Int, text: String) {
        #expect(NumberFormatting.fixed(value, decimals: decimals) == text)
    }

    @Test func nonFiniteNumbersHaveNoText() {
        #expect(NumberFormatting.fixed(.nan, decimals: 2) == nil)
        #expect(NumberFormatting.fixed(.infinity, decimals: 2) == nil)
    }

    @Test(arguments: [
        (0.0, "1970-01-01T00:00:00.000Z"), (951_782_400.999, "2000-02-29T00:00:00.999Z"),
        (1_767_254_406.25, "2026-01-01T08:00:06.250Z"), (-1.5, "1969-12-31T23:59:58.500Z"),
    ])
    func timestampsAreISO8601InUTC(seconds: Double, text: String) {
        #expect(UTCTimestamp.iso8601(Date(timeIntervalSince1970: seconds)) == text)
    }
}
