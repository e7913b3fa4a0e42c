import GPSLocation
import Testing

@testable import GPSLocationConsent

struct LocationSettingsTests {
    private func parse(_ text: String, role: LocationSettings.Role = .user) throws(GPSLocationError) -> LocationSettings {
        try LocationSettings(SettingsLines(Array(text.utf8)), file: "/home/u/locate.conf", role: role)
    }

    @Test func readsTheDocumentedExample() throws {
        let settings = try parse(
            """
            # locate.conf
            [location]
            services = on              # on | off
            authorization = when-in-use
            accuracy = full            # full | reduced
            timeout = 30
            [fallback]
            latitude = 37.517829
            longitude = 126.886270
            enabled = yes
            [gpsd]
            server = localhost:2947
            [app "weather"]            # per-app override
            authorization = when-in-use
            accuracy = reduced
            """)
        #expect(settings.location.services?.value == true)
        #expect(
            settings.location.authorization
                == Setting(value: .authorizedWhenInUse, origin: SettingOrigin(file: "/home/u/locate.conf", line: 4)))
        #expect(settings.location.accuracy?.value == .fullAccuracy)
        #expect(settings.location.timeout?.value == .seconds(30))
        #expect(settings.fallbackLatitude?.value == 37.517829)
        #expect(settings.fallbackLongitude?.value == 126.886270)
        #expect(settings.fallbackEnabled?.value == true)
        #expect(settings.gpsdServer?.value == .default)
        #expect(settings.apps[try AppName("weather")]?.accuracy?.value == .reducedAccuracy)
        #expect(settings.apps[try AppName("weather")]?.authorization?.origin.line == 14)
    }

    @Test func acceptsQuotedValuesWithCommentCharacters() throws {
        let settings = try parse("[app \"my-app\"]\nauthorization = \"always\"  ; quoted\n")
        #expect(settings.apps[try AppName("my-app")]?.authorization?.value == .authorizedAlways)
    }

    @Test(arguments: [
        (
            "[locaton]\n", 1, 2,
            "unknown section [locaton] (expected [location], [fallback], [gpsd], [mqtt], [http], [history], [app \"NAME\"] or [region \"NAME\"])"
        ),
        (
            "[location]\nauthorisation = always\n", 2, 1,
            "unknown key 'authorisation' in [location] (expected services, authorization, accuracy, timeout)"
        ),
        ("[location]\ntimeout = soon\n", 2, 11, "bad value 'soon' for 'timeout' (expected a number above 0)"),
        ("[location]\ntimeout = 0\n", 2, 11, "bad value '0' for 'timeout' (expected a number above 0)"),
        ("[fallback]\nlatitude = 91\n", 2, 12, "bad value '91' for 'latitude' (expected a number from -90 to 90)"),
        ("[location]\nservices = maybe\n", 2, 12, "bad value 'maybe' for 'services' (expected off or on)"),
        ("[location]\nauthorization = \"always\n", 2, 17, "unterminated quoted value (expected a closing '\"')"),
        ("[location]\nauthorization = always\nauthorization = denied\n", 3, 1, "'authorization' is set twice in [location]"),
        ("authorization = always\n", 1, 1, "'authorization' is outside any section (expected a [section] first)"),
        ("[location\n", 1, 10, "expected ']' to close the section name"),
        ("[location]\nservices on\n", 2, 10, "expected '=' after 'services'"),
        ("[location]\nservices = on\u{1}\n", 2, 14, "unexpected control character (expected text)"),
        ("[app weather]\n", 1, 6, "expected a quoted name, as in [app \"weather\"]"),
        (
            "[app \"my app\"]\n", 1, 6,
            "'my app' is not an app name (expected 1 to 64 ASCII letters, digits, '.', '_' or '-', starting with a letter or digit)"
        ),
        (
            "[gpsd]\nserver = host:99999\n", 2, 10,
            "bad value for 'server': invalid gpsd endpoint 'host:99999': port 99999 is not between 1 and 65535 (expected host[:port[:device]])"
        ),
    ])
    func rejectsMalformedFilesNamingLineAndColumn(text: String, line: Int, column: Int, message: String) {
        #expect(
            throws: GPSLocationError.invalidSettings(
                SettingsProblem(file: "/home/u/locate.conf", line: line, column: column, message: message))
        ) {
            try parse(text)
        }
    }

    /// A key set twice is found in a file of a few keys (searched) and in one of thousands (a
    /// set, in linear time), in a section opened again too.
    @Test(arguments: [3, 40, 5_000])
    func aKeySetTwiceIsFoundInFilesOfAnySize(apps: Int) {
        var text = "[location]\nauthorization = always\n"
        for index in 0..<apps { text += "[app \"app\(index)\"]\naccuracy = reduced\n" }
        text += "[location]\nauthorization = denied\n"
        let line = 2 * apps + 4
        #expect(
            throws: GPSLocationError.invalidSettings(
                SettingsProblem(file: "/home/u/locate.conf", line: line, column: 1, message: "'authorization' is set twice in [location]"))
        ) {
            try parse(text)
        }
    }

    @Test func rejectsBytesThatAreNotUTF8() {
        let bytes: [UInt8] = Array("[location]\nservices = o".utf8) + [0xFF, 0xFE] + Array("n\n".utf8)
        #expect(throws: GPSLocationError.invalidSettings(SettingsProblem(file: "f", line: 2, column: 13, message: "not UTF-8 text"))) {
            try LocationSettings(SettingsLines(bytes), file: "f", role: .user)
        }
    }

    @Test func thePolicyMayOnlyRestrict() throws {
        #expect(try parse("[location]\nauthorization = restricted\n", role: .policy).location.restricted?.value == true)
        #expect(throws: GPSLocationError.self) { try parse("[location]\nauthorization = always\n", role: .policy) }
        #expect(throws: GPSLocationError.self) { try parse("[location]\nauthorization = restricted\n", role: .user) }
    }

    @Test func theSettingsTimeoutIsTheSameConversionAsTheCommandLine() throws {
        let settings = try LocationSettings(SettingsLines(Array("[location]\ntimeout = 2.0006\n".utf8)), file: "f", role: .user)
        #expect(settings.location.timeout?.value == .milliseconds(2001))
        #expect(
            throws: GPSLocationError.invalidSettings(
                SettingsProblem(
                    file: "f", line: 2, column: 11,
                    message: "bad value '0.0004' for 'timeout' (expected a number of seconds of at least 0.001)"))
        ) {
            try LocationSettings(SettingsLines(Array("[location]\ntimeout = 0.0004\n".utf8)), file: "f", role: .user)
        }
    }
}
