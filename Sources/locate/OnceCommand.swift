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
        if let reason = permission.denial {
            return notAuthorized(reason, permission: permission)
        }
        let location: Location
        do {
            location = try await manager.requestLocation(accuracy: options.accuracy, timeout: options.timeout ?? settingsTimeout ?? .seconds(30))
        } catch let error as ConfigurationError {
            StandardStreams.diagnose(error.description)
            return .configuration
        } catch GPSLocationError.notAuthorized(let reason) {
            // The permission changed while waiting for the fix.
            return notAuthorized(reason, permission: (try? manager.authorization()) ?? permission)
        } catch let error as GPSLocationError {
            StandardStreams.diagnose(error.description)
            return fallback(error.isTimeout ? .timeout : .gpsdUnavailable)
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

    private func notAuthorized(_ reason: FallbackReason, permission: Permission) -> ExitStatus {
        StandardStreams.diagnose(AuthorizationMessages.explain(reason, permission: permission, app: options.app, userFile: userFile))
        return fallback(reason)
    }

    private func fallback(_ reason: FallbackReason) -> ExitStatus {
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
