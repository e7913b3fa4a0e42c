/// What a receiver says of a fix beyond its position: how it was fixed, the dilutions, the error
/// estimates by axis and of the time, the true heading, the magnetic variation and the geoid
/// separation. gpsd gives them in its TPV, SKY and ATT reports; every one is `nil` when the
/// receiver did not say, and all are `nil` under reduced accuracy (an RTK status or a dilution
/// tells where a receiver is about as well as a position does).
extension Location {
    /// The receiver's details of one fix (see ``Location``'s `details`).
    public struct Details: Sendable, Hashable {
        /// How the fix was made (gpsd's TPV `status`, with its `mode`).
        public var fix: FixType?
        /// Vertical dilution of precision (gpsd's SKY).
        public var vdop: Double?
        /// Position (3D) dilution of precision.
        public var pdop: Double?
        /// Time dilution of precision.
        public var tdop: Double?
        /// Geometric dilution of precision.
        public var gdop: Double?
        /// Estimated error in longitude (gpsd `epx`), metres.
        public var xAccuracy: Double?
        /// Estimated error in latitude (gpsd `epy`), metres.
        public var yAccuracy: Double?
        /// Estimated error of the fix's time (`ept`), seconds.
        public var timeAccuracy: Double?
        /// True heading, degrees from true north: where the vehicle points (gpsd's ATT, from a
        /// receiver's `$GPHDT`), which is not its course when it drifts or stands still.
        public var heading: Double?
        /// Magnetic variation, degrees, east positive (gpsd's `magvar`).
        public var magneticVariation: Double?
        /// Height of the geoid (mean sea level) above the WGS 84 ellipsoid, metres (`geoidSep`).
        public var geoidSeparation: Double?

        /// Details of which nothing is known.
        public init(
            fix: FixType? = nil, vdop: Double? = nil, pdop: Double? = nil, tdop: Double? = nil, gdop: Double? = nil,
            xAccuracy: Double? = nil, yAccuracy: Double? = nil, timeAccuracy: Double? = nil, heading: Double? = nil,
            magneticVariation: Double? = nil, geoidSeparation: Double? = nil
        ) {
            (self.fix, self.vdop, self.pdop, self.tdop, self.gdop) = (fix, vdop, pdop, tdop, gdop)
            (self.xAccuracy, self.yAccuracy, self.timeAccuracy) = (xAccuracy, yAccuracy, timeAccuracy)
            (self.heading, self.magneticVariation, self.geoidSeparation) = (heading, magneticVariation, geoidSeparation)
        }

        /// Whether nothing is known.
        public var isEmpty: Bool { self == Details() }
    }

    /// How a fix was made, as gpsd's TPV `status` says (the GGA quality of an NMEA receiver).
    public enum FixType: String, Sendable, Hashable, CaseIterable, Codable {
        /// No fix (a TPV of mode 2 or 3 says so only when gpsd had no status to give).
        case none
        /// An autonomous GNSS fix (SPS), metres.
        case gps
        /// Corrected by a differential station or SBAS: a metre or so.
        case dgps
        /// RTK with the carrier's ambiguities not yet fixed: decimetres.
        case rtkFloat = "rtk_float"
        /// RTK fixed: centimetres.
        case rtkFixed = "rtk_fixed"
        /// Dead reckoning alone.
        case deadReckoning = "dr"
        /// GNSS combined with dead reckoning.
        case gnssDeadReckoning = "gnss_dr"
        /// A surveyed-in or manual position (a timing receiver's).
        case surveyed
        /// A simulator's.
        case simulated
        /// The Precise Positioning Service (military P(Y) code), not a pulse per second.
        case pps

        /// How good the fix is for `--min-fix`: `gps` < `dgps` (and `pps`) < `rtk_float` <
        /// `rtk_fixed`; what is no measured GNSS position (none, dead reckoning, surveyed,
        /// simulated) is below `gps`.
        public var rank: Int {
            switch self {
            case .none, .deadReckoning, .simulated, .surveyed: 0
            case .gps, .gnssDeadReckoning: 1
            case .dgps, .pps: 2
            case .rtkFloat: 3
            case .rtkFixed: 4
            }
        }
    }

    /// Whether a fix is believable beside the fixes before it from the same receiver.
    public enum Integrity: Sendable, Hashable {
        /// Nothing contradicts it.
        case ok
        /// It contradicts the fix before it, for `reason`.
        case suspect(SuspectReason)

        /// `ok` or `suspect`, as records write it.
        public var name: String {
            if case .suspect = self { return "suspect" }
            return "ok"
        }

        /// Why the fix is suspect, `nil` when it is not.
        public var reason: SuspectReason? {
            if case .suspect(let reason) = self { return reason }
            return nil
        }
    }

    /// Why a fix is suspect.
    public enum SuspectReason: String, Sendable, Hashable {
        /// A move from the fix before that no vehicle makes in the time between them.
        case jump
        /// A reported speed far from the one the two positions imply.
        case speed
        /// A time more than a few seconds before the fix before it (receivers step back fractions
        /// of a second while standing still; a log of two sessions joined steps back at the join).
        case timeBackwards = "time_backwards"
    }
}
