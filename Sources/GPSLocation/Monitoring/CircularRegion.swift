public import FoundationEssentials
import LocateSupport

/// A named circle on the earth: CoreLocation's `CLMonitor.CircularGeographicCondition`, with
/// the name `locate monitor` prints.
public struct CircularRegion: Sendable, Hashable, Codable {
    /// The name events carry: 1 to 64 characters (at most 256 bytes of UTF-8), at least one of
    /// them visible (a letter, digit, punctuation or symbol), none of them a control, formatting,
    /// default-ignorable or blank filler character, and at most
    /// ``maximumCombiningMarks`` combining marks on a character (see ``isValidName(_:)``).
    public let name: String
    /// The centre's latitude in degrees, WGS 84.
    public let latitude: Double
    /// The centre's longitude in degrees, WGS 84.
    public let longitude: Double
    /// The radius in metres, along the ellipsoid.
    public let radius: Double

    /// The largest radius, a quarter of the earth's circumference: beyond it "inside" says little.
    public static let maximumRadius = 10_000_000.0

    /// The most combining marks (accents, vowel signs) a region name has on one character:
    /// enough for any writing system, too few to stack marks over the lines above and below.
    public static let maximumCombiningMarks = 4

    /// The rule of ``isValidName(_:)`` in words, for messages that refuse a name.
    public static let nameRule =
        "1 to 64 characters, at most 256 bytes, a visible one among them, no control, formatting, invisible or blank filler character, at most \(maximumCombiningMarks) combining marks on a character"

    /// A region.
    /// - Throws: ``GPSLocationError/invalidArgument(name:reason:)`` when the name is not one (see
    ///   ``isValidName(_:)``), the centre is not a coordinate, or the radius is not above 0 and at
    ///   most ``maximumRadius``.
    public init(name: String, latitude: Double, longitude: Double, radius: Double) throws(GPSLocationError) {
        guard Self.isValidName(name) else {
            throw .invalidArgument(
                name: "name",
                reason:
                    "'\(UntrustedText.visible(name, limit: 80))' is not a region name (\(Self.nameRule))"
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

    /// Whether `name` can name a region. A name has 1 to 64 characters and at most 256 bytes of
    /// UTF-8, at least one of them visible (a letter, digit, punctuation or symbol: not only
    /// spaces or marks), and nothing that shows as nothing or as a blank that is not a space,
    /// which would make two names that look alike differ, or a name that shows as nothing:
    /// - no control, format or other default-ignorable character (such as a bidirectional
    ///   override, a zero-width space or joiner, a soft hyphen, a word joiner, a byte-order mark,
    ///   a tag character or a variation selector), and no line or paragraph separator;
    /// - no blank filler: the Hangul fillers U+115F, U+1160, U+3164 and U+FFA0, U+2800 BRAILLE
    ///   PATTERN BLANK, U+1D159 MUSICAL SYMBOL NULL NOTEHEAD, U+16FE4 KHITAN SMALL SCRIPT FILLER;
    /// - no private-use or unassigned code point;
    /// - at most ``maximumCombiningMarks`` (4) combining marks in a row on one character, so
    ///   marks cannot pile up over the lines around the name.
    ///
    /// These are the scalars `locate` shows as escapes in every output. ``nameRule`` says the
    /// rule in words.
    public static func isValidName(_ name: String) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 256, name.count <= 64 else { return false }
        var hasVisible = false
        var marks = 0
        for scalar in name.unicodeScalars {
            // The scalars every output escapes (`UntrustedText.isHidden`): controls, format and
            // default-ignorable characters, blank fillers, line and paragraph separators.
            guard !UntrustedText.isHidden(scalar) else { return false }
            switch scalar.properties.generalCategory {
            case .surrogate, .privateUse, .unassigned:
                return false
            case .nonspacingMark, .spacingMark, .enclosingMark:
                marks += 1
                guard marks <= maximumCombiningMarks else { return false }
            case .spaceSeparator:
                marks = 0
            default:
                marks = 0
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
    /// When the state before this one was decided (the receiver time of its fix, or the time a
    /// named monitor's earlier run recorded): how long it held. `nil` for an `initial` event,
    /// after an `unknown` state, or when that fix had no time.
    public let since: Date?
}
