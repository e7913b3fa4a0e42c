import FoundationEssentials
import GPSLocation
import Glibc

/// `locate --follow`: records as fixes arrive, status events on stderr, until `--count`,
/// `--duration`, SIGINT, SIGTERM or a closed pipe ends it (all of them normal ends, status 0).
struct FollowCommand {
    let options: CommandLineOptions
    let manager: GPSLocationManager

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
        let format = options.recordFormat
        var printed = 0
        do {
            for try await update in manager.liveUpdates(liveOptions) {
                switch update {
                case .location(let location):
                    try StandardStreams.writeRecord(format.record(location, now: Date()))
                    printed += 1
                    if let count = options.count, printed >= count { return .success }
                case .status(let event):
                    StandardStreams.diagnose(describe(event))
                }
            }
            return .success
        } catch let error as GPSLocationError {
            StandardStreams.diagnose(error.description)
            return ExitStatus(error)
        } catch is StandardStreams.ClosedOutput {
            return .success
        } catch {
            return Task.isCancelled ? .success : .failure
        }
    }

    private func describe(_ event: LocationStatusEvent) -> String {
        let endpoint = manager.configuration.endpoint
        switch event {
        case .noFix: return "no fix yet; waiting for the receiver"
        case .noDevice: return "gpsd at \(endpoint) has no GPS device; waiting for one"
        case .gpsdLost(let retryIn): return "lost gpsd at \(endpoint); reconnecting (first try in \(retryIn) s)"
        case .reconnected: return "reconnected to gpsd at \(endpoint)"
        }
    }
}
