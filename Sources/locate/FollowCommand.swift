import GPSLocation
import LocateSupport

/// `locate --follow`: records as fixes arrive, status events on stderr (or, with `--json
/// --events`, on stdout), until `--count`, `--duration`, SIGINT, SIGTERM or a closed pipe ends
/// it. Every end but a closed pipe closes the output properly (GPX's closing tags).
///
/// When location stops being authorized, the fallback record (unless disabled) takes the place
/// of live fixes until it is authorized again. The exit status says what the last record was:
/// 0 for a live fix, otherwise the status of the fallback's reason. A stream that ends (by
/// `--count`, `--duration` or a signal) without a single live fix is no success either: the
/// fallback record follows, with 75 when gpsd answered without a fix and 69 when it never
/// answered (or closed every connection, as a gpsd serving as many clients as it takes does).
struct FollowCommand {
    let options: StreamOptions
    let manager: GPSLocationManager
    let writer: RecordWriter
    let explainer: AuthorizationMessages
    /// When the stream started, for how long it waited.
    let started = ContinuousClock.now

    /// - Throws: `OutputError.failed` when stdout cannot be written (a closed pipe is a normal end).
    func run() async throws(StandardStreams.OutputError) -> ExitStatus {
        try await StreamLifetime.run(for: options.duration) { await follow() }
    }

    /// What the stream printed, and what it saw, for the exit status.
    private struct Progress {
        /// Records written (fallbacks too), for `--count`.
        var printed = 0
        var lastFallback: FallbackReason?
        var stream: StreamProgress
    }

    private func follow() async -> Result<ExitStatus, StandardStreams.OutputError> {
        var writer = self.writer
        var progress = Progress(stream: StreamProgress(replay: options.replayName))
        var status: ExitStatus?
        do throws(StandardStreams.OutputError) {
            status = try await stream(into: &writer, progress: &progress)
            try await writer.finish()
        } catch .closed {
            // The reader went away (`locate --follow | head`): the stream ends as it would now,
            // with its last record's status, or the one for no position (never 0 after nothing).
            return .success(status ?? progress.lastFallback.map(ExitStatus.init) ?? statusIfEndedNow(progress))
        } catch {
            return .failure(error)
        }
        return .success(status ?? .success)
    }

    private func statusIfEndedNow(_ progress: Progress) -> ExitStatus {
        progress.stream.statusIfEndedNow(endpoint: manager.configuration.endpoint, started: started)
    }

    /// Writes updates until the stream ends; the exit status for how it ended. The updates
    /// ready at one moment go out in one write (up to a batch), flushed as soon as no more are waiting.
    private func stream(into writer: inout RecordWriter, progress: inout Progress) async throws(StandardStreams.OutputError) -> ExitStatus {
        var updates = await manager.liveUpdates(options.liveUpdateOptions).makeAsyncIterator()
        var outputFailure: StandardStreams.OutputError?
        // Known before the first write, so that a reader gone at once still gets the right status.
        progress.stream.note(updates.authorization)
        writer.start()
        try await writer.flush()
        do throws(GPSLocationError) {
            stream: while let first = try await updates.next() {
                // The batch's positions go out only while the authorization its first was
                // released under holds: a reader that is slow never gets them after a revoke.
                var admission: LocationAdmission?
                var update: LocationUpdate? = first
                while let current = update {
                    if admission == nil, case .location = current { admission = updates.lastLocationAdmission }
                    add(current, to: &writer, progress: &progress)
                    progress.stream.note(updates.authorization)
                    if isDone(progress) || writer.isBatchFull { break }
                    update = updates.nextIfAvailable()
                }
                progress.stream.noteHeldBack(updates.locationsHeldBack)
                do throws(StandardStreams.OutputError) {
                    try await writer.flush { [admission] in admission?.isAdmitted ?? true }
                } catch {
                    outputFailure = error
                    break stream
                }
                if isDone(progress) { break }
            }
        } catch .cancelled {
            progress.stream.noteHeldBack(updates.locationsHeldBack)
            return end(&writer, progress: &progress)
        } catch {
            switch error {
            case .invalidSettings, .invalidTrack:
                // Settings gone bad, or a replay's malformed point: input, and nothing stands in for it.
                StandardStreams.diagnose(error.description)
            default:
                writer.report(StatusEvent(name: "gpsd_unavailable", message: error.description))
                writer.writeFallback(.gpsdUnavailable)
            }
            return ExitStatus(error)
        }
        if let outputFailure { throw outputFailure }
        progress.stream.noteHeldBack(updates.locationsHeldBack)
        return end(&writer, progress: &progress)
    }

    /// The status of a stream that ended normally: its last record's, or, when it printed no live
    /// fix at all, the fallback's for why not.
    private func end(_ writer: inout RecordWriter, progress: inout Progress) -> ExitStatus {
        if progress.stream.endsWithInvalidSettings { return .configuration }
        if let lastFallback = progress.lastFallback { return ExitStatus(lastFallback) }
        guard progress.stream.positions == 0 else { return .success }
        let (reason, message) = progress.stream.reasonForNoPosition(
            endpoint: manager.configuration.endpoint, started: started, explain: explainer.explain)
        writer.report(StatusEvent(name: reason.eventName, message: message))
        // A replayed track is not this machine's position: nothing stands in for it.
        if options.replay == nil { writer.writeFallback(reason) }
        return ExitStatus(reason)
    }

    /// Whether `--count` records are out.
    private func isDone(_ progress: Progress) -> Bool {
        options.count.map { progress.printed >= $0 } ?? false
    }

    /// Adds one update to the output being gathered.
    private func add(_ update: LocationUpdate, to writer: inout RecordWriter, progress: inout Progress) {
        switch update {
        case .location(let location):
            if writer.write(location) { progress.printed += 1 }
            progress.stream.notePosition()
            progress.lastFallback = nil
        case .status(let event):
            progress.stream.note(event)
            writer.report(StatusEvent(event, endpoint: manager.configuration.endpoint, explanation: explainer.explain))
            if case .authorizationChanged(_, let denial?) = event {
                let reason = FallbackReason.notAuthorized(denial)
                progress.lastFallback = reason
                if writer.writeFallback(reason) { progress.printed += 1 }
            }
        }
    }
}

extension FollowCommand {
    /// Runs `locate --follow` with `options`.
    /// - Throws: `OutputError.failed` when stdout cannot be written (a closed pipe is a normal end).
    static func run(_ options: FollowOptions) throws(StandardStreams.OutputError) -> ExitStatus {
        try CommandContext.run(
            options.stream, output: options.output, records: options.output.recordFormat(gpx: .track), via: "locate --follow", asks: true,
            isStream: true
        ) { context throws(StandardStreams.OutputError) in
            let command = FollowCommand(
                options: options.stream, manager: context.manager, writer: context.writer, explainer: context.explainer)
            return try Locate.waitFor { () async throws(StandardStreams.OutputError) in try await command.run() }
        }
    }
}
