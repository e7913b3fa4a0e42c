import Glibc

// The C library's elementary functions for the libraries' geometry (geodesics, grid cells,
// distances), so that no other module imports Glibc for them.

/// The sine of `x` radians.
package func sin(_ x: Double) -> Double { Glibc.sin(x) }
/// The cosine of `x` radians.
package func cos(_ x: Double) -> Double { Glibc.cos(x) }
/// The tangent of `x` radians.
package func tan(_ x: Double) -> Double { Glibc.tan(x) }
/// The arc sine of `x`, in radians.
package func asin(_ x: Double) -> Double { Glibc.asin(x) }
/// The arc cosine of `x`, in radians.
package func acos(_ x: Double) -> Double { Glibc.acos(x) }
/// The arc tangent of `x`, in radians.
package func atan(_ x: Double) -> Double { Glibc.atan(x) }
/// The arc tangent of `y / x`, in radians, in the quadrant of the point (x, y).
package func atan2(_ y: Double, _ x: Double) -> Double { Glibc.atan2(y, x) }
/// `x` to the power `y`.
package func pow(_ x: Double, _ y: Double) -> Double { Glibc.pow(x, y) }
/// `x - n * y` for the integer `n` nearest to `x / y` (IEEE 754 remainder).
package func remainder(_ x: Double, _ y: Double) -> Double { Glibc.remainder(x, y) }
