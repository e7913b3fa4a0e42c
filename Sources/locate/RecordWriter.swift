import FoundationEssentials
import GPSLocation
import GPSLocationConsent
import GPSLocationPlaces

/// Writes a run's output in the chosen format: the prologue before the first output, records,
/// the fallback coordinate when there is no live fix to give (unless disabled), status events
/// (to stdout when the format takes them, otherwise to stderr), and the epilogue at the end.
///
/// What goes to stdout is gathered until `flush()`, so that the records ready at one moment go
/// out in one `write(2)`; stderr lines go out at once.
struct RecordWriter {
    private var format: any OutputFormat
    /// `nil` when `--no-fallback` or `[fallback] enabled = no`.
    let fallback: FallbackCoordinate?
    /// Where records find their place, when the format needs one.
    private let places: PlaceFinder?
    private var started = false
    private var pending: [UInt8] = []

    init(format: any OutputFormat, fallback: FallbackCoordinate?, places: PlaceFinder? = nil) {
        self.format = format
        self.fallback = fallback
        self.places = places
    }

    /// Adds the prologue, once, if the format has one.
    mutating func start() {
        guard !started else { return }
        started = true
        format.prologue(to: &pending)
    }

    /// Adds a record; `false` when the format has no place for it.
    /// - Parameters:
    ///   - reason: why this is the fallback, for the fallback.
    ///   - timedOut: the fix is only the best seen when `--accuracy` was not reached in time.
    @discardableResult
    mutating func write(_ location: Location, reason: FallbackReason? = nil, timedOut: Bool = false) -> Bool {
        start()
        // The place of the location handed out (the fix that passed the check, its grid cell, or
        // the fallback), so it tells nothing the coordinates beside it do not.
        return format.record(
            RecordSource(
                location: location, reason: reason, timedOut: timedOut, now: Date(),
                place: places?.reverseGeocode(location)), to: &pending)
    }

    /// Adds a region or visit event's record.
    mutating func write(_ event: EventRecord) {
        start()
        _ = format.record(RecordSource(location: event.location, now: Date(), place: nil, event: event), to: &pending)
    }

    /// Adds the fallback record marked with `reason`; `false` when there is none to write.
    @discardableResult
    mutating func writeFallback(_ reason: FallbackReason) -> Bool {
        guard let fallback else { return false }
        return write(fallback.location, reason: reason)
    }

    /// Reports a status event: into stdout when the format takes events there (`--json --events`,
    /// or a GPX segment break), and as a line on stderr unless it went to stdout as an event object.
    mutating func report(_ event: StatusEvent) {
        start()
        if format.status(event, now: Date(), to: &pending) != .event {
            StandardStreams.diagnose(event.message)
        }
    }

    /// A reporter for status events that happen while the writer's owner waits (a single
    /// request's wait for a device): each goes out at once, into stdout when the format takes
    /// events there, as a line on stderr otherwise. A failed write on stdout is left for the
    /// record that follows to meet, and report.
    func immediateReporter() -> @Sendable (StatusEvent) -> Void {
        let format = format
        return { event in
            var format = format
            var bytes: [UInt8] = []
            if format.status(event, now: Date(), to: &bytes) != .event { StandardStreams.diagnose(event.message) }
            if !bytes.isEmpty { try? StandardStreams.write(bytes) }
        }
    }

    /// The most to gather before a write, however many more records are ready.
    static let batchSize = 64 * 1024

    /// Whether a batch's worth is gathered, to be written before more is added.
    var isBatchFull: Bool { pending.count >= Self.batchSize }

    /// Writes what was gathered for stdout, in one go.
    mutating func flush() throws(StandardStreams.OutputError) {
        guard !pending.isEmpty else { return }
        defer { pending.removeAll(keepingCapacity: true) }
        try StandardStreams.write(pending)
    }

    /// Adds the epilogue if anything was started, and writes everything.
    mutating func finish() throws(StandardStreams.OutputError) {
        if started {
            format.epilogue(to: &pending)
            started = false
        }
        try flush()
    }
}
