import FoundationEssentials
import GPSLocation
import LocateFormats
import LocateSupport

/// How records (and, where the format has room for them, status events) become bytes on stdout.
/// Each appends whole lines, line ends included, to the output being gathered, so that several
/// records can go out in one write. A format may keep state between calls (GPX tracks its open
/// segment); one value serves one run.
protocol OutputFormat: Sendable {
    /// Appends what comes before the first record (a CSV header, the GPX prologue), if anything.
    mutating func prologue(to output: inout [UInt8])
    /// Appends one record; `false`, appending nothing, when the format has no place for it.
    mutating func record(_ source: RecordSource, to output: inout [UInt8]) -> Bool
    /// Whether records need their place looked up (a place token, or `--geocode`).
    var needsPlaces: Bool { get }
    /// Appends what a status event puts on stdout, if anything, and says what that was.
    mutating func status(_ event: StatusEvent, now: Date, to output: inout [UInt8]) -> StatusOutput
    /// Appends what closes the document (GPX), if anything.
    mutating func epilogue(to output: inout [UInt8])
}

/// What a format did with a status event on stdout.
enum StatusOutput: Equatable {
    /// Nothing: the event is a line on stderr.
    case none
    /// The event itself, as a record (`--json --events`); nothing on stderr.
    case event
    /// A mark the event leaves in the document (a GPX segment break); the line on stderr too.
    case mark
}

extension OutputFormat {
    var needsPlaces: Bool { false }
    mutating func prologue(to output: inout [UInt8]) {}
    mutating func status(_ event: StatusEvent, now: Date, to output: inout [UInt8]) -> StatusOutput { .none }
    mutating func epilogue(to output: inout [UInt8]) {}
}

/// The default: `latitude longitude` with six decimals, ready for `read lat lon`; for events,
/// the kind's text fields (`RecordKind.textFields`) separated by spaces, coordinates with six
/// decimals and an unknown value as `-`.
struct TextFormat: OutputFormat {
    /// The fields of an event's line; `nil` for a fix, whose line is its coordinate alone (and
    /// whose `--once` touches no field table at all).
    private let eventFields: [RecordField]?

    init(kind: RecordKind = .fix, devices: Bool = false) {
        guard kind != .fix else {
            eventFields = nil
            return
        }
        let table = kind.fields(includingPlaces: false, devices: true)
        eventFields = kind.textFields(devices: devices).compactMap { key in table.first { $0.key == key } }
    }

    mutating func record(_ source: RecordSource, to output: inout [UInt8]) -> Bool {
        guard let eventFields else {
            _ = NumberFormatting.append(source.location.latitude, decimals: 6, to: &output)
            output.append(UInt8(ascii: " "))
            _ = NumberFormatting.append(source.location.longitude, decimals: 6, to: &output)
            output.append(UInt8(ascii: "\n"))
            return true
        }
        for (index, field) in eventFields.enumerated() {
            if index > 0 { output.append(UInt8(ascii: " ")) }
            var value = field.value(source)
            if case .number(let number, _) = value, field.key == .latitude || field.key == .longitude {
                value = .number(number, decimals: 6)
            }
            if !value.appendPlain(to: &output) { output.append(UInt8(ascii: "-")) }
        }
        output.append(UInt8(ascii: "\n"))
        return true
    }
}
