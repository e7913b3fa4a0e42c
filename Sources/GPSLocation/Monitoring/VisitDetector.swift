public import FoundationEssentials
import LocateSupport

/// A place where the fixes stayed: CoreLocation's `CLVisit`.
public struct Visit: Sendable, Hashable {
    /// The centre of the visit's fixes, degrees, WGS 84.
    public let latitude: Double
    /// The centre of the visit's fixes, degrees, WGS 84.
    public let longitude: Double
    /// The mean horizontal accuracy of its fixes, metres; `nil` when none said.
    public let horizontalAccuracy: Double?
    /// The receiver time of the first fix of the stay.
    public let arrival: Date
    /// The receiver time of the last fix of the stay; `nil` while it goes on.
    public let departure: Date?

    /// The visit's centre as a location, with the mean accuracy of its fixes and no fix of its own.
    public var location: Location {
        Location(unchecked: latitude, longitude: longitude, horizontalAccuracy: horizontalAccuracy, mode: nil)
    }
}

/// An arrival or a departure ``VisitDetector`` reports.
public struct VisitEvent: Sendable, Hashable {
    /// Which of the two.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// The fixes have stayed within the radius for the dwell time.
        case arrival
        /// A fix left the visit's circle.
        case departure
    }

    /// Which of the two.
    public let kind: Kind
    /// The visit, with its departure for a departure.
    public let visit: Visit
}

/// Visit detection as a value: give it each fix in order, and it reports arrivals and departures.
///
/// Fixes that stay within `radius` of the centre of the fixes so far (their mean position) for
/// `dwell`, measured by the receiver's clock, make an arrival, dated by the first fix of the
/// stay. A fix clearly outside the circle (its distance minus its accuracy beyond the radius)
/// makes the departure, dated by the last fix inside, and starts looking for the next stay
/// from that fix. Fixes without a time, with an accuracy worse than the radius, or reduced to a
/// grid cell decide nothing; a receiver clock that goes back starts afresh.
public struct VisitDetector: Sendable, LocationEventDetector {
    /// How close the fixes of a stay keep to its centre, metres.
    public let radius: Double
    /// How long they must stay, by the receiver's clock.
    public let dwell: Duration

    /// The stay being watched: its first fix, its running centre and the fixes' accuracies.
    struct Stay {
        let first: Location
        var latitudeSum = 0.0
        var longitudeOffsetSum = 0.0
        var count = 0
        var accuracySum = 0.0
        var accuracyCount = 0
        var last: Date
        var hasArrived = false

        init(_ first: Location, at time: Date) {
            self.first = first
            last = time
            add(first, at: time)
        }

        var latitude: Double { latitudeSum / Double(count) }
        var longitude: Double {
            let value = first.longitude + longitudeOffsetSum / Double(count)
            return value > 180 ? value - 360 : (value < -180 ? value + 360 : value)
        }

        mutating func add(_ location: Location, at time: Date) {
            latitudeSum += location.latitude
            // Offsets from the first fix, so a stay on the antimeridian averages correctly.
            var offset = location.longitude - first.longitude
            if offset > 180 { offset -= 360 } else if offset < -180 { offset += 360 }
            longitudeOffsetSum += offset
            count += 1
            if let accuracy = location.horizontalAccuracy {
                accuracySum += accuracy
                accuracyCount += 1
            }
            last = time
        }

        func visit(departed: Bool) -> Visit {
            Visit(
                latitude: latitude, longitude: longitude,
                horizontalAccuracy: accuracyCount == 0 ? nil : accuracySum / Double(accuracyCount),
                arrival: first.time ?? last, departure: departed ? last : nil)
        }
    }

    var stay: Stay?

    /// A detector; CoreLocation-like defaults of 50 m and 5 minutes.
    /// - Parameters:
    ///   - radius: metres, above 0 and at most ``CircularRegion/maximumRadius``.
    ///   - dwell: above zero.
    /// - Throws: ``GPSLocationError/invalidArgument(name:reason:)`` for a radius or a dwell out of range.
    public init(radius: Double = 50, dwell: Duration = .seconds(300)) throws(GPSLocationError) {
        guard radius.isFinite, radius > 0, radius <= CircularRegion.maximumRadius else {
            throw .invalidArgument(name: "radius", reason: "\(radius) is not a number of metres above 0")
        }
        guard dwell > .zero else { throw .invalidArgument(name: "dwell", reason: "\(dwell) is not above zero") }
        self.radius = radius
        self.dwell = dwell
    }

    /// The arrival or departure `location` causes, if any.
    public mutating func process(_ location: Location) -> [VisitEvent] {
        let accuracy = location.horizontalAccuracy ?? 0
        guard let time = location.time, location.accuracy == .fullAccuracy, accuracy <= radius else { return [] }
        guard var current = stay, time >= current.last else {
            stay = Stay(location, at: time)
            return []
        }
        let center = Location(unchecked: current.latitude, longitude: current.longitude, mode: nil)
        let distance = location.distance(from: center)
        var events: [VisitEvent] = []
        if distance <= radius {
            current.add(location, at: time)
            if !current.hasArrived, let start = current.first.time, time.timeIntervalSince(start) >= dwell.seconds {
                current.hasArrived = true
                events.append(VisitEvent(kind: .arrival, visit: current.visit(departed: false)))
            }
            stay = current
        } else if distance - accuracy > radius || !current.hasArrived {
            // Clearly outside; or beyond the radius of a stay that has made no visit yet, which
            // then starts afresh here (only a departure needs the fix to be clear of the circle:
            // a receiver that stops just beyond a passing stay's circle still arrives).
            if current.hasArrived { events.append(VisitEvent(kind: .departure, visit: current.visit(departed: true))) }
            stay = Stay(location, at: time)
        }
        return events
    }
}
