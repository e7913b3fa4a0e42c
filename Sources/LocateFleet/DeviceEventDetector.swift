package import GPSLocation

/// A detector per device of a fleet (`locate visits --by KEY`): each device's positions go
/// through a detector of its own, started from the one given, so each device's events come in
/// its own order, whatever the others do. For regions, ``DeviceRegionMonitor`` keeps far less
/// per device.
package struct DeviceEventDetector<Detector: LocationEventDetector & DetectorStateCoding>: FleetDetector {
    /// The most devices kept.
    package let maximumDevices: Int
    private let initial: Detector
    private var detectors: [String: Detector] = [:]

    /// Each device starts from `detector` (its rules), and at most `maximumDevices` devices are kept.
    package init(_ detector: Detector, maximumDevices: Int = defaultMaximumDevices) {
        initial = detector
        self.maximumDevices = max(1, maximumDevices)
    }

    /// How many devices have been seen.
    package var deviceCount: Int { detectors.count }

    /// The events `record` causes for its device, or `nil` when it is a new device beyond
    /// ``maximumDevices`` (its position is not processed).
    package mutating func process(_ record: DeviceLocation) -> [Detector.Event]? {
        if let index = detectors.index(forKey: record.device) {
            return detectors.values[index].process(record.location)
        }
        guard detectors.count < maximumDevices else { return nil }
        var detector = initial
        let events = detector.process(record.location)
        detectors[record.device] = detector
        return events
    }

    package var definition: String { initial.definition }

    package func encodedState(of device: String) -> [UInt8]? { detectors[device]?.encodedState }

    package mutating func restore(_ device: String, encodedState: [UInt8]) -> Bool {
        guard detectors[device] != nil || detectors.count < maximumDevices else { return false }
        var detector = initial
        guard detector.restore(encodedState: encodedState) else { return false }
        detectors[device] = detector
        return true
    }
}
