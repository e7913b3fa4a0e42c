import FoundationEssentials
import LocateSupport
import Testing

@testable import GPSLocation

struct LiveUpdateFilterTests {
    private let start = Date(timeIntervalSince1970: 1_767_254_400)

    /// Feeds fixes given as (metres north of 64°N 22°W, seconds of receiver time after start)
    /// and returns which passed.
    private func admitted(_ options: LiveUpdateOptions, _ fixes: [(metresNorth: Double, second: Double)]) -> [Bool] {
        var filter = LiveUpdateFilter(options: options)
        return fixes.map { fix in
            let location = Location(
                unchecked: 64 + fix.metresNorth / 111_195, longitude: -22, time: start.addingTimeInterval(fix.second),
                mode: .threeDimensional)
            return filter.admit(location, handedOutAt: Date())
        }
    }

    @Test func withoutOptionsEveryFixPasses() {
        #expect(admitted(.everyFix, [(0, 0), (0, 1), (0, 2), (0, 3)]) == [true, true, true, true])
    }

    @Test func distanceFilterHoldsBackSmallMovesMeasuredFromTheLastEmittedFix() throws {
        let passed = admitted(try LiveUpdateOptions(distanceFilter: 10), [(0, 0), (6, 1), (9.5, 2), (10.5, 3), (15, 4), (21, 5)])
        #expect(passed == [true, false, false, true, false, true])
    }

    @Test func minimumIntervalLimitsTheRate() throws {
        let passed = admitted(try LiveUpdateOptions(minimumInterval: .seconds(5)), [(0, 0), (100, 4.9), (200, 5), (300, 6)])
        #expect(passed == [true, false, true, false])
    }

    @Test func heartbeatLetsAStationaryFixThrough() throws {
        let passed = admitted(
            try LiveUpdateOptions(distanceFilter: 50, heartbeat: .seconds(10)), [(0, 0), (1, 9), (1, 10), (1, 11), (1, 20)])
        #expect(passed == [true, false, true, false, true])
    }

    @Test func greatCircleDistanceMatchesKnownDistances() throws {
        let equatorA = try Location(latitude: 0, longitude: 0, mode: .twoDimensional)
        let equatorB = try Location(latitude: 0, longitude: 1, mode: .twoDimensional)
        #expect(abs(equatorA.greatCircleDistance(to: equatorB) - 111_195) < 1)
        #expect(equatorA.greatCircleDistance(to: equatorA) == 0)
    }
}

/// The epoch rule: a fix for the receiver time of the one before it is a repeat only when it
/// changes nothing a record says about the position.
struct EpochRuleTests {
    private let time = Date(timeIntervalSince1970: 1_767_254_401)

    private func fix(_ mode: FixMode, _ latitude: Double, at time: Date?) -> Location {
        Location(unchecked: latitude, longitude: 20, time: time, mode: mode)
    }

    @Test func aHigherModeOrAMovedPositionIsNotARepeat() {
        let first = fix(.twoDimensional, 10, at: time)
        #expect(!fix(.threeDimensional, 10, at: time).repeatsEpoch(of: first))
        #expect(!fix(.twoDimensional, 10.000001, at: time).repeatsEpoch(of: first))
        #expect(!fix(.twoDimensional, 10, at: time.addingTimeInterval(1)).repeatsEpoch(of: first))
    }

    @Test func anUnchangedRepeatIsOneEvenBelowTheRecordsPrecision() {
        let first = fix(.threeDimensional, 10, at: time)
        #expect(fix(.threeDimensional, 10, at: time).repeatsEpoch(of: first))
        #expect(fix(.threeDimensional, 10.00000001, at: time).repeatsEpoch(of: first), "the same in 7 decimals")
    }

    @Test func fixesWithoutATimeAreNeverRepeats() {
        #expect(!fix(.threeDimensional, 10, at: nil).repeatsEpoch(of: fix(.threeDimensional, 10, at: nil)))
    }
}
