import Foundation
import Testing

/// The library in a host program that leaves SIGPIPE's default action in place
/// (Tests/LibraryProbe): whatever gpsd does, the library never takes the process down.
struct LibraryHostEndToEndTests {
    private static let probe = Package.locate.deletingLastPathComponent().appendingPathComponent("LibraryProbe")

    private func runProbe(_ arguments: [String]) async throws -> (status: Int32, stdout: String) {
        let settings = try SettingsHome.allowingAlways()
        let run = try RunningProcess(Self.probe, arguments, environment: settings.environment)
        let status = try await run.waitForExit(timeout: 30)
        withExtendedLifetime(settings) {}
        return (status, run.stdout.text)
    }

    @Test func aGpsdThatHangsUpNeverRaisesSIGPIPEInTheHost() async throws {
        let gpsd = try await GpsdServer(misbehaving: "hangup")
        let once = try await runProbe(["once", gpsd.endpoint])
        #expect(once.status == 0, "killed by signal \(once.status)? \(once.stdout)")
        #expect(once.stdout == "error: gpsd at \(gpsd.endpoint) closed the connection\ndone\n")
        let follow = try await runProbe(["follow", gpsd.endpoint, "6"])
        #expect(follow.status == 0, "killed by signal \(follow.status)? \(follow.stdout)")
        #expect(follow.stdout.hasPrefix("status gpsd_lost\n") && follow.stdout.hasSuffix("done\n"), "\(follow.stdout)")
    }

    /// Whether process `pid` has a TCP connection attempt under way (SYN_SENT) to loopback `port`.
    private func isConnecting(_ pid: Int32, to port: Int) -> Bool {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        let sockets = Set(
            descriptors.compactMap { name -> Substring? in
                let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(name)")) ?? ""
                return target.hasPrefix("socket:[") ? target.dropFirst(8).dropLast() : nil
            })
        let table = readWholeFile("/proc/net/tcp")
        let remote = String(format: "0100007F:%04X", port)
        return table.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ")
            return fields.count > 9 && fields[2] == remote && fields[3] == "02" && sockets.contains(fields[9])
        }
    }

    @Test func stoppingAStreamAbandonsAReconnectThatHangsInConnect() async throws {
        // gpsd serves one fix, then its port turns into a black hole: the reconnect's connect()
        // hangs. Ending the iteration must end the attempt, not leave it to the kernel's timeout.
        let gpsd = try await GpsdServer(misbehaving: "vanish")
        let settings = try SettingsHome.allowingAlways()
        let probe = try RunningProcess(Self.probe, ["follow", gpsd.endpoint, "2", "hold"], environment: settings.environment, input: true)
        try await probe.stdout.wait(for: "the fix and the loss") { probe.stdout.lines.count >= 2 }
        #expect(probe.stdout.lines == ["fix 10.0 20.0", "status gpsd_lost"])
        let pid = probe.process.processIdentifier
        try await probe.stdout.wait(for: "a reconnect hanging in connect()") { isConnecting(pid, to: gpsd.port) }
        probe.stdin?.write(Data("stop\n".utf8))
        try await probe.stdout.wait(for: "the iteration to end") { probe.stdout.lines.last == "stopped" }
        try await probe.stdout.wait(timeout: 5, for: "the connection attempt to end with the iteration") {
            !isConnecting(pid, to: gpsd.port)
        }
        try probe.stdin?.close()
        #expect(try await probe.waitForExit() == 0)
    }
}
