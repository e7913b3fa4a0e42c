import GPSLocation
import HostileInput
import Testing

@testable import locate

/// Hostile values for every option that takes one, and mutated command lines: each parses or is
/// a usage error with a clear message that shows no control character raw.
struct HostileOptionTests {
    static let values = [
        "nan", "NaN", "inf", "-inf", "-1", "0", "-0", "1e308", "1e-308", "999999999999999999999999999999",
        "0x10", "1,5", " 5", "", "\u{1B}[2J", "\u{202E}", String(repeating: "9", count: 10_000), "%", "%lat%", "\\",
    ]

    @Test func everyValuedOptionTakesHostileValuesSafely() {
        var outcomes = 0
        for option in OptionTable.options where option.value != nil {
            for flag in option.flags {
                for value in Self.values {
                    outcomes += 1
                    for arguments in [[flag, value], ["--follow", flag, value], ["permission", "allow", flag, value]] {
                        do {
                            _ = try CommandLineOptions(arguments: arguments, environment: [:])
                        } catch {
                            #expect(!UntrustedText.hasHidden(error.message), "\(arguments): \(error.message)")
                            #expect(error.message.count < 400, "\(arguments)")
                        }
                    }
                }
            }
        }
        #expect(outcomes > 100)
    }

    @Test func mutatedCommandLinesParseOrAreUsageErrors() {
        var mutator = Mutator(seed: 5)
        let seeds = [
            "--follow --count 3 --json --distance 10 localhost:2947", "--once --timeout 1.5 --format %lat,%lon --null - host:1:/dev/gps",
            "permission allow --always --app weather",
        ]
        for bytes in mutator.corpus(from: seeds, count: 2000) {
            let arguments = String(decoding: bytes, as: UTF8.self).split(separator: " ").map(String.init)
            do {
                _ = try CommandLineOptions(arguments: arguments, environment: [:])
            } catch {
                #expect(!UntrustedText.hasHidden(error.message), "\(arguments): \(error.message)")
            }
        }
    }
}
