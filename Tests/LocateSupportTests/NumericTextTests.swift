import LocateSupport
import Testing

/// One conversion from decimal text to numbers and durations, for the command line, the
/// settings and the library alike.
struct NumericTextTests {
    @Test(arguments: ["1", "1.5", "0.001", ".5", "5.", "1e3", "2E-3", "-0", "30"])
    func readsPlainDecimals(text: String) throws {
        #expect(try NumericText.number(text, in: -1...1e9) == Double(text))
    }

    @Test(arguments: [
        "", " 5", "5 ", "0x10", "nan", "NaN", "inf", "-inf", "infinity", "1,5", "1_000", "+", ".", "e5", "1e", "--1", "1.2.3", "٣",
    ])
    func rejectsWhatIsNotAPlainDecimal(text: String) {
        #expect { try NumericText.number(text) } throws: { ($0 as? NumberError)?.problem == .notANumber }
    }

    @Test func checksTheRangeAndSaysWhatWasExpected() {
        #expect(throws: NumberError(text: "-1", problem: .outOfRange, expected: "a number of 0 or more")) { try NumericText.number("-1") }
        #expect(throws: NumberError(text: "0", problem: .outOfRange, expected: "a number above 0")) {
            try NumericText.number("0", excludingZero: true)
        }
        #expect(throws: NumberError(text: "1e308", problem: .outOfRange, expected: "a number up to 10")) {
            try NumericText.number("1e308", in: 0...10)
        }
        #expect(throws: NumberError(text: "1e999", problem: .outOfRange, expected: "a number up to 10")) {
            try NumericText.number("1e999", in: 0...10)
        }
        #expect(throws: NumberError(text: "91", problem: .outOfRange, expected: "a number from -90 to 90")) {
            try NumericText.number("91", in: -90...90)
        }
    }

    @Test func secondsBecomeMillisecondsRoundedOnce() throws {
        #expect(try NumericText.seconds("1.5", allowingZero: false) == .milliseconds(1500))
        #expect(try NumericText.seconds("2.0004", allowingZero: false) == .milliseconds(2000))
        #expect(try NumericText.seconds("2.0006", allowingZero: false) == .milliseconds(2001))
        #expect(try NumericText.seconds("0", allowingZero: true) == .zero)
        #expect { try NumericText.seconds("0.0004", allowingZero: false) } throws: { ($0 as? NumberError)?.problem == .belowResolution }
        #expect { try NumericText.seconds("0.0004", allowingZero: true) } throws: { ($0 as? NumberError)?.problem == .belowResolution }
        #expect(throws: NumberError.self) { try NumericText.seconds("1e10", allowingZero: false) }
    }

    @Test func durationsFromTheLibrarysCallersAreBoundedNotTrapped() {
        #expect(Duration.seconds(Int64.max).milliseconds == Int64.max / 1000)
        #expect(Duration.seconds(-5).milliseconds == 0)
        #expect(Duration.seconds(Int64.max).boundedForWaiting == NumericText.maximumDuration)
    }
}
