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

    /// The last receiver's last fix (nearly every stream has one receiver: no hashing per fix),
    /// and the others' by device.
    private var last: Reference?
    private var others: [String: Location] = [:]

    /// A receiver's last fix (a struct, not a tuple: no generic tuple witnesses per fix).
    private struct Reference {
        let device: String
        let location: Location
    }

    /// The integrity of `location`, which becomes its receiver's reference for the next fix.
    mutating func check(_ location: Location) -> Location.Integrity {
        let device = location.device ?? ""
        let before: Location?
        if let last, last.device == device {
            before = last.location
        } else {
            if let last {
                if others.count >= Self.maximumDevices { others.removeAll(keepingCapacity: true) }
                others[last.device] = last.location
            }
            before = others.removeValue(forKey: device)
        }
        last = Reference(device: device, location: location)
        return before.map { Self.integrity(of: location, after: $0) } ?? .ok
    }

    /// The integrity of `location` after `before`.
    static func integrity(of location: Location, after before: Location) -> Location.Integrity {
        guard let time = location.time, let earlier = before.time else { return .ok }
        let elapsed = time.timeIntervalSince(earlier)
        if elapsed < -timeStepBack { return .suspect(.timeBackwards) }
        // The sphere is plenty for bounds this wide, and costs a fraction of the ellipsoid per fix.
        let distance = location.greatCircleDistance(to: before)
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
