import GPSLocation
import GPSLocationConsent

/// `locate status`: explains, without printing any coordinate, why `locate` would or would not
/// give a position: the services switch, the permission and where it was decided, gpsd, its
/// devices and the quality of the current fix. gpsd is asked only when location is authorized.
struct StatusCommand {
    let options: CommandLineOptions
    let manager: GPSLocationManager
    let settings: ResolvedSettings

    /// - Throws: `OutputError` when stdout cannot be written.
    func run() async throws(StandardStreams.OutputError) -> ExitStatus {
        let authorization = (try? await manager.authorization()) ?? Authorization(decision: settings.decision, context: .current())
        var facts: [(key: String, value: String?)] = [
            ("services", authorization.locationServicesEnabled ? "on" : "off"),
            (
                "authorization",
                AuthorizationMessages.authorizationName(authorization.status, servicesOff: !authorization.locationServicesEnabled)
            ),
            ("decided_by", settings.statusOrigin?.description),
            ("accuracy", authorization.accuracy.rawValue),
            ("authorized_now", authorization.isAuthorized ? "yes" : "no"),
            ("reason", authorization.denial?.rawValue),
            ("gpsd", manager.configuration.endpoint.description),
        ]
        var status = ExitStatus.success
        if let reason = authorization.denial {
            facts.append(("gpsd_state", "not asked (location not authorized)"))
            status = ExitStatus(FallbackReason.notAuthorized(reason))
        } else {
            do throws(GPSLocationError) {
                let receiver = try await manager.receiverStatus()
                facts.append(("gpsd_state", "reachable"))
                facts.append(("devices", receiver.devices.joined(separator: " ")))
                facts.append(("fix", receiver.mode?.rawValue ?? "none"))
                facts.append(("sats_used", receiver.satellitesUsed.map(String.init)))
                facts.append(("h_acc", receiver.horizontalAccuracy.flatMap { NumberFormatting.fixed($0, decimals: 1) }))
            } catch {
                facts.append(("gpsd_state", error.description))
                status = ExitStatus(error)
            }
        }
        let text: String
        if options.isJSON {
            var object = JSONObjectWriter()
            for fact in facts { object.add(fact.key, string: fact.value) }
            text = object.text
        } else {
            text = facts.map { "\($0.key): \(UntrustedText.visible($0.value ?? "-"))" }.joined(separator: "\n")
        }
        try StandardStreams.writeRecord(text)
        return status
    }
}
