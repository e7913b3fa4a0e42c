import FoundationEssentials
import LocateSupport

/// Region monitoring as a value: give it each fix in order, and it says which regions changed
/// state (CoreLocation's `CLMonitor` for circular conditions, without the actor around it).
///
/// A fix decides a region's state only when it is clear given its horizontal accuracy `h`
/// (taken as exact when unknown): inside when its distance `d` to the centre plus `h` is at most
/// the radius, outside when `d − h` is at least the radius. Between the two the state stays as
/// it was, so a receiver jittering at the boundary by less than its accuracy does not flap; a
/// fix whose accuracy is worse than the radius decides nothing, and neither does a position
/// reduced to a grid cell. The first fix after a region is added gives it an `initial` event
/// (its state then, `unknown` when undecided); afterwards the state becoming `inside` is an `enter`, becoming
/// `outside` an `exit` (also the first decision after an initial `unknown`).
///
/// A named monitor (``init(name:regions:restoring:)``) starts from the ``MonitoringRecord``s an
/// earlier run left (``records``), as `CLMonitor` keeps its conditions and their last states
/// across launches: a restored region gives no `initial` event, and its first decision that
/// differs from the restored state is an `enter` or an `exit`, whose ``RegionEvent/since`` is the
/// time the restored state was decided. Keeping the records is the host's (the consent store
/// keeps them in `$XDG_STATE_HOME/locate/monitors/NAME`, and purges them with the last fix).
///
/// Each fix is checked against every region on the sphere first (one dot product of unit
/// vectors, see `SphericalBounds`), so only a fix near a region's boundary costs a geodesic.
public struct RegionMonitor: Sendable, LocationEventDetector {
    /// The regions, in the order events for one fix come.
    public private(set) var regions: [CircularRegion] = []
    /// The name the monitor's records are kept under (`CLMonitor`'s name), or `nil` for a
    /// monitor that starts afresh each time.
    public let name: String?
    // What the monitor keeps for each region, side by side with `regions` in arrays of plain
    // values: the loop over every region for every fix touches no reference count.
    /// The cheap checks (centre, radius, bounds for the accuracy of the latest fix).
    private var bounds: [SphericalBounds] = []
    /// Each region's state, whether its `initial` event is out, and when the state was decided.
    private var storage = RegionStateArrays()
    /// The accuracy every region's bounds are prepared for (`nan`: not yet, or a region was added).
    private var preparedAccuracy = Double.nan

    /// The state of each region, by name.
    public var states: [String: RegionState] {
        Dictionary(uniqueKeysWithValues: regions.indices.map { (regions[$0].name, storage.state($0)) })
    }

    /// The regions with their last states and the times those were decided, in the regions'
    /// order: what a named monitor keeps to start from next time.
    public var records: [MonitoringRecord] {
        regions.indices.map { MonitoringRecord(region: regions[$0], state: storage.state($0), date: storage.date($0)) }
    }

    /// A monitor of `regions`, all `unknown`; a later region of the same name replaces an earlier one.
    public init(regions: [CircularRegion]) {
        name = nil
        appendAll(regions)
    }

    /// A named monitor of `regions`, each starting from the record of `records` for the same
    /// region (same name, centre and radius) in its last state, without an `initial` event; a
    /// region without one (new, or moved since) starts `unknown`. Records of regions not watched
    /// any more are dropped.
    /// - Throws: ``GPSLocationError/invalidArgument(name:reason:)`` when `name` is not one (see
    ///   ``isValidName(_:)``).
    public init(name: String, regions: [CircularRegion], restoring records: [MonitoringRecord] = []) throws(GPSLocationError) {
        guard Self.isValidName(name) else {
            throw .invalidArgument(
                name: "name", reason: "'\(UntrustedText.visible(name, limit: 80))' is not a monitor name (\(Self.nameRule))")
        }
        self.name = name
        appendAll(regions)
        var byName: [String: MonitoringRecord] = [:]
        for record in records { byName[record.region.name] = record }
        for index in self.regions.indices {
            guard let record = byName[self.regions[index].name], record.region == self.regions[index] else { continue }
            storage.set(index, state: record.state, date: record.date)
            storage.markReported(index)
        }
    }

    /// The rule of ``isValidName(_:)`` in words, for messages that refuse a name.
    public static let nameRule = "1 to 64 ASCII letters, digits, '.', '_' and '-', starting with a letter or digit"

    /// Whether `name` can name a monitor: 1 to 64 ASCII letters, digits, `.`, `_` and `-`,
    /// starting with a letter or digit, so that it is a file name of its own (no path separator,
    /// not `.` or `..`, nothing hidden) and safe to show anywhere.
    public static func isValidName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (1...64).contains(bytes.count), let first = bytes.first, Self.isNameByte(first), first != UInt8(ascii: "."),
            first != UInt8(ascii: "-"), first != UInt8(ascii: "_")
        else { return false }
        return bytes.allSatisfy(Self.isNameByte)
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "-"):
            true
        default: false
        }
    }

    /// As `add` for each in turn (the last of a name stands, in its place), in linear time.
    private mutating func appendAll(_ regions: [CircularRegion]) {
        var last: [String: Int] = [:]
        for (index, region) in regions.enumerated() { last[region.name] = index }
        for (index, region) in regions.enumerated() where last[region.name] == index { append(region) }
    }

    /// Starts watching `region` (CLMonitor's `add(_:identifier:)`): `unknown` until the next fix,
    /// which gives it its `initial` event. A region of the same name is replaced, its state
    /// forgotten.
    public mutating func add(_ region: CircularRegion) {
        remove(named: region.name)
        append(region)
    }

    private mutating func append(_ region: CircularRegion) {
        regions.append(region)
        bounds.append(SphericalBounds(center: UnitVector(latitude: region.latitude, longitude: region.longitude), radius: region.radius))
        storage.append()
        preparedAccuracy = .nan
    }

    /// Stops watching the region named `name` (CLMonitor's `remove(_:)`), if there is one.
    public mutating func remove(named name: String) {
        guard let index = regions.firstIndex(where: { $0.name == name }) else { return }
        regions.remove(at: index)
        bounds.remove(at: index)
        storage.remove(at: index)
    }

    /// The events `location` causes, in the regions' order.
    public mutating func process(_ location: Location) -> [RegionEvent] {
        // Taken out while it is used, so that it is not copied.
        var own = storage
        storage = RegionStateArrays()
        defer { storage = own }
        return events(location, in: &own)
    }

    /// The events `location` causes for the device whose states are `states` (a fleet keeps
    /// one monitor's regions and each device's states apart), in the regions' order.
    package mutating func process(_ location: Location, in states: inout CompactRegionStates) -> [RegionEvent] {
        events(location, in: &states)
    }

    /// The events `location` causes for the states `states`, in the regions' order.
    private mutating func events(_ location: Location, in states: inout some RegionStateStorage) -> [RegionEvent] {
        let accuracy = location.horizontalAccuracy ?? 0
        let decides = location.accuracy == .fullAccuracy
        let position = UnitVector(latitude: location.latitude, longitude: location.longitude)
        // Most fixes have the accuracy of the one before: the bounds are recomputed rarely, and the
        // loop over the regions only reads them.
        if decides, accuracy != preparedAccuracy {
            for index in bounds.indices { bounds[index].prepare(for: accuracy) }
            preparedAccuracy = accuracy
        }
        var events: [RegionEvent] = []
        for index in bounds.indices {
            let old = states.state(index)
            var new = old
            if decides, accuracy <= bounds[index].radius {
                new = decide(index, location: location, position: position, accuracy: accuracy) ?? old
            }
            if !states.isReported(index) {
                states.markReported(index)
                events.append(RegionEvent(region: regions[index], kind: .initial, state: new, location: location, since: nil))
            } else if new != old {
                events.append(
                    RegionEvent(
                        region: regions[index], kind: new == .inside ? .enter : .exit, state: new, location: location,
                        since: states.date(index)))
            }
            if new != old { states.set(index, state: new, date: location.time) }
        }
        return events
    }

    /// Inside, outside, or `nil` when the fix's accuracy circle straddles the boundary.
    private func decide(_ index: Int, location: Location, position: UnitVector, accuracy: Double) -> RegionState? {
        let check = bounds[index]
        let dot = check.center.dot(position)
        if dot <= check.cosOutside { return .outside }
        if dot >= check.cosInside { return .inside }
        let region = regions[index]
        let distance = location.distance(from: region.center)
        if distance + accuracy <= region.radius { return .inside }
        if distance - accuracy >= region.radius { return .outside }
        return nil
    }
}

/// A region's cheap check for fixes of one accuracy `h`: a geodesic on WGS 84 is within 0.6% of
/// the great circle on the mean sphere, so with a 1% margin (and a metre more, beyond the
/// rounding of a dot product near 1) a fix whose angle from the centre is at least
/// (r + h + 1) / (0.99 R) is outside, and one within (r − h − 1) / (1.01 R) is inside, decided by
/// one dot product of unit vectors against the cosines of those angles. Only a fix between the
/// two costs a geodesic.
struct SphericalBounds: Sendable {
    /// The region's centre.
    let center: UnitVector
    /// The region's radius.
    let radius: Double
    /// A dot product at most this is outside.
    private(set) var cosOutside = -2.0
    /// A dot product at least this is inside.
    private(set) var cosInside = 2.0

    init(center: UnitVector, radius: Double) {
        self.center = center
        self.radius = radius
    }

    /// Makes the bounds those of fixes of `accuracy`.
    mutating func prepare(for accuracy: Double) {
        let outside = (radius + accuracy + 1) / (0.99 * UnitVector.meanRadius)
        let inside = (radius - accuracy - 1) / (1.01 * UnitVector.meanRadius)
        // Beyond half the globe nothing is surely outside; below zero nothing surely inside.
        cosOutside = outside >= .pi ? -2 : cos(outside)
        cosInside = inside < 0 ? 2 : cos(inside)
    }
}
