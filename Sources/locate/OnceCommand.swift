import GPSLocation
import Synchronization

/// `locate --once`: one fix on stdout; or, when there is none to give, the fallback coordinate
/// (unless disabled), a message on stderr and the matching exit status. It runs on the main
/// thread alone (the library's blocking request), the shortest way to a fix.
struct OnceCommand {
    let options: CommandLineOptions
    let manager: GPSLocationManager
    let writer: RecordWriter
    /// The default timeout from the settings, used when `--timeout` is not given.
    let settingsTimeout: Duration?
    let userFile: String

    /// - Throws: `OutputError` when stdout cannot be written.
    func run(permission: Permission) throws(StandardStreams.OutputError) -> ExitStatus {
        var writer = self.writer
        let status = try answer(permission: permission, writer: &writer)
        try writer.finish()
        return status
    }

    /// Asks for the fix, reporting what the wait waits for (a device) as it happens. The writer
    /// is the status handler's while the request runs (on this thread), then the caller's again.
    private func request(writer: inout RecordWriter) throws(StandardStreams.OutputError) -> Result<Location, any Error> {
        let endpoint = manager.configuration.endpoint
        let shared = Mutex((writer: writer, failure: StandardStreams.OutputError?.none))
        let result = Result {
            try manager.requestLocationBlocking(
                accuracy: options.accuracy, timeout: options.timeout ?? settingsTimeout ?? .seconds(30), maxAge: options.maxAge
            ) { event in
                shared.withLock { state in
                    state.writer.report(StatusEvent(event, endpoint: endpoint) { _ in "" })
                    do throws(StandardStreams.OutputError) {
                        try state.writer.flush()
                    } catch {
                        state.failure = state.failure ?? error
                    }
                }
            }
        }
        let (finalWriter, failure) = shared.withLock { ($0.writer, $0.failure) }
        writer = finalWriter
        if let failure { throw failure }
        return result
    }

    private func answer(permission: Permission, writer: inout RecordWriter) throws(StandardStreams.OutputError) -> ExitStatus {
        let location: Location
        do {
            location = try request(writer: &writer).get()
        } catch let error as StandardStreams.OutputError {
            throw error
        } catch let error as ConfigurationError {
            StandardStreams.diagnose(error.description)
            return .configuration
        } catch GPSLocationError.notAuthorized(let reason) {
            // The library checks (and may have changed while waiting for the fix).
            let current = (try? manager.authorization()) ?? permission
            StandardStreams.diagnose(AuthorizationMessages.explain(reason, permission: current, app: options.app, userFile: userFile))
            writer.writeFallback(FallbackReason(reason))
            return ExitStatus(FallbackReason(reason))
        } catch GPSLocationError.accuracyNotReached(_, let best) {
            StandardStreams.diagnose("no fix within \(options.accuracy ?? 0) m in time; printing the most accurate fix seen")
            writer.write(best, timedOut: true)
            return .timedOut
        } catch let error as GPSLocationError {
            let reason: FallbackReason = error.isTimeout ? .timeout : .gpsdUnavailable
            writer.report(StatusEvent(name: reason == .timeout ? "timeout" : "gpsd_unavailable", message: error.description))
            writer.writeFallback(reason)
            return ExitStatus(reason)
        } catch {
            StandardStreams.diagnose(String(describing: error))
            return .failure
        }
        writer.write(location)
        return .success
    }
}

extension GPSLocationError {
    /// No fix in time, as opposed to gpsd being unavailable.
    var isTimeout: Bool {
        if case .noFix = self { return true }
        return false
    }
}
