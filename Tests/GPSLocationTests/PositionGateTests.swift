import FoundationEssentials
import Testing

@testable import GPSLocation

/// The gate's fourth rule, over every sequence of a few steps: after a change of the
/// authorization, a stream releases no fix the receiver took before it (gpsd's current fix,
/// handed again after a re-allow, is the position from before the revoke), and every fix taken
/// after it that the authorization allows.
struct PositionGateTests {
    private static let allowed = Authorization(decision: AuthorizationDecision(status: .authorizedAlways), appState: .unattended)
    private static let denied = Authorization(decision: AuthorizationDecision(status: .denied), appState: .unattended)

    /// One step: a fix with this receiver second, or a change of the authorization.
    private enum Step: CaseIterable, CustomStringConvertible {
        case sameFixAgain, nextFix, replayStartsOver, deny, allow

        var description: String { "\(self)" }
    }

    private func fix(_ second: Double) throws -> Location {
        try Location(latitude: 64.13, longitude: -21.9, time: Date(timeIntervalSince1970: 1_767_225_600 + second), mode: .threeDimensional)
    }

    @Test func noFixTakenBeforeAChangeIsReleasedAfterIt() throws {
        var sequences: [[Step]] = [[]]
        for _ in 0..<5 { sequences = sequences.flatMap { sequence in Step.allCases.map { sequence + [$0] } } }
        for steps in sequences {
            let generation = AuthorizationGeneration(Self.allowed)
            var gate = PositionGate(generation)
            // The newest receiver second the gate was asked about, and what it was at the last change.
            var newest: Double?
            var changedAfter: Double?
            var isAllowed = true
            for step in steps {
                let time: Double
                switch step {
                case .deny, .allow:
                    isAllowed = step == .allow
                    generation.change(to: isAllowed ? Self.allowed : Self.denied)
                    changedAfter = newest
                    continue
                case .sameFixAgain: time = newest ?? 0
                case .nextFix: time = (newest ?? 0) + 1
                case .replayStartsOver: time = (newest ?? 0) - 3600
                }
                let released = gate.release(try fix(time), readUnder: generation.current.generation, at: .now) != nil
                let takenBeforeTheChange = changedAfter.map { time <= $0 && $0 - time < 60 } ?? false
                #expect(released == (isAllowed && !takenBeforeTheChange), "\(steps): the fix of second \(time)")
                newest = max(newest ?? time, time)
            }
        }
    }
}
