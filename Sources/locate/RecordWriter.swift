import FoundationEssentials
import GPSLocation
import GPSLocationConsent
import GPSLocationPlaces
import LocateSupport

/// Writes a run's output in the chosen format: the prologue before the first output, records,
/// the fallback coordinate when there is no live fix to give (unless disabled), status events
/// (to stdout when the format takes them, otherwise to stderr), and the epilogue at the end.
///
/// What goes to stdout is gathered until `flush()`, so that the records ready at one moment go
/// out together; stderr lines go out at once. The gatherer knows which bytes are positions (live
/// fixes, region and visit events): a stream's flush asks before each piece of them whether they
/// may still be handed out, and drops them once they may not.
struct RecordWriter {
    private var format: any OutputFormat
    /// `nil` when `--no-fallback` or `[fallback] enabled = no`.
    let fallback: FallbackCoordinate?
    /// Where records find their place, when the format needs one.
    private let places: PlaceFinder?
    private var started = false
    private var pending: [UInt8] = []
    /// The parts of `pending` that are positions, in order (pairs, not `Range<Int>`: see
    /// `FlatJSON`'s reader).
    private var positions: [(lowerBound: Int, upperBound: Int)] = []

    /// Counts the positions handed out, for the access log.
    private let tally: DeliveryTally?

    init(format: any OutputFormat, fallback: FallbackCoordinate?, places: PlaceFinder? = nil, tally: DeliveryTally? = nil) {
        self.format = format
        self.fallback = fallback
        self.places = places
        self.tally = tally
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
        let before = pending.count
        // The place of the location handed out (the fix that passed the check, its grid cell, or
        // the fallback), so it tells nothing the coordinates beside it do not.
        let added = format.record(
            RecordSource(
                location: location, reason: reason, timedOut: timedOut, now: Date(),
                place: places?.reverseGeocode(location)), to: &pending)
        if reason == nil {
            notePosition(from: before)
            tally?.note(location)
        }
        return added
    }

    /// Notes the bytes added since `start` as a position.
    private mutating func notePosition(from start: Int) {
        guard pending.count > start else { return }
        positions.append((start, pending.count))
    }

    /// Adds a region or visit event's record, of `device` with `--by`.
    mutating func write(_ event: EventRecord, device: String? = nil) {
        start()
        let before = pending.count
        _ = format.record(RecordSource(location: event.location, now: Date(), place: nil, event: event, device: device), to: &pending)
        notePosition(from: before)
        tally?.note(event.location)
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
            if !bytes.isEmpty { try? StandardStreams.write(bytes[...]) }
        }
    }

    /// The most to gather before a write, however many more records are ready.
    static let batchSize = 64 * 1024

    /// Whether a batch's worth is gathered, to be written before more is added.
    var isBatchFull: Bool { pending.count >= Self.batchSize }

    /// Writes what was gathered, on this thread, which may wait for the reader: only for a
    /// thread of its own (`--once` on the main thread), never Swift's cooperative pool.
    mutating func flushHere() throws(StandardStreams.OutputError) {
        try takeBatch().write { true }
    }

    /// Writes what was gathered for a stream that may stop authorizing its positions while its
    /// reader is slow: in pieces a pipe takes whole, the positions among them at most
    /// `PIPE_BUF` bytes at a time (into a regular file, which has no reader to wait for, all
    /// together), each only while `isCurrent()` says they may still be handed out (asked just
    /// before its write, which may then wait for the reader). Once it says not,
    /// the positions left are dropped, whole; everything else (status lines, the fallback)
    /// still goes out. A write that may wait for the reader (a batch larger than a pipe takes at
    /// once, or a pipe that is full) is made on a thread of its own, so a slow reader never holds
    /// a thread of Swift's cooperative pool; one that cannot wait is made here.
    mutating func flush(positionsWhile isCurrent: @escaping @Sendable () -> Bool = { true }) async throws(StandardStreams.OutputError) {
        let batch = takeBatch()
        guard !batch.bytes.isEmpty else { return }
        if StandardIO.canWriteAtOnce(batch.bytes.count, to: .output) {
            try batch.write(positionsWhile: isCurrent)
            return
        }
        let failure = await DedicatedThread.run(unavailable: StandardStreams.OutputError?.none) { _, _ in
            do throws(StandardStreams.OutputError) {
                try batch.write(positionsWhile: isCurrent)
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// What was gathered, taken out of the writer.
    private mutating func takeBatch() -> Batch {
        defer { clear() }
        return Batch(bytes: pending, positions: positions)
    }

    /// Bytes for stdout and which of them are positions, written as `flush` says.
    private struct Batch: Sendable {
        let bytes: [UInt8]
        let positions: [(lowerBound: Int, upperBound: Int)]

        func write(positionsWhile isCurrent: () -> Bool) throws(StandardStreams.OutputError) {
            guard !bytes.isEmpty else { return }
            guard !positions.isEmpty else {
                try StandardStreams.write(bytes[...])
                return
            }
            let limit = StandardIO.wholeWriteLimit(.output)
            var cursor = 0
            var next = positions.startIndex
            var isStale = false
            while cursor < bytes.count {
                guard next < positions.endIndex, positions[next].lowerBound == cursor else {
                    let end = next < positions.endIndex ? positions[next].lowerBound : bytes.count
                    try StandardStreams.writeLines(bytes[cursor..<end])
                    cursor = end
                    continue
                }
                var end = positions[next].upperBound
                next += 1
                while next < positions.endIndex, positions[next].lowerBound == end,
                    positions[next].upperBound - cursor <= limit
                {
                    end = positions[next].upperBound
                    next += 1
                }
                if !isStale, !isCurrent() { isStale = true }
                if !isStale { try StandardStreams.write(bytes[cursor..<end]) }
                cursor = end
            }
        }
    }

    private mutating func clear() {
        pending.removeAll(keepingCapacity: true)
        positions.removeAll(keepingCapacity: true)
    }

    /// Adds the epilogue if anything was started, and writes everything (as `flush`).
    mutating func finish() async throws(StandardStreams.OutputError) {
        addEpilogue()
        try await flush()
    }

    /// ``finish()`` on this thread (see ``flushHere()``).
    mutating func finishHere() throws(StandardStreams.OutputError) {
        addEpilogue()
        try flushHere()
    }

    private mutating func addEpilogue() {
        if started {
            format.epilogue(to: &pending)
            started = false
        }
    }
}
