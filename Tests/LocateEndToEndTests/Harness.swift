import Foundation
import PlaceIndexCache
import Synchronization
import Testing

/// Paths of the package under test: the built `locate`, the scripts and the bundled tracks.
enum Package {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `swift test` builds `locate` next to the test bundle; `LOCATE_BIN` overrides it.
    static let locate: URL = {
        if let path = ProcessInfo.processInfo.environment["LOCATE_BIN"] { return URL(fileURLWithPath: path) }
        return URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("locate")
    }()

    static func track(_ name: String) -> URL {
        root.appendingPathComponent("Scripts/tracks/\(name).nmea")
    }

    /// A copy of the built `locate` that every user can run, for the tests that run it as
    /// another user: the build directory may be in a checkout no one else may enter (a home
    /// directory of mode 0700), so the copy is made in a directory of its own under the
    /// system's temporary directory (mode 0755), once per test run, and removed at its end.
    static let locateForOtherUsers = Result<URL, any Error> {
        let directory = URL(fileURLWithPath: "/tmp").appendingPathComponent("locate-test-bin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        let copy = directory.appendingPathComponent("locate")
        try FileManager.default.copyItem(at: locate, to: copy)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: copy.path)
        atexit { TemporaryCopies.removeAll() }
        TemporaryCopies.add(directory)
        return copy
    }
}

/// Directories the harness made for the whole run, removed when the test process exits.
enum TemporaryCopies {
    private static let directories = Mutex<[URL]>([])

    static func add(_ directory: URL) {
        directories.withLock { $0.append(directory) }
    }

    static func removeAll() {
        for directory in directories.withLock({ $0 }) { try? FileManager.default.removeItem(at: directory) }
    }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
}

/// Collects what a child process writes to one pipe, and lets a test wait for it with a deadline.
final class OutputCollector: Sendable {
    private let bytes = Mutex(Data())
    private let ended = Mutex<ContinuousClock.Instant?>(nil)

    /// Reads the pipe's read end on a thread of its own until end of file, then closes it.
    init(readingFrom descriptor: Int32) {
        Thread.detachNewThread { [self] in
            var chunk = [UInt8](repeating: 0, count: 65536)
            while case let count = read(descriptor, &chunk, chunk.count), count != 0 {
                if count < 0 {
                    guard errno == EINTR else { break }
                    continue
                }
                bytes.withLock { $0.append(contentsOf: chunk[0..<count]) }
            }
            close(descriptor)
            ended.withLock { $0 = .now }
        }
    }

    var text: String { bytes.withLock { String(decoding: $0, as: UTF8.self) } }

    /// Complete lines so far (a line without its newline yet is left out).
    var lines: [String] {
        let all = text
        var parts = all.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        parts.removeLast()
        return parts
    }

    var isEnded: Bool { ended.withLock { $0 != nil } }

    /// When the pipe's end was read, as this collector's own thread saw it (not when a test's
    /// task next got one of the cooperative pool's threads, which other tests may hold for seconds).
    var endedAt: ContinuousClock.Instant? { ended.withLock { $0 } }

    /// Waits until `condition` holds, looking every 20 ms (a suspension, never a blocked thread:
    /// the tests share Swift's cooperative pool); fails the wait after `timeout` seconds.
    func wait(timeout: Double = 20, for what: String, until condition: () -> Bool) async throws {
        try await waitUntil(timeout: timeout, failing: HarnessError(description: "timed out waiting for \(what); output so far:\n\(text)"))
        {
            condition()
        }
    }
}

/// A running program with collected stdout and stderr.
final class RunningProcess: Sendable {
    let process: ChildProcess
    let stdout: OutputCollector
    let stderr: OutputCollector
    /// The program's stdin, when it was started with `input: true` (otherwise it reads /dev/null).
    let stdin: FileHandle?
    /// The settings home the program uses, kept as long as the program is: a home made in the
    /// call that starts it is otherwise removed as the call returns, under the running program
    /// ("cannot create .../state", a publish test's failure in full runs).
    private let home: SettingsHome?

    init(
        _ executable: URL, _ arguments: [String], environment: [String: String] = [:], input: Bool = false, home: SettingsHome? = nil
    ) throws {
        self.home = home
        var inherited = ProcessInfo.processInfo.environment
        for name in ["LOCATE_GPSD", "LOCATE_APP", "XDG_CONFIG_HOME", "XDG_CONFIG_DIRS", "XDG_CACHE_HOME", "XDG_STATE_HOME"] {
            inherited[name] = nil
        }
        let out = try PipeEnds()
        let err = try PipeEnds()
        let inputPipe = input ? try PipeEnds() : nil
        let childInput = try inputPipe?.read ?? openNullDevice()
        defer { [out.write, err.write, childInput].forEach { close($0) } }
        stdin = inputPipe.map { FileHandle(fileDescriptor: $0.write, closeOnDealloc: true) }
        stdout = OutputCollector(readingFrom: out.read)
        stderr = OutputCollector(readingFrom: err.read)
        process = try ChildProcess(
            executable, arguments, environment: inherited.merging(environment) { $1 },
            stdin: childInput, stdout: out.write, stderr: err.write)
    }

    /// Waits for the process to exit and for its output to be read; its exit status.
    @discardableResult
    func waitForExit(timeout: Double = 30) async throws -> Int32 {
        do {
            try await waitUntil(
                timeout: timeout,
                failing: HarnessError(
                    description:
                        "\(process.executable.lastPathComponent) did not exit within \(timeout) s (running: \(process.isRunning), stdout ended: \(stdout.isEnded), stderr ended: \(stderr.isEnded))\nstdout: \(stdout.text)\nstderr: \(stderr.text)"
                )
            ) { !process.isRunning && stdout.isEnded && stderr.isEnded }
        } catch {
            process.kill()
            throw error
        }
        return process.terminationStatus ?? -1
    }

    deinit {
        process.kill()
    }

    /// Sends a signal to the program; under `setsid -w`, to the program setsid started.
    func signal(_ number: Int32) {
        process.signal(number)
    }
}

/// A gpsd for one test, on a free loopback port, stopped (with everything it started) at the end:
/// a real gpsd replaying a bundled track through gpsfake (Scripts/simulate), or a misbehaving
/// one (Scripts/fake-gpsd).
final class GpsdServer: Sendable {
    let endpoint: String
    private let server: RunningProcess

    /// A real gpsd replaying `track`; returns once it is ready (`wait`: "fix", "report" or "listen").
    /// The replay runs at 5 epochs per second (`cycle` 0.2 s) so tests reach their fixes sooner;
    /// `restamp` replays it with receiver times from now on (for fix ages).
    /// `late` starts gpsd with no receiver, ready once it listens; ``plugIn()`` plugs the track's in.
    convenience init(
        track: String, port: Int? = nil, wait: String = "fix", cycle: Double = 0.2, restamp: Bool = false, late: Bool = false
    ) async throws {
        var arguments = ["--wait", wait, "--cycle", String(cycle)] + (restamp ? ["--restamp"] : []) + (late ? ["--late"] : [])
        if let port { arguments += ["--port", String(port)] }
        try await self.init(script: "simulate", arguments + [Package.track(track).path])
    }

    /// A gpsd that misbehaves: "stall", "garbage" or "hangup" (see Scripts/fake-gpsd).
    convenience init(misbehaving mode: String) async throws {
        try await self.init(script: "fake-gpsd", [mode])
    }

    private init(script: String, _ arguments: [String]) async throws {
        let server = try RunningProcess(Package.root.appendingPathComponent("Scripts/\(script)"), arguments)
        // Longer than Scripts/simulate's own retries (3 attempts of 10 s), which a loaded machine
        // needs now and then: the harness must not give up on a start that is still being retried.
        try await server.stdout.wait(timeout: 75, for: "Scripts/\(script)") { !server.stdout.lines.isEmpty || !server.process.isRunning }
        guard let line = server.stdout.lines.first else {
            throw HarnessError(description: "Scripts/\(script) failed: \(server.stderr.text)")
        }
        self.server = server
        endpoint = line
    }

    /// Plugs the receiver of a `late` gpsd in, as a USB receiver is plugged in.
    func plugIn() {
        server.signal(SIGUSR1)
    }

    /// The port of the endpoint (`Scripts/simulate` and `Scripts/fake-gpsd` print `127.0.0.1:PORT`).
    var port: Int { endpoint.split(separator: ":").last.flatMap { Int($0) } ?? 0 }

    /// Stops the server and what it started, and waits until they are gone (a test that starts
    /// another gpsd on the same port needs the old one gone).
    func stop() async {
        guard server.process.isRunning else { return }
        server.signal(SIGTERM)
        _ = try? await server.waitForExit(timeout: 15)
    }

    deinit {
        // The end of a test: the server is told to stop, and reaped by a thread of its own, so
        // no test waits for it on the cooperative pool.
        guard server.process.isRunning else { return }
        server.signal(SIGTERM)
        let server = server
        Thread.detachNewThread {
            let deadline = Date().addingTimeInterval(15)
            while server.process.isRunning, Date() < deadline { usleep(20_000) }
            server.process.kill()
        }
    }
}

/// A private settings home for one test: `XDG_CONFIG_HOME` and `XDG_CONFIG_DIRS` in a
/// temporary folder, removed at the end.
final class SettingsHome: Sendable {
    let root: URL

    /// With `user` and `policy` as the content of `locate.conf` and `policy.conf`, when given.
    /// - Parameter reachableByOtherUsers: make the home where another user can reach it (for a
    ///   test that plays a hostile local user with `setpriv`): in `/tmp`, mode 0755, whatever
    ///   the temporary directory of the tests is (it may be in a home no one else may enter).
    init(user: String? = nil, policy: String? = nil, reachableByOtherUsers: Bool = false) throws {
        let parent = reachableByOtherUsers ? URL(fileURLWithPath: "/tmp") : FileManager.default.temporaryDirectory
        root = parent.appendingPathComponent("locate-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: root, withIntermediateDirectories: !reachableByOtherUsers,
            attributes: reachableByOtherUsers ? [.posixPermissions: 0o755] : nil)
        if let user { try write(user, to: userFile) }
        if let policy { try write(policy, to: policyFile) }
    }

    /// Puts the place index in the cache, as a first run leaves it: building it takes seconds in
    /// a debug build, and only a few tests are about building it. A hard link to the one the run
    /// made (24 MB; locate only ever replaces it by renaming, never writes it in place), else a
    /// copy.
    func installPlaceIndex() async throws {
        let directory = cacheFile.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let file = directory.appendingPathComponent("places.index")
        let made = try await PlaceIndexCopy.file()
        if (try? FileManager.default.linkItem(at: made, to: file)) == nil {
            try Data(contentsOf: made).write(to: file)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        }
    }

    /// `allowingAlways()` (or `user` as the settings) with the place index in place.
    static func withPlaceIndex(user: String = "[location]\nauthorization = always\n") async throws -> SettingsHome {
        let home = try SettingsHome(user: user)
        try await home.installPlaceIndex()
        return home
    }

    /// Location allowed always, for tests about something else than permission.
    static func allowingAlways() throws -> SettingsHome {
        try SettingsHome(user: "[location]\nauthorization = always\n")
    }

    var userFile: URL { root.appendingPathComponent("config/locate/locate.conf") }
    var policyFile: URL { root.appendingPathComponent("etc/locate/policy.conf") }

    var cacheFile: URL { root.appendingPathComponent("cache/locate/last-fix.json") }

    /// The state file of the named monitor `name`.
    func monitorFile(_ name: String) -> URL { root.appendingPathComponent("state/locate/monitors/\(name)") }

    var environment: [String: String] {
        [
            "XDG_CONFIG_HOME": root.appendingPathComponent("config").path, "XDG_CONFIG_DIRS": root.appendingPathComponent("etc").path,
            "XDG_CACHE_HOME": root.appendingPathComponent("cache").path, "XDG_STATE_HOME": root.appendingPathComponent("state").path,
        ]
    }

    /// Gives the whole home to `user` (`chown -R`, which needs root), for a `locate` run as that user.
    func giveAway(to user: UInt32) throws {
        let chown = Process()
        chown.executableURL = URL(fileURLWithPath: "/usr/bin/chown")
        chown.arguments = ["-R", "\(user):\(user)", root.path]
        try chown.run()
        chown.waitUntilExit()
        guard chown.terminationStatus == 0 else { throw HarnessError(description: "chown -R \(user) \(root.path) failed") }
    }

    func write(_ text: String, to file: URL) throws {
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let temporary = file.appendingPathExtension("new")
        try Data(text.utf8).write(to: temporary)
        // rename(2), as editors that save atomically do: the watcher must see this kind of change.
        guard rename(temporary.path, file.path) == 0 else { throw HarnessError(description: "cannot rename onto \(file.path)") }
    }

    /// Every file under the settings home but the run's place index, with its content (for leak checks).
    func allFiles() -> [(path: String, content: Data)] {
        let paths = (FileManager.default.enumerator(atPath: root.path)?.allObjects as? [String]) ?? []
        return paths.compactMap { relative in
            let url = root.appendingPathComponent(relative)
            // The place index the run made and linked here holds every place of libgeonames, the
            // same for everyone (no leak), and is 24 MB: not read (one locate wrote is).
            guard !PlaceIndexCopy.isLink(url) else { return nil }
            return (try? Data(contentsOf: url)).map { (url.path, $0) }
        }
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }
}

/// The shared place index (TestPlaceIndex), built by the library the built `locate` uses, in this
/// process (so that a run builds it once for every test), for tests to link into their settings
/// homes: it lives in the build directory as long as the tests, and nothing is left in the
/// temporary directory.
enum PlaceIndexCopy {
    private static let making = Task { () throws -> URL in
        // Seconds of work: on a thread of its own, not the cooperative pool's.
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Void, any Error>) in
            Thread.detachNewThread { done.resume(with: Result { _ = try TestPlaceIndex.english.get() }) }
        }
        return madeFile
    }

    private static let madeFile = URL(fileURLWithPath: TestPlaceIndex.directory).appendingPathComponent("places.index")

    /// Whether `file` is a link to the run's index (the same file, not a copy or one locate wrote).
    static func isLink(_ file: URL) -> Bool {
        func identity(_ url: URL) -> [UInt64]? {
            var status = stat()
            return stat(url.path, &status) == 0 ? [UInt64(status.st_dev), UInt64(status.st_ino)] : nil
        }
        guard file.lastPathComponent == "places.index", let linked = identity(file) else { return false }
        return linked == identity(madeFile)
    }

    /// The index's file, made by the first caller and shared by the rest.
    static func file() async throws -> URL {
        try await making.value
    }
}

/// `locate` with `arguments`, run in a session of its own (`setsid -w`: no controlling terminal,
/// whoever runs the tests, so no prompt) with `settings` as its settings home.
func startLocate(_ arguments: [String], settings: SettingsHome, environment: [String: String] = [:]) throws -> RunningProcess {
    try RunningProcess(
        URL(fileURLWithPath: "/usr/bin/setsid"), ["-w", Package.locate.path] + arguments,
        environment: settings.environment.merging(environment) { $1 }, home: settings)
}

/// Whether the test runs as root (what it plays takes `setpriv`, `chown` or mounts); where it
/// does not, a known issue says the test was not run, rather than a silent pass.
func runsAsRoot(sourceLocation: SourceLocation = #_sourceLocation) -> Bool {
    guard geteuid() != 0 else { return true }
    withKnownIssue("this test needs root, and was not run", sourceLocation: sourceLocation) {
        Issue.record("not root", sourceLocation: sourceLocation)
    }
    return false
}

/// Runs `locate` (as `startLocate`) to completion and returns its status and output.
func runLocate(
    _ arguments: [String], settings: SettingsHome? = nil, environment: [String: String] = [:], timeout: Double = 30
) async throws -> (status: Int32, stdout: String, stderr: String) {
    let home = try settings ?? SettingsHome.allowingAlways()
    let run = try startLocate(arguments, settings: home, environment: environment)
    let status = try await run.waitForExit(timeout: timeout)
    withExtendedLifetime(home) {}
    return (status, run.stdout.text, run.stderr.text)
}

/// `locate` with `arguments` writing its stdout into a pipe of 4 KiB that nobody reads until
/// `reader()` is called: a reader that stopped reading, to see what a change holds back.
final class SlowReader: Sendable {
    let process: ChildProcess
    private let output: Int32

    init(_ arguments: [String], settings: SettingsHome) throws {
        let pipe = try PipeEnds()
        let setPipeSize: Int32 = 1031  // F_SETPIPE_SZ, which Glibc does not export
        _ = fcntl(pipe.write, setPipeSize, 4096)
        let nullDevice = try openNullDevice()
        process = try ChildProcess(
            URL(fileURLWithPath: "/usr/bin/setsid"), ["-w", Package.locate.path] + arguments,
            environment: ProcessInfo.processInfo.environment.merging(settings.environment) { $1 },
            stdin: nullDevice, stdout: pipe.write, stderr: nullDevice)
        close(pipe.write)
        close(nullDevice)
        output = pipe.read
    }

    /// Waits until the pipe is full (the program is blocked writing into it): a write of up
    /// to `PIPE_BUF` goes in whole or waits, so a pipe of short records is full with up to a
    /// record's room left.
    func waitUntilFull(leavingAtMost room: Int32 = 0) async throws {
        let output = output
        try await waitUntil(timeout: 30, failing: HarnessError(description: "the program did not fill its output pipe")) {
            var queued: Int32 = 0
            return ioctl(output, UInt(FIONREAD), &queued) == 0 && queued >= 4096 - room
        }
    }

    /// Starts reading the pipe: what was in it, and everything written after.
    func reader() -> OutputCollector {
        OutputCollector(readingFrom: output)
    }

    deinit {
        process.kill()
    }
}

/// The peak memory (resident set, KiB) of `locate` with `arguments`, measured by GNU time, with
/// its status and output.
func runLocateMeasuringMemory(
    _ arguments: [String], settings: SettingsHome, timeout: Double = 60
) async throws -> (status: Int32, stdout: String, stderr: String, peakKiB: Int) {
    let report = settings.root.appendingPathComponent("time-\(UUID().uuidString)")
    let run = try RunningProcess(
        URL(fileURLWithPath: "/usr/bin/time"), ["-f", "%M", "-o", report.path, Package.locate.path] + arguments,
        environment: settings.environment)
    let status = try await run.waitForExit(timeout: timeout)
    let peak = Int((try? String(contentsOf: report, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "") ?? -1
    return (status, run.stdout.text, run.stderr.text, peak)
}

/// A file's whole content, read to its end: unlike a file on disk, a /proc file says it has no
/// size, and gives its content a page at a time.
func readWholeFile(_ path: String) -> String {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return "" }
    defer { close(descriptor) }
    var content: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while case let count = read(descriptor, &chunk, chunk.count), count > 0 {
        content += chunk[0..<count]
    }
    return String(decoding: content, as: UTF8.self)
}

/// Runs a bash command line to completion (for pipelines), with `settings` as the settings home.
func runShell(
    _ commandLine: String, settings: SettingsHome, timeout: Double = 30
) async throws -> (status: Int32, stdout: String, stderr: String) {
    let run = try RunningProcess(
        URL(fileURLWithPath: "/usr/bin/setsid"), ["-w", "/bin/bash", "-c", commandLine], environment: settings.environment)
    let status = try await run.waitForExit(timeout: timeout)
    return (status, run.stdout.text, run.stderr.text)
}

/// Waits until `condition` holds, looking every 20 ms without blocking a thread; after `timeout`
/// seconds throws `failure`. The harness's one wait.
func waitUntil(timeout: Double, failing failure: @autoclosure () -> any Error, _ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now.advanced(by: .milliseconds(Int64(timeout * 1000)))
    while !condition() {
        guard ContinuousClock.now < deadline else { throw failure() }
        try await Task.sleep(for: .milliseconds(20))
    }
}

/// A free loopback port for a server a test starts (listened on once, then released).
func freePort() throws -> Int {
    try ListeningPort().port
}

/// Runs `body` with a loopback endpoint that refuses every connection until `body` returns: a
/// port bound and never listened on, which no other test's server can take meanwhile (a port
/// listened on once and released could be, and was: a --follow then read another test's gpsd).
func withRefusingEndpoint<T>(_ body: (String) async throws -> T) async throws -> T {
    let port = try RefusingPort()
    defer { withExtendedLifetime(port) {} }
    return try await body(port.endpoint)
}

/// The (latitude, longitude) of every fix epoch of a track, read from its RMC sentences.
func trackPoints(_ name: String) throws -> [(latitude: Double, longitude: Double)] {
    let text = try String(contentsOf: Package.track(name), encoding: .utf8)
    return text.split(whereSeparator: \.isNewline).compactMap { line in
        let fields = line.split(separator: ",", omittingEmptySubsequences: false)
        guard fields.first == "$GPRMC", fields[2] == "A" else { return nil }
        func degrees(_ value: Substring, _ degreeDigits: Int, _ hemisphere: Substring, _ negative: Substring) -> Double? {
            guard let whole = Double(value.prefix(degreeDigits)), let minutes = Double(value.dropFirst(degreeDigits)) else { return nil }
            return (whole + minutes / 60) * (hemisphere == negative ? -1 : 1)
        }
        guard let latitude = degrees(fields[3], 2, fields[4], "S"), let longitude = degrees(fields[5], 3, fields[6], "W") else {
            return nil
        }
        return (latitude, longitude)
    }
}

/// Parses one JSON line into a dictionary.
func jsonObject(_ line: String) throws -> [String: Any] {
    guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
        throw HarnessError(description: "not a JSON object: \(line)")
    }
    return object
}

/// Runs `locate` on a new pseudo-terminal (Scripts/with-terminal), in its foreground, answering
/// the permission prompt with `answer` ("1"..."4", or "EOF") when one is given.
/// Returns the exit status, what the terminal showed, and locate's stdout (sent to a file).
func runLocateOnTerminal(
    _ arguments: [String], settings: SettingsHome, answer: String? = nil
) async throws -> (status: Int32, terminal: String, stdout: String) {
    let stdoutFile = settings.root.appendingPathComponent("stdout-\(UUID().uuidString)")
    var helperArguments = ["--stdout", stdoutFile.path]
    if let answer { helperArguments += ["--expect", "Choose 1-4:", "--answer", answer] }
    let run = try RunningProcess(
        Package.root.appendingPathComponent("Scripts/with-terminal"),
        helperArguments + ["--", Package.locate.path] + arguments, environment: settings.environment)
    let status = try await run.waitForExit(timeout: 40)
    let stdout = (try? String(contentsOf: stdoutFile, encoding: .utf8)) ?? ""
    try? FileManager.default.removeItem(at: stdoutFile)
    return (status, run.stdout.text, stdout)
}

/// A new stream socket of `family` (`AF_INET`, `AF_UNIX`), closed on exec: a program another
/// test spawns meanwhile does not get it (serve refuses a client whose socket processes of two
/// programs hold: the likely end of the 5 clients of 200 that got nothing in one full run).
func streamSocket(_ family: Int32) -> Int32 {
    socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
}

/// A TCP socket bound to a free loopback port, listening when `listening` says so, and its port.
private func loopbackSocket(listening: Bool) throws -> (descriptor: Int32, port: Int) {
    let descriptor = streamSocket(AF_INET)
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let ready = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            bind(descriptor, $0, length) == 0 && (!listening || listen(descriptor, 8) == 0) && getsockname(descriptor, $0, &length) == 0
        }
    }
    guard ready else {
        close(descriptor)
        throw HarnessError(description: listening ? "cannot listen on a loopback port" : "cannot bind a loopback port")
    }
    return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
}

/// A loopback port bound and not listened on, for as long as it lives: a connection to it is
/// refused, and no server can bind it.
final class RefusingPort: Sendable {
    let port: Int
    private let descriptor: Int32

    init() throws {
        (descriptor, port) = try loopbackSocket(listening: false)
    }

    var endpoint: String { "127.0.0.1:\(port)" }

    deinit {
        close(descriptor)
    }
}

/// A loopback port that listens but never answers, to prove that nothing connected to it.
final class ListeningPort: Sendable {
    let port: Int
    private let descriptor: Int32

    init() throws {
        (descriptor, port) = try loopbackSocket(listening: true)
    }

    var endpoint: String { "127.0.0.1:\(port)" }

    /// Whether a client has connected (a connection waits in the backlog).
    var wasConnected: Bool {
        var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
        return poll(&descriptors, 1, 0) > 0
    }

    deinit {
        close(descriptor)
    }
}

/// The scalars a terminal acts on, or shows as nothing, instead of showing them (as
/// `UntrustedText.isHidden` has them, written here from Unicode's classes on their own): controls
/// but the line feed that ends lines, format characters (bidirectional formatting, zero-width
/// spaces and joiners, byte-order marks, tag characters), the other default-ignorable code points
/// (variation selectors, Hangul fillers), blank fillers, line and paragraph separators.
enum UntrustedScalars {
    static func isHidden(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == "\n" { return false }
        if [0x2800, 0x1D159, 0x16FE4].contains(scalar.value) { return true }
        let properties = scalar.properties
        switch properties.generalCategory {
        case .control, .format, .lineSeparator, .paragraphSeparator: return true
        default: return properties.isDefaultIgnorableCodePoint || properties.isBidiControl
        }
    }

    /// The hidden scalars of `text`, in hexadecimal, for a failure to show.
    static func hidden(in text: String) -> [String] {
        text.unicodeScalars.filter(isHidden).map { "U+" + String($0.value, radix: 16, uppercase: true) }
    }

    /// One text of each class of hidden scalar, and how `locate` shows it.
    static let samples: [(name: String, text: String, shown: String)] = [
        ("zero-width space", "\u{200B}", "\\u{200B}"), ("word joiner", "\u{2060}", "\\u{2060}"),
        ("byte-order mark", "\u{FEFF}", "\\u{FEFF}"), ("tag characters", "\u{E0041}\u{E007F}", "\\u{E0041}\\u{E007F}"),
        ("zero-width joiner", "\u{200D}", "\\u{200D}"), ("soft hyphen", "\u{AD}", "\\u{AD}"),
        ("bidirectional override", "\u{202E}", "\\u{202E}"), ("terminal escape", "\u{1B}[2J", "\\u{1B}[2J"),
        ("C1 control", "\u{9B}", "\\u{9B}"), ("variation selector", "\u{FE0F}", "\\u{FE0F}"),
        ("Hangul filler", "\u{3164}", "\\u{3164}"), ("Braille pattern blank", "\u{2800}", "\\u{2800}"),
        ("line separator", "\u{2028}", "\\u{2028}"),
    ]
}

/// Whether `text` contains the parked track's coordinate (64.1504321, -21.9404567) or anything
/// rounding to it, at any precision from whole degrees up. Strings in `known` (paths with random
/// names, endpoints with random ports) are taken out first, as their digits mean nothing.
func leaksParkedCoordinate(_ fullText: String, known: [String] = []) -> Bool {
    // The harness's own names (temporary homes, copies) hold UUIDs, whose digits may look like a
    // coordinate's ("locate-test-224F..."): they are known too. So are times ("23:56:21.950Z" is
    // no longitude) and process and user numbers (a pid of 6415 is no latitude).
    let anonymous =
        fullText
        .replacing(/[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}/, with: "<uuid>")
        .replacing(/\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?/, with: "<time>")
        .replacing(/"(pid|user)":\d+/, with: "<process>")
    let text = known.reduce(anonymous) { $0.replacingOccurrences(of: $1, with: "<known>") }
    return text.contains("64.1") || text.contains("64.2") || text.contains("-21.9") || text.contains("-22")
        || text.contains("21.94") || text.contains("6415") || text.contains("2194")
        || text.contains(" 64 ") || text.hasPrefix("64 ") || text.contains(":64,") || text.contains(":64}")
}

/// What jq makes of `input` with `filter` (`jq -r FILTER`, so strings come out as their text):
/// its status and output. The input goes through a file in `settings`' home.
func runJQ(_ filter: String, input: String, settings: SettingsHome) async throws -> (status: Int32, stdout: String, stderr: String) {
    let file = settings.root.appendingPathComponent("jq-input-\(UUID().uuidString)")
    try Data(input.utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    return try await runShell("jq -r '\(filter)' < '\(file.path)'", settings: settings)
}
