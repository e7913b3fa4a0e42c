import Foundation

@testable import GPSLocationPlaces

/// The place index the tests of this target share, and the end-to-end tests too (the same
/// cache in the build directory, kept between runs: a run builds it at most once, from the
/// system's data, and not at all while it is current), copied for the tests that damage or
/// replace it. (A cache missing or refused is built by eightThreadsOpeningADamagedIndexAtOnceShareOneRebuild.)
enum SharedPlaceIndex {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/locate-test-cache/locate").path
    static let english = Result { () throws -> PlaceFinder in
        // Private, as a cache must be (the end-to-end tests may be making it too).
        try? FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return try PlaceFinder(language: .english, cacheDirectory: directory)
    }

    /// A new private directory (for the caller to remove) holding a copy of the shared index.
    static func copy() throws -> String {
        _ = try english.get()
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("locate-places-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try FileManager.default.copyItem(atPath: directory + "/" + PlaceIndex.fileName, toPath: copy + "/" + PlaceIndex.fileName)
        return copy
    }
}
