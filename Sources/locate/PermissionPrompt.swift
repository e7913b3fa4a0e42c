import GPSLocation
import LocateSupport

/// Asks on the terminal (`/dev/tty`, so it works with stdout in a pipe) whether an app may use
/// the location: CoreLocation's authorization dialog, in text. It blocks the main thread while
/// the user thinks, before anything else runs, so `--once` stays free of Swift's concurrency
/// runtime; the library's hosts ask through an asynchronous `AuthorizationPrompter` instead.
enum PermissionPrompt {
    /// The answer, or `nil` when there is no terminal or it ends (EOF) before a choice is made.
    static func ask(_ question: AuthorizationQuestion) -> AuthorizationAnswer? {
        guard let terminal = Terminal() else { return nil }
        let name = question.app.map { "\"\($0)\"" } ?? "locate"
        var text = "\(name) would like to use your location.\n"
        // The purpose is the caller's text: shown with its control characters made visible, so
        // it cannot clear the screen or repaint the choices below.
        if let purpose = question.purpose, !purpose.isEmpty { text += UntrustedText.visible(purpose, limit: 500) + "\n" }
        text += "  1) Allow once\n  2) Allow while using\n  3) Always allow\n  4) Don't allow\n"
        terminal.write(text)
        for _ in 0..<3 {
            terminal.write("Choose 1-4: ")
            guard let line = terminal.readLine() else {
                terminal.write("\n")
                return nil
            }
            switch line.filter({ !" \t\r".contains($0) }) {
            case "1": return .allowOnce
            case "2": return .allowWhileUsing
            case "3": return .allowAlways
            case "4": return .deny
            default: terminal.write("Please answer 1, 2, 3 or 4.\n")
            }
        }
        return nil
    }
}
