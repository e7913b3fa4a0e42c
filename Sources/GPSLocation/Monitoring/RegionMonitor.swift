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
/// Each fix is checked against every region on the sphere first (one dot product of unit
/// vectors, see `SphericalBounds`), so only a fix near a region's boundary costs a geodesic.
public struct RegionMonitor: Sendable, LocationEventDetector {
    /// The regions, in the order events for one fix come.
    public private(set) var regions: [CircularRegion] = []
    // What the monitor keeps for each region, side by side with `regions` in arrays of plain
    // values: the loop over every region for every fix touches no reference count.
    /// The cheap checks (centre, radius, bounds for the accuracy of the latest fix).
    private var bounds: [SphericalBounds] = []
    private var stateList: [RegionState] = []
    /// Whether each region's `initial` event is out.
    private var reported: [Bool] = []
    /// The accuracy every region's bounds are prepared for (`nan`: not yet, or a region was added).
    private var preparedAccuracy = Double.nan

    /// The state of each region, by name.
    public var states: [String: RegionState] {
        Dictionary(uniqueKeysWithValues: zip(regions.map(\.name), stateList))
    }

    /// A monitor of `regions`, all `unknown`; a later region of the same name replaces an earlier one.
    public init(regions: [CircularRegion]) {
        // As `add` for each in turn (the last of a name stands, in its place), in linear time.
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
        stateList.append(.unknown)
        reported.append(false)
        preparedAccuracy = .nan
    }

    /// Stops watching the region named `name` (CLMonitor's `remove(_:)`), if there is one.
    public mutating func remove(named name: String) {
        guard let index = regions.firstIndex(where: { $0.name == name }) else { return }
        regions.remove(at: index)
        bounds.remove(at: index)
        stateList.remove(at: index)
        reported.remove(at: index)
    }

    /// The events `location` causes, in the regions' order.
    public mutating func process(_ location: Location) -> [RegionEvent] {
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
            let old = stateList[index]
            var new = old
            if decides, accuracy <= bounds[index].radius {
                new = decide(index, location: location, position: position, accuracy: accuracy) ?? old
            }
            if !reported[index] {
                reported[index] = true
                events.append(RegionEvent(region: regions[index], kind: .initial, state: new, location: location))
            } else if new != old {
                events.append(RegionEvent(region: regions[index], kind: new == .inside ? .enter : .exit, state: new, location: location))
            }
            if new != old { stateList[index] = new }
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
