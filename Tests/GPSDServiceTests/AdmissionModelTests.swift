import GPSLocation
import Testing

@testable import GPSDService

/// The rule of every served record, over every interleaving of a few steps: a record reaches
/// the client only if its app was allowed it (at that accuracy) both when the record was taken
/// and when its first byte was written, and no line is finished after a change of the app's
/// authorization. And the rule is not kept by keeping everything back: once the client reads,
/// every record taken under the authorization in force, with full accuracy, reaches it.
///
/// The steps: a record is taken (gpsd's TPV and SKY of one epoch), the app is denied or
/// allowed, its accuracy reduced or made full again, the client reads all, stops reading
/// (stopped with Ctrl-Z), or its connection takes part of a line and then nothing, the client
/// asks for a POLL, or hangs up. Each run starts with a watching client, allowed, reading.
struct AdmissionModelTests {
    enum Step: CaseIterable {
        case take, deny, allow, reduce, full, read, stall, cut, poll, hangUp
    }

    /// One run of the model: the client, what decides, and what each record was taken under.
    final class Run {
        let transport = ScriptedTransport()
        let client: ServedClient
        var upstream = Upstream()
        var sequence: UInt64 = 0
        var isAllowed = true
        var accuracy = AccuracyAuthorization.fullAccuracy
        var authorization = TestAuthorization.always
        /// Counts the changes of the authorization, as the gate's generations do.
        var generation = 0
        /// Each record's number: the generation and the authorization it was taken under.
        var taken: [Int: (generation: Int, authorization: Authorization)] = [:]
        var nextNumber = 1
        /// The model's clock: a step takes a second (a client held back is looked at again).
        var now = ContinuousClock.now

        /// gpsd's receiver list, made once.
        private static let receiver: Upstream = {
            var upstream = Upstream()
            upstream.note(RelayedRecord(TestRecords.devices(["/dev/r0"]), sequence: 0))
            return upstream
        }()
        /// Each epoch's reports, made once.
        private static let epochs = (0..<12).map { number in
            [TestRecords.sky(number), TestRecords.fix(number, latitude: 64 + Double(number) / 10)]
        }

        init() {
            client = scriptedClient(transport)
            transport.note = { [unowned self] in generation }
            upstream = Self.receiver
            transport.send(#"?WATCH={"enable":true,"json":true}"#)
            client.read(upstream, sequence: sequence, now: now)
        }

        func perform(_ step: Step) {
            now = now.advanced(by: .seconds(1))
            switch step {
            case .take:
                let number = nextNumber
                nextNumber += 1
                taken[number] = (generation, authorization)
                for message in Self.epochs[number] {
                    let record = RelayedRecord(message, sequence: sequence)
                    sequence += 1
                    upstream.note(record)
                    client.offer(record)
                }
            case .deny: change(allowed: false, accuracy: accuracy)
            case .allow: change(allowed: true, accuracy: accuracy)
            case .reduce: change(allowed: isAllowed, accuracy: .reducedAccuracy)
            case .full: change(allowed: isAllowed, accuracy: .fullAccuracy)
            case .read: transport.readsAll()
            case .stall: transport.reading = .stalled
            case .cut:
                // Part of a line, far enough into it that the line's record is named.
                let intoLine = transport.written.count - (transport.written.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0)
                transport.reading = .takes(bytes: max(1, 40 - intoLine))
            case .poll:
                transport.send("?POLL;")
                client.read(upstream, sequence: sequence, now: now)
            case .hangUp:
                client.hangUp(now: now)
            }
            client.flush(now: now)
        }

        private func change(allowed: Bool, accuracy: AccuracyAuthorization) {
            let new = Authorization(
                decision: AuthorizationDecision(status: allowed ? .authorizedAlways : .denied, accuracy: accuracy), appState: .unattended)
            if new != authorization { generation += 1 }
            (isAllowed, self.accuracy, authorization) = (allowed, accuracy, new)
            client.authorize(new, sequence: sequence)
        }

        /// What was written against what each record was taken under; a description of the
        /// first breach, or `nil`.
        func breach() -> String? {
            for range in transport.lineRanges {
                let numbers = TestRecords.numbers(in: range, of: transport)
                guard !numbers.isEmpty else { continue }
                let notes = transport.notes(covering: range)
                guard let first = notes.first else { continue }
                let line = { String(decoding: self.transport.written[range], as: UTF8.self) }
                if notes.contains(where: { $0 != first }) { return "a line finished after a change: \(line())" }
                let isCell = !transport.contains(Self.precise, in: range) && !transport.contains(Self.sky, in: range)
                for number in numbers {
                    guard let when = taken[number] else { return "record \(number) was never taken" }
                    if when.generation != first { return "record \(number), taken in generation \(when.generation), written in \(first)" }
                    let allowed =
                        when.authorization.isAuthorized
                        && when.authorization.accuracy == (isCell ? .reducedAccuracy : .fullAccuracy)
                    if !allowed {
                        return "record \(number) written \(isCell ? "as a cell" : "precise") though taken under \(when.authorization)"
                    }
                }
            }
            return nil
        }

        private static let precise = Array(#""eph""#.utf8)
        private static let sky = Array(#""SKY""#.utf8)

        /// Whether, once the client reads, every record taken under the authorization in force,
        /// with full accuracy, reached it (a client still connected).
        func deliveredEverythingAllowed() -> String? {
            guard client.state == .open else { return nil }
            transport.readsAll()
            client.flush(now: now.advanced(by: .seconds(1)))
            let delivered = Set(
                transport.lineRanges.filter { transport.written[$0.upperBound - 1] == 0x0A && transport.contains(Self.precise, in: $0) }
                    .flatMap { TestRecords.numbers(in: $0, of: transport) })
            let owed = taken.filter { $0.value.generation == generation && authorization.isAuthorized && accuracy == .fullAccuracy }
            let missing = owed.keys.filter { !delivered.contains($0) }.sorted()
            return missing.isEmpty ? nil : "records \(missing) were allowed and never delivered"
        }
    }

    /// Every sequence of `depth` steps that begins with `first`, each run from the start.
    private func everySequence(first: Step, depth: Int, _ body: ([Step]) -> Void) {
        var sequence: [Step] = [first]
        func extend() {
            guard sequence.count < depth else { return body(sequence) }
            for step in Step.allCases {
                sequence.append(step)
                extend()
                sequence.removeLast()
            }
        }
        extend()
    }

    /// The 100,000 sequences of five steps, as ten cases by their first step: cases run side by
    /// side, so the test takes a tenth of its time on each of the cores free, not all of it on one.
    @Test(arguments: Step.allCases)
    func everyInterleavingOfFiveStepsKeepsTheRule(first: Step) {
        var runs = 0
        var failures: [String] = []
        everySequence(first: first, depth: 5) { steps in
            let run = Run()
            for step in steps { run.perform(step) }
            runs += 1
            if failures.count < 5, let breach = run.breach() ?? run.deliveredEverythingAllowed() { failures.append("\(steps): \(breach)") }
        }
        #expect(runs == 10_000)
        #expect(failures.isEmpty, "\(failures)")
    }

    /// The interleavings where the leak of old lived: a reader stopped across a deny and an
    /// allow, and across a switch to reduced accuracy and back, with records taken on each side.
    @Test(arguments: [
        [Step.stall, .take, .take, .deny, .take, .take, .allow, .take, .read],
        [.stall, .take, .reduce, .take, .take, .full, .take, .read],
        [.take, .cut, .take, .deny, .allow, .read],
        [.stall, .take, .poll, .deny, .take, .allow, .poll, .read],
    ])
    func aStoppedReaderAcrossAChangeGetsNothingTakenBeforeIt(steps: [Step]) {
        let run = Run()
        for step in steps { run.perform(step) }
        #expect(run.breach() == nil, "\(run.transport.lines)")
        #expect(run.deliveredEverythingAllowed() == nil)
    }
}
