import GPSLocation
import LocateFormats

/// A region or visit event to write: the event records of `locate monitor` and `locate visits`.
enum EventRecord {
    case region(RegionEvent)
    case visit(VisitEvent)

    /// The position the record carries: the fix that decided a region event, or a visit's centre
    /// (with its accuracy).
    var location: Location {
        switch self {
        case .region(let event):
            return event.location
        case .visit(let event):
            return event.visit.location
        }
    }
}

/// What a command writes: fixes (`locate`), region events (`monitor`) or visits (`visits`).
/// Each kind has one table of fields that JSON, CSV, `--format` and text all write from.
enum RecordKind: Sendable {
    case fix, region, visit

    /// The fields of a JSON record or CSV row of this kind (the place fields only for fixes;
    /// an event's `device` only with `devices`, for `--by`).
    func fields(includingPlaces: Bool, devices: Bool = false) -> [RecordField] {
        switch self {
        case .fix: RecordFields.record(includingPlaces: includingPlaces)
        case .region: devices ? Self.regionFields : Self.regionFields.filter { $0.key != .device }
        case .visit: devices ? Self.visitFields : Self.visitFields.filter { $0.key != .device }
        }
    }

    /// The device an event is of (`--by`): the key's value, as the record named it.
    private static let deviceField = RecordField(.device) { record in record.device.map(FieldValue.text) ?? .unknown }

    /// The `--format` tokens of an event kind: its field names but `type`, as `--help` lists them.
    var tokenNames: String {
        var list = ""
        for field in fields(includingPlaces: false, devices: true) where field.key != .type {
            list += list.isEmpty ? field.name : " %" + field.name
        }
        return list
    }

    /// DESIGN §7: `{"type":"region","region":…,"event":…,"state":…,"time":…,"lat":…,"lon":…,"h_acc":…}`,
    /// and `since`: when the state before the event was decided (a named monitor's last run, or
    /// an earlier fix), `null` for `initial`.
    static let regionFields: [RecordField] = [
        RecordField(.type) { _ in .text("region") },
        RecordField(.region) { record in regionEvent(record).map { .text($0.region.name) } ?? .unknown },
        RecordField(.event) { record in regionEvent(record).map { .text($0.kind.rawValue) } ?? .unknown },
        RecordField(.state) { record in regionEvent(record).map { .text($0.state.rawValue) } ?? .unknown },
        RecordField(.time) { record in record.location.time.map(FieldValue.time) ?? .unknown },
        RecordField(number: .latitude) { $0.location.latitude },
        RecordField(number: .longitude) { $0.location.longitude },
        RecordField(number: .horizontalAccuracy) { $0.location.horizontalAccuracy },
        RecordField(.since) { record in regionEvent(record)?.since.map(FieldValue.time) ?? .unknown },
        deviceField,
    ]

    /// DESIGN §7: `{"type":"visit","event":…,"arrival":…,"departure":…,"lat":…,"lon":…,"h_acc":…}`,
    /// and `device` with `--by`.
    static let visitFields: [RecordField] = [
        RecordField(.type) { _ in .text("visit") },
        RecordField(.event) { record in visitEvent(record).map { .text($0.kind.rawValue) } ?? .unknown },
        RecordField(.arrival) { record in visitEvent(record).map { .time($0.visit.arrival) } ?? .unknown },
        RecordField(.departure) { record in visitEvent(record)?.visit.departure.map(FieldValue.time) ?? .unknown },
        RecordField(number: .latitude) { $0.location.latitude },
        RecordField(number: .longitude) { $0.location.longitude },
        RecordField(number: .horizontalAccuracy) { $0.location.horizontalAccuracy },
        deviceField,
    ]

    /// The fields the default text line has, in order: values a shell's `read` splits on
    /// spaces, the free-form region name last so that `read … name` takes all of it; with
    /// `devices` (`--by`), the device first (a device name has no space).
    func textFields(devices: Bool = false) -> [RecordKey] {
        let fields: [RecordKey] =
            switch self {
            case .fix: [.latitude, .longitude]
            case .region: [.event, .state, .latitude, .longitude, .time, .region]
            case .visit: [.event, .latitude, .longitude, .arrival, .departure]
            }
        return devices && self != .fix ? [.device] + fields : fields
    }

    private static func regionEvent(_ record: RecordSource) -> RegionEvent? {
        if case .region(let event)? = record.event { return event }
        return nil
    }

    private static func visitEvent(_ record: RecordSource) -> VisitEvent? {
        if case .visit(let event)? = record.event { return event }
        return nil
    }
}
