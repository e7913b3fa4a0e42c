import FoundationEssentials

/// Whether each fix is believable beside the fix before it from the same receiver
/// (``Location/Integrity``): a move no vehicle makes in the time between them (`jump`), a
/// reported speed far from the one the two positions imply (`speed`), or a time more than a few
/// seconds before the one before (`time_backwards`). Each fix becomes the next one's reference,
/// suspect or not, so a log where two sessions were joined is suspect at the join and nowhere
/// else. The bounds are wide, as they must give no false alarm: a fix's own error estimate (or
/// 50 m when it has none) widens them, and an airliner's speed is well inside them.
struct IntegrityCheck {
    /// The fastest a vehicle is believed to move, m/s (Mach 1.5).
    static let fastestMove = 500.0
    /// How far back a time may step and still be a receiver standing still, seconds.
    static let timeStepBack = 5.0
    /// The most receivers kept (a fleet's devices in one stream are few; a hostile one is bounded).
    static let maximumDevices = 64

    private var previous: [String: Location] = [:]

    /// The integrity of `location`, which becomes its receiver's reference for the next fix.
    mutating func check(_ location: Location) -> Location.Integrity {
        let device = location.device ?? ""
        defer {
            if previous[device] == nil, previous.count >= Self.maximumDevices { previous.removeAll(keepingCapacity: true) }
            previous[device] = location
        }
        guard let before = previous[device] else { return .ok }
        return Self.integrity(of: location, after: before)
    }

    /// The integrity of `location` after `before`.
    static func integrity(of location: Location, after before: Location) -> Location.Integrity {
        guard let time = location.time, let earlier = before.time else { return .ok }
        let elapsed = time.timeIntervalSince(earlier)
        if elapsed < -timeStepBack { return .suspect(.timeBackwards) }
        let distance = location.distance(from: before)
        let errors = (location.horizontalAccuracy ?? 50) + (before.horizontalAccuracy ?? 50)
        let span = max(abs(elapsed), 1)
        if distance > fastestMove * span + 3 * errors + 200 { return .suspect(.jump) }
        if let reported = location.speed, (0.5...5).contains(elapsed) {
            let implied = distance / elapsed
            let slack = 20 + 2 * errors / elapsed + 0.3 * max(reported, implied)
            if abs(reported - implied) > slack { return .suspect(.speed) }
        }
        return .ok
    }
}
