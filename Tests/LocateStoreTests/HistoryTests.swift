import Foundation
import LocateSupport
import Testing

@testable import LocateStore

/// The history in the store: points read back in time order within their bounds, forgotten
/// before a time; and a store of the outbox's first version gains the history, keeping its rows.
final class HistoryTests {
    private let directory = FileManager.default.temporaryDirectory.appendingPathComponent("locate-history-\(UUID().uuidString)").path

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    @Test func pointsComeBackInTimeOrderWithinTheirBoundsAndAreForgotten() throws {
        let history = try History(directory: directory)
        let points = [30.0, 10, 20, 40].map { History.Point(time: $0, latitude: $0 / 100, longitude: -$0 / 100, speed: $0 == 20 ? nil : 1) }
        try history.append(points)
        #expect(try history.points().map(\.time) == [10, 20, 30, 40])
        #expect(try history.points(from: 20, to: 40).map(\.time) == [20, 30], "from is in, to is out")
        let twenty = try history.points(from: 20, to: 40).first
        #expect(twenty == points[2], "every value back, an unknown one unknown: \(String(describing: twenty))")
        #expect(try History(directory: directory).forget(before: 25) == 2)
        #expect(try history.points().map(\.time) == [30, 40])
        #expect(try history.forget(before: nil) == 2 && history.points().isEmpty)
    }

    @Test func aStoreOfTheFirstVersionGainsTheHistoryAndKeepsItsOutbox() throws {
        try FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let path = directory + "/store.sqlite"
        // Closed at the end of the scope.
        try Database(path: path).execute(
            """
            CREATE TABLE outbox (
                id INTEGER PRIMARY KEY AUTOINCREMENT, destination TEXT NOT NULL, app TEXT NOT NULL, topic TEXT NOT NULL,
                payload BLOB NOT NULL, qos INTEGER NOT NULL, retain INTEGER NOT NULL, position INTEGER NOT NULL);
            CREATE INDEX outbox_by_destination ON outbox (destination, app, id);
            INSERT INTO outbox (destination, app, topic, payload, qos, retain, position) VALUES ('d', 'a', 't', x'7b7d', 1, 0, 1);
            PRAGMA application_id = \(UserStore.applicationID); PRAGMA user_version = 1;
            """)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
        let history = try History(directory: directory)
        try history.append([History.Point(time: 1, latitude: 1, longitude: 2)])
        #expect(try Outbox(directory: directory, destination: "d", app: "a").kept().map(\.entry.payload) == [Array("{}".utf8)])
        #expect(try history.points().count == 1)
        // A later version than this one knows is refused, not changed.
        try Database(path: path).execute("PRAGMA user_version = \(UserStore.version + 1)")
        #expect(throws: StoreError.self) { try History(directory: directory) }
    }
}
