package import GPSLocation

/// Region monitoring per device of a fleet (`locate monitor --by KEY`): one ``RegionMonitor``'s
/// regions, and for each device only its regions' states, packed (half a byte a region, and the
/// time each was decided in whole seconds: some 4.5 bytes a region), so a thousand devices over
/// a hundred regions take about half a MiB. Each device's events come in its own order and
/// follow ``RegionMonitor``'s rules, `initial` at its first position; ``RegionEvent/since`` is in
/// whole seconds.
package struct DeviceRegionMonitor: FleetDetector {
    /// The most devices kept.
    package let maximumDevices: Int
    private var monitor: RegionMonitor
    private var devices: [String: CompactRegionStates] = [:]

    /// Every device watches `monitor`'s regions, from `unknown` (a named monitor's states are
    /// its own, not a fleet's); at most `maximumDevices` devices are kept.
    package init(_ monitor: RegionMonitor, maximumDevices: Int = defaultMaximumDevices) {
        self.monitor = RegionMonitor(regions: monitor.regions)
        self.maximumDevices = max(1, maximumDevices)
    }

    /// The regions every device watches.
    package var regions: [CircularRegion] { monitor.regions }

    /// How many devices have been seen.
    package var deviceCount: Int { devices.count }

    /// The events `record` causes for its device, or `nil` when it is a new device beyond
    /// ``maximumDevices`` (its position is not processed).
    package mutating func process(_ record: DeviceLocation) -> [RegionEvent]? {
        if let index = devices.index(forKey: record.device) {
            return monitor.process(record.location, in: &devices.values[index])
        }
        guard devices.count < maximumDevices else { return nil }
        var states = CompactRegionStates(count: monitor.regions.count)
        let events = monitor.process(record.location, in: &states)
        devices[record.device] = states
        return events
    }

    /// The regions, each as its name, centre and radius.
    package var definition: String {
        "regions " + monitor.regions.map { "\($0.name)=\($0.latitude),\($0.longitude),\($0.radius)" }.joined(separator: ";")
    }

    package func encodedState(of device: String) -> [UInt8]? { devices[device]?.encoded }

    package mutating func restore(_ device: String, encodedState: [UInt8]) -> Bool {
        guard devices[device] != nil || devices.count < maximumDevices,
            let states = CompactRegionStates(encoded: encodedState, count: monitor.regions.count)
        else { return false }
        devices[device] = states
        return true
    }
}
