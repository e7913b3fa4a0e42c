import Foundation
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
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
}

/// Collects what a child process writes to one pipe, and lets a test wait for it with a deadline.
final class OutputCollector: Sendable {
    private let bytes = Mutex(Data())
    private let ended = Mutex(false)

    /// Reads the pipe on a thread of its own until end of file.
    init(_ pipe: Pipe) {
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread { [self] in
            while case let chunk = handle.availableData, !chunk.isEmpty {
                bytes.withLock { $0.append(chunk) }
            }
            ended.withLock { $0 = true }
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

    var isEnded: Bool { ended.withLock { $0 } }

    /// Waits until `condition` holds, polling every 20 ms; fails the wait after `timeout` seconds.
    func wait(timeout: Double = 20, for what: String, until condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            guard Date() < deadline else { throw HarnessError(description: "timed out waiting for \(what); output so far:\n\(text)") }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }
}

/// A running program with collected stdout and stderr.
final class RunningProcess: Sendable {
    let process: Process
    let stdout: OutputCollector
    let stderr: OutputCollector

    init(_ executable: URL, _ arguments: [String], environment: [String: String] = [:]) throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        stdout = OutputCollector(out)
        stderr = OutputCollector(err)
        try process.run()
        self.process = process
    }

    /// Waits for the process to exit and for its output to be read; its exit status.
    @discardableResult
    func waitForExit(timeout: Double = 30) throws -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning || !stdout.isEnded || !stderr.isEnded {
            guard Date() < deadline else {
                process.terminate()
                throw HarnessError(description: "\(process.executableURL?.lastPathComponent ?? "process") did not exit within \(timeout) s (running: \(process.isRunning), stdout ended: \(stdout.isEnded), stderr ended: \(stderr.isEnded))\nstdout: \(stdout.text)\nstderr: \(stderr.text)")
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return process.terminationStatus
    }

    func signal(_ number: Int32) {
        kill(process.processIdentifier, number)
    }
}

/// A real gpsd replaying a bundled track through gpsfake (Scripts/simulate), on a free loopback port.
final class SimulatedReceiver: Sendable {
    let endpoint: String
    private let simulator: RunningProcess

    /// Starts the replay and returns once gpsd is ready (`wait`: "fix", "report" or "listen").
    /// The replay runs at 5 epochs per second (`cycle` 0.2 s) so tests reach their fixes sooner.
    init(track: String, port: Int? = nil, wait: String = "fix", cycle: Double = 0.2) throws {
        var arguments = ["--wait", wait, "--cycle", String(cycle)]
        if let port { arguments += ["--port", String(port)] }
        let simulator = try RunningProcess(Package.root.appendingPathComponent("Scripts/simulate"), arguments + [Package.track(track).path])
        try simulator.stdout.wait(timeout: 40, for: "the simulated receiver") { !simulator.stdout.lines.isEmpty || !simulator.process.isRunning }
        guard let line = simulator.stdout.lines.first else {
            throw HarnessError(description: "Scripts/simulate failed: \(simulator.stderr.text)")
        }
        self.simulator = simulator
        endpoint = line
    }

    var port: Int { Int(endpoint.split(separator: ":").last!)! }

    /// Stops gpsfake and its gpsd, and waits until they are gone.
    func stop() {
        guard simulator.process.isRunning else { return }
        simulator.signal(SIGTERM)
        _ = try? simulator.waitForExit(timeout: 15)
    }

    deinit {
        stop()
    }
}

/// Runs `locate` to completion and returns its status and output.
/// With `shell`, the arguments go to bash instead (for pipelines).
func runLocate(
    _ arguments: [String], environment: [String: String] = [:], timeout: Double = 30, shell: Bool = false
) throws -> (status: Int32, stdout: String, stderr: String) {
    let program = shell ? URL(fileURLWithPath: "/bin/bash") : Package.locate
    let run = try RunningProcess(program, arguments, environment: environment)
    let status = try run.waitForExit(timeout: timeout)
    return (status, run.stdout.text, run.stderr.text)
}

/// A loopback port with nothing listening on it (bound once, then released).
func closedPort() throws -> Int {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
    }
    guard bound else { throw HarnessError(description: "cannot bind a loopback port") }
    return Int(UInt16(bigEndian: address.sin_port))
}

/// The (latitude, longitude) of every fix epoch of a track, read from its RMC sentences.
func trackPoints(_ name: String) throws -> [(latitude: Double, longitude: Double)] {
    let text = try String(contentsOf: Package.track(name), encoding: .utf8)
    return text.split(whereSeparator: \.isNewline).compactMap { line in
        let fields = line.split(separator: ",", omittingEmptySubsequences: false)
        guard fields.first == "$GPRMC", fields[2] == "A" else { return nil }
        func degrees(_ value: Substring, _ degreeDigits: Int, _ hemisphere: Substring, _ negative: Substring) -> Double {
            let whole = Double(value.prefix(degreeDigits))!
            let minutes = Double(value.dropFirst(degreeDigits))!
            return (whole + minutes / 60) * (hemisphere == negative ? -1 : 1)
        }
        return (degrees(fields[3], 2, fields[4], "S"), degrees(fields[5], 3, fields[6], "W"))
    }
}

/// Parses one JSON line into a dictionary.
func jsonObject(_ line: String) throws -> [String: Any] {
    guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
        throw HarnessError(description: "not a JSON object: \(line)")
    }
    return object
}
