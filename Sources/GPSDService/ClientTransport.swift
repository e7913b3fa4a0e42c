import LocateFormats
import LocateSupport

/// What a read of a client's connection gave.
enum TransportInput: Equatable {
    /// These bytes arrived.
    case bytes([UInt8])
    /// Nothing waits now.
    case nothing
    /// The client closed its end (or the connection failed): nothing more will come.
    case ended
}

/// What a write to a client's connection did.
enum TransportOutput: Equatable {
    /// This many bytes went out (maybe fewer than given).
    case sent(Int)
    /// The connection takes nothing now.
    case full
    /// The connection is gone.
    case failed
}

/// The connection a client of the service is served over: a socket, or a script in a test.
/// `ServedClient`'s rules see nothing beyond it, so they run in a unit test without a process.
protocol ClientTransport: AnyObject {
    /// Reads what arrived, at most `limit` bytes, never waiting.
    func receive(limit: Int) -> TransportInput
    /// Writes what the connection takes now of `bytes`, never waiting.
    func send(_ bytes: [UInt8]) -> TransportOutput
    /// The bytes written that the client has not read yet (in the kernel, on both ends of the
    /// connection); `nil` when that cannot be told.
    func unread() -> Int?
    /// Ends the sending half: the client reads what was sent, then the end.
    func shutdownSending()
    /// Closes the connection.
    func close()
}

/// The buffer every socket of the service reads into, one read at a time on the loop's thread
/// (so that a client costs no buffer of its own while it sends nothing).
final class ReadBuffer {
    var bytes = [UInt8](repeating: 0, count: GPSDRequest.segmentSize)
}

/// A client's socket: a loopback TCP connection or a Unix socket, non-blocking.
final class SocketTransport: ClientTransport {
    let descriptor: Int32
    private let diagnostics: SocketDiagnostics
    private let buffer: ReadBuffer
    /// The connection's two ends, to find the peer's receive queue (`nil`: a Unix socket).
    private let key: PeerProcess.TCPKey?
    private var isClosed = false

    init(descriptor: Int32, diagnostics: SocketDiagnostics, buffer: ReadBuffer) {
        self.descriptor = descriptor
        self.diagnostics = diagnostics
        self.buffer = buffer
        key = PeerProcess.tcpKey(descriptor)
    }

    func receive(limit: Int) -> TransportInput {
        switch TCPSocket.receive(descriptor, into: &buffer.bytes, from: 0, limit: min(limit, buffer.bytes.count)) {
        case .bytes(let count): .bytes(Array(buffer.bytes[..<count]))
        case .nothing: .nothing
        case .closed: .ended
        }
    }

    func send(_ bytes: [UInt8]) -> TransportOutput {
        switch ServerSocket.sendSome(descriptor, bytes, from: 0) {
        case .bytes(let count): .sent(count)
        case .full: .full
        case .failed: .failed
        }
    }

    func unread() -> Int? {
        diagnostics.unsent(descriptor, key: key)
    }

    func shutdownSending() {
        ServerSocket.shutdownSending(descriptor)
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        TCPSocket.close(descriptor)
    }

    deinit {
        close()
    }
}
