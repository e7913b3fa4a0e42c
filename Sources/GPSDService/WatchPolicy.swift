import LocateFormats

/// What a client asked to be sent, as gpsd keeps it per client and echoes it in WATCH.
struct WatchPolicy: Equatable {
    var enabled = false
    var json = false
    var nmea = false
    /// 0: no raw data; 1 or more: the receiver's sentences as they come.
    var raw = 0
    var scaled = false
    var split24 = false
    var pps = false
    var timing = false
    /// The receiver the client watches; `nil` for all.
    var device: String?

    /// The policy of a client of `--nmea`: the sentences, from the start.
    static let sentences = WatchPolicy(enabled: true, nmea: true)

    mutating func apply(_ change: WatchChange) {
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
    var wantsSentences: Bool { enabled && (nmea || raw > 0) }

    /// Whether reports of `device` go to the client (`nil`: a report of a receiver not known,
    /// which goes only to a watch of every receiver).
    func watches(_ device: String?) -> Bool {
        guard let watched = self.device else { return true }
        return watched == device
    }
}
