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

    /// - Throws: `OutputError` when stdout cannot be written.
    func run(permission: Permission) async throws(StandardStreams.OutputError) -> ExitStatus {
        var writer = self.writer
        let status = try await answer(permission: permission, writer: &writer)
        try writer.finish()
        return status
    }

    /// Asks for the fix, reporting what the wait waits for (a device) as it happens.
    private func request(writer: inout RecordWriter) async throws(StandardStreams.OutputError) -> Result<Location, any Error> {
        let (events, statuses) = AsyncStream.makeStream(of: LocationStatusEvent.self)
        let request = Task { [manager, options, settingsTimeout] in
            defer { statuses.finish() }
            return try await manager.requestLocation(
                accuracy: options.accuracy, timeout: options.timeout ?? settingsTimeout ?? .seconds(30), maxAge: options.maxAge,
                statusHandler: { statuses.yield($0) })
        }
        do {
            for await event in events {
                try writer.report(StatusEvent(event, endpoint: manager.configuration.endpoint) { _ in "" })
            }
        } catch {
            request.cancel()
            throw error
        }
        return await request.result
    }

    private func answer(permission: Permission, writer: inout RecordWriter) async throws(StandardStreams.OutputError) -> ExitStatus {
        let location: Location
        do {
            location = try await request(writer: &writer).get()
        } catch let error as StandardStreams.OutputError {
            throw error
        } catch let error as ConfigurationError {
            StandardStreams.diagnose(error.description)
            return .configuration
        } catch GPSLocationError.notAuthorized(let reason) {
            // The library checks (and may have changed while waiting for the fix).
            let current = (try? manager.authorization()) ?? permission
            StandardStreams.diagnose(AuthorizationMessages.explain(reason, permission: current, app: options.app, userFile: userFile))
            try writer.writeFallback(reason)
            return ExitStatus(reason)
        } catch let error as GPSLocationError {
            let reason: FallbackReason = error.isTimeout ? .timeout : .gpsdUnavailable
            try writer.report(StatusEvent(name: reason == .timeout ? "timeout" : "gpsd_unavailable", message: error.description))
            try writer.writeFallback(reason)
            return ExitStatus(reason)
        } catch {
            StandardStreams.diagnose(String(describing: error))
            return .failure
        }
        if location.timedOut, let accuracy = options.accuracy {
            StandardStreams.diagnose("no fix within \(accuracy) m in time; printing the most accurate fix seen")
        }
        try writer.write(location)
        return location.timedOut ? .timedOut : .success
    }
}

extension GPSLocationError {
    /// No fix in time, as opposed to gpsd being unavailable.
    var isTimeout: Bool {
        if case .noFix = self { return true }
        return false
    }
}
