import LocateSupport

/// How a stream's command ends from outside: its work runs as a task that the first SIGINT,
/// SIGTERM or SIGHUP (see `SignalTrap`) and `--duration` cancel, so it ends its output cleanly.
/// `--follow`, `monitor` and `visits` all run this way.
enum StreamLifetime {
    /// Runs `work` until it ends or is cancelled, and returns its status.
    /// - Parameters:
    ///   - ignored: signals that do not end it (`serve`'s SIGHUP).
    ///   - second: what a second signal does instead of ending the process at once (`publish`
    ///     gives up on its farewell, and still says what it lost).
    /// - Throws: the output error `work` ended with.
    static func run(
        for duration: Duration?, ignoring ignored: [Int32] = [], second: (@Sendable () -> Void)? = nil,
        _ work: @escaping @Sendable () async -> Result<ExitStatus, StandardStreams.OutputError>
    ) async throws(StandardStreams.OutputError) -> ExitStatus {
        let stream = Task { await work() }
        let onSecond: (@Sendable (Int32) -> Void)? = second.map { second in { @Sendable _ in second() } }
        SignalTrap.trap(ignoring: ignored, second: onSecond) { _ in stream.cancel() }
        let timer = duration.map { duration in
            Task {
                try await Task.sleep(for: duration)
                stream.cancel()
            }
        }
        let outcome = await stream.value
        timer?.cancel()
        return try outcome.get()
    }
}
