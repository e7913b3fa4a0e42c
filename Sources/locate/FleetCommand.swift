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
    let options: CommandLineOptions
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

    init(options: CommandLineOptions, writer: RecordWriter, detector: Detector, record: @escaping (Detector.Event) -> EventRecord) {
        self.options = options
        self.writer = writer
        self.detector = detector
        self.record = record
    }

    /// Reads `--replay` (a file, or `-` for standard input) with devices named by `key`.
    /// - Throws: `OutputError.failed` when stdout cannot be written (a closed pipe is a normal end).
    mutating func run(by key: DeviceKey) throws(StandardStreams.OutputError) -> ExitStatus {
        var reader: DeviceRecordReader
        do throws(GPSLocationError) {
            let path = options.replay ?? "-"
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
            if let count = options.count, printed >= count {
                try writer.flushHere()
                try writer.finishHere()
                return true
            }
        }
        if !isBatched || writer.isBatchFull { try writer.flushHere() }
        return false
    }
}

extension CommandLineOptions {
    /// Whether the options go with a fleet's (`--by`, `--subscribe`, `--publish`): a fleet's
    /// records from `--replay`, nothing kept, or from `--subscribe` in `--name`'s session; no
    /// goal or time limit yet. True when none of them is given; says why not.
    func fleetOptionsFit() -> Bool {
        guard deviceKey != nil || subscription != nil || eventBroker != nil else { return true }
        let problem: String? =
            if eventBroker != nil, deviceKey == nil {
                "'--publish' publishes a fleet's events: it needs --by topic|FIELD"
            } else if subscription != nil, deviceKey == nil {
                "'--subscribe' reads a fleet's records: it needs --by topic|FIELD"
            } else if subscription != nil, monitorName == nil {
                "'--subscribe' needs --name NAME: the broker keeps the monitor's session under it"
            } else if subscription != nil, replay != nil {
                "'--subscribe' reads the broker: not with --replay"
            } else if subscription != nil, until != nil || duration != nil {
                "'--subscribe' ends with --count or a signal: not with --until or --duration"
            } else if subscription != nil {
                nil
            } else if replay == nil {
                "'--by' reads a fleet's records from --replay FILE (- for stdin)"
            } else if monitorName != nil {
                "'--by' keeps no state between runs: not with --name"
            } else if until != nil || duration != nil {
                "'--by' ends with its input or --count: not with --until or --duration"
            } else {
                nil
            }
        if let problem { StandardStreams.diagnose("error: " + problem) }
        return problem == nil
    }
}
