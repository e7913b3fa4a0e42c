import GPSLocation
import Glibc

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
    let userFile: String

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
        do {
            writer.start()
            try writer.flush()
            status = try await stream(into: &writer, progress: &progress)
            try writer.finish()
        } catch StandardStreams.OutputError.closed {
            // The reader went away (`locate --follow | head`): a normal end.
            return .success(progress.lastFallback.map(ExitStatus.init) ?? .success)
        } catch let error as StandardStreams.OutputError {
            return .failure(error)
        } catch {
            return .success(.failure)
        }
        return .success(status)
    }

    /// Writes updates until the stream ends; the exit status for how it ended. The updates
    /// ready at one moment go out in one write (up to a batch), flushed as soon as no more are waiting.
    private func stream(into writer: inout RecordWriter, progress: inout Progress) async throws -> ExitStatus {
        let liveOptions = LiveUpdateOptions(
            distanceFilter: options.distance, minimumInterval: options.interval, heartbeat: options.heartbeat)
        var updates = manager.liveUpdates(liveOptions).makeAsyncIterator()
        do {
            while let first = try await updates.next() {
                var update: LocationUpdate? = first
                while let current = update {
                    add(current, to: &writer, progress: &progress)
                    if isDone(progress) || writer.isBatchFull { break }
                    update = updates.nextIfAvailable()
                }
                try writer.flush()
                if isDone(progress) { break }
            }
        } catch let error as GPSLocationError {
            writer.report(StatusEvent(name: "gpsd_unavailable", message: error.description))
            writer.writeFallback(.gpsdUnavailable)
            return ExitStatus(error)
        } catch let error as ConfigurationError {
            StandardStreams.diagnose(error.description)
            return .configuration
        } catch let error as StandardStreams.OutputError {
            throw error
        } catch {
            if !Task.isCancelled { return .failure }
        }
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
            writer.report(StatusEvent(event, endpoint: manager.configuration.endpoint, explanation: explain))
            if case .authorizationChanged(_, let denial?) = event {
                let reason = FallbackReason(denial)
                progress.lastFallback = reason
                if writer.writeFallback(reason) { progress.printed += 1 }
            }
        }
    }

    private func explain(_ reason: DenialReason) -> String {
        guard let permission = try? manager.authorization() else { return "location is not authorized (\(reason.rawValue))" }
        return AuthorizationMessages.explain(reason, permission: permission, app: options.app, userFile: userFile)
    }
}
