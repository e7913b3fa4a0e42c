import LocateSupport

extension Location {
    /// The distance in metres to `other` along the mean sphere (haversine): the cheap distance
    /// of the distance filter and the motion detector; regions and visits take the ellipsoid's
    /// (``distance(from:)``).
    func greatCircleDistance(to other: Location) -> Double {
        LocateSupport.greatCircleDistance(latitude, longitude, other.latitude, other.longitude)
    }
}
