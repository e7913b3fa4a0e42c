import Foundation
import Synchronization

/// A program the tests start, with `posix_spawn`. Foundation's `Process.run()` on Linux reads
/// past the end of `/proc/self/fd` entries (swift-corelibs-foundation#5472, fixed after Swift 6.3)
/// and crashed one full test run in five; this is the harness's one way to start a program.
///
/// The child gets the descriptors it is given as its stdin, stdout and stderr and nothing else
/// of the test process (every other one is closed in it), every signal
/// at its default disposition and none blocked, and a process group of its own, so a test's
/// Ctrl-C reaches the test runner only.
final class ChildProcess: Sendable {
    let executable: URL
    let processIdentifier: pid_t
    /// The raw wait status once the child is reaped.
    private let waitStatus = Mutex<Int32?>(nil)
    /// Held while a child starts, and while the harness makes descriptors close-on-exec.
    static let spawnLock = Mutex(())

    init(
        _ executable: URL, _ arguments: [String], environment: [String: String],
        stdin: Int32, stdout: Int32, stderr: Int32
    ) throws {
        self.executable = executable
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (descriptor, target) in [(stdin, STDIN_FILENO), (stdout, STDOUT_FILENO), (stderr, STDERR_FILENO)] {
            posix_spawn_file_actions_adddup2(&actions, descriptor, target)
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))

        let argv = ([executable.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let result = Self.spawnLock.withLock { _ in
            // Every other descriptor of the test process is closed in the child (a listening
            // socket a child kept open would answer for a port a test closed).
            let open = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
            for descriptor in open.compactMap({ Int32($0) }) where descriptor > STDERR_FILENO {
                posix_spawn_file_actions_addclose(&actions, descriptor)
            }
            return posix_spawn(&pid, executable.path, &actions, &attributes, argv, envp)
        }
        guard result == 0 else {
            throw HarnessError(description: "cannot start \(executable.path): \(String(cString: strerror(result)))")
        }
        processIdentifier = pid
    }

    /// Whether the child has not exited yet (it is reaped once it has).
    var isRunning: Bool {
        waitStatus.withLock { status in
            guard status == nil else { return false }
            var raw: Int32 = 0
            if waitpid(processIdentifier, &raw, WNOHANG) == processIdentifier { status = raw }
            return status == nil
        }
    }

    /// The exit status, or the number of the signal that ended the child (as Foundation's
    /// `Process.terminationStatus`); `nil` while it runs.
    var terminationStatus: Int32? {
        guard !isRunning, let raw = waitStatus.withLock({ $0 }) else { return nil }
        let signal = raw & 0x7f
        return signal == 0 ? (raw >> 8) & 0xff : signal
    }

    /// Sends a signal to the program; under `setsid -w`, to the program setsid started (setsid
    /// passes no signal on).
    func signal(_ number: Int32) {
        Glibc.kill(sessionChild ?? processIdentifier, number)
    }

    /// The program `setsid -w` started, while it runs.
    private var sessionChild: pid_t? {
        guard executable.lastPathComponent == "setsid",
            let children = try? String(contentsOfFile: "/proc/\(processIdentifier)/task/\(processIdentifier)/children", encoding: .utf8)
        else { return nil }
        return children.split(separator: " ").first.flatMap { pid_t($0) }
    }

    /// Kills the child, what it started in its process group (Scripts/simulate's gpsd), and the
    /// program setsid started, and reaps it.
    func kill() {
        guard isRunning else { return }
        if let child = sessionChild { Glibc.kill(child, SIGKILL) }
        Glibc.kill(-processIdentifier, SIGKILL)
        Glibc.kill(processIdentifier, SIGKILL)
        waitStatus.withLock { status in
            var raw: Int32 = 0
            while status == nil {
                let reaped = waitpid(processIdentifier, &raw, 0)
                if reaped == processIdentifier { status = raw } else if errno != EINTR { break }
            }
        }
    }
}

/// A pipe whose two ends are closed on exec: a child gets an end only as its stdin, stdout or
/// stderr.
struct PipeEnds {
    let read: Int32
    let write: Int32

    init() throws {
        var ends: [Int32] = [-1, -1]
        // Glibc's module has no pipe2: the ends are marked close-on-exec under the lock every
        // spawn takes, so no child starts between pipe() and fcntl().
        let made = ChildProcess.spawnLock.withLock { _ in
            guard pipe(&ends) == 0 else { return false }
            return ends.allSatisfy { fcntl($0, F_SETFD, FD_CLOEXEC) == 0 }
        }
        guard made else { throw HarnessError(description: "cannot make a pipe") }
        read = ends[0]
        write = ends[1]
    }
}

/// `/dev/null`, opened close-on-exec, for a child's stdin or stderr.
func openNullDevice() throws -> Int32 {
    let descriptor = open("/dev/null", O_RDWR | O_CLOEXEC)
    guard descriptor >= 0 else { throw HarnessError(description: "cannot open /dev/null") }
    return descriptor
}
