import FoundationEssentials
import GPSLocation

/// Writes a run's output in the chosen format: the prologue before the first output, records,
/// the fallback coordinate when there is no live fix to give (unless disabled), status events
/// (to stdout when the format takes them, otherwise to stderr), and the epilogue at the end.
struct RecordWriter {
    private var format: any OutputFormat
    /// `nil` when `--no-fallback` or `[fallback] enabled = no`.
    let fallback: FallbackCoordinate?
    private var started = false

    init(format: any OutputFormat, fallback: FallbackCoordinate?) {
        self.format = format
        self.fallback = fallback
    }

    /// Writes the prologue, once, if the format has one.
    mutating func start() throws(StandardStreams.OutputError) {
        guard !started else { return }
        started = true
        if let prologue = format.prologue() { try StandardStreams.writeRecord(prologue) }
    }

    /// Writes a record; `false` when the format has no place for it.
    @discardableResult
    mutating func write(_ location: Location) throws(StandardStreams.OutputError) -> Bool {
        try start()
        guard let text = format.record(location, now: Date()) else { return false }
        try StandardStreams.writeRecord(text)
        return true
    }

    /// Writes the fallback record marked with `reason`; `false` when there is none to write.
    @discardableResult
    mutating func writeFallback(_ reason: FallbackReason) throws(StandardStreams.OutputError) -> Bool {
        guard let fallback else { return false }
        return try write(fallback.location(reason: reason))
    }

    /// Reports a status event: into stdout when the format takes events there (`--json --events`,
    /// or a GPX segment break), and as a line on stderr unless it went to stdout as an event object.
    mutating func report(_ event: StatusEvent) throws(StandardStreams.OutputError) {
        switch format.status(event, now: Date()) {
        case .event(let text):
            try start()
            try StandardStreams.writeRecord(text)
        case .mark(let text):
            try start()
            try StandardStreams.writeRecord(text)
            StandardStreams.diagnose(event.message)
        case .none:
            StandardStreams.diagnose(event.message)
        }
    }

    /// Writes the epilogue if anything was started.
    mutating func finish() throws(StandardStreams.OutputError) {
        guard started, let epilogue = format.epilogue() else { return }
        started = false
        try StandardStreams.writeRecord(epilogue)
    }
}
