import GPSLocation
import LocateFleet
import LocateSupport

/// `locate monitor --by KEY` and `locate visits --by KEY`: a fleet's records (`mosquitto_sub -v`
/// lines, OwnTracks and `locate` JSON records) from a file or a pipe, a detector per device, an
/// event record naming its device for each event, written as soon as its record is read.
///
/// Other devices' positions are data, like a replay: no permission of this machine applies and
/// nothing is kept. A line that is not a device's position is skipped with a message naming the
/// line; a device beyond the bound is not watched (one message); the input ending is status 0,
/// an input that cannot be read (or a line over 1 MiB) 65. A signal ends it at once, as it ends
/// any filter: there is nothing to close or keep.
///
/// The records come from a `DeviceRecordSource`: today a `DeviceRecordReader` over `--replay`;
/// an MQTT subscription (`--subscribe`) is another source, its messages parsed by
/// `DeviceLocation.parse(topic:payload:by:)`, given to `run(from:)` the same way.
struct FleetCommand<Detector: FleetDetector> {
    let options: FleetOptions
    /// The stream's options: `--replay` (where the records come from without `--subscribe`) and `--count`.
    let stream: StreamOptions
    /// The command (`monitor` or `visits`), whose name a subscription's session has.
    let command: String
    /// The kind of the event records, as `--publish` sends them too.
    let kind: RecordKind
    var writer: RecordWriter
    var detector: Detector
    /// The record of an event.
    let record: (Detector.Event) -> EventRecord
    /// `--publish`: where each event goes as well, if anywhere.
    var publisher: FleetPublisher?
    /// A named subscription's device states on disk, committed at each checkpoint of the source.
    var keeper: FleetStateKeeper?
    /// Whether a device beyond the bound was said already.
    private var saidBound = false
    /// Whether the source hands out batches (a subscription): the output is then flushed at each
    /// checkpoint, before the batch is acknowledged, not after each record.
    private var isBatched = false
    private var printed = 0

    init(
        _ command: String, options: FleetOptions, stream: StreamOptions, kind: RecordKind, writer: RecordWriter, detector: Detector,
        record: @escaping (Detector.Event) -> EventRecord
    ) {
        self.command = command
        self.options = options
        self.stream = stream
        self.kind = kind
        self.writer = writer
        self.detector = detector
        self.record = record
    }

    /// Reads `--replay` (a file, or `-` for standard input) with devices named by `key`.
    /// - Throws: `OutputError.failed` when stdout cannot be written (a closed pipe is a normal end).
    mutating func run(by key: DeviceKey) throws(StandardStreams.OutputError) -> ExitStatus {
        var reader: DeviceRecordReader
        do throws(GPSLocationError) {
            let path = stream.replay ?? "-"
            reader =
                path == "-"
                ? DeviceRecordReader(readingFrom: 0, name: "standard input", by: key) : try DeviceRecordReader(contentsOf: path, by: key)
        } catch {
            StandardStreams.diagnose(error.description)
            return ExitStatus(error)
        }
        return try run(from: &reader)
    }

    /// Writes the events of `source`'s records until it ends (or `--count` records are out).
    /// - Throws: `OutputError.failed` when stdout cannot be written (a closed pipe is a normal end).
    mutating func run(from source: inout some DeviceRecordSource) throws(StandardStreams.OutputError) -> ExitStatus {
        SignalTrap.restoreDefaultActions()
        writer.start()
        do throws(StandardStreams.OutputError) {
            while true {
                let record: DeviceRecord?
                publisher?.waitWhileBackedUp()
                do throws(GPSLocationError) {
                    record = try source.next()
                } catch {
                    try writer.flushHere()
                    StandardStreams.diagnose(error.description)
                    return ExitStatus(error)
                }
                guard let record else { break }
                switch record {
                case .location(let location):
                    if try handle(location) {
                        // What went through is kept: the next run skips it, and takes the rest of the batch.
                        try? keeper?.commit(detector)
                        return .success
                    }
                case .skipped(let line, let reason):
                    StandardStreams.diagnose(UntrustedText.visible("\(source.name):\(line): skipped: \(reason)"))
                case .checkpoint:
                    // Out and kept before the source acknowledges what it handed out.
                    isBatched = true
                    try writer.flushHere()
                    do throws(FleetStateKeeper.Failure) {
                        try keeper?.commit(detector)
                    } catch {
                        StandardStreams.diagnose("error: the fleet's states cannot be kept: " + error.description)
                        return ExitStatus(error)
                    }
                }
            }
            try writer.finishHere()
        } catch .closed {
            return .success
        }
        return .success
    }

    /// Runs one device's position through its detector and writes its events at once.
    /// - Returns: whether `--count` records are out.
    private mutating func handle(_ location: DeviceLocation) throws(StandardStreams.OutputError) -> Bool {
        let time = location.location.time?.timeIntervalSince1970
        // Sent again after a kill, and taken by the run before (its state is kept): not twice.
        if keeper?.isTaken(device: location.device, time: time) == true { return false }
        guard let events = detector.process(location) else {
            if !saidBound {
                saidBound = true
                StandardStreams.diagnose(
                    UntrustedText.visible(
                        "device '\(location.device)' and any later new device are not watched: \(detector.maximumDevices) devices are")
                )
            }
            return false
        }
        keeper?.noteTaken(device: location.device, time: time)
        guard !events.isEmpty else { return false }
        for event in events {
            let eventRecord = record(event)
            writer.write(eventRecord, device: location.device)
            publisher?.publish(eventRecord, device: location.device)
            printed += 1
            if let count = stream.count, printed >= count {
                try writer.flushHere()
                try writer.finishHere()
                return true
            }
        }
        if !isBatched || writer.isBatchFull { try writer.flushHere() }
        return false
    }
}
