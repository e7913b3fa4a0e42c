import Foundation
import PlaceIndexCache

@testable import GPSLocationPlaces

/// Copies of the shared place index (TestPlaceIndex) for the tests that damage or replace it.
/// (A cache missing or refused is built by eightThreadsOpeningADamagedIndexAtOnceShareOneRebuild.)
enum PlaceIndexCopies {
    /// A new private directory (for the caller to remove) holding a copy of the shared index.
    static func copy() throws -> String {
        _ = try TestPlaceIndex.english.get()
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("locate-places-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try FileManager.default.copyItem(
            atPath: TestPlaceIndex.directory + "/" + PlaceIndex.fileName, toPath: copy + "/" + PlaceIndex.fileName)
        return copy
    }
}
