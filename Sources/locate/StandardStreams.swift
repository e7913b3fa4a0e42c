import GPSLocation
import LocateSupport

/// The CLI's only writers: records to stdout, messages to stderr.
///
/// Each line goes out in one `write(2)` (unbuffered, so every record is flushed as it is made,
/// and a line is never split by a buffer boundary). SIGPIPE is ignored by `Locate.main`, so a
/// closed pipe shows up here as a failure that says so.
enum StandardStreams {
    /// Why stdout could not be written.
    enum OutputError: Error, CustomStringConvertible {
        /// The reader went away (`EPIPE`): a normal end for a command in a pipeline.
        case closed
        /// Any other failure (a full disk, an I/O error, a closed stdout): exit status 74.
        case failed(StandardIO.WriteFailure)

        var description: String {
            switch self {
            case .closed: "cannot write to standard output: the reader went away"
            case .failed(let failure): "cannot write to standard output: \(failure)"
            }
        }
    }

    /// Why stdin could not be read.
    struct InputError: Error, CustomStringConvertible {
        let error: SystemError

        var description: String { "cannot read standard input: " + error.reason }
    }

    /// What stdin has, up to 64 KiB (waiting until it has something); empty at its end.
    static func readInput() throws(InputError) -> [UInt8] {
        do throws(SystemError) {
            return try StandardIO.readInput()
        } catch {
            throw InputError(error: error)
        }
    }

    /// Writes whole lines to stdout in writes cut at line ends, each no longer than a pipe
    /// takes whole or not at all (`PIPE_BUF` bytes, a longer line alone; a regular file takes
    /// them in one write): a signal that ends the process while the reader is slow never leaves
    /// half a line.
    static func writeLines(_ bytes: ArraySlice<UInt8>) throws(OutputError) {
        let limit = StandardIO.wholeWriteLimit(.output)
        var start = bytes.startIndex
        while start < bytes.endIndex {
            var end = bytes.endIndex - start > limit ? start + limit : bytes.endIndex
            if end < bytes.endIndex {
                if let lineEnd = bytes[start..<end].lastIndex(of: UInt8(ascii: "\n")) {
                    end = lineEnd + 1
                } else {
                    end = (bytes[end...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex - 1) + 1
                }
            }
            try write(bytes[start..<end])
            start = end
        }
    }

    /// Writes one record and its line end to stdout.
    static func writeRecord(_ record: String) throws(OutputError) {
        try write(Array((record + "\n").utf8)[...])
    }

    /// Writes `bytes` (whole lines) to stdout.
    static func write(_ bytes: ArraySlice<UInt8>) throws(OutputError) {
        if let failure = StandardIO.write(bytes, to: .output) {
            throw failure.isClosedPipe ? .closed : .failed(failure)
        }
    }

    /// Writes `locate: message` to stderr, with any control character in it made visible: a
    /// message may quote outside text (a settings value, a path, gpsd's words).
    static func diagnose(_ message: String) {
        writeMessage(Usage.program + ": " + UntrustedText.visible(message))
    }

    /// Writes one line to stderr; errors there are ignored, as there is nowhere to report them.
    static func writeMessage(_ line: String) {
        StandardIO.write(Array((line + "\n").utf8)[...], to: .error)
    }
}
