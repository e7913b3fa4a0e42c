import Foundation

@testable import GPSLocationPlaces

/// The place index the tests of this target share: built once from the system's data (a few
/// seconds) into a private cache, and copied for the tests that damage or replace it.
enum SharedPlaceIndex {
    static let directory = FileManager.default.temporaryDirectory.appendingPathComponent("locate-places-\(UUID().uuidString)").path
    static let english = Result { try PlaceFinder(language: .english, cacheDirectory: directory) }

    /// A new private directory (for the caller to remove) holding a copy of the shared index.
    static func copy() throws -> String {
        _ = try english.get()
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("locate-places-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try FileManager.default.copyItem(atPath: directory + "/" + PlaceIndex.fileName, toPath: copy + "/" + PlaceIndex.fileName)
        return copy
    }
}
