import FoundationEssentials
import Testing

@testable import GPSLocation

/// Each fix against the one before from the same receiver: a move no vehicle makes, a speed the
/// positions deny, a time that went back; and nothing suspect in what real receivers do.
struct IntegrityCheckTests {
    private let start = Date(timeIntervalSince1970: 1_767_254_400)

    private func fix(
        _ seconds: Double, north metres: Double, speed: Double? = nil, accuracy: Double? = 5, device: String = "/dev/ttyACM0"
    )
        -> Location
    {
        Location(
            unchecked: 64.0 + metres / 111_320, longitude: -21.9, time: start.addingTimeInterval(seconds), horizontalAccuracy: accuracy,
            speed: speed, mode: .threeDimensional, device: device)
    }

    private func verdicts(_ fixes: [Location]) -> [Location.Integrity] {
        var check = IntegrityCheck()
        return fixes.map { check.check($0) }
    }

    @Test func aCarAtMotorwaySpeedAndAnAirlinerAreBelieved() {
        let car = (0..<60).map { fix(Double($0), north: Double($0) * 36, speed: 36) }
        #expect(verdicts(car).allSatisfy { $0 == .ok })
        let airliner = (0..<60).map { fix(Double($0), north: Double($0) * 250, speed: 250, accuracy: nil) }
        #expect(verdicts(airliner).allSatisfy { $0 == .ok })
        // Standing still with 20 m of noise, and the receiver's time stepping back a little.
        let standing = (0..<60).map { (index: Int) -> Location in
            let stepBack: Double = index % 7 == 3 ? 1.5 : 0
            let offset: Double = index % 2 == 0 ? 15 : -15
            return fix(Double(index) - stepBack, north: offset, speed: 0, accuracy: 20)
        }
        #expect(verdicts(standing).allSatisfy { $0 == .ok })
    }

    @Test func aJumpIsSuspectOnceAndTheNewPlaceIsBelieved() {
        var fixes = (0..<10).map { fix(Double($0), north: Double($0)) }
        fixes += (10..<20).map { fix(Double($0), north: 50_000 + Double($0)) }
        let result = verdicts(fixes)
        #expect(result[10] == .suspect(.jump))
        #expect(result.enumerated().allSatisfy { $0.offset == 10 || $0.element == .ok }, "\(result)")
    }

    @Test func aSpeedThePositionsDenyIsSuspect() {
        let fixes = [fix(0, north: 0, speed: 1), fix(1, north: 1, speed: 1), fix(2, north: 2, speed: 150), fix(3, north: 3, speed: 1)]
        #expect(verdicts(fixes) == [.ok, .ok, .suspect(.speed), .ok])
    }

    @Test func joinedSessionsAreSuspectAtTheJoinAndNowhereElse() {
        var fixes = (0..<10).map { fix(3_600 + Double($0), north: Double($0)) }
        fixes += (0..<10).map { fix(Double($0), north: Double($0)) }
        let result = verdicts(fixes)
        #expect(result[10] == .suspect(.timeBackwards))
        #expect(result.enumerated().allSatisfy { $0.offset == 10 || $0.element == .ok }, "\(result)")
    }

    @Test func receiversAreCheckedApart() {
        let fixes = [
            fix(0, north: 0, device: "a"), fix(0, north: 900_000, device: "b"), fix(1, north: 1, device: "a"),
            fix(1, north: 900_001, device: "b"),
        ]
        #expect(verdicts(fixes).allSatisfy { $0 == .ok })
    }
}
