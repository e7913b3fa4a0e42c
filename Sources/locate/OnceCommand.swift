import GPSLocation
import GPSLocationConsent

/// `locate --once`: one fix on stdout; or, when there is none to give, the fallback coordinate
/// (unless disabled), a message on stderr and the matching exit status. It runs the library's
/// single-fix request on the main thread alone, without the manager and without Swift's
/// concurrency runtime: the shortest way to a fix. The fix is written before it is kept.
struct OnceCommand {
    let options: CommandLineOptions
    let store: ConsentStore
    let configuration: GPSLocationConfiguration
    let isAllowedOnce: Bool
    let timeout: Duration
    let writer: RecordWriter
    let explainer: AuthorizationMessages

    /// - Throws: `OutputError` when stdout cannot be written.
    func run() throws(StandardStreams.OutputError) -> ExitStatus {
        var writer = self.writer
        let endpoint = configuration.endpoint
        let report = writer.immediateReporter()
        let request = SingleFixRequest(
            source: store, configuration: configuration, context: nil, isAllowedOnce: isAllowedOnce, accuracy: options.accuracy,
            timeout: timeout, maxAge: options.maxAge
        ) { event in
            report(StatusEvent(event, endpoint: endpoint) { _ in "" })
        }
        let status: ExitStatus
        var delivered: SingleFixRequest.Answer?
        do throws(GPSLocationError) {
            let answer = try request.runHere()
            writer.write(answer.location)
            status = .success
            delivered = answer
        } catch .notAuthorized(let reason) {
            StandardStreams.diagnose(explainer.explain(reason))
            writer.writeFallback(.notAuthorized(reason))
            status = ExitStatus(FallbackReason.notAuthorized(reason))
        } catch .accuracyNotReached(_, let best) {
            // Only --accuracy holds fixes back this way (a fix too old is never the best seen).
            let accuracy = options.accuracy.map(NumberFormatting.plain) ?? ""
            StandardStreams.diagnose("no fix within \(accuracy) m in \(timeout.formattedSeconds) s; printing the most accurate fix seen")
            writer.write(best, timedOut: true)
            status = .timedOut
        } catch .invalidSettings(let problem) {
            StandardStreams.diagnose(problem.description)
            return .configuration
        } catch {
            let reason = FallbackReason(error)
            writer.report(StatusEvent(name: reason == .timeout ? "timeout" : "gpsd_unavailable", message: error.description))
            writer.writeFallback(reason)
            status = ExitStatus(error)
        }
        try writer.finish()
        // The fix went out first: keeping it never delays the answer.
        if let delivered { request.keep(delivered) }
        return status
    }
}
