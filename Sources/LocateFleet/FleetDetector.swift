/// Something that keeps a detector's state per device of a fleet and runs each device's
/// positions through it, in the order they come: ``DeviceRegionMonitor`` (regions, compact) and
/// ``DeviceEventDetector`` (any ``LocationEventDetector``, such as a ``VisitDetector``).
///
/// At most ``maximumDevices`` devices are kept: a position of a new device beyond them is not
/// processed (``process(_:)`` returns `nil`), so memory is bounded whatever a broker carries.
package protocol FleetDetector: Sendable {
    /// What it reports.
    associatedtype Event: Sendable, Hashable
    /// The most devices kept.
    var maximumDevices: Int { get }
    /// How many devices have been seen.
    var deviceCount: Int { get }
    /// The events `record` causes for its device, in that device's order, or `nil` when it is
    /// a new device beyond ``maximumDevices``.
    mutating func process(_ record: DeviceLocation) -> [Event]?
    /// What each device's detector watches for (regions, or a radius and a dwell), as text: a
    /// kept state is taken up only under the same definition.
    var definition: String { get }
    /// `device`'s state as bytes, or `nil` for a device not seen.
    func encodedState(of device: String) -> [UInt8]?
    /// Takes up `device`'s kept state; `false` for bytes that are not a state of this
    /// definition, or a new device beyond ``maximumDevices`` (nothing changes).
    mutating func restore(_ device: String, encodedState: [UInt8]) -> Bool
}

extension FleetDetector {
    /// The default bound: 100,000 devices.
    package static var defaultMaximumDevices: Int { 100_000 }
}
