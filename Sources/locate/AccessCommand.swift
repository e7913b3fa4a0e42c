import FoundationEssentials
import GPSLocation
import GPSLocationConsent
import LocateSupport

/// `locate access`: who had this user's location, from the access log: the programs receiving
/// it now (iOS's "location in use"), then the recent sessions, newest last. Never a position.
/// `--json`: one object a session, `"receiving"` saying which list it is of.
struct AccessCommand {
    let log: AccessLog
    let json: Bool

    func run() throws(StandardStreams.OutputError) -> ExitStatus {
        let receivers: [AccessSession]
        let sessions: [AccessSession]
        do throws(GPSLocationError) {
            receivers = try log.currentReceivers()
            sessions = Self.shown(try log.recentSessions(limit: .max))
        } catch {
            StandardStreams.diagnose(error.description)
            return ExitStatus(error)
        }
        if json {
            let lines = receivers.map { $0.jsonRecord(receiving: true) } + sessions.map { $0.jsonRecord(receiving: false) }
            if !lines.isEmpty { try StandardStreams.writeRecord(lines.joined(separator: "\n")) }
            return .success
        }
        var lines = ["Receiving now: " + (receivers.isEmpty ? "none" : String(receivers.count))]
        lines += receivers.map { "  " + Self.describe($0) }
        lines.append("Recent sessions: " + (sessions.isEmpty ? "none" : String(sessions.count)))
        lines += sessions.map { "  " + Self.describe($0) }
        try StandardStreams.writeRecord(lines.joined(separator: "\n"))
        return .success
    }

    /// The sessions listed, newest last: the last 100 that had positions, whatever came after
    /// them, and the last 20 attempts (nothing delivered).
    static func shown(_ sessions: [AccessSession]) -> [AccessSession] {
        let delivered = sessions.indices.filter { sessions[$0].deliveries > 0 }.suffix(100)
        let attempts = sessions.indices.filter { sessions[$0].deliveries == 0 }.suffix(20)
        return (delivered + attempts).sorted().map { sessions[$0] }
    }

    /// One session on one line: who, through what, and what it got.
    static func describe(_ session: AccessSession) -> String {
        let time = { (date: Date?) in date.flatMap(UTCTimestamp.iso8601) ?? "-" }
        var who = session.app ?? "[location]"
        var details = [session.program, session.processID.map { "pid \($0)" }, "user \(session.user)"].compactMap { $0 }
        details.append("via \(session.via)")
        who += " (" + details.joined(separator: ", ") + ")"
        let what: String
        let reason = (session.refusal ?? session.denial?.rawValue).map { " (\($0))" } ?? ""
        if let level = session.accuracyLevel {
            // An answer of the agent to GeoClue, which delivers the positions itself.
            what = level > 0 ? "allowed up to GeoClue's accuracy level \(level)" : "refused" + reason
        } else if session.deliveries > 0 {
            what =
                "\(session.deliveries) position\(session.deliveries == 1 ? "" : "s"), \(session.accuracy?.rawValue ?? "-") accuracy, "
                + "first \(time(session.firstDelivery)), last \(time(session.lastDelivery))"
        } else {
            what = "nothing delivered" + reason
        }
        return UntrustedText.visible("\(who) since \(time(session.started)): \(what)")
    }
}

extension AccessCommand {
    /// Runs `locate access`: the access log of `app`'s store (`--app`), as text or `json`.
    /// - Throws: `OutputError` when stdout cannot be written.
    static func run(app: String?, json: Bool) throws(StandardStreams.OutputError) -> ExitStatus {
        let store: ConsentStore
        do throws(ExitStatus) {
            store = try ConsentSetup.store(app: app)
        } catch {
            return error
        }
        return try AccessCommand(log: AccessLog(paths: store.paths), json: json).run()
    }
}
