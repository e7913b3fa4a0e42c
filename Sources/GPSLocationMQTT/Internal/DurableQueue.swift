import LocateStore

/// A message waiting for the broker, with the question of whether it may still go, and its row
/// in the outbox once it is kept there.
struct QueuedMessage: Sendable {
    /// Its place in the order messages were handed to the client (kept ones first: negative).
    let sequence: Int
    let message: MQTTMessage
    /// Whether it may still go; `nil` for a message that carries no position (a status, a clear).
    let admits: (@Sendable () -> Bool)?
    var storeID: Int64?

    /// Whether it may go now: a message without a position always may.
    var isAdmitted: Bool { admits?() ?? true }
}

/// The client's side of the outbox (``MQTTOutbox``): the client's loop keeps each message here
/// before it hands it to the broker, forgets it once acknowledged, dropped or refused, and reads
/// back what an earlier run left. Owned by the loop's thread alone: `start` opens it and hands it
/// over before the loop starts, and no other thread uses it (so its connection needs no lock).
struct DurableQueue: @unchecked Sendable {
    private let outbox: Outbox
    /// When the settings last changed: what was kept before is deleted at the restore.
    private let settingsChanged: Double?

    /// The outbox of `configuration` for `broker`'s topic.
    /// - Throws: ``MQTTError/outboxRefused(_:)`` when the store cannot be trusted or is not the
    ///   store; ``MQTTError/outboxFailed(_:)`` when the disk fails.
    init(_ configuration: MQTTOutbox, broker: MQTTBroker) throws(MQTTError) {
        do throws(StoreError) {
            outbox = try Outbox(directory: configuration.directory, destination: "\(broker)/\(broker.topic)", app: configuration.app)
            settingsChanged = configuration.settingsChanged
        } catch {
            throw Self.error(error)
        }
    }

    /// What an earlier run left, in order, each admitted by `admits`; with no admission
    /// (location not authorized now) the positions are deleted, never sent.
    func restore(while admits: (@Sendable () -> Bool)?) throws(MQTTError) -> [QueuedMessage] {
        do throws(StoreError) {
            if admits == nil {
                try outbox.removePositions()
            } else if let settingsChanged {
                // A change no run watched: a revoke and a re-allow may be between.
                try outbox.removePositions(queuedBefore: settingsChanged)
            }
            let kept = try outbox.kept()
            return kept.enumerated().map { index, row in
                let message = MQTTMessage(
                    topic: row.entry.topic, payload: row.entry.payload, qos: MQTTQoS(rawValue: row.entry.qos) ?? .atLeastOnce,
                    retain: row.entry.retain)
                return QueuedMessage(
                    sequence: index - kept.count, message: message, admits: row.entry.carriesPosition ? admits : nil, storeID: row.id)
            }
        } catch {
            throw Self.error(error)
        }
    }

    /// Keeps the positions of `messages` in one commit, giving each its row. A status (an
    /// `online`, a clear) is not kept: each run says its own.
    func keep(_ messages: inout [QueuedMessage]) throws(MQTTError) {
        let positions = messages.indices.filter { messages[$0].admits != nil }
        let entries = positions.map { index in
            let message = messages[index].message
            return Outbox.Entry(
                topic: message.topic, payload: message.payload, qos: message.qos.rawValue, retain: message.retain, carriesPosition: true)
        }
        do throws(StoreError) {
            for (index, id) in zip(positions, try outbox.append(entries)) { messages[index].storeID = id }
        } catch {
            throw Self.error(error)
        }
    }

    /// Deletes the rows of `messages` (those that have one), in one commit.
    /// - Parameter scrubbing: leave none of their bytes on disk (positions no longer admitted).
    func forget(_ messages: some Sequence<QueuedMessage>, scrubbing: Bool) throws(MQTTError) {
        do throws(StoreError) {
            try outbox.remove(messages.compactMap(\.storeID), scrubbing: scrubbing)
        } catch {
            throw Self.error(error)
        }
    }

    /// Empties the log into the file at the end of a run (what was sent leaves no copy in it).
    func close() {
        outbox.close()
    }

    private static func error(_ error: StoreError) -> MQTTError {
        switch error.kind {
        case .io, .busy: .outboxFailed(error.description)
        case .inUse: .outboxInUse(error.description)
        case .unusable, .refused, .damaged: .outboxRefused(error.description)
        }
    }
}
