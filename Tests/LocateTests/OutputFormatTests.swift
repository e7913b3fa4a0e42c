import FoundationEssentials
import GPSLocation
import GPSLocationConsent
import LocateSupport
import Testing

@testable import locate

/// Golden output of every format for fixed fixes.
struct OutputFormatTests {
    private let fixTime = Date(timeIntervalSince1970: 1_767_254_406.25)  // 2026-01-01T08:00:06.250Z

    private var fullFix: Location {
        get throws {
            try Location(
                latitude: 64.150432167, longitude: -21.940456667, time: fixTime,
                altitudeMSL: 12.5, altitudeHAE: 57.5, horizontalAccuracy: 17.1, verticalAccuracy: 29.9,
                speed: 3.3, speedAccuracy: 0.25, course: 359.94, courseAccuracy: 2, climb: -0.125, hdop: 0.9,
                mode: .threeDimensional, satellitesUsed: 8, device: "/dev/ttyACM0",
                details: Location.Details(
                    fix: .rtkFloat, vdop: 1.25, pdop: 1.5, tdop: 0.8, gdop: 1.75, xAccuracy: 12.4, yAccuracy: 9.5, timeAccuracy: 0.005,
                    heading: 123.4, magneticVariation: -13.2, geoidSeparation: 45),
                integrity: .suspect(.jump))
        }
    }

    private var bareFix: Location {
        get throws { try Location(latitude: 1, longitude: 2, mode: .twoDimensional) }
    }

    /// One record as text, without its line end; `nil` when the format had no place for it.
    private func record(_ format: some OutputFormat, _ location: Location, now: Date? = nil, reason: FallbackReason? = nil) -> String? {
        var format = format
        var bytes: [UInt8] = []
        guard format.record(RecordSource(location: location, reason: reason, now: now ?? fixTime, place: nil), to: &bytes) else {
            return nil
        }
        #expect(bytes.last == UInt8(ascii: "\n"), "a record is a whole line")
        return String(decoding: bytes.dropLast(), as: UTF8.self)
    }

    /// Everything the calls write, as text.
    private func output(_ write: (inout [UInt8]) -> Void) -> String {
        var bytes: [UInt8] = []
        write(&bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func textIsLatitudeAndLongitudeWithSixDecimals() throws {
        #expect(record(TextFormat(), try fullFix) == "64.150432 -21.940457")
    }

    @Test func jsonHasEveryFieldInOrderWithNumbersAsNumbers() throws {
        #expect(
            record(JSONFormat(includesEvents: false), try fullFix, now: fixTime.addingTimeInterval(2))
                == #"{"type":"fix","time":"2026-01-01T08:00:06.250Z","lat":64.1504322,"lon":-21.9404567,"alt_msl":12.5,"alt_hae":57.5,"h_acc":17.1,"v_acc":29.9,"speed":3.30,"speed_acc":0.25,"course":359.9,"course_acc":2.0,"climb":-0.13,"mode":"3d","sats_used":8,"device":"/dev/ttyACM0","source":"gpsd","age":2.0,"accuracy":"full","reason":null,"timed_out":false,"fix":"rtk_float","hdop":0.90,"vdop":1.25,"pdop":1.50,"tdop":0.80,"gdop":1.75,"x_acc":12.4,"y_acc":9.5,"time_acc":0.005,"heading":123.4,"mag_var":-13.2,"geoid_sep":45.0,"integrity":"suspect","integrity_reason":"jump"}"#
        )
    }

    @Test func jsonWritesUnknownValuesAsNull() throws {
        #expect(
            record(JSONFormat(includesEvents: false), try bareFix)
                == #"{"type":"fix","time":null,"lat":1.0000000,"lon":2.0000000,"alt_msl":null,"alt_hae":null,"h_acc":null,"v_acc":null,"speed":null,"speed_acc":null,"course":null,"course_acc":null,"climb":null,"mode":"2d","sats_used":null,"device":null,"source":"gpsd","age":null,"accuracy":"full","reason":null,"timed_out":false,"fix":null,"hdop":null,"vdop":null,"pdop":null,"tdop":null,"gdop":null,"x_acc":null,"y_acc":null,"time_acc":null,"heading":null,"mag_var":null,"geoid_sep":null,"integrity":null,"integrity_reason":null}"#
        )
    }

    @Test func jsonFallbackRecordsSayWhy() {
        let fallback = FallbackCoordinate.builtIn.location
        #expect(
            record(JSONFormat(includesEvents: false), fallback, reason: .notAuthorized(.denied))
                == #"{"type":"fallback","time":null,"lat":37.5178290,"lon":126.8862700,"alt_msl":null,"alt_hae":null,"h_acc":null,"v_acc":null,"speed":null,"speed_acc":null,"course":null,"course_acc":null,"climb":null,"mode":null,"sats_used":null,"device":null,"source":"fallback","age":null,"accuracy":"reduced","reason":"denied","timed_out":false,"fix":null,"hdop":null,"vdop":null,"pdop":null,"tdop":null,"gdop":null,"x_acc":null,"y_acc":null,"time_acc":null,"heading":null,"mag_var":null,"geoid_sep":null,"integrity":null,"integrity_reason":null}"#
        )
    }

    @Test func jsonEventsGoToStdoutOnlyWithEvents() {
        let event = StatusEvent(.gpsdLost(retryIn: .milliseconds(250)), endpoint: .default) { _ in "" }
        var withEvents = JSONFormat(includesEvents: true)
        var shown: StatusOutput?
        let eventLine = output { shown = withEvents.status(event, now: fixTime, to: &$0) }
        #expect(shown == .event)
        #expect(
            eventLine
                == #"{"type":"status","event":"gpsd_lost","time":"2026-01-01T08:00:06.250Z","retry_in":0.25,"message":"lost gpsd at localhost:2947; reconnecting in 0.25 s"}"#
                + "\n")
        var withoutEvents = JSONFormat(includesEvents: false)
        let nothing = output { shown = withoutEvents.status(event, now: fixTime, to: &$0) }
        #expect(shown == StatusOutput.none)
        #expect(nothing.isEmpty)
    }

    @Test func jsonEscapesStrings() {
        var object = JSONObjectWriter()
        object.add("k\"", string: "a\"b\\c\nd\u{1}")
        object.add("none", string: nil)
        #expect(object.text == #"{"k\"":"a\"b\\c\nd\u0001","none":null}"#)
    }

    /// Outside text in a field is shown by one rule in every format: hidden scalars (format
    /// characters, tag characters, fillers) as `\u{…}` text in text, CSV and `--format`, as
    /// `\u` escapes (surrogate pairs beyond the BMP) in JSON, which reads back as the text.
    @Test func everyFormatShowsHiddenScalarsInFieldsByOneRule() {
        let value = FieldValue.text("a\u{200B}\u{2060}\u{FEFF}\u{E0041}\u{3164}\u{2800}b")
        var plain: [UInt8] = []
        #expect(value.appendPlain(to: &plain))
        #expect(String(decoding: plain, as: UTF8.self) == #"a\u{200B}\u{2060}\u{FEFF}\u{E0041}\u{3164}\u{2800}b"#)
        var json: [UInt8] = []
        value.appendJSON(to: &json)
        #expect(String(decoding: json, as: UTF8.self) == #""a\u200b\u2060\ufeff\udb40\udc41\u3164\u2800b""#)
        #expect(FlatJSON.scalar(json[...]) == .string("a\u{200B}\u{2060}\u{FEFF}\u{E0041}\u{3164}\u{2800}b"))
        #expect(output { CSVFormat.appendRow([value], to: &$0) } == String(decoding: plain, as: UTF8.self) + "\n")
    }

    @Test func csvHasAHeaderThenRowsWithTheJSONColumns() throws {
        var csv = CSVFormat(includesHeader: true)
        #expect(
            output { csv.prologue(to: &$0) }
                == "type,time,lat,lon,alt_msl,alt_hae,h_acc,v_acc,speed,speed_acc,course,course_acc,climb,mode,sats_used,device,source,age,accuracy,reason,timed_out,fix,hdop,vdop,pdop,tdop,gdop,x_acc,y_acc,time_acc,heading,mag_var,geoid_sep,integrity,integrity_reason\n"
        )
        #expect(record(csv, try bareFix) == "fix,,1.0000000,2.0000000,,,,,,,,,,2d,,,gpsd,,full,,false,,,,,,,,,,,,,,")
        var headless = CSVFormat(includesHeader: false)
        #expect(output { headless.prologue(to: &$0) }.isEmpty)
    }

    @Test func csvQuotesFieldsThatNeedIt() {
        func field(_ text: String) -> String { output { CSVFormat.appendRow([.text(text)], to: &$0) } }
        #expect(field("plain") == "plain\n")
        #expect(field("a,b") == "\"a,b\"\n")
        #expect(field("say \"hi\"") == "\"say \"\"hi\"\"\"\n")
        // A record is one line: a line break, like every hidden scalar, is shown as text.
        #expect(field("two\nlines") == "two\\u{0A}lines\n")
        #expect(field("a\u{200B},b\u{E0041}") == "\"a\\u{200B},b\\u{E0041}\"\n")
        #expect(output { CSVFormat.appendRow([.number(1.26, decimals: 1), .unknown, .text("x")], to: &$0) } == "1.3,,x\n")
    }

    @Test func gpxWaypointForOnce() throws {
        var gpx = GPXFormat(shape: .waypoint)
        let fix = try fullFix
        let document = output {
            gpx.prologue(to: &$0)
            _ = gpx.record(fix, now: fixTime, to: &$0)
            gpx.epilogue(to: &$0)
        }
        #expect(
            document == """
                <?xml version="1.0" encoding="UTF-8"?>
                <gpx version="1.1" creator="locate" xmlns="http://www.topografix.com/GPX/1/1" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.topografix.com/GPX/1/1 http://www.topografix.com/GPX/1/1/gpx.xsd">
                <wpt lat="64.1504322" lon="-21.9404567"><ele>12.5</ele><time>2026-01-01T08:00:06.250Z</time><magvar>346.8</magvar><geoidheight>45.0</geoidheight><fix>dgps</fix><sat>8</sat><hdop>0.90</hdop><vdop>1.25</vdop><pdop>1.50</pdop></wpt>
                </gpx>

                """)
    }

    @Test func gpxTrackStartsANewSegmentAfterAGapAndLeavesTheFallbackOut() throws {
        let fix = try bareFix
        var gpx = GPXFormat(shape: .track)
        let gap = StatusEvent(.gpsdLost(retryIn: .seconds(1)), endpoint: .default) { _ in "" }
        _ = output { gpx.prologue(to: &$0) }
        let body = output {
            #expect(gpx.record(fix, now: fixTime, to: &$0))
            #expect(gpx.status(gap, now: fixTime, to: &$0) == .mark)
            #expect(!gpx.record(FallbackCoordinate.builtIn.location, now: fixTime, to: &$0), "no fallback in a track")
            #expect(gpx.status(gap, now: fixTime, to: &$0) == .none, "no second break")
            #expect(gpx.record(fix, now: fixTime, to: &$0))
            gpx.epilogue(to: &$0)
        }
        #expect(
            body == """
                <trkseg>
                <trkpt lat="1.0000000" lon="2.0000000"><fix>2d</fix></trkpt>
                </trkseg>
                <trkseg>
                <trkpt lat="1.0000000" lon="2.0000000"><fix>2d</fix></trkpt>
                </trkseg>
                </trk>
                </gpx>

                """)
    }

    @Test func templatesWriteTokensEscapesAndNullText() throws {
        let template = try TemplateFormat("%lat,%lon %alt_hae/%alt %%sats=%sats\\t%time %speed%course [%device] %reason", nullText: "?")
        #expect(
            record(template, try fullFix) == "64.150432,-21.940457 57.5/12.5 %sats=8\t2026-01-01T08:00:06.250Z 3.30359.9 [/dev/ttyACM0] ?")
        let empty = try TemplateFormat("%alt|%h_acc|%age", nullText: "")
        #expect(record(empty, try bareFix) == "||")
    }

    @Test func epochIsTheFixTimeInWholeUnixSeconds() throws {
        // 2026-01-01T08:00:06.250Z: the seconds, never rounded up to the next one.
        let epoch = try TemplateFormat("%epoch|%time", nullText: "-")
        #expect(record(epoch, try fullFix) == "1767254406|2026-01-01T08:00:06.250Z")
        #expect(record(epoch, try bareFix) == "-|-")
    }

    @Test(arguments: ["%timezones", "%town", "%", "%lat %bogus", "\\x"])
    func templatesRejectWhatTheyDoNotKnow(template: String) {
        #expect(throws: UsageError.self) { try TemplateFormat(template, nullText: "") }
    }

    @Test func unknownTokensAreListedWithTheValidOnes() {
        do {
            _ = try TemplateFormat("%town", nullText: "")
            Issue.record("expected a usage error")
        } catch {
            #expect(error.message.hasPrefix("unknown token '%town' in --format (valid: %lat %lon %alt %alt_hae"))
            #expect(
                error.message.hasSuffix(
                    "%reason %fix %hdop %vdop %pdop %heading %geoid_sep %integrity %city %state %country %country_code %timezone %place %%)"
                ))
        }
    }

    @Test func everyTemplateTokenNamesARecordField() {
        #expect(TemplateFormat.tokens.allSatisfy { RecordFields.field($0.field) != nil })
    }

    @Test(
        arguments: [
            (64.150432167, 6, "64.150432"), (-21.940456667, 6, "-21.940457"), (-0.0000001, 6, "0.000000"),
            (0.5, 0, "1"), (-0.5, 0, "-1"), (1e-7, 7, "0.0000001"), (12345.678, 1, "12345.7"), (1e20, 2, nil),
        ] as [(Double, Int, String?)])
    func numbersAreFixedPointWithoutExponent(value: Double, decimals: Int, text: String?) {
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

    @Test(arguments: [1e300, -1e300, .infinity, .nan, 253_402_300_800])
    func timesBeyondFourDigitYearsHaveNoText(seconds: Double) {
        #expect(UTCTimestamp.iso8601(Date(timeIntervalSince1970: seconds)) == nil)
    }
}

extension OutputFormat {
    /// A record of `location` written at `now`, without a place (the tests' shorthand).
    mutating func record(_ location: Location, now: Date, to output: inout [UInt8]) -> Bool {
        record(RecordSource(location: location, now: now, place: nil), to: &output)
    }
}
