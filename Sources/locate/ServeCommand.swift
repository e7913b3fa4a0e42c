import GPSLocation
import GPSLocationConsent
import LocateSupport

/// `locate serve`: one connection to gpsd, through the manager's live updates, fanned out to
/// local clients that speak gpsd's JSON protocol (gpspipe, gpxlogger, cgps, the Python `gps`
/// module, any libgps program), each given what its app's permission lets out, per record, when
/// it is written. Runs until SIGINT or SIGTERM (SIGHUP has nothing to re-read: settings changes
/// are live), then closes every client.
struct ServeCommand {
    let listen: [ServerSocket.Address]
    /// `--nmea` paths: Unix sockets of plain NMEA.
    let nmea: [String]
    let configuration: GPSLocationConfiguration
    let store: ConsentStore

    /// The default listening address: gpsd's port plus one, on loopback.
    static let defaultAddress = ServerSocket.Address.loopback(host: "127.0.0.1", port: 2948)

    func run() async -> ExitStatus {
        var listeners: [(listener: ServerSocket.Listener, speaks: ServedProtocol)] = []
        for (address, speaks) in listen.map({ ($0, ServedProtocol.gpsd) }) + nmea.map({ (ServerSocket.Address.unix(path: $0), .nmea) }) {
            switch ServerSocket.listen(on: address) {
            case .success(let listener):
                listeners.append((listener, speaks))
                StandardStreams.diagnose("serve: listening on \(listener.address)")
            case .failure(let error):
                StandardStreams.diagnose("serve: cannot listen on \(address): \(error.reason)")
                return .unavailable
            }
        }
        guard let wakeUp = WakeUp() else { return .unavailable }
        let mailbox = ServeMailbox(wakeUp: wakeUp)
        guard let identifier = PeerIdentifier(mailbox: mailbox, store: store),
            let recorder = ServeAccessRecorder(log: AccessLog(paths: store.paths))
        else { return .unavailable }
        // What a client has not read is counted through the kernel's socket diagnostics: without
        // them, what a revoke cannot take back would have no bound.
        guard let diagnostics = SocketDiagnostics() else {
            StandardStreams.diagnose("serve: the kernel's socket diagnostics (NETLINK_SOCK_DIAG) cannot be had")
            return .unavailable
        }
        let loop = ServeLoop(
            listeners: listeners, mailbox: mailbox, identifier: identifier, store: store, recorder: recorder, diagnostics: diagnostics)
        // serve reads gpsd for its clients, whose own permissions gate every record; its
        // connection is a daemon's.
        let manager = GPSLocationManager(
            authorizationSource: StaticAuthorization(AuthorizationDecision(status: .authorizedAlways)), configuration: configuration,
            appState: .unattended)
        let upstream = Task {
            do throws(GPSLocationError) {
                for try await update in await manager.liveUpdates() {
                    switch update {
                    case .location(let location): mailbox.post(location)
                    case .status(.gpsdLost): StandardStreams.diagnose("serve: gpsd lost; reconnecting")
                    case .status(.reconnected): StandardStreams.diagnose("serve: gpsd reconnected")
                    case .status: break
                    }
                }
            } catch {
                if error != .cancelled { StandardStreams.diagnose("serve: \(error.description)") }
            }
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                let started = DedicatedThread.start {
                    loop.run()
                    done.resume()
                }
                if !started { done.resume() }
            }
        } onCancel: {
            mailbox.stop()
        }
        upstream.cancel()
        await recorder.stop()
        for (listener, _) in listeners {
            // The file goes while the socket still listens: until then another serve finds it
            // live and leaves it, so the file removed is this one's.
            ServerSocket.removeSocket(of: listener)
            TCPSocket.close(listener.descriptor)
        }
        return .success
    }
}
