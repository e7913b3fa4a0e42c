import Testing

@testable import GPSLocation

struct GPSDEndpointTests {
    @Test(
        arguments: [
            ("", "localhost", "2947", nil),
            ("gps.example", "gps.example", "2947", nil),
            ("127.0.0.1:2948", "127.0.0.1", "2948", nil),
            (":2948", "localhost", "2948", nil),
            ("host:2947:/dev/ttyACM0", "host", "2947", "/dev/ttyACM0"),
            ("host::/dev/ttyUSB1", "host", "2947", "/dev/ttyUSB1"),
            ("[::1]:3000", "::1", "3000", nil),
            ("[fe80::1]", "fe80::1", "2947", nil),
            ("localhost:gpsd", "localhost", "gpsd", nil),
        ] as [(String, String, String, String?)])
    func parsesHostPortAndDevice(text: String, host: String, port: String, device: String?) throws {
        let endpoint = try GPSDEndpoint(parsing: text)
        #expect(endpoint == (try GPSDEndpoint(host: host, port: port, device: device)))
    }

    @Test(arguments: [
        "host:0", "host:65536", "[::1", "[::1]x", "host:2947:/dev/a\"b", "host:2947:/dev/a;b",
        "local\u{1B}[2Jhost", "host:29 47", "host:2947:/dev/a b", "host:2947:/dev/\u{202E}x", "[::1;rm]:1",
        "host:" + String(repeating: "p", count: 33), "host:2947:/" + String(repeating: "d", count: 127),
    ])
    func rejectsWhatCannotNameAnEndpoint(text: String) {
        #expect(throws: GPSLocationError.self) { try GPSDEndpoint(parsing: text) }
    }

    @Test func theMemberwiseInitializerChecksToo() {
        #expect(throws: GPSLocationError.self) { try GPSDEndpoint(host: "h", port: "1", device: "/dev/x\",\"enable\":false") }
        #expect(throws: GPSLocationError.self) { try GPSDEndpoint(host: "h\nost", port: "1") }
    }

    @Test func describesItselfInTheSameSyntax() throws {
        #expect(try GPSDEndpoint(parsing: "[::1]:3000:/dev/gps").description == "[::1]:3000:/dev/gps")
        #expect(GPSDEndpoint.default.description == "localhost:2947")
    }
}
