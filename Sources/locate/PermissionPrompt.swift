import GPSLocation
import Glibc

/// Asks on the terminal (`/dev/tty`, so it works with stdout in a pipe) whether an app may use
/// the location: CoreLocation's authorization dialog, in text. It blocks the main thread while
/// the user thinks, before anything else runs, so `--once` stays free of Swift's concurrency
/// runtime; the library's hosts ask through an asynchronous `AuthorizationPrompter` instead.
enum PermissionPrompt {
    /// The answer, or `nil` when there is no terminal or it ends (EOF) before a choice is made.
    static func ask(_ question: AuthorizationQuestion) -> AuthorizationAnswer? {
        let terminal = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard terminal >= 0 else { return nil }
        defer { close(terminal) }
        let name = question.app.map { "\"\($0)\"" } ?? "locate"
        var text = "\(name) would like to use your location.\n"
        // The purpose is the caller's text: shown with its control characters made visible, so
        // it cannot clear the screen or repaint the choices below.
        if let purpose = question.purpose, !purpose.isEmpty { text += UntrustedText.visible(purpose, limit: 500) + "\n" }
        text += "  1) Allow once\n  2) Allow while using\n  3) Always allow\n  4) Don't allow\n"
        StandardStreams.writeText(text, to: terminal)
        for _ in 0..<3 {
            StandardStreams.writeText("Choose 1-4: ", to: terminal)
            guard let line = readLine(from: terminal) else {
                StandardStreams.writeText("\n", to: terminal)
                return nil
            }
            switch line.filter({ !" \t\r".contains($0) }) {
            case "1": return .allowOnce
            case "2": return .allowWhileUsing
            case "3": return .allowAlways
            case "4": return .deny
            default: StandardStreams.writeText("Please answer 1, 2, 3 or 4.\n", to: terminal)
            }
        }
        return nil
    }

    /// One line without its end, or `nil` at end of file.
    private static func readLine(from terminal: Int32) -> String? {
        var line: [UInt8] = []
        var byte: [UInt8] = [0]
        while true {
            let count = read(terminal, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return line.isEmpty ? nil : String(decoding: line, as: UTF8.self) }
            if byte[0] == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
            line.append(byte[0])
        }
    }
}
