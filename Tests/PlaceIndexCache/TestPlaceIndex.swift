import Foundation
public import GPSLocationPlaces

/// The place index every test shares, the places tests' and the end-to-end tests' (not a
/// product): one cache in the build directory, kept between runs, so that a run builds it at
/// most once, from the system's data, and not at all while it is current.
public enum TestPlaceIndex {
    /// The cache directory (a library's `cacheDirectory`), private as a cache must be.
    public static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/locate-test-cache/locate").path

    /// An English finder of the cache: the first use builds the index when it is missing or
    /// not current (seconds of work, on the caller's thread), the rest read it.
    public static let english = Result { () throws -> PlaceFinder in
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return try PlaceFinder(language: .english, cacheDirectory: directory)
    }
}
