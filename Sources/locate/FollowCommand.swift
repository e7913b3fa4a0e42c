import GPSLocation

/// `locate --follow`: records as fixes arrive, status events on stderr (or, with `--json
/// --events`, on stdout), until `--count`, `--duration`, SIGINT, SIGTERM or a closed pipe ends
/// it. Every end but a closed pipe closes the output properly (GPX's closing tags).
///
/// When location stops being authorized, the fallback record (unless disabled) takes the place
/// of live fixes until it is authorized again. The exit status says what the last record was:
/// 0 for a live fix (or no record at all), otherwise the status of the fallback's reason.
struct FollowCommand {
    let options: CommandLineOptions
    let manager: GPSLocationManager
    let writer: RecordWriter
    let explainer: AuthorizationMessages

    /// - Throws: `OutputError.failed` when stdout cannot be written (a closed pipe is a normal end).
    func run() async throws(StandardStreams.OutputError) -> ExitStatus {
        let stream = Task { await follow() }
        SignalTrap.trap { _ in stream.cancel() }
        let timer = options.duration.map { duration in
            Task {
                try await Task.sleep(for: duration)
                stream.cancel()
            }
        }
        let outcome = await stream.value
        timer?.cancel()
        return try outcome.get()
    }

    /// What the stream printed last, for the exit status.
    private struct Progress {
        var printed = 0
        var lastFallback: FallbackReason?
    }

    private func follow() async -> Result<ExitStatus, StandardStreams.OutputError> {
        var writer = self.writer
        var progress = Progress()
        let status: ExitStatus
        do throws(StandardStreams.OutputError) {
            writer.start()
            try writer.flush()
            status = try await stream(into: &writer, progress: &progress)
            try writer.finish()
        } catch .closed {
            // The reader went away (`locate --follow | head`): a normal end.
            return .success(progress.lastFallback.map(ExitStatus.init) ?? .success)
        } catch {
            return .failure(error)
        }
        return .success(status)
    }

    /// Writes updates until the stream ends; the exit status for how it ended. The updates
    /// ready at one moment go out in one write (up to a batch), flushed as soon as no more are waiting.
    private func stream(into writer: inout RecordWriter, progress: inout Progress) async throws(StandardStreams.OutputError) -> ExitStatus {
        let liveOptions = LiveUpdateOptions(
            distanceFilter: options.distance, minimumInterval: options.interval, heartbeat: options.heartbeat)
        var updates = await manager.liveUpdates(liveOptions).makeAsyncIterator()
        var outputFailure: StandardStreams.OutputError?
        do throws(GPSLocationError) {
            stream: while let first = try await updates.next() {
                var update: LocationUpdate? = first
                while let current = update {
                    add(current, to: &writer, progress: &progress)
                    if isDone(progress) || writer.isBatchFull { break }
                    update = updates.nextIfAvailable()
                }
                do throws(StandardStreams.OutputError) {
                    try writer.flush()
                } catch {
                    outputFailure = error
                    break stream
                }
                if isDone(progress) { break }
            }
        } catch .invalidSettings(let problem) {
            StandardStreams.diagnose(problem.description)
            return .configuration
        } catch .cancelled {
            return progress.lastFallback.map(ExitStatus.init) ?? .success
        } catch {
            writer.report(StatusEvent(name: "gpsd_unavailable", message: error.description))
            writer.writeFallback(.gpsdUnavailable)
            return ExitStatus(error)
        }
        if let outputFailure { throw outputFailure }
        return progress.lastFallback.map(ExitStatus.init) ?? .success
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
            progress.lastFallback = nil
        case .status(let event):
            writer.report(StatusEvent(event, endpoint: manager.configuration.endpoint, explanation: explainer.explain))
            if case .authorizationChanged(_, let denial?) = event {
                let reason = FallbackReason.notAuthorized(denial)
                progress.lastFallback = reason
                if writer.writeFallback(reason) { progress.printed += 1 }
            }
        }
    }
}
