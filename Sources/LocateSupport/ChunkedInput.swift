import Glibc

/// A descriptor read a chunk at a time: a regular file as fast as it reads; a pipe, a socket or
/// a terminal waited for in `poll` with a wake-up, and `shouldStop` asked at each turn, so a stop
/// cuts the wait short even when the other end stays open without a byte (`sleep 30 | ...`).
package final class ChunkedInput {
    /// How much one read takes.
    package static let chunkSize = 64 * 1024

    private let descriptor: Int32
    private let owned: Bool
    private let mayWait: Bool
    private var wait: EventWait
    private let shouldStop: () -> Bool
    private var chunk = [UInt8](repeating: 0, count: chunkSize)
    /// Whether the input ended because its reader was stopped, not at its end.
    package private(set) var wasStopped = false

    /// An input reading `descriptor`, closed at the end when `owned`.
    package init(descriptor: Int32, owned: Bool, wakeUp: WakeUp?, shouldStop: @escaping () -> Bool) {
        self.descriptor = descriptor
        self.owned = owned
        var status = stat()
        mayWait = fstat(descriptor, &status) != 0 || status.st_mode & S_IFMT != S_IFREG
        wait = EventWait(wakeUp: wakeUp)
        self.shouldStop = shouldStop
    }

    deinit {
        if owned { close(descriptor) }
    }

    /// The regular file at `path`, opened for reading after the checks `TrustedFile` makes for
    /// `owner` (a FIFO or a device is refused at once, never waited on), and no larger than `limit`.
    /// - Returns: `nil` when there is no such file.
    /// - Throws: `TrustedFile.Refusal` for a file that cannot be read or is not to be trusted.
    package static func open(_ path: String, owner: TrustedFile.Owner, limit: Int) throws(TrustedFile.Refusal) -> ChunkedInput? {
        let descriptor = Glibc.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw TrustedFile.Refusal(description: "cannot read: " + SystemError.last.reason)
        }
        let input = ChunkedInput(descriptor: descriptor, owned: true, wakeUp: nil) { false }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw TrustedFile.Refusal(description: "cannot read: " + SystemError.last.reason) }
        try TrustedFile.check(status, owner: owner)
        guard status.st_size <= limit else { throw TrustedFile.Refusal(description: "is too large (over \(limit >> 20) MiB)") }
        return input
    }

    /// Whether the input can be read again from an offset (`seek(to:)`): a regular file.
    package var canSeek: Bool { !mayWait }

    /// Makes the next read start at `offset` bytes from the start of a regular file.
    /// - Throws: `SystemError` when the descriptor cannot seek (a pipe, a socket, a terminal).
    package func seek(to offset: Int) throws(SystemError) {
        guard !mayWait else { throw SystemError(code: ESPIPE) }
        guard lseek(descriptor, off_t(offset), SEEK_SET) >= 0 else { throw SystemError.last }
    }

    /// Appends the next chunk to `buffer`.
    /// - Parameter beforeWaiting: called, once, when a pipe, a socket or a terminal has nothing
    ///   to read yet and the read is about to wait for it (so that what was read before can be
    ///   handed on first); a regular file never waits.
    /// - Returns: how many bytes were added; 0 at the end (or when the reader was stopped).
    /// - Throws: `SystemError` when the descriptor cannot be read.
    package func read(appendingTo buffer: inout [UInt8], beforeWaiting: () -> Void = {}) throws(SystemError) -> Int {
        var told = false
        while true {
            if mayWait {
                if !told, !shouldStop(), wait.wait(for: .reading(descriptor), until: .now).isEmpty {
                    told = true
                    beforeWaiting()
                }
                while !shouldStop() {
                    if !wait.wait(for: .reading(descriptor), until: .now.advanced(by: EventWait.tick)).isEmpty { break }
                }
                if shouldStop() {
                    wasStopped = true
                    return 0
                }
            }
            let count = chunk.withUnsafeMutableBytes { raw in Glibc.read(descriptor, raw.baseAddress, raw.count) }
            if count >= 0 {
                buffer += chunk[0..<count]
                return count
            }
            if errno == EINTR || errno == EAGAIN { continue }
            throw SystemError.last
        }
    }
}
