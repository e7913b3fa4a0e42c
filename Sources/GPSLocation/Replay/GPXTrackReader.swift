import LocateFormats

/// A GPX document as a track: LocateFormats' reader of its points (the tracks' points, or else
/// the routes', or else the waypoints'), each played as a ``Location``.
typealias GPXTrackReader = GPX.Reader

extension Location {
    /// A GPX point as a replayed fix: its position, `time`, `ele` as its altitude above mean
    /// sea level (with `geoidheight`, its height above the ellipsoid too), `hdop` as its
    /// accuracy in metres too (GPX has no accuracy field), `vdop`, `pdop`, `sat` as the
    /// satellites used, `magvar`, `geoidheight` as the geoid's separation, GPX 1.0's `speed`
    /// and `course`, and `fix`: `2d` or `3d` is the mode, `dgps` and `pps` the fix's type (a
    /// point without a mode is 3D when it has an `ele`, otherwise 2D).
    init(replaying point: GPX.Point) {
        let mode: FixMode =
            switch point.fix {
            case .twoDimensional?: .twoDimensional
            case .threeDimensional?: .threeDimensional
            case .dgps?, .pps?, nil: point.elevation == nil ? .twoDimensional : .threeDimensional
            }
        let fix: FixType? =
            switch point.fix {
            case .dgps?: .dgps
            case .pps?: .pps
            case .twoDimensional?, .threeDimensional?, nil: nil
            }
        self.init(
            unchecked: point.latitude, longitude: point.longitude, time: point.time, altitudeMSL: point.elevation,
            altitudeHAE: point.elevation.flatMap { elevation in point.geoidHeight.map { elevation + $0 } }, horizontalAccuracy: point.hdop,
            speed: point.speed, course: point.course, hdop: point.hdop, mode: mode,
            satellitesUsed: point.satellites, source: .replay,
            details: Details(
                fix: fix, vdop: point.vdop, pdop: point.pdop, magneticVariation: point.magneticVariation,
                geoidSeparation: point.geoidHeight))
    }
}
