import GPSLocation
import Glibc

/// The CLI's only writers: records to stdout, messages to stderr.
///
/// Each line goes out in one `write(2)` (unbuffered, so every record is flushed as it is made,
/// and a line is never split by a buffer boundary). SIGPIPE is ignored by `Locate.main`, so a
/// closed pipe shows up here as `EPIPE`.
enum StandardStreams {
    /// Why stdout could not be written.
    enum OutputError: Error, CustomStringConvertible {
        /// The reader went away (`EPIPE`): a normal end for a command in a pipeline.
        case closed
        /// Any other error (a full disk, an I/O error): a failure, exit status 74.
        case failed(errno: Int32)

        var description: String {
            switch self {
            case .closed: "cannot write to standard output: the reader went away"
            case .failed(let code): "cannot write to standard output: " + String(cString: strerror(code))
            }
        }
    }

    /// Writes one record and its line end to stdout.
    static func writeRecord(_ record: String) throws(OutputError) {
        if let code = writeAll(record + "\n", to: STDOUT_FILENO) {
            throw code == EPIPE ? .closed : .failed(errno: code)
        }
    }

    /// Writes `locate: message` to stderr, with any control character in it made visible: a
    /// message may quote outside text (a settings value, a path, gpsd's words).
    static func diagnose(_ message: String) {
        writeMessage("locate: " + UntrustedText.visible(message))
    }

    /// Writes one line to stderr; errors there are ignored, as there is nowhere to report them.
    static func writeMessage(_ line: String) {
        writeAll(line + "\n", to: STDERR_FILENO)
    }

    /// Writes `text` to the descriptor completely, retrying interrupted calls.
    /// - Returns: `nil` when all of it was written, otherwise the `errno` of the failure.
    @discardableResult
    static func writeAll(_ text: String, to descriptor: Int32) -> Int32? {
        var bytes = Array(text.utf8)
        while !bytes.isEmpty {
            let written = write(descriptor, bytes, bytes.count)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            bytes.removeFirst(written)
        }
        return nil
    }
}
