import LocateFormats

/// A GPX document as a track: LocateFormats' reader of its points (the tracks' points, or else
/// the routes', or else the waypoints'), each played as a ``Location``.
typealias GPXTrackReader = GPX.Reader

extension Location {
    /// A GPX point as a replayed fix: its position, `time`, `ele` as its altitude above mean sea
    /// level (a point with one is 3D, otherwise 2D), `hdop` as its accuracy in metres too (GPX
    /// has no accuracy field), and GPX 1.0's `speed` and `course`.
    init(replaying point: GPX.Point) {
        self.init(
            unchecked: point.latitude, longitude: point.longitude, time: point.time, altitudeMSL: point.elevation,
            horizontalAccuracy: point.hdop, speed: point.speed, course: point.course, hdop: point.hdop,
            mode: point.elevation == nil ? .twoDimensional : .threeDimensional, source: .replay)
    }
}
