/// GeoClue's question to its agent: may the app `desktopID` have positions, at `level` at most?
struct AuthorizationRequest: Sendable, Hashable {
    /// The app's desktop id: for a Flatpak, its id, as GeoClue read it from the client's cgroup.
    let desktopID: String
    /// The accuracy level asked for (already no finer than the agent's `MaxAccuracyLevel`).
    let level: UInt32
}

/// GeoClue as the agent's engine sees it: the seam between the agent's rules and D-Bus
/// (`GeoClueBus`), which a test plays instead.
protocol AgentTransport: Sendable {
    /// Registers the agent with GeoClue and serves until ``stop()``: each `AuthorizeApp` goes to
    /// `authorize`, whose `reply` (called once, from any thread) answers it.
    /// - Throws: `GeoClueAgent.Failure` when the agent cannot be served (no bus, no thread).
    func run(
        authorize: @escaping @Sendable (AuthorizationRequest, _ reply: @escaping @Sendable (AgentAnswer) -> Void) -> Void
    ) async throws(GeoClueAgent.Failure)

    /// Makes `level` the agent's `MaxAccuracyLevel`, the level every client of GeoClue is held
    /// to; GeoClue is told each change. Set before ``run(authorize:)``, it is the first level
    /// GeoClue reads.
    func setMaxAccuracyLevel(_ level: UInt32)

    /// Ends ``run(authorize:)``.
    func stop()
}
