import GPSLocation
import Glibc
import Testing

@testable import GPSLocationConsent
@testable import locate

/// Numbers never follow the C locale: with a German LC_NUMERIC in force in this very process
/// (where C's printf writes "1,5" and strtod reads "48,5"), records still write "." and the
/// command line and the settings still read it.
@Suite(.serialized)
struct LocaleIndependenceTests {
    /// Runs `body` with `de_DE.UTF-8` as the process's LC_NUMERIC, and checks first that the
    /// locale really is in force (so a test that passes here would fail if numbers followed it).
    private func underGermanNumbers(_ body: () throws -> Void) throws {
        let previous = String(cString: setlocale(LC_NUMERIC, nil))
        defer { setlocale(LC_NUMERIC, previous) }
        try #require(setlocale(LC_NUMERIC, "de_DE.UTF-8") != nil, "the de_DE.UTF-8 locale is missing (Scripts/bootstrap makes it)")
        var buffer = [CChar](repeating: 0, count: 32)
        _ = withVaList([1.5]) { vsnprintf(&buffer, buffer.count, "%.1f", $0) }
        try #require(
            String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) == "1,5",
            "C's printf follows the German locale here")
        #expect(strtod("48.5", nil) == 48, "and C's strtod stops at the point")
        try body()
    }

    @Test func recordsWriteDecimalPoints() throws {
        try underGermanNumbers {
            let fix = try Location(latitude: 48.1234567, longitude: 11.5, horizontalAccuracy: 3.25, speed: 1.5, mode: .twoDimensional)
            var bytes: [UInt8] = []
            var json = JSONFormat(includesEvents: false)
            _ = json.record(fix, now: .now, to: &bytes)
            var text = TextFormat()
            _ = text.record(fix, now: .now, to: &bytes)
            let written = String(decoding: bytes, as: UTF8.self)
            #expect(written.contains("\"lat\":48.1234567") && written.contains("\"h_acc\":3.3") && written.contains("\"speed\":1.50"))
            #expect(written.hasSuffix("}\n48.123457 11.500000\n"))
        }
    }

    @Test func theCommandLineAndTheSettingsReadDecimalPoints() throws {
        try underGermanNumbers {
            let parsed = try ParsedCommandLine(arguments: ["--timeout", "1.5", "--accuracy", "2.5"], environment: [:])
            guard case .once(let options) = parsed else {
                Issue.record("not --once: \(parsed)")
                return
            }
            #expect(options.timeout == .milliseconds(1500) && options.stream.accuracy == 2.5)
            let settings = try LocationSettings(SettingsLines(Array("[fallback]\nlatitude = 48.5\n".utf8)), file: "f", role: .user)
            #expect(settings.fallbackLatitude?.value == 48.5)
        }
    }
}
