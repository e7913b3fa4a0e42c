import Glibc

/// The CLI's only writers: records to stdout, messages to stderr.
///
/// Each line goes out in one `write(2)` (unbuffered, so every record is flushed as it is made,
/// and a line is never split by a buffer boundary). SIGPIPE is ignored by `Locate.main`, so a
/// closed pipe shows up here as `EPIPE`.
enum StandardStreams {
    /// The reader of stdout went away (EPIPE) or stdout failed otherwise.
    struct ClosedOutput: Error {}

    /// Writes one record and its line end to stdout.
    static func writeRecord(_ record: String) throws(ClosedOutput) {
        guard writeAll(record + "\n", to: STDOUT_FILENO) else { throw ClosedOutput() }
    }

    /// Writes `locate: message` to stderr.
    static func diagnose(_ message: String) {
        writeMessage("locate: " + message)
    }

    /// Writes one line to stderr; errors there are ignored, as there is nowhere to report them.
    static func writeMessage(_ line: String) {
        writeAll(line + "\n", to: STDERR_FILENO)
    }

    /// Writes `text` to the descriptor completely; `false` on any error but an interrupted call.
    @discardableResult
    static func writeAll(_ text: String, to descriptor: Int32) -> Bool {
        var bytes = Array(text.utf8)
        while !bytes.isEmpty {
            let written = write(descriptor, bytes, bytes.count)
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            bytes.removeFirst(written)
        }
        return true
    }
}
