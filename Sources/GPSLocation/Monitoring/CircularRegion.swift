import LocateSupport

/// A named circle on the earth: CoreLocation's `CLMonitor.CircularGeographicCondition`, with
/// the name `locate monitor` prints.
public struct CircularRegion: Sendable, Hashable, Codable {
    /// The name events carry: 1 to 64 characters (at most 256 bytes of UTF-8), at least one of
    /// them visible (a letter, digit, punctuation or symbol), none of them a control or
    /// formatting character.
    public let name: String
    /// The centre's latitude in degrees, WGS 84.
    public let latitude: Double
    /// The centre's longitude in degrees, WGS 84.
    public let longitude: Double
    /// The radius in metres, along the ellipsoid.
    public let radius: Double

    /// The largest radius, a quarter of the earth's circumference: beyond it "inside" says little.
    public static let maximumRadius = 10_000_000.0

    /// A region.
    /// - Throws: ``GPSLocationError/invalidArgument(name:reason:)`` when the name is not one (see
    ///   ``isValidName(_:)``), the centre is not a coordinate, or the radius is not above 0 and at
    ///   most ``maximumRadius``.
    public init(name: String, latitude: Double, longitude: Double, radius: Double) throws(GPSLocationError) {
        guard Self.isValidName(name) else {
            throw .invalidArgument(
                name: "name",
                reason:
                    "'\(UntrustedText.visible(name, limit: 80))' is not a region name (1 to 64 characters, at most 256 bytes, a visible one among them, no control or formatting character)"
            )
        }
        guard (-90...90).contains(latitude), (-180...180).contains(longitude) else {
            throw .invalidArgument(name: "center", reason: "\(latitude), \(longitude) is not a coordinate")
        }
        guard radius > 0, radius <= Self.maximumRadius else {
            throw .invalidArgument(name: "radius", reason: "\(radius) is not above 0 and at most \(Int(Self.maximumRadius)) m")
        }
        self.name = name
        self.latitude = latitude
        self.longitude = longitude
        self.radius = radius
    }

    /// Whether `name` can name a region: 1 to 64 characters and at most 256 bytes of UTF-8, with
    /// a visible character (a letter, digit, punctuation or symbol: not only spaces or marks), and
    /// no control or formatting character (such as a bidirectional override, a zero-width space,
    /// a soft hyphen, a word joiner or a byte-order mark), which would make two names that look
    /// alike differ, or a name that shows as nothing.
    public static func isValidName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 256, name.count <= 64 else { return false }
        var hasVisible = false
        for scalar in name.unicodeScalars {
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned:
                return false
            case .spaceSeparator, .nonspacingMark, .spacingMark, .enclosingMark:
                continue
            default:
                hasVisible = true
            }
        }
        return hasVisible
    }

    /// Decodes a region, checked as ``init(name:latitude:longitude:radius:)`` checks it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guard
            let region = try? CircularRegion(
                name: try container.decode(String.self, forKey: .name), latitude: try container.decode(Double.self, forKey: .latitude),
                longitude: try container.decode(Double.self, forKey: .longitude), radius: try container.decode(Double.self, forKey: .radius)
            )
        else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a region"))
        }
        self = region
    }

    /// The centre, as a location without a fix.
    var center: Location { Location(unchecked: latitude, longitude: longitude, mode: nil) }
}

/// Where the device is with respect to a region (`CLMonitor.Event.State`).
public enum RegionState: String, Sendable, Hashable, Codable {
    /// A fix put it clearly inside, its whole accuracy circle within the region.
    case inside
    /// A fix put it clearly outside, its whole accuracy circle beyond the region.
    case outside
    /// No fix has decided it yet.
    case unknown
}

/// A change a ``RegionMonitor`` reports for one region.
public struct RegionEvent: Sendable, Hashable {
    /// What happened.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// The region's state at the first fix after monitoring started (possibly `unknown`).
        case initial
        /// The state became `inside`.
        case enter
        /// The state became `outside`.
        case exit
    }

    /// The region.
    public let region: CircularRegion
    /// What happened.
    public let kind: Kind
    /// The region's state after the event.
    public let state: RegionState
    /// The fix that decided it.
    public let location: Location
}
