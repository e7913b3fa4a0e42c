import GPSLocation
import LocateSupport

/// The command's `AuthorizationPrompter`: the question on its terminal (`PermissionPrompt`), asked
/// only of a person at its foreground (a background job, or a run without a terminal, is not
/// asked: the answer is none), on a thread of its own while the user thinks.
final class TerminalPrompter: AuthorizationPrompter {
    private let asked = Flag()

    /// Whether the question was put on the terminal.
    var wasAsked: Bool { asked.isSet }

    func ask(_ question: AuthorizationQuestion) async -> AuthorizationAnswer? {
        guard AppState.terminal == .foreground else { return nil }
        asked.set()
        return await DedicatedThread.run(unavailable: nil) { _, _ in PermissionPrompt.ask(question) }
    }
}
