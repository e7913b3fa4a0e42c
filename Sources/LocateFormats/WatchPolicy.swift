/// What a client of gpsd asked to be sent, as gpsd keeps it per client (each ``WatchChange``
/// applied in turn) and echoes it in its WATCH report (``GPSDReports/watch(_:)``).
package struct WatchPolicy: Equatable, Sendable {
    package var enabled: Bool
    package var json: Bool
    package var nmea: Bool
    /// 0: no raw data; 1 or more: the receiver's sentences as they come.
    package var raw: Int
    package var scaled: Bool
    package var split24: Bool
    package var pps: Bool
    package var timing: Bool
    /// The receiver the client watches; `nil` for all.
    package var device: String?

    /// A policy of what is given; a new client's asks for nothing.
    package init(
        enabled: Bool = false, json: Bool = false, nmea: Bool = false, raw: Int = 0, scaled: Bool = false, split24: Bool = false,
        pps: Bool = false, timing: Bool = false, device: String? = nil
    ) {
        (self.enabled, self.json, self.nmea, self.raw, self.scaled) = (enabled, json, nmea, raw, scaled)
        (self.split24, self.pps, self.timing, self.device) = (split24, pps, timing, device)
    }

    /// The policy of a client of plain NMEA: the sentences, from the start.
    package static let sentences = WatchPolicy(enabled: true, nmea: true)

    /// Applies `change` as gpsd does: `enable` and `device` as it says, every other member
    /// kept unless it gives one.
    package mutating func apply(_ change: WatchChange) {
        enabled = change.enable
        json = change.json ?? json
        nmea = change.nmea ?? nmea
        raw = change.raw ?? raw
        scaled = change.scaled ?? scaled
        split24 = change.split24 ?? split24
        pps = change.pps ?? pps
        timing = change.timing ?? timing
        device = change.device
    }

    /// Whether the receiver's sentences go to the client.
    package var wantsSentences: Bool { enabled && (nmea || raw > 0) }

    /// Whether reports of `device` go to the client (`nil`: a report of a receiver not known,
    /// which goes only to a watch of every receiver).
    package func watches(_ device: String?) -> Bool {
        guard let watched = self.device else { return true }
        return watched == device
    }
}
