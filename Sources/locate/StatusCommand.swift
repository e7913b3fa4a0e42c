import GPSLocation
import GPSLocationConsent
import LocateFormats
import LocateSupport

/// `locate status`: explains, without printing any coordinate, why `locate` would or would not
/// give a position: the services switch, the permission and where it was decided, gpsd, its
/// devices and the quality of the current fix. gpsd is asked only when location is authorized.
struct StatusCommand {
    let options: StatusOptions
    let manager: GPSLocationManager
    let settings: ConsentSettings
    let accessLog: AccessLog

    /// How long gpsd has to answer without `--timeout`.
    static let defaultTimeout = Duration.seconds(3)
    /// How far this machine's clock may be from the receiver's before `status` says so, seconds:
    /// more than a fix's age and gpsd's latency, less than any clock left unset.
    static let largeClockOffset = 10.0

    /// - Throws: `OutputError` when stdout cannot be written.
    func run() async throws(StandardStreams.OutputError) -> ExitStatus {
        let authorization = (try? manager.authorization()) ?? Authorization(decision: settings.decision, appState: .terminal)
        func text(_ value: String?) -> FieldValue { value.map(FieldValue.text) ?? .unknown }
        var facts: [(key: String, value: FieldValue)] = [
            ("services", .text(authorization.locationServicesEnabled ? "on" : "off")),
            (
                "authorization",
                .text(AuthorizationMessages.authorizationName(authorization.status, servicesOff: !authorization.locationServicesEnabled))
            ),
            ("decided_by", text(settings.statusDecidedBy?.description)),
            ("accuracy", .text(authorization.accuracy.rawValue)),
            ("authorized_now", .flag(authorization.isAuthorized)),
            ("reason", text(authorization.denial?.rawValue)),
            ("gpsd", .text(manager.configuration.endpoint.description)),
            ("served_clients", .number(Double((try? accessLog.currentReceivers().filter { $0.via == "serve" }.count) ?? 0), decimals: 0)),
        ]
        var status = ExitStatus.success
        if let reason = authorization.denial {
            facts.append(("gpsd_state", .text("not asked (location not authorized)")))
            status = ExitStatus(FallbackReason.notAuthorized(reason))
        } else {
            do throws(GPSLocationError) {
                let receiver = try await manager.receiverStatus(timeout: options.timeout ?? Self.defaultTimeout)
                facts.append(("gpsd_state", .text("reachable")))
                facts.append(("devices", .text(receiver.devices.joined(separator: " "))))
                facts.append((RecordKey.mode.rawValue, .text(receiver.mode?.rawValue ?? "none")))
                facts.append((RecordKey.fix.rawValue, receiver.fixType.map { .text($0.rawValue) } ?? .unknown))
                facts.append(
                    (RecordKey.satellitesUsed.rawValue, receiver.satellitesUsed.map { .number(Double($0), decimals: 0) } ?? .unknown))
                facts.append(
                    (RecordKey.horizontalAccuracy.rawValue, receiver.horizontalAccuracy.map { .number($0, decimals: 1) } ?? .unknown))
                facts.append((RecordKey.clockOffset.rawValue, receiver.clockOffset.map { .number($0, decimals: 3) } ?? .unknown))
                if let offset = receiver.clockOffset, abs(offset) > Self.largeClockOffset {
                    StandardStreams.diagnose(
                        "this machine's clock is \(NumberFormatting.plain(abs(offset).rounded())) s "
                            + (offset > 0 ? "ahead of" : "behind") + " the receiver's time: set it (timedatectl, or chrony with gpsd's SHM)"
                    )
                }
            } catch {
                facts.append(("gpsd_state", .text(error.description)))
                status = ExitStatus(error)
            }
        }
        // JSON: numbers as numbers, the flag as a boolean, unknown as null. Text: a line a fact.
        let output: String
        if options.json {
            var object = JSONObjectWriter()
            for fact in facts { object.add(fact.key, fact.value) }
            output = object.text
        } else {
            output = facts.map { fact in
                var bytes: [UInt8] = []
                if case .flag(let flag) = fact.value {
                    bytes = Array((flag ? "yes" : "no").utf8)
                } else if !fact.value.appendPlain(to: &bytes) {
                    bytes = Array("-".utf8)
                }
                return "\(fact.key): \(UntrustedText.visible(String(decoding: bytes, as: UTF8.self)))"
            }.joined(separator: "\n")
        }
        try StandardStreams.writeRecord(output)
        return status
    }
}

extension StatusCommand {
    /// Runs `locate status` with `options`, over gpsd with the store's consent, with its access log.
    /// - Throws: `OutputError` when stdout cannot be written.
    static func run(_ options: StatusOptions) throws(StandardStreams.OutputError) -> ExitStatus {
        try ConsentSetup.run(app: options.app) { setup throws(StandardStreams.OutputError) in
            let manager = GPSLocationManager(
                authorizationSource: setup.store, configuration: setup.configuration(endpoint: options.endpoint))
            let command = StatusCommand(
                options: options, manager: manager, settings: setup.settings, accessLog: AccessLog(paths: setup.store.paths))
            return try Locate.waitFor { () async throws(StandardStreams.OutputError) in try await command.run() }
        }
    }
}
