import GPSLocation
import LocateSupport

/// What a stream (`--follow`, `monitor`, `visits`) saw, for the one rule of how it ends when it
/// saw no position: 77 when location was never authorized while it ran (a when-in-use run in the
/// background all along), 75 when gpsd answered without a fix (or a replayed track gave none
/// before the stream was stopped), 69 when gpsd never answered or closed every connection. A
/// stream that saw a position (a fix that passed the gate) has succeeded, whatever it printed.
struct StreamProgress {
    /// The track replayed instead of gpsd, if any (what messages call it).
    let replay: String?
    /// Fixes that passed the gate.
    var positions = 0
    /// Location was authorized at some moment of the stream.
    var everAuthorized = false
    /// gpsd said something about its receiver (a fix, no fix, no device).
    var gpsdAnswered = false
    /// Fixes came, but the options held every one back (`--accuracy`, `--distance`).
    var onlyHeldBack = false
    /// gpsd closed the connection at least once.
    var gpsdClosed = false
    /// The authorization as last noted.
    private(set) var authorization: Authorization?

    /// Notes what a status event says about gpsd.
    mutating func note(_ event: LocationStatusEvent) {
        switch event {
        case .noFix, .noDevice: gpsdAnswered = true
        case .gpsdLost: gpsdClosed = true
        default: break
        }
    }

    /// Notes how many fixes the stream's options have held back so far: gpsd answered.
    mutating func noteHeldBack(_ count: Int) {
        guard count > 0 else { return }
        gpsdAnswered = true
        if positions == 0 { onlyHeldBack = true }
    }

    /// Notes a position handed out.
    mutating func notePosition() {
        positions += 1
        gpsdAnswered = true
        everAuthorized = true
    }

    /// Notes the authorization as it is now.
    mutating func note(_ authorization: Authorization) {
        self.authorization = authorization
        if authorization.isAuthorized { everAuthorized = true }
    }

    /// The settings could not be read when the stream was last told about its authorization: a
    /// stream that ends then ends with status 78, as one that could not start.
    var endsWithInvalidSettings: Bool { authorization?.denial == .settingsInvalid }

    /// The status of a stream that ends now, before it has written anything more (its reader
    /// went away): 0 once a position passed the gate, otherwise the rule's for no position.
    func statusIfEndedNow(endpoint: GPSDEndpoint, started: ContinuousClock.Instant) -> ExitStatus {
        if endsWithInvalidSettings { return .configuration }
        guard positions == 0 else { return .success }
        return ExitStatus(reasonForNoPosition(endpoint: endpoint, started: started) { _ in "" }.reason)
    }

    /// Why a stream that ended without a position had none, and the message that says so.
    /// - Parameter explain: the message for a denial.
    func reasonForNoPosition(
        endpoint: GPSDEndpoint, started: ContinuousClock.Instant, explain: (DenialReason) -> String
    ) -> (reason: FallbackReason, message: String) {
        if !everAuthorized, let denial = authorization?.denial { return (.notAuthorized(denial), explain(denial)) }
        let elapsed = started.duration(to: .now).formattedSeconds
        let from = replay.map { "the track \(UntrustedText.visible($0, limit: 200))" } ?? "gpsd at \(endpoint)"
        if onlyHeldBack { return (.timeout, "no fix from \(from) passed the stream's filters (such as --accuracy) in \(elapsed) s") }
        if replay != nil || gpsdAnswered { return (.timeout, "no fix from \(from) in \(elapsed) s") }
        if gpsdClosed {
            return (
                .gpsdUnavailable,
                "gpsd at \(endpoint) closed the connection each time (gpsd closes connections beyond the clients it serves)"
            )
        }
        return (.gpsdUnavailable, "gpsd at \(endpoint) did not answer in \(elapsed) s")
    }
}
