import LocateFormats

/// An NMEA 0183 log as a track: LocateFormats' reader of its fixes (RMC, GGA and GSA, one fix
/// per epoch), each played as a ``Location``.
typealias NMEATrackReader = NMEA.Reader

extension Location {
    /// An NMEA fix as a replayed fix: its position and time, RMC's speed (from knots) and
    /// course, GGA's altitude (with the geoid's separation, its height above the ellipsoid too),
    /// satellites, HDOP (its accuracy in metres too, as a log carries no better estimate) and
    /// quality as the fix's type, GSA's mode (without a GSA, a fix with an altitude is 3D,
    /// otherwise 2D), PDOP and VDOP.
    init(replaying fix: NMEA.Fix) {
        let mode: FixMode =
            switch fix.mode {
            case .twoDimensional?: .twoDimensional
            case .threeDimensional?: .threeDimensional
            case nil: fix.altitude == nil ? .twoDimensional : .threeDimensional
            }
        self.init(
            unchecked: fix.latitude, longitude: fix.longitude, time: fix.time, altitudeMSL: fix.altitude,
            altitudeHAE: fix.altitude.flatMap { altitude in fix.geoidSeparation.map { altitude + $0 } },
            horizontalAccuracy: fix.hdop, speed: fix.knots.map { $0 * 1852 / 3600 }, course: fix.course,
            hdop: fix.hdop, mode: mode, satellitesUsed: fix.satellites, source: .replay,
            details: Location.Details(
                fix: fix.quality.map(Location.FixType.init), vdop: fix.vdop, pdop: fix.pdop, geoidSeparation: fix.geoidSeparation))
    }
}

extension Location.FixType {
    /// GGA's quality as a fix type.
    init(_ quality: NMEA.Quality) {
        switch quality {
        case .gps: self = .gps
        case .dgps: self = .dgps
        case .pps: self = .pps
        case .rtkFixed: self = .rtkFixed
        case .rtkFloat: self = .rtkFloat
        case .deadReckoning: self = .deadReckoning
        case .manual: self = .surveyed
        case .simulator: self = .simulated
        }
    }
}
