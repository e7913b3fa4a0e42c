import GPSLocation
import GPSLocationConsent
import LocateSupport

/// `locate --once`: one fix on stdout; or, when there is none to give, the fallback coordinate
/// (unless disabled), a message on stderr and the matching exit status. It asks the manager's
/// blocking request on the main thread alone, without Swift's concurrency runtime: the shortest
/// way to a fix. The fix is written before the consent store keeps it.
struct OnceCommand {
    let options: OnceOptions
    let manager: GPSLocationManager
    let timeout: Duration
    let writer: RecordWriter
    let explainer: AuthorizationMessages

    /// - Throws: `OutputError` when stdout cannot be written.
    func run() throws(StandardStreams.OutputError) -> ExitStatus {
        var writer = self.writer
        let endpoint = manager.configuration.endpoint
        let report = writer.immediateReporter()
        var written: ExitStatus?
        var outputFailure: StandardStreams.OutputError?
        // Not a `Result`: see `Answer`.
        let answer: Answer
        do throws(GPSLocationError) {
            answer = .fix(
                try manager.requestLocationBlocking(
                    accuracy: options.stream.accuracy, minimumFix: options.stream.minimumFix, timeout: timeout, maxAge: options.maxAge,
                    statusHandler: { event in report(StatusEvent(event, endpoint: endpoint) { _ in "" }) }
                ) { location in
                    // Written before it is kept: keeping it never delays the answer.
                    do throws(StandardStreams.OutputError) {
                        written = try write(.fix(location), to: &writer)
                    } catch {
                        outputFailure = error
                    }
                })
        } catch {
            answer = .failure(error)
        }
        if let outputFailure { throw outputFailure }
        if let written { return written }
        return try write(answer, to: &writer)
    }

    /// `--once --replay`: the track's first fix within `--accuracy` (no permission, nothing kept).
    /// Nothing stands in for a recorded track: without a fix to give it prints no fallback, only
    /// the message; 65 when the track cannot be read, has no fix or a malformed point before
    /// one, 75 when none came in time (with `--accuracy`, the most accurate fix seen is printed,
    /// marked `timed_out`: it is the track's own).
    func runReplay() async throws(StandardStreams.OutputError) -> ExitStatus {
        var writer = self.writer
        let status: ExitStatus
        do throws(GPSLocationError) {
            writer.write(
                try await manager.requestLocation(
                    accuracy: options.stream.accuracy, minimumFix: options.stream.minimumFix, timeout: timeout))
            status = .success
        } catch .accuracyNotReached(_, let best) {
            let accuracy = options.stream.accuracy.map(NumberFormatting.plain) ?? ""
            StandardStreams.diagnose("no fix within \(accuracy) m in \(timeout.formattedSeconds) s; printing the most accurate fix seen")
            writer.write(best, timedOut: true)
            status = .timedOut
        } catch .noFix(let timeout) {
            let track = UntrustedText.visible(options.stream.replayName ?? "", limit: 200)
            writer.report(
                StatusEvent(
                    name: FallbackReason.timeout.eventName, message: "no fix from the track \(track) within \(timeout.formattedSeconds) s"))
            status = .timedOut
        } catch {
            // The track is data: a problem with it is no reason for a stand-in position.
            StandardStreams.diagnose(error.description)
            return ExitStatus(error)
        }
        try await writer.finish()
        return status
    }

    /// What a request gave: a fix, or why there is none. Not `Result<Location, GPSLocationError>`:
    /// the first `Result` of an error type makes the Swift runtime scan every protocol
    /// conformance of the binary (for `Failure: Error`), at a tenth of `--once`'s own work.
    enum Answer {
        case fix(Location)
        case failure(GPSLocationError)
    }

    /// Writes the fix, or what stands in for it, and says the exit status.
    private func write(
        _ answer: Answer, to writer: inout RecordWriter
    ) throws(StandardStreams.OutputError)
        -> ExitStatus
    {
        let status: ExitStatus
        switch answer {
        case .fix(let location):
            writer.write(location)
            status = .success
        case .failure(.notAuthorized(let reason)):
            StandardStreams.diagnose(explainer.explain(reason))
            writer.writeFallback(.notAuthorized(reason))
            status = ExitStatus(FallbackReason.notAuthorized(reason))
        case .failure(.accuracyNotReached(_, let best)):
            // Only --accuracy holds fixes back this way (a fix too old is never the best seen).
            let accuracy = options.stream.accuracy.map(NumberFormatting.plain) ?? ""
            StandardStreams.diagnose("no fix within \(accuracy) m in \(timeout.formattedSeconds) s; printing the most accurate fix seen")
            writer.write(best, timedOut: true)
            status = .timedOut
        case .failure(.invalidSettings(let problem)):
            StandardStreams.diagnose(problem.description)
            return .configuration
        case .failure(let error):
            let reason = FallbackReason(error)
            writer.report(StatusEvent(name: reason.eventName, message: error.description))
            writer.writeFallback(reason)
            status = ExitStatus(error)
        }
        do throws(StandardStreams.OutputError) {
            try writer.finishHere()
        } catch .closed {
            // The reader went away (`locate | true`): the status is still the record's.
        }
        return status
    }
}

extension OnceCommand {
    /// Runs `locate --once` with `options`, within `--timeout` (else the settings', else the
    /// manager's default). A replay is played by a thread of its own, which the request awaits;
    /// gpsd is asked on this thread, with no concurrency at all (the hot path).
    /// - Throws: `OutputError` when stdout cannot be written.
    static func run(_ options: OnceOptions) throws(StandardStreams.OutputError) -> ExitStatus {
        try CommandContext.run(
            options.stream, output: options.output, records: options.output.recordFormat(gpx: .waypoint), via: "locate --once", asks: true,
            isStream: false
        ) { context throws(StandardStreams.OutputError) in
            let command = OnceCommand(
                options: options, manager: context.manager,
                timeout: options.timeout ?? context.settings.timeout ?? GPSLocationManager.defaultTimeout, writer: context.writer,
                explainer: context.explainer)
            guard context.replay == nil else {
                return try Locate.waitFor { () async throws(StandardStreams.OutputError) in try await command.runReplay() }
            }
            return try command.run()
        }
    }
}
