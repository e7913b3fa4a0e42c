import Foundation
import LocateSupport
import Testing

/// ISO 8601 times written and read: a time read from text is written as the same text.
struct UTCTimestampTests {
    /// A time read from text is a double a little below its millisecond about as often as
    /// above: it is written as that millisecond, not the one before (a replayed record's time,
    /// written again).
    @Test func aTimeReadIsWrittenAsItWas() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<100_000 {
            let milliseconds = Int64.random(in: -62_167_219_200_000...253_402_300_799_999, using: &generator)
            let text = try #require(UTCTimestamp.iso8601(Date(timeIntervalSince1970: Double(milliseconds) / 1000)))
            let read = try #require(UTCTimestamp.parse(text))
            #expect(UTCTimestamp.iso8601(read) == text, "\(milliseconds) ms")
        }
        // A part of a millisecond is left out, however near the next one it is.
        #expect(UTCTimestamp.iso8601(Date(timeIntervalSince1970: 1_767_254_406.2509)) == "2026-01-01T08:00:06.250Z")
        #expect(UTCTimestamp.iso8601(Date(timeIntervalSince1970: -0.0009)) == "1969-12-31T23:59:59.999Z")
    }
}
