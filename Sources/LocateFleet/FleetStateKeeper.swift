import LocateStore

/// A named fleet monitor's device states on disk (`monitor --subscribe --name NAME --by KEY`):
/// taken up into the detector at the start, and each device's state committed with the
/// acknowledgement of the messages that changed it, a commit per batch (``commit(_:)`` at a
/// source's checkpoint, before its messages are acknowledged). So a restart, SIGKILL included,
/// reports `enter` and `exit` against the states before it, not `initial` again; the messages a
/// broker sends again after a kill (taken, committed, not yet acknowledged) are known by their
/// times and skipped (``isTaken(device:time:)``), so none counts twice.
package struct FleetStateKeeper {
    /// Why the states cannot be kept: what to say, and whether the store is refused (untrusted,
    /// not the store), in use by another run of the monitor, or failing (a full disk).
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package enum Kind: Sendable { case refused, inUse, failed }
        package let kind: Kind
        package let description: String
    }

    private let states: FleetStates
    /// The devices whose states changed since the last commit, and the time of their last message.
    private var changed: [String: Double?] = [:]
    /// The last message's time of each device as kept at the start: a message at or before it
    /// was taken by an earlier run.
    private var taken: [String: Double] = [:]

    /// How many devices' states were taken up at the start, and how many of another definition
    /// were dropped (those devices start afresh).
    package private(set) var restored = 0
    package private(set) var dropped = 0

    /// The states of `monitor` in the store under `directory`, taken up into `detector`.
    /// - Throws: ``Failure``.
    package init(directory: String, monitor: String, detector: inout some FleetDetector) throws(Failure) {
        do throws(StoreError) {
            states = try FleetStates(directory: directory, monitor: monitor, definition: detector.definition)
            dropped = states.droppedForAnotherDefinition
            for row in try states.load() where detector.restore(row.device, encodedState: row.state) {
                restored += 1
                if let time = row.lastTime { taken[row.device] = time }
            }
        } catch {
            throw Self.failure(error)
        }
    }

    /// Whether `device`'s message of `time` (Unix seconds) was taken by an earlier run (a broker
    /// sends the messages of a batch again when the run ended before acknowledging them).
    package func isTaken(device: String, time: Double?) -> Bool {
        guard let time, let last = taken[device] else { return false }
        return time <= last
    }

    /// Notes that `device`'s message of `time` went through the detector.
    package mutating func noteTaken(device: String, time: Double?) {
        if let time {
            changed[device] = .some(time)
        } else if changed[device] == nil {
            changed[device] = .some(nil)
        }
        // Once past what an earlier run took, its later messages are new whatever their times.
        taken[device] = nil
    }

    /// Commits the states of the devices changed since the last commit, in one transaction.
    /// - Throws: ``Failure``: nothing may be acknowledged then.
    package mutating func commit(_ detector: some FleetDetector) throws(Failure) {
        guard !changed.isEmpty else { return }
        let rows = changed.compactMap { device, time in
            detector.encodedState(of: device).map { FleetStates.Row(device: device, lastTime: time, state: $0) }
        }
        do throws(StoreError) { try states.save(rows) } catch { throw Self.failure(error) }
        changed.removeAll(keepingCapacity: true)
    }

    private static func failure(_ error: StoreError) -> Failure {
        switch error.kind {
        case .inUse: Failure(kind: .inUse, description: error.description)
        case .io, .busy: Failure(kind: .failed, description: error.description)
        case .unusable, .refused, .damaged: Failure(kind: .refused, description: error.description)
        }
    }
}
