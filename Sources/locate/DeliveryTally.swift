import FoundationEssentials
import GPSLocation
import GPSLocationConsent
import LocateSupport
import Synchronization

/// The positions a run of `locate` handed out of this machine's receiver, for its session in the
/// access log ("who had my location", `locate access`): the first and last hand-out, how many,
/// and the accuracy of the last. A replayed track is data, not this machine's position: it is
/// never counted.
final class DeliveryTally: Sendable {
    private let session: Mutex<AccessSession>

    /// A tally for a run through `via` (`locate --once`, `locate --follow`, `locate monitor`, ...)
    /// under the app `app` (`nil`: `[location]`).
    init(app: String?, via: String) {
        session = Mutex(
            AccessSession(app: app, program: "locate", user: PeerProcess.currentUser, processID: PeerProcess.currentProcess, via: via))
    }

    /// Counts `location`, handed out now (a live fix or a region or visit event made of one).
    func note(_ location: Location) {
        guard location.source != .replay, location.source != .fallback else { return }
        session.withLock { $0.noteDelivery(accuracy: location.accuracy) }
    }

    /// Adds the session to `log` when a position was handed out; a log that cannot be written
    /// is said on stderr (the run's own status stands: its positions were delivered).
    func record(in log: AccessLog) {
        let session = session.withLock { $0 }
        guard session.deliveries > 0 else { return }
        do throws(GPSLocationError) {
            try log.record(session)
        } catch {
            StandardStreams.diagnose("warning: the access log was not written: " + error.description)
        }
    }
}
