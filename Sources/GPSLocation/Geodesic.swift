import LocateSupport

extension Location {
    /// The distance in metres from `other` to this location along the WGS 84 ellipsoid (the
    /// shortest geodesic), as CoreLocation's `distance(from:)`: within a millimetre of Karney's
    /// geodesics, across the antimeridian, at the poles and between nearly antipodal points.
    /// Altitudes are ignored.
    public func distance(from other: Location) -> Double {
        Geodesic.inverse(
            latitude1: other.latitude, longitude1: other.longitude, latitude2: latitude, longitude2: longitude
        ).distance
    }

    /// The initial bearing in degrees from true north (0 up to 360) of the shortest geodesic from
    /// this location to `other`: the direction to set off in. `nil` when the two coincide, or
    /// when one is a pole and no direction is defined there.
    public func bearing(to other: Location) -> Double? {
        let solution = Geodesic.inverse(
            latitude1: latitude, longitude1: longitude, latitude2: other.latitude, longitude2: other.longitude)
        guard solution.distance > 0, abs(latitude) < 90 else { return nil }
        let degrees = solution.initialAzimuth * 180 / .pi
        return degrees < 0 ? degrees + 360 : (degrees >= 360 ? degrees - 360 : degrees)
    }
}

/// The inverse geodesic problem on WGS 84: Vincenty's iteration (1975), which converges for all
/// but nearly antipodal points; where it does not, the same equation for the longitude on the
/// auxiliary sphere is solved by bisection, which converges everywhere.
enum Geodesic {
    /// WGS 84's semi-major axis, metres.
    static let equatorialRadius = 6_378_137.0
    /// WGS 84's flattening.
    static let flattening = 1 / 298.257_223_563
    static let polarRadius = equatorialRadius * (1 - flattening)

    /// The length of the shortest geodesic and its azimuth (radians from north) at the start.
    struct Solution {
        var distance: Double
        var initialAzimuth: Double
    }

    /// What one value of λ (the longitude difference on the auxiliary sphere) gives.
    private struct Step {
        var nextLambda: Double
        var sinSigma: Double
        var cosSigma: Double
        var sigma: Double
        var cosSquaredAlpha: Double
        var cos2SigmaM: Double
        var sinLambda: Double
        var cosLambda: Double
    }

    static func inverse(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Solution {
        let radians = Double.pi / 180
        var longitudeDifference = remainder(longitude2 - longitude1, 360) * radians
        if longitudeDifference == -.pi { longitudeDifference = .pi }
        let u1 = atan((1 - flattening) * tan(clampedLatitude(latitude1) * radians))
        let u2 = atan((1 - flattening) * tan(clampedLatitude(latitude2) * radians))
        let (sinU1, cosU1, sinU2, cosU2) = (sin(u1), cos(u1), sin(u2), cos(u2))

        func step(_ lambda: Double) -> Step {
            let sinLambda = sin(lambda)
            let cosLambda = cos(lambda)
            let cross = cosU1 * sinU2 - sinU1 * cosU2 * cosLambda
            let sinSigma = ((cosU2 * sinLambda) * (cosU2 * sinLambda) + cross * cross).squareRoot()
            let cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosLambda
            let sigma = atan2(sinSigma, cosSigma)
            let sinAlpha = sinSigma == 0 ? 0 : cosU1 * cosU2 * sinLambda / sinSigma
            let cosSquaredAlpha = 1 - sinAlpha * sinAlpha
            let cos2SigmaM = cosSquaredAlpha == 0 ? 0 : cosSigma - 2 * sinU1 * sinU2 / cosSquaredAlpha
            let c = flattening / 16 * cosSquaredAlpha * (4 + flattening * (4 - 3 * cosSquaredAlpha))
            let nextLambda =
                longitudeDifference + (1 - c) * flattening * sinAlpha
                * (sigma + c * sinSigma * (cos2SigmaM + c * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
            return Step(
                nextLambda: nextLambda, sinSigma: sinSigma, cosSigma: cosSigma, sigma: sigma, cosSquaredAlpha: cosSquaredAlpha,
                cos2SigmaM: cos2SigmaM, sinLambda: sinLambda, cosLambda: cosLambda)
        }

        var lambda = longitudeDifference
        var current = step(lambda)
        var converged = false
        for _ in 0..<100 {
            // Coincident points; antipodal ones (cos σ = −1) are a meridian's half.
            if current.sinSigma == 0, current.cosSigma > 0 { return Solution(distance: 0, initialAzimuth: 0) }
            let difference = abs(current.nextLambda - lambda)
            lambda = current.nextLambda
            current = step(lambda)
            if difference < 1e-13 {
                converged = true
                break
            }
        }
        let vincenty = converged && abs(lambda) <= .pi ? solution(of: current, sinU1: sinU1, cosU1: cosU1, sinU2: sinU2, cosU2: cosU2) : nil
        // Near the antipode a converged λ may be a geodesic that is not the shortest (the equator,
        // or one meridian of many): the azimuth solve decides there.
        guard let vincenty, current.cosSigma > -0.99 else {
            let alternative = antipodal(u1: u1, u2: u2, longitudeDifference: longitudeDifference)
            return [vincenty, alternative].compactMap { $0 }.min { $0.distance < $1.distance }
                ?? solution(of: current, sinU1: sinU1, cosU1: cosU1, sinU2: sinU2, cosU2: cosU2)
        }
        return vincenty
    }

    /// The distance and azimuth Vincenty's converged step gives.
    private static func solution(of current: Step, sinU1: Double, cosU1: Double, sinU2: Double, cosU2: Double) -> Solution {
        let uSquared =
            current.cosSquaredAlpha * (equatorialRadius * equatorialRadius - polarRadius * polarRadius) / (polarRadius * polarRadius)
        let a = 1 + uSquared / 16384 * (4096 + uSquared * (-768 + uSquared * (320 - 175 * uSquared)))
        let b = uSquared / 1024 * (256 + uSquared * (-128 + uSquared * (74 - 47 * uSquared)))
        let cos2SigmaM = current.cos2SigmaM
        let deltaSigma =
            b * current.sinSigma
            * (cos2SigmaM + b / 4
                * (current.cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM) - b / 6 * cos2SigmaM
                    * (-3 + 4 * current.sinSigma * current.sinSigma) * (-3 + 4 * cos2SigmaM * cos2SigmaM)))
        let distance = polarRadius * a * (current.sigma - deltaSigma)
        let azimuth = atan2(cosU2 * current.sinLambda, cosU1 * sinU2 - sinU1 * cosU2 * current.cosLambda)
        return Solution(distance: distance, initialAzimuth: azimuth)
    }

    /// Nearly antipodal points, where λ on the auxiliary sphere is (near) π and no longer tells
    /// the azimuth: the azimuth at the start is solved for instead (by bisection, on the route
    /// over the north pole and on the one over the south), the longitude each azimuth reaches
    /// computed as in Vincenty's direct problem; the shorter route wins.
    private static func antipodal(u1: Double, u2: Double, longitudeDifference: Double) -> Solution? {
        // By symmetry, an eastward difference: a westward one mirrors the azimuth.
        let target = abs(longitudeDifference)
        var best: Solution?
        for (from, to) in [(0.0, Double.pi / 2), (Double.pi, Double.pi / 2)] {
            var low = from
            var high = to
            // At the pole-ward end the route is the meridian (reaching π); the sign changes on the way.
            guard let start = route(u1: u1, u2: u2, azimuth: low), start.longitude >= target else { continue }
            for _ in 0..<100 {
                let middle = (low + high) / 2
                if let middleRoute = route(u1: u1, u2: u2, azimuth: middle), middleRoute.longitude >= target {
                    low = middle
                } else {
                    high = middle
                }
            }
            if let found = route(u1: u1, u2: u2, azimuth: low), abs(found.longitude - target) < 1e-12,
                found.distance < best?.distance ?? .infinity
            {
                best = Solution(distance: found.distance, initialAzimuth: longitudeDifference < 0 ? -low : low)
            }
        }
        return best
    }

    /// Where the geodesic leaving latitude `u1` (reduced) at `azimuth` reaches latitude `u2`
    /// again near the far side: the ellipsoidal longitude difference and the distance; `nil`
    /// when it never reaches that latitude.
    private static func route(u1: Double, u2: Double, azimuth: Double) -> (longitude: Double, distance: Double)? {
        let (sinU1, cosU1) = (sin(u1), cos(u1))
        let (sinAzimuth, cosAzimuth) = (sin(azimuth), cos(azimuth))
        // sin u2 = sin u1 cos σ + cos u1 cos α1 sin σ = R cos(σ − δ)
        let amplitude = (sinU1 * sinU1 + cosU1 * cosU1 * cosAzimuth * cosAzimuth).squareRoot()
        guard amplitude > 0, abs(sin(u2)) <= amplitude else { return nil }
        let delta = atan2(cosU1 * cosAzimuth, sinU1)
        let spread = acos(sin(u2) / amplitude)
        func wrapped(_ angle: Double) -> Double {
            let turn = 2 * Double.pi
            return angle - turn * (angle / turn).rounded(.down)
        }
        let candidates = [wrapped(delta + spread), wrapped(delta - spread)]
        let sigma = candidates.min { abs($0 - .pi) < abs($1 - .pi) } ?? .pi
        let (sinSigma, cosSigma) = (sin(sigma), cos(sigma))
        let sinAlpha = cosU1 * sinAzimuth
        let cosSquaredAlpha = 1 - sinAlpha * sinAlpha
        let sigma1 = atan2(sinU1, cosU1 * cosAzimuth)
        let cos2SigmaM = cos(2 * sigma1 + sigma)
        let lambda = atan2(sinSigma * sinAzimuth, cosU1 * cosSigma - sinU1 * sinSigma * cosAzimuth)
        let c = flattening / 16 * cosSquaredAlpha * (4 + flattening * (4 - 3 * cosSquaredAlpha))
        let longitude =
            lambda - (1 - c) * flattening * sinAlpha
            * (sigma + c * sinSigma * (cos2SigmaM + c * cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM)))
        let uSquared = cosSquaredAlpha * (equatorialRadius * equatorialRadius - polarRadius * polarRadius) / (polarRadius * polarRadius)
        let a = 1 + uSquared / 16384 * (4096 + uSquared * (-768 + uSquared * (320 - 175 * uSquared)))
        let b = uSquared / 1024 * (256 + uSquared * (-128 + uSquared * (74 - 47 * uSquared)))
        let deltaSigma =
            b * sinSigma
            * (cos2SigmaM + b / 4
                * (cosSigma * (-1 + 2 * cos2SigmaM * cos2SigmaM) - b / 6 * cos2SigmaM * (-3 + 4 * sinSigma * sinSigma)
                    * (-3 + 4 * cos2SigmaM * cos2SigmaM)))
        return ((longitude < 0 ? longitude + 2 * .pi : longitude), polarRadius * a * (sigma - deltaSigma))
    }

    /// A latitude in [-90, 90], so that `tan` stays finite at the poles.
    private static func clampedLatitude(_ degrees: Double) -> Double {
        min(max(degrees, -90 + 1e-12), 90 - 1e-12)
    }
}
