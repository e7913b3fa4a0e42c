import GPSLocation

/// `locate --once`: one fix on stdout; or, when there is none to give, the fallback coordinate
/// (unless disabled), a message on stderr and the matching exit status.
struct OnceCommand {
    let options: CommandLineOptions
    let manager: GPSLocationManager
    let writer: RecordWriter
    /// The default timeout from the settings, used when `--timeout` is not given.
    let settingsTimeout: Duration?
    let userFile: String

    func run(permission: Permission) async -> ExitStatus {
        var writer = self.writer
        defer { writer.finish() }
        let location: Location
        do {
            location = try await manager.requestLocation(
                accuracy: options.accuracy, timeout: options.timeout ?? settingsTimeout ?? .seconds(30), maxAge: options.maxAge)
        } catch let error as ConfigurationError {
            StandardStreams.diagnose(error.description)
            return .configuration
        } catch GPSLocationError.notAuthorized(let reason) {
            // The library checks (and may have changed while waiting for the fix).
            return notAuthorized(reason, permission: (try? manager.authorization()) ?? permission, writer: &writer)
        } catch let error as GPSLocationError {
            let reason: FallbackReason = error.isTimeout ? .timeout : .gpsdUnavailable
            do {
                try writer.report(StatusEvent(name: reason == .timeout ? "timeout" : "gpsd_unavailable", message: error.description))
                try writer.writeFallback(reason)
            } catch {
                return .success  // the reader went away
            }
            return ExitStatus(reason)
        } catch {
            StandardStreams.diagnose(String(describing: error))
            return .failure
        }
        if location.timedOut, let accuracy = options.accuracy {
            StandardStreams.diagnose("no fix within \(accuracy) m in time; printing the most accurate fix seen")
        }
        do {
            try writer.write(location)
        } catch {
            return .success  // the reader went away: nothing to say, and no one to say it to
        }
        return location.timedOut ? .timedOut : .success
    }

    private func notAuthorized(_ reason: FallbackReason, permission: Permission, writer: inout RecordWriter) -> ExitStatus {
        StandardStreams.diagnose(AuthorizationMessages.explain(reason, permission: permission, app: options.app, userFile: userFile))
        _ = try? writer.writeFallback(reason)
        return ExitStatus(reason)
    }
}

extension GPSLocationError {
    /// No fix in time, as opposed to gpsd being unavailable.
    var isTimeout: Bool {
        if case .noFix = self { return true }
        return false
    }
}
