import Glibc

/// The process's controlling terminal (`/dev/tty`): whether it has one and is in its foreground
/// (what "in use" means for a program run from a shell), and a conversation on it that works
/// with stdin and stdout redirected (a permission prompt).
package final class Terminal {
    private let descriptor: Int32

    /// Whether this process has a controlling terminal, and whether its process group is that
    /// terminal's foreground group, now.
    package static func state() -> (hasTerminal: Bool, isForeground: Bool) {
        let terminal = open("/dev/tty", O_RDONLY | O_NOCTTY | O_CLOEXEC | O_NONBLOCK)
        guard terminal >= 0 else { return (false, false) }
        defer { close(terminal) }
        return (true, tcgetpgrp(terminal) == getpgrp())
    }

    /// The controlling terminal, opened to read and write; `nil` when there is none.
    package init?() {
        descriptor = open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
    }

    deinit {
        close(descriptor)
    }

    /// Shows `text` (errors are ignored: there is nowhere to report them).
    package func write(_ text: String) {
        writeAll(Array(text.utf8)[...], to: descriptor)
    }

    /// One line the user typed, without its end; `nil` at the end of input (Ctrl-D).
    package func readLine() -> String? {
        var line: [UInt8] = []
        var byte: [UInt8] = [0]
        while true {
            let count = Glibc.read(descriptor, &byte, 1)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return line.isEmpty ? nil : String(decoding: line, as: UTF8.self) }
            if byte[0] == UInt8(ascii: "\n") { return String(decoding: line, as: UTF8.self) }
            line.append(byte[0])
        }
    }
}
