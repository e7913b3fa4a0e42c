import GPSDService
import GPSLocation
import GPSLocationConsent
import LocateSupport

/// `locate serve`: gpsd's protocol (and NMEA) for local programs, each through its own
/// permission, by the service of `GPSDService`. Runs until SIGINT or SIGTERM (SIGHUP has nothing
/// to re-read: settings changes are live), then closes every client.
struct ServeCommand {
    let listen: [GPSDService.Address]
    /// `--nmea` paths: Unix sockets of plain NMEA.
    let nmea: [String]
    let configuration: GPSLocationConfiguration
    let store: ConsentStore

    /// The default listening address: gpsd's port plus one, on loopback.
    static let defaultAddress = GPSDService.Address.loopback(host: "127.0.0.1", port: 2948)

    func run() async -> ExitStatus {
        let store = store
        let service: GPSDService
        do throws(GPSDService.Failure) {
            service = try GPSDService(
                listening: listen.map { ($0, .gpsd) } + nmea.map { (.unix(path: $0), .nmea) }, gpsd: configuration, store: store,
                explainDenial: { denial, client in
                    guard let appStore = try? store.forApp(client.app) else { return "location is not authorized (\(denial.rawValue))" }
                    return AuthorizationMessages(store: appStore, app: client.app, client: (client.name, client.isDaemon)).explain(denial)
                }, diagnose: StandardStreams.diagnose)
        } catch {
            StandardStreams.diagnose("serve: \(error.description)")
            return ExitStatus(error)
        }
        for (address, _) in service.listeners { StandardStreams.diagnose("serve: listening on \(address)") }
        do throws(GPSDService.Failure) {
            try await service.run()
        } catch {
            StandardStreams.diagnose("serve: \(error.description)")
            return ExitStatus(error)
        }
        return .success
    }
}

extension ServeCommand {
    /// Runs `locate serve` with `options` (on `--listen`'s addresses and `--nmea`'s sockets, else
    /// on the default address) until a signal: a service, so SIGHUP has nothing to re-read
    /// (settings changes are taken as they come).
    /// - Throws: `OutputError` when stdout cannot be written.
    static func run(_ options: ServeOptions) throws(StandardStreams.OutputError) -> ExitStatus {
        try ConsentSetup.run(app: options.app) { setup throws(StandardStreams.OutputError) in
            let command = ServeCommand(
                listen: options.listen.isEmpty && options.nmea.isEmpty ? [defaultAddress] : options.listen, nmea: options.nmea,
                configuration: setup.configuration(endpoint: options.endpoint), store: setup.store)
            return try Locate.waitFor { () async throws(StandardStreams.OutputError) in
                try await StreamLifetime.run(for: nil, ignoring: [SignalTrap.hangUp]) { .success(await command.run()) }
            }
        }
    }
}
