import GPSLocation
import Glibc
import Synchronization

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
            case .failed(let code):
                "cannot write to standard output: " + (code == EBADF ? "it is closed" : String(cString: strerror(code)))
            }
        }
    }

    /// Why stdin could not be read.
    struct InputError: Error, CustomStringConvertible {
        let code: Int32

        var description: String { "cannot read standard input: " + String(cString: strerror(code)) }
    }

    /// Gives each of stdin, stdout and stderr that the parent left closed (`>&-`) a descriptor of
    /// its own, `/dev/null` opened for reading, before anything else opens a file: otherwise the
    /// first file, socket or pipe opened would take its number, and records would be written
    /// into it. A write to a stdout reserved this way fails (`EBADF`), so a closed stdout is a
    /// write error, status 74.
    static func reserveClosedDescriptors() {
        for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO] where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
            // open(2) takes the lowest free number: this one.
            let reserved = open("/dev/null", O_RDONLY)
            if reserved != descriptor, reserved >= 0 { close(reserved) }
        }
    }

    /// What stdin has, up to 64 KiB (waiting until it has something); empty at its end.
    static func readInput() throws(InputError) -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = read(STDIN_FILENO, &chunk, chunk.count)
            if count >= 0 { return Array(chunk[0..<count]) }
            if errno != EINTR { throw InputError(code: errno) }
        }
    }

    /// Writes whole lines to stdout in writes of at most `PIPE_BUF` bytes cut at line ends (a
    /// longer line alone), each of which a pipe takes whole or not at all: a signal that ends
    /// the process while the reader is slow never leaves half a line.
    static func writeLines(_ bytes: [UInt8]) throws(OutputError) {
        var start = 0
        while start < bytes.count {
            var end = min(start + Int(PIPE_BUF), bytes.count)
            if end < bytes.count {
                if let lineEnd = bytes[start..<end].lastIndex(of: UInt8(ascii: "\n")) {
                    end = lineEnd + 1
                } else {
                    end = (bytes[end...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count - 1) + 1
                }
            }
            try write(Array(bytes[start..<end]))
            start = end
        }
    }

    /// Writes one record and its line end to stdout.
    static func writeRecord(_ record: String) throws(OutputError) {
        try write(Array((record + "\n").utf8))
    }

    /// Writes `bytes` (whole lines) to stdout.
    static func write(_ bytes: [UInt8]) throws(OutputError) {
        stdoutWriteStarted.store(monotonicNanoseconds(), ordering: .relaxed)
        defer { stdoutWriteStarted.store(0, ordering: .relaxed) }
        if let code = GPSLocation.writeAll(bytes, to: STDOUT_FILENO) {
            throw code == EPIPE ? .closed : .failed(errno: code)
        }
    }

    /// When the write to stdout under way started (monotonic nanoseconds), or 0 when none is.
    private static let stdoutWriteStarted = Atomic<Int64>(0)

    /// Whether a write to stdout has been under way for `duration` or longer: the reader of
    /// stdout stopped reading, and only a signal's default action can end the process now.
    static func isStdoutBlocked(for duration: Duration) -> Bool {
        let started = stdoutWriteStarted.load(ordering: .relaxed)
        return started != 0
            && monotonicNanoseconds() - started >= duration.components.seconds * 1_000_000_000
                + duration.components.attoseconds / 1_000_000_000
    }

    private static func monotonicNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }

    /// Writes `locate: message` to stderr, with any control character in it made visible: a
    /// message may quote outside text (a settings value, a path, gpsd's words).
    static func diagnose(_ message: String) {
        writeMessage("locate: " + UntrustedText.visible(message))
    }

    /// Writes one line to stderr; errors there are ignored, as there is nowhere to report them.
    static func writeMessage(_ line: String) {
        GPSLocation.writeAll(Array((line + "\n").utf8), to: STDERR_FILENO)
    }

    /// Writes `text` to the descriptor completely (the library's `writeAll`).
    /// - Returns: `nil` when all of it was written, otherwise the `errno` of the failure.
    @discardableResult
    static func writeText(_ text: String, to descriptor: Int32) -> Int32? {
        GPSLocation.writeAll(Array(text.utf8), to: descriptor)
    }
}
