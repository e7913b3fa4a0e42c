import Foundation
import Synchronization

/// A `locate serve` for one test, on a loopback port the system picked, reading `gpsd`.
final class ServeProcess: Sendable {
    let run: RunningProcess
    let port: Int

    /// - Parameter wrapper: a command that runs serve (`asUser(_:)`, `prlimit ...`); none: serve itself.
    init(settings: SettingsHome, gpsd: String, arguments: [String] = [], wrapper: [String] = []) async throws {
        let run = try RunningProcess(
            URL(fileURLWithPath: "/usr/bin/setsid"),
            ["-w"] + wrapper + [Package.locate.path, "serve", "--listen", "127.0.0.1:0"] + arguments + [gpsd],
            environment: settings.environment, home: settings)
        try await run.stderr.wait(for: "serve to listen") { run.stderr.text.contains("listening on 127.0.0.1:") || !run.process.isRunning }
        let text = run.stderr.text
        guard let range = text.range(of: #"listening on 127\.0\.0\.1:([0-9]+)"#, options: .regularExpression),
            let port = Int(text[range].split(separator: ":").last ?? "")
        else { throw HarnessError(description: "serve did not listen: \(text)") }
        self.run = run
        self.port = port
    }

    var endpoint: String { "127.0.0.1:\(port)" }

    /// A gpsd client from Debian (gpspipe, gpxlogger, python3 …), in a session of its own (no
    /// terminal: a daemon, for the foreground rule) talking to this serve.
    func client(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> RunningProcess {
        try RunningProcess(URL(fileURLWithPath: "/usr/bin/setsid"), ["-w", executable] + arguments, environment: environment)
    }

    /// A client run as `user` (`setpriv`, which needs root), in a session of its own.
    func client(_ executable: String, _ arguments: [String], user: UInt32) throws -> RunningProcess {
        try RunningProcess(URL(fileURLWithPath: "/usr/bin/setsid"), ["-w"] + asUser(user) + [executable] + arguments)
    }

    /// Serve's process id (setsid -w forks: serve is setsid's child).
    private var pid: String {
        let children =
            (try? String(
                contentsOfFile: "/proc/\(run.process.processIdentifier)/task/\(run.process.processIdentifier)/children", encoding: .utf8))
            ?? ""
        return children.split(separator: " ").first.map(String.init) ?? String(run.process.processIdentifier)
    }

    /// How many descriptors serve has open now (from /proc; 0 when it cannot be read).
    var openDescriptors: Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd"))?.count ?? 0
    }

    /// What serve's descriptors lead to (sockets, files), for a failure's message.
    var descriptorTargets: [String] {
        let directory = "/proc/\(pid)/fd"
        return ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted().map { name in
            "\(name)->" + ((try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + name)) ?? "?")
        }
    }

    /// How many of serve's descriptors are sockets: all of them, or only the Unix-domain ones
    /// (its clients on a Unix listener, that listener, its threads' wake-ups), those whose inode
    /// the kernel's table of Unix sockets lists. The descriptors are listed first: a socket made
    /// after is not counted, and one closed after is in no table.
    func sockets(unixOnly: Bool = false) -> Int {
        let inodes = descriptorTargets.compactMap { target in
            target.range(of: "->socket:[").map { String(target[$0.upperBound...].dropLast()) }
        }
        guard unixOnly else { return inodes.count }
        // Read to its end (a /proc file's size is 0: a read by size may stop at its first page).
        let table = String(decoding: FileHandle(forReadingAtPath: "/proc/net/unix")?.readDataToEndOfFile() ?? Data(), as: UTF8.self)
        // Num RefCount Protocol Flags Type St Inode Path
        let unix = Set(table.split(separator: "\n").dropFirst().compactMap { $0.split(separator: " ").dropFirst(6).first.map(String.init) })
        return inodes.filter(unix.contains).count
    }

    /// The CPU time serve has used, in clock ticks (user and system, from /proc; 0 when unreadable).
    var cpuTicks: Int {
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
        guard fields.count > 13 else { return 0 }
        return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
    }

    /// Serve's resident memory now, in KiB (from /proc; 0 when it cannot be read).
    var residentKiB: Int {
        let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
}

/// The `setpriv` prefix that runs a command as `user` (and its group of the same number).
func asUser(_ user: UInt32) -> [String] {
    ["/usr/bin/setpriv", "--reuid=\(user)", "--regid=\(user)", "--clear-groups"]
}

/// A gpsd protocol client written by hand, for what no Debian client does: stop reading,
/// send garbage, or be one of hundreds. Non-blocking; reads wait with deadlines, suspending.
final class RawGPSDClient: Sendable {
    let descriptor: Int32
    private let received = Mutex(Data())

    /// Connects to the Unix socket at `path`.
    init(unixPath path: String) throws {
        descriptor = streamSocket(AF_UNIX)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8).prefix($0.count - 1)) }
        let descriptor = descriptor
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0 }
        }
        guard connected else {
            close(descriptor)
            throw HarnessError(description: "cannot connect to serve at \(path)")
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    /// Connects to `port` on loopback; `receiveBuffer` makes the socket's buffer that small.
    init(port: Int, receiveBuffer: Int32? = nil) throws {
        descriptor = streamSocket(AF_INET)
        if var size = receiveBuffer { setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size)) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let descriptor = descriptor
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else {
            close(descriptor)
            throw HarnessError(description: "cannot connect to serve on \(port)")
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        close(descriptor)
    }

    /// Sends `bytes` (waiting while the socket is full, at most `timeout` seconds).
    /// - Returns: whether all went out (`false`: the connection is gone or stayed full).
    @discardableResult
    func send(_ bytes: [UInt8], timeout: Double = 10) async -> Bool {
        var offset = 0
        let deadline = Date().addingTimeInterval(timeout)
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent > 0 {
                offset += sent
                continue
            }
            guard sent < 0, errno == EAGAIN, Date() < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return true
    }

    func send(_ text: String) async { await send(Array(text.utf8)) }

    /// Reads what has arrived; `false` when the connection is closed.
    @discardableResult
    func drain() -> Bool {
        // Not zeroed, not on the heap: 200 clients are drained every 20 ms in one test.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 65536) { buffer in
            while true {
                let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
                if count > 0 {
                    received.withLock { $0.append(contentsOf: buffer[..<count]) }
                    continue
                }
                return count < 0 && (errno == EAGAIN || errno == EINTR)
            }
        }
    }

    /// How many bytes wait in the socket, not read yet (FIONREAD).
    var waitingBytes: Int {
        var count: Int32 = 0
        return ioctl(descriptor, UInt(FIONREAD), &count) == 0 ? Int(count) : 0
    }

    /// How many bytes were received so far.
    var byteCount: Int { received.withLock { $0.count } }

    /// Everything received so far, as text.
    var text: String { String(decoding: received.withLock { $0 }, as: UTF8.self) }

    /// The lines received so far.
    var lines: [String] { gpsdLines(text) }

    /// Reads until `condition` holds of the lines, or the connection closes, or the deadline.
    /// - Returns: whether the connection is still open.
    @discardableResult
    func read(timeout: Double = 20, until condition: ([String]) -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let open = drain()
            if condition(lines) { return open }
            if !open { return false }
            guard Date() < deadline else { throw HarnessError(description: "timed out; received:\n\(text.prefix(2000))") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

/// The lines of gpsd protocol text (CR LF: one Character to Swift, which a split on "\n" misses).
func gpsdLines(_ text: String) -> [String] {
    text.split(whereSeparator: \.isNewline).map(String.init)
}

/// The TPV reports among `lines` that carry a position.
func positionReports(_ lines: [String]) -> [[String: Any]] {
    lines.compactMap { line in
        guard line.hasPrefix(#"{"class":"TPV""#), let object = try? jsonObject(line), object["lat"] != nil else { return nil }
        return object
    }
}
