import FoundationEssentials
import GPSLocation

/// How records (and, where the format has room for them, status events) become text on stdout.
/// A format may keep state between calls (GPX tracks its open segment); one value serves one run.
protocol OutputFormat: Sendable {
    /// What comes before the first record (a CSV header, the GPX prologue), if anything.
    mutating func prologue() -> String?
    /// One record, without its final line end; `nil` when the format has no place for it.
    mutating func record(_ location: Location, now: Date) -> String?
    /// What a status event puts on stdout, if anything.
    mutating func status(_ event: StatusEvent, now: Date) -> StatusOutput
    /// What closes the document (GPX), if anything.
    mutating func epilogue() -> String?
}

/// What a format does with a status event on stdout.
enum StatusOutput: Equatable {
    /// Nothing: the event is a line on stderr.
    case none
    /// The event itself, as a record (`--json --events`); nothing on stderr.
    case event(String)
    /// A mark the event leaves in the document (a GPX segment break); the line on stderr too.
    case mark(String)
}

extension OutputFormat {
    mutating func prologue() -> String? { nil }
    mutating func status(_ event: StatusEvent, now: Date) -> StatusOutput { .none }
    mutating func epilogue() -> String? { nil }
}

/// The default: `latitude longitude` with six decimals, ready for `read lat lon`.
struct TextFormat: OutputFormat {
    mutating func record(_ location: Location, now: Date) -> String? {
        (NumberFormatting.fixed(location.latitude, decimals: 6) ?? "") + " "
            + (NumberFormatting.fixed(location.longitude, decimals: 6) ?? "")
    }
}
