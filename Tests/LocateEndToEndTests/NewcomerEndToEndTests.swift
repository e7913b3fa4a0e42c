import Foundation
import Testing

/// What a newcomer types first: typos of commands, `help`, per-command help and usage lines,
/// and coordinates as people write them.
struct NewcomerEndToEndTests {
    @Test(arguments: [
        (["statsu"], "did you mean 'status'"), (["follow"], "did you mean '--follow'"), (["help", "statsu"], "did you mean 'status'"),
        (["visit"], "did you mean 'visits'"), (["geocod", "Seoul"], "did you mean 'geocode'"),
        (["allow"], "did you mean 'permission allow'"), (["--folow"], "did you mean '--follow'"),
        (["--json", "help"], "did you mean 'help'"),
    ])
    func aWordNearACommandIsAUsageErrorNotAHost(arguments: [String], hint: String) async throws {
        let run = try await runLocate(arguments)
        #expect(run.status == 64, "\(arguments): \(run.stderr)")
        #expect(run.stdout.isEmpty, "no fallback coordinate, no lookup: \(run.stdout)")
        #expect(run.stderr.contains(hint), "\(run.stderr)")
        #expect(!run.stderr.contains("gpsd at"), "nothing was asked of gpsd: \(run.stderr)")
    }

    @Test func aHostThatCannotBeLookedUpSaysItWasTakenAsGpsdsHost() async throws {
        // .invalid never resolves (RFC 6761); the spelled-out port keeps the word from being a typo check.
        let run = try await runLocate(["--no-fallback", "no-such-host.invalid:2947"])
        #expect(run.status == 69, "\(run.stderr)")
        #expect(run.stderr.contains("cannot look up no-such-host.invalid, taken as gpsd's host name"), "\(run.stderr)")
        // A word near a command name is still a host when given with --gpsd.
        let gpsd = try await runLocate(["--no-fallback", "--gpsd", "statsu.invalid"])
        #expect(gpsd.status == 69 && gpsd.stderr.contains("taken as gpsd's host name"), "\(gpsd.stderr)")
    }

    @Test func helpIsACommandAndEachCommandHasItsOwnHelp() async throws {
        let all = try await runLocate(["help"])
        let help = try await runLocate(["--help"])
        #expect(all.status == 0 && all.stdout == help.stdout)
        #expect(all.stdout.contains("EXIT STATUS:") && all.stdout.contains("  --region NAME=LAT,LON,RADIUS"))
        for arguments in [["geocode", "--help"], ["help", "geocode"]] {
            let geocode = try await runLocate(arguments)
            #expect(geocode.status == 0, "\(arguments)")
            #expect(geocode.stdout.contains("USAGE: locate geocode LAT LON") && geocode.stdout.contains("  --batch"), "\(arguments)")
            #expect(!geocode.stdout.contains("--follow") && !geocode.stdout.contains("--region"), "geocode's options only")
            #expect(geocode.stdout.split(separator: "\n").count < 40, "\(geocode.stdout)")
        }
        let monitor = try await runLocate(["monitor", "--help"])
        #expect(monitor.stdout.contains("--until STATE:NAME") && !monitor.stdout.contains("  --batch"))
    }

    @Test func aUsageErrorShowsThatCommandsUsage() async throws {
        let geocode = try await runLocate(["geocode", "--bogus"])
        #expect(geocode.status == 64)
        #expect(geocode.stderr.contains("Usage: locate geocode LAT LON") && !geocode.stderr.contains("--follow"), "\(geocode.stderr)")
        #expect(geocode.stderr.contains("See 'locate geocode --help'"))
        let permission = try await runLocate(["permission", "alow"])
        #expect(permission.status == 64)
        #expect(permission.stderr.contains("did you mean 'allow'") && permission.stderr.contains("Usage: locate permission ["))
        let plain = try await runLocate(["--count", "3"])
        #expect(plain.stderr.contains("Usage: locate [--once]") && !plain.stderr.contains("geocode"), "\(plain.stderr)")
    }

    @Test func geocodeTakesACoordinateAsPeopleWriteIt() async throws {
        let settings = try await SettingsHome.withPlaceIndex()
        for arguments in [["37.5178", "126.8863"], ["37.5178,126.8863"], ["37.5178 126.8863"], ["37.5178,", "126.8863"]] {
            let run = try await runLocate(["geocode", "--lang", "C"] + arguments, settings: settings)
            #expect(run.status == 0 && run.stdout == "Seoul, Republic of Korea\n", "\(arguments): \(run.stderr)")
        }
        for arguments in [["-33.8568,151.2153"], ["-33.8568 151.2153"]] {
            let run = try await runLocate(["geocode", "--lang", "C"] + arguments, settings: settings)
            #expect(run.stdout == "Sydney, New South Wales, Australia\n", "\(arguments): \(run.stderr)")
        }
        let bad = try await runLocate(["geocode", "91,0"], settings: settings)
        #expect(bad.status == 64 && bad.stderr.contains("not a coordinate"), "\(bad.stderr)")
    }
}
