import Glibc

/// Region monitoring as a value: give it each fix in order, and it says which regions changed
/// state (CoreLocation's `CLMonitor` for circular conditions, without the actor around it).
///
/// A fix decides a region's state only when it is clear given its horizontal accuracy `h`
/// (taken as exact when unknown): inside when its distance `d` to the centre plus `h` is at most
/// the radius, outside when `d − h` is at least the radius. Between the two the state stays as
/// it was, so a receiver jittering at the boundary by less than its accuracy does not flap; a
/// fix whose accuracy is worse than the radius decides nothing, and neither does a position
/// reduced to a grid cell. The first fix gives each region an `initial` event (its state then,
/// `unknown` when undecided); afterwards the state becoming `inside` is an `enter`, becoming
/// `outside` an `exit` (also the first decision after an initial `unknown`).
///
/// Each fix is checked against every region's bounding cap first (a dot product of unit
/// vectors), so only regions near the fix cost a geodesic.
public struct RegionMonitor: Sendable, LocationEventDetector {
    /// The regions, in the order events for one fix come.
    public let regions: [CircularRegion]
    /// The state of each region, by name.
    public private(set) var states: [String: RegionState]
    private var hasStarted = false
    /// Each region's centre as a unit vector, for the cheap check.
    private let centers: [UnitVector]

    /// A monitor of `regions`, all `unknown`; a later region of the same name replaces an earlier one.
    public init(regions: [CircularRegion]) {
        var unique: [CircularRegion] = []
        for region in regions {
            if let index = unique.firstIndex(where: { $0.name == region.name }) { unique[index] = region } else { unique.append(region) }
        }
        self.regions = unique
        states = Dictionary(uniqueKeysWithValues: unique.map { ($0.name, RegionState.unknown) })
        centers = unique.map { UnitVector(latitude: $0.latitude, longitude: $0.longitude) }
    }

    /// The events `location` causes, in the regions' order.
    public mutating func process(_ location: Location) -> [RegionEvent] {
        let isFirst = !hasStarted
        hasStarted = true
        let accuracy = location.horizontalAccuracy ?? 0
        let position = UnitVector(latitude: location.latitude, longitude: location.longitude)
        var events: [RegionEvent] = []
        for (index, region) in regions.enumerated() {
            let old = states[region.name] ?? .unknown
            var new = old
            if location.accuracy == .fullAccuracy, accuracy <= region.radius {
                new = decide(region, center: centers[index], location: location, position: position, accuracy: accuracy) ?? old
            }
            if isFirst {
                events.append(RegionEvent(region: region, kind: .initial, state: new, location: location))
            } else if new != old {
                events.append(RegionEvent(region: region, kind: new == .inside ? .enter : .exit, state: new, location: location))
            }
            states[region.name] = new
        }
        return events
    }

    /// Inside, outside, or `nil` when the fix's accuracy circle straddles the boundary.
    private func decide(
        _ region: CircularRegion, center: UnitVector, location: Location, position: UnitVector, accuracy: Double
    ) -> RegionState? {
        // A geodesic on WGS 84 is within 0.6% of the great circle on the mean sphere: with a 1%
        // margin, far beyond (or well within) the circle no geodesic is needed.
        let sphericalDistance = center.angle(to: position) * UnitVector.meanRadius
        if sphericalDistance * 0.99 - accuracy >= region.radius { return .outside }
        if sphericalDistance * 1.01 + accuracy <= region.radius { return .inside }
        let distance = location.distance(from: region.center)
        if distance + accuracy <= region.radius { return .inside }
        if distance - accuracy >= region.radius { return .outside }
        return nil
    }
}

/// A point of the sphere as a unit vector: the angle between two is one `acos` of a dot product.
struct UnitVector: Sendable {
    let x: Double
    let y: Double
    let z: Double
    /// The mean earth radius, metres (IUGG).
    static let meanRadius = 6_371_008.8

    init(latitude: Double, longitude: Double) {
        let radians = Double.pi / 180
        let cosLatitude = cos(latitude * radians)
        x = cosLatitude * cos(longitude * radians)
        y = cosLatitude * sin(longitude * radians)
        z = sin(latitude * radians)
    }

    /// The angle in radians between the two points, as seen from the centre.
    func angle(to other: UnitVector) -> Double {
        // atan2 of the cross and dot products: accurate at every angle, unlike acos near 0.
        let cx = y * other.z - z * other.y
        let cy = z * other.x - x * other.z
        let cz = x * other.y - y * other.x
        return atan2((cx * cx + cy * cy + cz * cz).squareRoot(), x * other.x + y * other.y + z * other.z)
    }
}
