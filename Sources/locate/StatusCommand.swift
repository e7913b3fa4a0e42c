import GPSLocation

/// `locate status`: explains, without printing any coordinate, why `locate` would or would not
/// give a position: the services switch, the permission and where it was decided, gpsd, its
/// devices and the quality of the current fix. gpsd is asked only when location is authorized.
struct StatusCommand {
    let options: CommandLineOptions
    let manager: GPSLocationManager
    let permission: Permission

    /// - Throws: `OutputError` when stdout cannot be written.
    func run() async throws(StandardStreams.OutputError) -> ExitStatus {
        var facts: [(key: String, value: String?)] = [
            ("services", permission.locationServicesEnabled ? "on" : "off"),
            ("authorization", AuthorizationMessages.authorizationName(permission.status, servicesOff: !permission.locationServicesEnabled)),
            ("decided_by", permission.statusOrigin?.description),
            ("accuracy", permission.accuracy.rawValue),
            ("authorized_now", permission.isAuthorized ? "yes" : "no"),
            ("reason", permission.denial?.rawValue),
            ("gpsd", manager.configuration.endpoint.description),
        ]
        var status = ExitStatus.success
        if let reason = permission.denial {
            facts.append(("gpsd_state", "not asked (location not authorized)"))
            status = ExitStatus(FallbackReason(reason))
        } else {
            do {
                let receiver = try await manager.receiverStatus()
                facts.append(("gpsd_state", "reachable"))
                facts.append(("devices", receiver.devices.joined(separator: " ")))
                facts.append(("fix", receiver.mode?.rawValue ?? "none"))
                facts.append(("sats_used", receiver.satellitesUsed.map(String.init)))
                facts.append(("h_acc", receiver.horizontalAccuracy.flatMap { NumberFormatting.fixed($0, decimals: 1) }))
            } catch let error as GPSLocationError {
                facts.append(("gpsd_state", error.description))
                status = ExitStatus(error)
            } catch {
                facts.append(("gpsd_state", String(describing: error)))
                status = .failure
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
