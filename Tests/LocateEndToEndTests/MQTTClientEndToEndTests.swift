import Foundation
import GPSLocationMQTT
import Synchronization
import Testing

/// The MQTT client of GPSLocationMQTT on its own, against a real mosquitto read by mosquitto_sub:
/// the queue's bound and the admission at hand-out. Messages are queued before the client
/// starts (as while a broker is away), and it starts once the subscriber listens.
struct MQTTClientEndToEndTests {
    private func client(_ broker: MosquittoBroker, queueLimit: Int) throws -> MQTTClient {
        try MQTTClient(configuration: MQTTConfiguration(broker: try MQTTBroker(parsing: "\(broker.url)/t"), queueLimit: queueLimit))
    }

    @Test func aFullQueueDropsTheOldestAndCountsThem() async throws {
        let broker = try await MosquittoBroker()
        let client = try client(broker, queueLimit: 3)
        for number in 1...10 { client.publish(MQTTMessage(topic: "t", text: "\(number)")) }
        #expect(client.dropped == 7 && client.waiting == 3)
        let subscriber = try await Subscription(broker, "t")
        try client.start()
        // What the queue kept, in order.
        await client.finish(farewell: [], within: .seconds(10))
        try await subscriber.process.stdout.wait(for: "the three kept") { subscriber.messages.count >= 3 }
        #expect(subscriber.messages.map(\.payload) == ["8", "9", "10"])
        #expect(client.waiting == 0)
    }

    @Test func aMessageGoesOutOnlyWhileItsAdmissionHoldsAtHandOut() async throws {
        let broker = try await MosquittoBroker()
        let client = try client(broker, queueLimit: 100)
        let allowed = Atomic(true)
        for number in 1...4 { client.publish(MQTTMessage(topic: "t", text: "before \(number)")) { allowed.load(ordering: .relaxed) } }
        // Revoked while they wait for the broker: they were admitted when queued, not when handed out.
        allowed.store(false, ordering: .relaxed)
        client.publish(MQTTMessage(topic: "t", text: "status"))
        let subscriber = try await Subscription(broker, "t")
        try client.start()
        await client.finish(farewell: [MQTTMessage(topic: "t", text: "bye")], within: .seconds(10))
        try await subscriber.process.stdout.wait(for: "the farewell") { subscriber.messages.last?.payload == "bye" }
        #expect(subscriber.messages.map(\.payload) == ["status", "bye"])
        #expect(client.heldBack == 4)
    }

    /// QoS 0 is bounded like the others: a broker that stops reading (SIGSTOP) fills the
    /// socket, then the queue, and the oldest are dropped and counted, not kept without end.
    @Test func atQoS0AStalledBrokerFillsTheQueueNotTheMemory() async throws {
        let broker = try await MosquittoBroker()
        let client = try client(broker, queueLimit: 100)
        try client.start()
        for await event in client.events where event == .connected { break }
        broker.signal(SIGSTOP)
        defer { broker.signal(SIGCONT) }
        // 60 MB, more than the sockets of both ends hold.
        let payload = [UInt8](repeating: UInt8(ascii: "x"), count: 20_000)
        for number in 1...3000 {
            client.publish(MQTTMessage(topic: "t", payload: payload, qos: .atMostOnce))
            if number % 50 == 0 { try await Task.sleep(for: .milliseconds(2)) }
        }
        #expect(client.dropped >= 1000 && client.waiting <= 100, "dropped \(client.dropped), waiting \(client.waiting)")
        await client.finish(farewell: [], within: .milliseconds(200))
    }
}
