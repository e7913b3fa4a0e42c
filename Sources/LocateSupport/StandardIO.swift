import Glibc
import Synchronization

/// The process's standard descriptors as the command uses them: whole writes to stdout and
/// stderr (a write to stdout under way is known, so a signal can tell a blocked reader), chunks
/// read from stdin, and what a parent left closed. The command decides what goes where.
package enum StandardIO {
    /// One of the three standard descriptors.
    package enum Stream: Int32, Sendable {
        case input = 0
        case output = 1
        case error = 2
    }

    /// The most a pipe takes in one write, whole or not at all.
    package static let atomicWrite = Int(PIPE_BUF)

    /// Gives each standard descriptor that the parent left closed (`>&-`) `/dev/null`, opened for
    /// reading, before anything else opens a file: otherwise the first file, socket or pipe
    /// opened would take its number. A write to a stdout reserved this way fails (`EBADF`).
    package static func reserveClosedDescriptors() {
        for stream in [Stream.input, .output, .error] where fcntl(stream.rawValue, F_GETFD) == -1 && errno == EBADF {
            // open(2) takes the lowest free number: this one.
            let reserved = open("/dev/null", O_RDONLY)
            if reserved != stream.rawValue, reserved >= 0 { close(reserved) }
        }
    }

    /// Whether `count` bytes can be written to `stream` now without waiting for a reader: a
    /// regular file always can; a pipe, socket or terminal when it is writable now and the write
    /// is no more than `atomicWrite` (a pipe with room for one takes it whole). Otherwise the write
    /// may wait as long as its reader does, and belongs on a thread of its own.
    package static func canWriteAtOnce(_ count: Int, to stream: Stream) -> Bool {
        if isRegularFile(stream) { return true }
        guard count <= atomicWrite else { return false }
        var request = pollfd(fd: stream.rawValue, events: Int16(POLLOUT), revents: 0)
        return poll(&request, 1, 0) == 1 && request.revents & Int16(POLLOUT) != 0
    }

    /// The most bytes to put in one write to `stream` so that no reader sees a part of them
    /// without the rest: `atomicWrite` for anything but a regular file (a pipe takes that much
    /// whole, where a longer write may be cut short while its reader is slow); no limit for a
    /// regular file, which has no reader to wait for. Writes of whole lines in pieces this size
    /// leave no half line behind a process ended between them.
    package static func wholeWriteLimit(_ stream: Stream) -> Int {
        isRegularFile(stream) ? Int.max : atomicWrite
    }

    private static func isRegularFile(_ stream: Stream) -> Bool {
        var status = stat()
        return fstat(stream.rawValue, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }

    /// Writes all of `bytes` to `stream`.
    /// - Returns: `nil` when written, otherwise why not.
    @discardableResult
    package static func write(_ bytes: ArraySlice<UInt8>, to stream: Stream) -> WriteFailure? {
        if stream == .output { outputWriteStarted.store(monotonicNanoseconds(), ordering: .relaxed) }
        defer { if stream == .output { outputWriteStarted.store(0, ordering: .relaxed) } }
        guard let code = writeAll(bytes, to: stream.rawValue) else { return nil }
        return WriteFailure(code: code)
    }

    /// Why a write failed.
    package struct WriteFailure: Error, Sendable, Equatable, CustomStringConvertible {
        fileprivate let code: Int32

        /// The reader went away (a closed pipe).
        package var isClosedPipe: Bool { code == EPIPE }

        /// The system's words, or that the descriptor is closed.
        package var description: String { code == EBADF ? "it is closed" : String(cString: strerror(code)) }
    }

    /// What stdin has, up to 64 KiB (waiting until it has something); empty at its end.
    /// - Throws: `SystemError` when it cannot be read.
    package static func readInput() throws(SystemError) -> [UInt8] {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = read(Stream.input.rawValue, &chunk, chunk.count)
            if count >= 0 { return Array(chunk[0..<count]) }
            if errno != EINTR { throw SystemError.last }
        }
    }

    /// Whether `stream` is a terminal.
    package static func isTerminal(_ stream: Stream) -> Bool {
        isatty(stream.rawValue) != 0
    }

    /// Ends the process with `status`, now.
    package static func exit(_ status: Int32) -> Never {
        Glibc.exit(status)
    }

    /// Makes a write to a closed pipe an `EPIPE`, not a signal that ends the process mid-line.
    package static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }

    /// When the write to stdout under way started (monotonic nanoseconds), or 0 when none is.
    private static let outputWriteStarted = Atomic<Int64>(0)

    /// Whether a write to stdout has been under way for `duration` or longer: its reader
    /// stopped reading, and only a signal's default action can end the process now.
    package static func isOutputBlocked(for duration: Duration) -> Bool {
        let started = outputWriteStarted.load(ordering: .relaxed)
        return started != 0
            && monotonicNanoseconds() - started >= duration.components.seconds * 1_000_000_000
                + duration.components.attoseconds / 1_000_000_000
    }

    private static func monotonicNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}
