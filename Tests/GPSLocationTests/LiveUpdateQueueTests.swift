import Testing

@testable import GPSLocation

/// The live queue's bound: a consumer that stalls loses the oldest fixes, never what the status
/// events among them said.
struct LiveUpdateQueueTests {
    @Test func aStalledConsumerLosesTheOldestFixesButNotTheStatusEventsAmongThem() async throws {
        let queue = LiveUpdateQueue(producerWakeUp: nil)
        let fix = QueuedUpdate.fix(Location(unchecked: 1, longitude: 2, mode: .twoDimensional), generation: 0)
        var updates = Array(repeating: fix, count: LiveUpdateQueue.capacity)
        updates[10] = .status(.authorizationChanged(status: .denied, denial: .denied))
        updates[20] = .status(.authorizationChanged(status: .authorizedAlways, denial: nil))
        queue.push(updates)
        #expect(queue.dropIfStalled(now: .now.advanced(by: .seconds(60))) == nil, "dropped, not waiting")
        var taken: [QueuedUpdate] = []
        while let update = queue.nextIfAvailable() { taken.append(update) }
        guard case .status(.dropped(let count)) = taken.first else {
            Issue.record("the first update says what was dropped: \(String(describing: taken.first))")
            return
        }
        let statuses = taken.dropFirst().prefix { if case .status = $0 { true } else { false } }
        #expect(statuses.count == 2, "both changes are still told, in order")
        #expect(count == LiveUpdateQueue.capacity / 2 - 2, "the count is of fixes")
        #expect(taken.count == 1 + 2 + LiveUpdateQueue.capacity / 2, "half the queue stays, so memory stays bounded")
    }
}
