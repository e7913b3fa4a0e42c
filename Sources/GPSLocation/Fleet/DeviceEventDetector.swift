/// A detector per device of a fleet (`locate monitor --by KEY`): each device's positions go
/// through a detector of its own, started from the one given, in the order they come, so each
/// device's events come in its own order, whatever the others do.
///
/// At most ``maximumDevices`` devices are kept: a position of a device beyond them is not
/// processed (``process(_:)`` returns `nil`), so memory is bounded whatever a broker carries.
public struct DeviceEventDetector<Detector: LocationEventDetector>: Sendable {
    /// The most devices kept.
    public let maximumDevices: Int
    private let initial: Detector
    private var detectors: [String: Detector] = [:]

    /// The default bound: 100,000 devices.
    public static var defaultMaximumDevices: Int { 100_000 }

    /// Each device starts from `detector` (its regions or visit rules), and at most
    /// `maximumDevices` devices are kept.
    public init(_ detector: Detector, maximumDevices: Int = defaultMaximumDevices) {
        initial = detector
        self.maximumDevices = max(1, maximumDevices)
    }

    /// How many devices have been seen.
    public var deviceCount: Int { detectors.count }

    /// The events `record` causes for its device, or `nil` when it is a new device beyond
    /// ``maximumDevices`` (its position is not processed).
    public mutating func process(_ record: DeviceLocation) -> [Detector.Event]? {
        if let index = detectors.index(forKey: record.device) {
            return detectors.values[index].process(record.location)
        }
        guard detectors.count < maximumDevices else { return nil }
        var detector = initial
        let events = detector.process(record.location)
        detectors[record.device] = detector
        return events
    }
}
