import GPSLocation
import LocateSupport

/// `locate monitor` and `locate visits`: the events a detector finds in the stream of fixes
/// (region events, or arrivals and departures), one record each, until `--until` is met,
/// `--count` records are out, `--duration` passes, a replay ends, a signal comes or the pipe
/// closes. Status events go to stderr (or, with `--json --events`, to stdout), as for `--follow`.
///
/// An event is location, so nothing stands in for it: there is no fallback record. Location not
/// authorized (at the start, or revoked on the way) ends the command with 77 and a message, as
/// does reduced accuracy (monitoring and visits need precise positions); a when-in-use process
/// sent to the background pauses until it is back. gpsd that cannot be reached at the start is
/// 69; gpsd lost later is waited for, as `--follow` waits.
struct EventCommand<Detector: LocationEventDetector> {
    let options: StreamOptions
    /// What the command does, as its end by a revoke says it ("region monitoring").
    let activity: String
    let manager: GPSLocationManager
    let writer: RecordWriter
    let explainer: AuthorizationMessages
    let detector: Detector
    /// The record of an event.
    let record: @Sendable (Detector.Event) -> EventRecord
    /// `--until`, `monitor`'s goal: a stream that ends without meeting it is no success.
    var until: MonitorOptions.RegionCondition? = nil
    /// Whether an event meets `--until` (never, without it).
    let isGoal: @Sendable (Detector.Event) -> Bool
    /// Told each event once it is handed out, with the authorization it was released under
    /// (`nil` for a replay): a named monitor keeps its state (`NamedMonitorKeeper`).
    var handedOut: (@Sendable (Detector.Event, Authorization?) -> Result<Void, GPSLocationError>)? = nil

    /// - Throws: `OutputError.failed` when stdout cannot be written (a closed pipe is a normal end).
    func run() async throws(StandardStreams.OutputError) -> ExitStatus {
        try await StreamLifetime.run(for: options.duration) { await watch() }
    }

    private func watch() async -> Result<ExitStatus, StandardStreams.OutputError> {
        var writer = self.writer
        var progress = StreamProgress(replay: options.replayName)
        var status: ExitStatus?
        let started = ContinuousClock.now
        do throws(StandardStreams.OutputError) {
            status = try await stream(into: &writer, progress: &progress, started: started)
            try await writer.finish()
        } catch .closed {
            // The reader went away: the stream ends as it would now (never 0 after nothing).
            return .success(status ?? statusIfEndedNow(progress, started: started))
        } catch {
            return .failure(error)
        }
        return .success(status ?? .success)
    }

    /// The status of a stream that ends now: `StreamProgress`'s rule for no position, or 75
    /// when positions came but `--until` was not met.
    private func statusIfEndedNow(_ progress: StreamProgress, started: ContinuousClock.Instant) -> ExitStatus {
        let status = progress.statusIfEndedNow(endpoint: manager.configuration.endpoint, started: started)
        return status == .success && until != nil ? .timedOut : status
    }

    /// Writes events until the stream ends; the exit status for how it ended: 0 when `--until`
    /// was met, or (without it) when a position passed the gate; otherwise `StreamProgress`'s
    /// rule for a stream without a position (77, 75, 69), or 75 when positions came but
    /// `--until` was not met.
    private func stream(
        into writer: inout RecordWriter, progress: inout StreamProgress, started: ContinuousClock.Instant
    ) async throws(StandardStreams.OutputError) -> ExitStatus {
        var events = await manager.events(from: detector, options: options.liveUpdateOptions).makeAsyncIterator()
        // Known before the first write, so that a reader gone at once still gets the right status.
        progress.note(events.authorization)
        writer.start()
        try await writer.flush()
        var printed = 0
        let endpoint = manager.configuration.endpoint
        while true {
            let next: LocationEventUpdate<Detector.Event>?
            do throws(GPSLocationError) {
                next = try await events.next()
            } catch .cancelled {
                break
            } catch {
                StandardStreams.diagnose(error.description)
                return ExitStatus(error)
            }
            progress.note(events.authorization)
            progress.noteHeldBack(events.locationsHeldBack)
            // A fix the detector was given is a position, whether or not it made an event.
            if events.locationsProcessed > 0, progress.positions == 0 { progress.notePosition() }
            guard let update = next else { break }
            switch update {
            case .event(let event):
                let changes = events.authorizationChanges
                let admission = events.lastEventAdmission
                writer.write(record(event))
                printed += 1
                // Written only while the authorization the fix it was made of was released under holds.
                try await writer.flush { admission?.isAdmittedPrecise ?? false }
                if let handedOut, events.authorizationChanges == changes,
                    case .failure(let error) = handedOut(event, options.replay == nil ? events.authorization : nil)
                {
                    StandardStreams.diagnose(error.description)
                    return ExitStatus(error)
                }
                if isGoal(event) { return .success }
                if let count = options.count, printed >= count { return until == nil ? .success : .timedOut }
            case .status(let event):
                progress.note(event)
                writer.report(StatusEvent(event, endpoint: endpoint, explanation: explainer.explain))
                try await writer.flush()
                if case .authorizationChanged(_, let denial?) = event {
                    StandardStreams.diagnose("\(activity) ends: \(explainer.explain(denial))")
                    return .notAuthorized
                }
            }
        }
        if progress.endsWithInvalidSettings { return .configuration }
        guard progress.positions > 0 else {
            // No position at all (--duration, a signal): why not, as --follow says it.
            let (reason, message) = progress.reasonForNoPosition(endpoint: endpoint, started: started, explain: explainer.explain)
            writer.report(StatusEvent(name: reason.eventName, message: message))
            return ExitStatus(reason)
        }
        // The stream ended (a replay's last fix, --duration, a signal) before any --until was met.
        guard let until else { return .success }
        StandardStreams.diagnose("region '\(UntrustedText.visible(until.region, limit: 80))' was not \(until.state.rawValue) by the end")
        return .timedOut
    }
}
