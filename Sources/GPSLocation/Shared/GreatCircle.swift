import Glibc

/// The distance in metres between two locations along the earth's surface (haversine, mean radius).
package func greatCircleDistance(from a: Location, to b: Location) -> Double {
    greatCircleDistance(a.latitude, a.longitude, b.latitude, b.longitude)
}

/// The distance in metres between two coordinates in degrees (haversine, mean radius 6,371,008.8 m).
package func greatCircleDistance(_ latitude1: Double, _ longitude1: Double, _ latitude2: Double, _ longitude2: Double) -> Double {
    let earthRadius = 6_371_008.8
    let radians = Double.pi / 180
    let dLat = (latitude2 - latitude1) * radians
    let dLon = (longitude2 - longitude1) * radians
    let h = pow(sin(dLat / 2), 2) + cos(latitude1 * radians) * cos(latitude2 * radians) * pow(sin(dLon / 2), 2)
    return 2 * earthRadius * asin(min(1, h.squareRoot()))
}
