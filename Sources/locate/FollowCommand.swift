import GPSLocation
import Glibc

/// `locate --follow`: records as fixes arrive, status events on stderr, until `--count`,
/// `--duration`, SIGINT, SIGTERM or a closed pipe ends it.
///
/// When location stops being authorized, the fallback record (unless disabled) takes the place
/// of live fixes until it is authorized again. The exit status says what the last record was:
/// 0 for a live fix (or no record at all), otherwise the status of the fallback's reason.
struct FollowCommand {
    let options: CommandLineOptions
    let manager: GPSLocationManager
    let writer: RecordWriter
    let userFile: String

    func run() async -> ExitStatus {
        let stream = Task { await follow() }
        let trap = SignalTrap([SIGINT, SIGTERM]) { _ in stream.cancel() }
        let timer = options.duration.map { duration in
            Task {
                try await Task.sleep(for: duration)
                stream.cancel()
            }
        }
        let status = await stream.value
        timer?.cancel()
        withExtendedLifetime(trap) {}
        return status
    }

    private func follow() async -> ExitStatus {
        let liveOptions = LiveUpdateOptions(
            distanceFilter: options.distance, minimumInterval: options.interval, heartbeat: options.heartbeat)
        var printed = 0
        var lastFallback: FallbackReason?
        do {
            for try await update in manager.liveUpdates(liveOptions) {
                switch update {
                case .location(let location):
                    try writer.write(location)
                    lastFallback = nil
                    printed += 1
                case .status(.authorizationChanged(_, let denial?)):
                    let permission = try manager.authorization()
                    StandardStreams.diagnose(AuthorizationMessages.explain(denial, permission: permission, app: options.app, userFile: userFile))
                    lastFallback = denial
                    if try writer.writeFallback(denial) { printed += 1 }
                case .status(let event):
                    StandardStreams.diagnose(describe(event))
                }
                if let count = options.count, printed >= count { break }
            }
        } catch let error as ConfigurationError {
            StandardStreams.diagnose(error.description)
            return .configuration
        } catch let error as GPSLocationError {
            StandardStreams.diagnose(error.description)
            _ = try? writer.writeFallback(.gpsdUnavailable)
            return ExitStatus(error)
        } catch is StandardStreams.ClosedOutput {
            return lastFallback.map(ExitStatus.init) ?? .success
        } catch {
            if !Task.isCancelled { return .failure }
        }
        return lastFallback.map(ExitStatus.init) ?? .success
    }

    private func describe(_ event: LocationStatusEvent) -> String {
        let endpoint = manager.configuration.endpoint
        switch event {
        case .noFix: return "no fix yet; waiting for the receiver"
        case .noDevice: return "gpsd at \(endpoint) has no GPS device; waiting for one"
        case .gpsdLost(let retryIn): return "lost gpsd at \(endpoint); reconnecting (first try in \(retryIn) s)"
        case .reconnected: return "reconnected to gpsd at \(endpoint)"
        case .authorizationChanged(let status, _): return "location is authorized again (\(status.rawValue)); resuming"
        case .paused: return "paused: location is allowed only while in use, and locate is in the background"
        case .resumed: return "resumed: locate is in the foreground again"
        }
    }
}

extension ExitStatus {
    /// The exit status for a library error.
    init(_ error: GPSLocationError) {
        switch error {
        case .noFix: self = .timedOut
        case .notAuthorized: self = .notAuthorized
        case .gpsdUnreachable, .connectTimedOut, .noDevice, .gpsdRefused, .gpsdClosedConnection: self = .unavailable
        case .invalidEndpoint: self = .usage
        }
    }
}
