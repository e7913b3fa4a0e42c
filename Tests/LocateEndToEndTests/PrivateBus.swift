import Foundation
import Testing

/// A D-Bus system bus of a test's own: Debian's dbus-daemon on a socket in a directory of its
/// own, whose policy lets every connection own any name, call anything and monitor the bus;
/// stopped with the test.
final class PrivateBus: Sendable {
    /// The bus's address, as `DBUS_SYSTEM_BUS_ADDRESS` takes it.
    let address: String
    private let daemon: RunningProcess
    private let directory: URL

    /// Whether this machine can run a bus of its own (Debian's dbus-daemon, package dbus).
    static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon") }

    /// Starts the bus; returns once it listens.
    init() async throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("locate-bus-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: false)
        let configuration = directory.appendingPathComponent("bus.conf")
        try """
        <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
        <busconfig>
          <type>system</type>
          <listen>unix:path=\(directory.appendingPathComponent("bus").path)</listen>
          <auth>EXTERNAL</auth>
          <policy context="default">
            <allow user="*"/>
            <allow own="*"/>
            <allow send_destination="*" eavesdrop="true"/>
            <allow eavesdrop="true"/>
          </policy>
        </busconfig>
        """.write(to: configuration, atomically: true, encoding: .utf8)
        let daemon = try RunningProcess(
            URL(fileURLWithPath: "/usr/bin/dbus-daemon"), ["--config-file=" + configuration.path, "--nofork", "--print-address"])
        try await daemon.stdout.wait(for: "the bus to listen") { !daemon.stdout.lines.isEmpty || !daemon.process.isRunning }
        guard let address = daemon.stdout.lines.first else { throw HarnessError(description: "dbus-daemon failed: \(daemon.stderr.text)") }
        self.daemon = daemon
        self.address = address
    }

    deinit {
        daemon.process.kill()
        try? FileManager.default.removeItem(at: directory)
    }

    /// `dbus-send` on this bus, with `--print-reply` and `arguments`: its status and output.
    func send(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        let run = try RunningProcess(
            URL(fileURLWithPath: "/usr/bin/dbus-send"), ["--bus=" + address, "--print-reply"] + arguments)
        let status = try await run.waitForExit()
        return (status, run.stdout.text, run.stderr.text)
    }

    /// `dbus-monitor` of the signals `interface` sends on this bus, once it watches.
    func monitor(interface: String) async throws -> RunningProcess {
        let run = try RunningProcess(
            URL(fileURLWithPath: "/usr/bin/dbus-monitor"), ["--address", address, "type='signal',interface='\(interface)'"])
        // A monitor's own name is lost as it becomes one, and said, before it watches.
        try await run.stdout.wait(for: "the monitor to watch") { run.stdout.text.contains("NameLost") || !run.process.isRunning }
        return run
    }
}
