import Synchronization

/// The gate for a program that passes positions on to other programs, one gate per recipient:
/// a server handing gpsd's reports to its clients (`locate serve`), a publisher to a broker. It
/// applies the manager's rule to every record, under the recipient's authorization as the host
/// tells it (``update(_:)``), so that judging a record costs no file or process read:
///
/// 1. A record is judged when it is taken: ``admission()`` gives its admission, or `nil` when
///    the recipient may have nothing now. Under reduced accuracy only a position's grid cell is
///    released, at most one every five minutes (``release(_:takenUnder:at:)``).
/// 2. It is judged again when it is handed out: ``admits(_:)`` holds only while the
///    authorization is still the one it was taken under, of the same generation. Each change (a
///    revoke, a pause, a switch of accuracy, even one undone at once) starts a new generation,
///    so everything taken before it is dropped: a record reaches the recipient only if it was
///    allowed it both when the record was taken and when it is handed out.
///
/// The host updates the gate whenever what decides may have changed (its settings changed, the
/// recipient came to the foreground), before it takes or hands out anything more.
package final class DeliveryGate: Sendable {
    /// What a record was taken under: the recipient's authorization and its generation then.
    package struct Admission: Sendable, Hashable {
        let stamp: ReleaseStamp
        /// The authorization the record was taken under.
        package var authorization: Authorization { stamp.authorization }
    }

    /// A location the gate released, and what it was taken under.
    package struct Release: Sendable, Hashable {
        /// The location as the recipient may have it (its grid cell under reduced accuracy).
        package let location: Location
        /// What it was taken under.
        package let admission: Admission
        /// The authorization it was released under.
        package var authorization: Authorization { admission.authorization }
    }

    /// How often at most a recipient with reduced accuracy gets a record: once every five minutes.
    package static let reducedAccuracyInterval = AccuracyReducer.minimumInterval

    private let generation: AuthorizationGeneration
    private let gate: Mutex<PositionGate>

    /// A gate for one recipient, whose authorization is `authorization` now.
    package init(authorization: Authorization) {
        let generation = AuthorizationGeneration(authorization)
        self.generation = generation
        gate = Mutex(PositionGate(generation))
    }

    /// The recipient's authorization, as last told.
    package var authorization: Authorization { generation.current.authorization }

    /// Tells the gate the recipient's authorization now.
    /// - Returns: whether it changed (a new generation: what was taken before is dropped).
    @discardableResult
    package func update(_ authorization: Authorization) -> Bool {
        gate.withLock { _ in
            guard generation.current.authorization != authorization else { return false }
            generation.change(to: authorization)
            return true
        }
    }

    /// Tells the gate the recipient's authorization now, and starts a new generation whether
    /// it changed or not: the recipient is judged by other settings from now on (its program
    /// is another app's), so nothing taken before may reach it.
    package func renew(_ authorization: Authorization) {
        gate.withLock { _ in _ = generation.change(to: authorization) }
    }

    /// The admission of a record taken now, or `nil` when the recipient may have nothing.
    package func admission() -> Admission? {
        let current = generation.current
        guard current.authorization.isAuthorized else { return nil }
        return Admission(stamp: ReleaseStamp(generation: current.generation, authorization: current.authorization))
    }

    /// What the recipient may have of `location`, taken under `admission` and handed out at
    /// `now`: the fix, its grid cell, or `nil` (the authorization changed since, or reduced
    /// accuracy within five minutes of the last record).
    package func release(_ location: Location, takenUnder admission: Admission, at now: ContinuousClock.Instant = .now) -> Release? {
        gate.withLock { gate in
            gate.release(location, readUnder: admission.stamp.generation, at: now).map {
                Release(location: $0.location, admission: Admission(stamp: $0.stamp))
            }
        }
    }

    /// Whether a record taken under `admission` (or made of one) may still be handed out: its
    /// authorization is still the current one, of the same generation.
    package func admits(_ admission: Admission) -> Bool {
        gate.withLock { $0.admits(admission.stamp) }
    }
}
