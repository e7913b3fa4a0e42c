import FoundationEssentials
import GPSLocation

/// `locate --once`: one fix on stdout, or a message and the matching exit status.
struct OnceCommand {
    let options: CommandLineOptions
    let manager: GPSLocationManager

    func run() async -> ExitStatus {
        let location: Location
        do {
            location = try await manager.requestLocation(accuracy: options.accuracy, timeout: options.timeout)
        } catch let error as GPSLocationError {
            StandardStreams.diagnose(error.description)
            return ExitStatus(error)
        } catch {
            StandardStreams.diagnose(String(describing: error))
            return .failure
        }
        if location.timedOut, let accuracy = options.accuracy {
            StandardStreams.diagnose("no fix within \(accuracy) m in time; printing the most accurate fix seen")
        }
        do {
            try StandardStreams.writeRecord(options.recordFormat.record(location, now: Date()))
        } catch {
            return .success  // the reader went away: nothing to say, and no one to say it to
        }
        return location.timedOut ? .timedOut : .success
    }
}

extension ExitStatus {
    /// The exit status for a library error.
    init(_ error: GPSLocationError) {
        switch error {
        case .noFix: self = .timedOut
        case .gpsdUnreachable, .connectTimedOut, .noDevice, .gpsdRefused, .gpsdClosedConnection: self = .unavailable
        case .invalidEndpoint: self = .usage
        }
    }
}
