public import FoundationEssentials
public import GPSLocation
import LocateStore
import Synchronization

/// Where this machine was: the positions a recorder kept (`locate record`), in the user's store
/// (`$XDG_STATE_HOME/locate/store.sqlite`, beside the outbox of `locate publish`; the state
/// directory's trust rules). Each position is committed, with the disk's word, as it is kept;
/// read back in time order; forgotten before a time.
///
/// The history is the user's location: keep only positions the recording app was allowed, and
/// hand out what is read only through `GPSLocationManager.admitKept(_:)` of the reading app,
/// so a reader gets nothing when it is not allowed now, and cells when it is reduced.
public final class LocationHistory: Sendable {
    /// Why the history cannot be used.
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The store or its directory cannot be trusted, or is not locate's store: nothing was touched.
        case refused(String)
        /// The disk is full or failing.
        case failed(String)

        /// The words for a message.
        public var description: String {
            switch self {
            case .refused(let reason): "the history cannot be used: \(reason)"
            case .failed(let reason): "the history cannot be kept: \(reason)"
            }
        }
    }

    /// The store's connection, one thread at a time.
    private let history: Mutex<History>

    /// The history in the state directory of `paths`, created when `create` (a reader does not
    /// create one: ``exists(paths:)``).
    /// - Throws: ``Failure``.
    public init(paths: SettingsPaths, create: Bool = true) throws(Failure) {
        guard let directory = paths.stateDirectory else { throw .refused("no state directory is known (HOME is not set)") }
        do throws(StoreError) {
            history = Mutex(try History(directory: directory, create: create))
        } catch {
            throw Self.failure(error)
        }
    }

    /// Whether a store exists in the state directory of `paths`.
    public static func exists(paths: SettingsPaths) -> Bool {
        paths.stateDirectory.map(History.exists(directory:)) ?? false
    }

    /// Keeps `locations` (each at its time, or `now` when it has none), in one commit made before
    /// it returns.
    /// - Throws: ``Failure``.
    public func keep(_ locations: [Location], now: Date = Date()) throws(Failure) {
        let points = locations.map { location in
            History.Point(
                time: (location.time ?? now).timeIntervalSince1970, latitude: location.latitude, longitude: location.longitude,
                altitude: location.altitudeMSL, horizontalAccuracy: location.horizontalAccuracy, speed: location.speed,
                course: location.course, isReduced: location.accuracy == .reducedAccuracy)
        }
        do throws(StoreError) { try history.withLock { history throws(StoreError) in try history.append(points) } } catch {
            throw Self.failure(error)
        }
    }

    /// The positions kept from `start` up to (not including) `end`, in time order, marked
    /// `LocationSource.history`; `nil` bounds are open.
    /// - Throws: ``Failure``.
    public func locations(from start: Date? = nil, to end: Date? = nil) throws(Failure) -> [Location] {
        let points: [History.Point]
        do throws(StoreError) {
            points = try history.withLock { history throws(StoreError) in
                try history.points(from: start?.timeIntervalSince1970, to: end?.timeIntervalSince1970)
            }
        } catch {
            throw Self.failure(error)
        }
        return points.compactMap { point in
            try? Location(
                latitude: point.latitude, longitude: point.longitude, time: Date(timeIntervalSince1970: point.time),
                altitudeMSL: point.altitude, horizontalAccuracy: point.horizontalAccuracy, speed: point.speed, course: point.course,
                mode: point.altitude == nil ? .twoDimensional : .threeDimensional, source: .history,
                accuracy: point.isReduced ? .reducedAccuracy : .fullAccuracy)
        }
    }

    /// Deletes the positions before `date` (all when `nil`), leaving none of their bytes on disk.
    /// - Returns: how many were deleted.
    /// - Throws: ``Failure``.
    @discardableResult
    public func forget(before date: Date? = nil) throws(Failure) -> Int {
        do throws(StoreError) {
            return try history.withLock { history throws(StoreError) in try history.forget(before: date?.timeIntervalSince1970) }
        } catch {
            throw Self.failure(error)
        }
    }

    private static func failure(_ error: StoreError) -> Failure {
        switch error.kind {
        case .io, .busy, .inUse: .failed(error.description)
        case .unusable, .refused, .damaged: .refused(error.description)
        }
    }
}
