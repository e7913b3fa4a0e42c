import Glibc

/// Who is at the other end of a local connection, as the kernel says: the user, from
/// `SO_PEERCRED` for a Unix socket or the socket's owner in `/proc/net/tcp` for loopback TCP, and
/// the process, from `SO_PEERCRED` or the process of this user's holding the socket's inode in
/// `/proc/PID/fd`; then the process's executable and whether it is in the foreground of its terminal.
package enum PeerProcess {
    /// The peer of one connection.
    package struct Peer: Sendable, Equatable {
        /// The user the peer's socket belongs to.
        package let uid: UInt32
        /// The process holding it; `nil` when none of this user's could be found (it ended, or
        /// is another user's). The lowest of `holders` for TCP.
        package var pid: Int32?
        /// Every process of this user's holding it, lowest first (for a Unix socket, the one
        /// that connected).
        package var holders: [Int32]

        package init(uid: UInt32, pid: Int32?, holders: [Int32]? = nil) {
            self.uid = uid
            self.pid = pid
            self.holders = holders ?? pid.map { [$0] } ?? []
        }
    }

    /// The user running this process.
    package static var currentUser: UInt32 { getuid() }

    /// This process's id.
    package static var currentProcess: Int32 { getpid() }

    /// Whether a process `pid` exists now (whoever's it is).
    package static func isRunning(_ pid: Int32) -> Bool {
        pid > 0 && (kill(pid, 0) == 0 || errno == EPERM)
    }

    /// The two ends of an accepted TCP connection, to find the peer's socket: its local end is
    /// our remote one.
    package struct TCPKey: Sendable, Hashable {
        let family: Int32
        let peerAddress: [UInt8]
        let peerPort: UInt16
        let ourAddress: [UInt8]
        let ourPort: UInt16

        /// The peer's socket as `/proc/net/tcp` spells a row's two ends (`0100007F:0B84`): the
        /// address as 32-bit words in host order, the port, in upper-case hex.
        fileprivate var tableRow: String {
            func end(_ address: [UInt8], _ port: UInt16) -> String {
                let words = stride(from: 0, to: address.count, by: 4).map { offset in
                    address[offset..<offset + 4].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
                }
                return words.map { hex($0, digits: 8) }.joined() + ":" + hex(UInt32(port), digits: 4)
            }
            return end(peerAddress, peerPort) + " " + end(ourAddress, ourPort)
        }
    }

    /// The key of the accepted TCP connection `descriptor`; `nil` for a Unix socket.
    package static func tcpKey(_ descriptor: Int32) -> TCPKey? {
        guard let peer = end(descriptor, peer: true), let ours = end(descriptor, peer: false), peer.family == ours.family else {
            return nil
        }
        return TCPKey(family: peer.family, peerAddress: peer.address, peerPort: peer.port, ourAddress: ours.address, ourPort: ours.port)
    }

    /// The peer of the Unix socket `descriptor` (`SO_PEERCRED`).
    package static func unixPeer(_ descriptor: Int32) -> Peer? {
        // struct ucred (pid, uid, gid), which Glibc's module does not export without _GNU_SOURCE.
        var credentials: [Int32] = [0, -1, -1]
        var length = socklen_t(MemoryLayout<Int32>.size * 3)
        guard getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0, length == 12 else { return nil }
        return Peer(uid: UInt32(bitPattern: credentials[1]), pid: credentials[0] > 0 ? credentials[0] : nil)
    }

    /// The peers of loopback TCP connections: each socket's owner and inode from the kernel's
    /// socket diagnostics (`NETLINK_SOCK_DIAG`, an exact lookup of a few microseconds), or, where
    /// that is not to be had, from one read of `/proc/net/tcp` and `tcp6` (milliseconds: the
    /// kernel walks its whole table); then one walk of this user's processes' descriptors for all
    /// of them. A connection whose socket is not found has no entry.
    package static func tcpPeers(_ keys: [TCPKey]) -> [TCPKey: Peer] {
        var owners: [TCPKey: (uid: UInt32, inode: UInt64)] = [:]
        if let diagnostics = SocketDiagnostics() {
            for key in keys { owners[key] = diagnostics.peerSocket(key).map { ($0.uid, $0.inode) } }
        }
        let missing = keys.filter { owners[$0] == nil }
        if !missing.isEmpty {
            var wanted: [String: TCPKey] = [:]
            for key in missing { wanted[key.tableRow] = key }
            for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
                for line in readText(table).split(separator: "\n").dropFirst() {
                    let fields = line.split(separator: " ")
                    guard fields.count > 9, let key = wanted[fields[1] + " " + fields[2]], let uid = UInt32(fields[7]),
                        let inode = UInt64(fields[9]), inode != 0
                    else { continue }
                    owners[key] = (uid, inode)
                }
            }
        }
        let holders = processes(holding: Set(owners.values.filter { $0.uid == getuid() }.map(\.inode)))
        var peers: [TCPKey: Peer] = [:]
        for (key, owner) in owners {
            let pids = (holders[owner.inode] ?? []).sorted()
            peers[key] = Peer(uid: owner.uid, pid: pids.first, holders: pids)
        }
        return peers
    }

    /// The pids of this user's processes that hold each socket inode, all of them (a process
    /// may have handed its socket to another program by fork and exec).
    private static func processes(holding inodes: Set<UInt64>) -> [UInt64: [Int32]] {
        guard !inodes.isEmpty, let proc = opendir("/proc") else { return [:] }
        var pids: [Int32] = []
        while let entry = readdir(proc) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if let pid = Int32(name) { pids.append(pid) }
        }
        closedir(proc)
        var found: [UInt64: [Int32]] = [:]
        let me = getuid()
        for pid in pids {
            var status = stat()
            guard stat("/proc/\(pid)", &status) == 0, status.st_uid == me, let fds = opendir("/proc/\(pid)/fd") else { continue }
            while let fd = readdir(fds) {
                let fdName = withUnsafeBytes(of: fd.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                guard fdName.first != ".", let target = readLink("/proc/\(pid)/fd/\(fdName)"), target.hasPrefix("socket:["),
                    let inode = UInt64(target.dropFirst(8).dropLast()), inodes.contains(inode)
                else { continue }
                if found[inode]?.contains(pid) != true { found[inode, default: []].append(pid) }
            }
            closedir(fds)
        }
        return found
    }

    /// The executable of process `pid` (the target of `/proc/PID/exe`); `nil` when it cannot be read.
    package static func executable(_ pid: Int32) -> String? {
        readLink("/proc/\(pid)/exe").map { $0.hasSuffix(" (deleted)") ? String($0.dropLast(10)) : $0 }
    }

    /// Whether process `pid` has a controlling terminal and is in its foreground process group
    /// (`/proc/PID/stat`: `tty_nr` and `tpgid` against `pgrp`); `nil` when the process is gone.
    package static func terminalState(_ pid: Int32) -> (hasTerminal: Bool, isForeground: Bool)? {
        let text = readText("/proc/\(pid)/stat")
        // After the command name in parentheses (which may hold anything): state ppid pgrp session tty_nr tpgid.
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 5, let group = Int32(fields[2]), let tty = Int32(fields[4]), let foreground = Int32(fields[5]) else {
            return nil
        }
        return (tty != 0, tty != 0 && foreground == group)
    }

    /// One end of `descriptor`: its family, address bytes (as in its sockaddr) and port.
    private static func end(_ descriptor: Int32, peer: Bool) -> (family: Int32, address: [UInt8], port: UInt16)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                peer ? getpeername(descriptor, $0, &length) : getsockname(descriptor, $0, &length)
            }
        }
        guard status == 0 else { return nil }
        return withUnsafeBytes(of: &storage) { bytes -> (family: Int32, address: [UInt8], port: UInt16)? in
            let family = Int32(bytes.load(as: sa_family_t.self))
            let port = UInt16(bigEndian: bytes.load(fromByteOffset: 2, as: UInt16.self))
            switch family {
            case AF_INET: return (family, Array(bytes[4..<8]), port)
            case AF_INET6: return (family, Array(bytes[8..<24]), port)
            default: return nil
            }
        }
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    private static func readLink(_ path: String) -> String? {
        guard case .success(let text) = linkText(of: path), !text.isEmpty else { return nil }
        return text
    }

    /// A small file of `/proc`, whole (a few MB at most for the socket tables); empty when unreadable.
    private static func readText(_ path: String) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return "" }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while bytes.count < 64 << 20 {
            let count = read(descriptor, &chunk, chunk.count)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
