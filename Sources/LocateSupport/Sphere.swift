import Glibc

/// A point of the earth as a unit vector from its centre: the angle between two is one `acos`
/// of a dot product, and straight-line (chord) distances between vectors order points as
/// distances along the surface do, with no special case at the poles or the antimeridian (the
/// region monitor's cheap checks, the place index's k-d tree).
package struct UnitVector: Sendable, Equatable {
    package let x: Double
    package let y: Double
    package let z: Double

    /// The mean earth radius, metres (IUGG).
    package static let meanRadius = 6_371_008.8

    /// The point at `latitude` and `longitude`, in degrees.
    package init(latitude: Double, longitude: Double) {
        let radians = Double.pi / 180
        let cosLatitude = Glibc.cos(latitude * radians)
        x = cosLatitude * Glibc.cos(longitude * radians)
        y = cosLatitude * Glibc.sin(longitude * radians)
        z = Glibc.sin(latitude * radians)
    }

    /// The cosine of the angle between the two points, as seen from the centre.
    package func dot(_ other: UnitVector) -> Double {
        x * other.x + y * other.y + z * other.z
    }
}

/// The distance in metres between two coordinates in degrees along the mean sphere (haversine,
/// radius 6,371,008.8 m): the cheap distance of filters; regions and visits take the ellipsoid's.
package func greatCircleDistance(_ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double) -> Double {
    let radians = Double.pi / 180
    let dLat = (latitude2 - latitude1) * radians
    let dLon = (longitude2 - longitude1) * radians
    let h =
        Glibc.pow(Glibc.sin(dLat / 2), 2) + Glibc.cos(latitude1 * radians) * Glibc.cos(latitude2 * radians)
        * Glibc.pow(Glibc.sin(dLon / 2), 2)
    return 2 * UnitVector.meanRadius * Glibc.asin(min(1, h.squareRoot()))
}
