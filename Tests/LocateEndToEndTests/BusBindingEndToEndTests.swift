import Foundation
import Synchronization
import Testing

@testable import GeoClueAgent

/// GeoClueAgent's sd-bus binding on a bus of the test's own, driven by Debian's D-Bus tools: an
/// object exported with one method and one property, its calls kept and answered later from
/// another thread, its property read and its change announced with its value; and calls made to
/// the bus, with their answer's sender or the error they were answered with.
@Suite(.enabled(if: PrivateBus.isAvailable, "dbus-daemon is not installed (apt install dbus): no private bus can run here"))
struct BusBindingEndToEndTests {
    static let shape = BusObjectShape(
        path: "/org/example/Shape", interface: "org.example.Shape", method: "Ask", argumentNames: "name\0level\0granted\0given\0",
        property: "Level")

    /// The calls waiting for their answer, on the bus's thread.
    final class WaitingCalls {
        var calls: [Int: BusMethodCall] = [:]
    }

    /// A bus thread serving `shape` on `bus`: a call for `refused` is not taken; any other is
    /// kept, and answered from another thread with (true, its number + 1); the property is `level`.
    private func serve(on bus: PrivateBus, level: Locked<UInt32>) async throws -> (thread: BusThread<WaitingCalls>, name: String) {
        let thread = try #require(BusThread<WaitingCalls>())
        let name = Locked<Result<String, BusError>?>(nil)
        // The address alone: a task that outlived a failed test must not keep its bus running.
        let address = bus.address
        Task {
            do throws(BusError) {
                try await thread.run(address: address) { connection throws(BusError) in
                    let waiting = WaitingCalls()
                    try connection.export(
                        Self.shape,
                        call: { call in
                            guard call.text != "refused" else { return false }
                            let id = waiting.calls.count
                            waiting.calls[id] = call
                            Task.detached {
                                thread.perform { _, waiting in
                                    guard let call = waiting.calls.removeValue(forKey: id) else { return }
                                    try? call.reply(true, call.number + 1)
                                }
                            }
                            return true
                        }, value: { level.value })
                    name.set(.success(try connection.uniqueName()))
                    return waiting
                }
            } catch {
                name.set(.failure(error))
            }
        }
        try await waitUntil(timeout: 10, failing: HarnessError(description: "the connection did not come up")) { name.value != nil }
        return (thread, try #require(name.value).get())
    }

    @Test func anExportedObjectIsCalledReadAndAnnounced() async throws {
        let bus = try await PrivateBus()
        let level = Locked<UInt32>(7)
        let (thread, name) = try await serve(on: bus, level: level)
        defer { thread.stop() }
        let object = ["--dest=" + name, Self.shape.path]

        let asked = try await bus.send(object + ["org.example.Shape.Ask", "string:weather", "uint32:4"])
        #expect(asked.status == 0 && asked.stdout.contains("boolean true") && asked.stdout.contains("uint32 5"), "\(asked)")
        let refused = try await bus.send(object + ["org.example.Shape.Ask", "string:refused", "uint32:4"])
        #expect(refused.status != 0 && refused.stderr.contains("org.freedesktop.DBus.Error.AccessDenied"), "\(refused)")

        let read = try await bus.send(object + ["org.freedesktop.DBus.Properties.Get", "string:org.example.Shape", "string:Level"])
        #expect(read.status == 0 && read.stdout.contains("uint32 7"), "\(read)")
        let introspected = try await bus.send(object + ["org.freedesktop.DBus.Introspectable.Introspect"])
        #expect(introspected.stdout.contains(#"<arg type="u" name="level" direction="in"/>"#), "\(introspected)")
        #expect(introspected.stdout.contains(#"<arg type="u" name="given" direction="out"/>"#), "\(introspected)")
        #expect(introspected.stdout.contains(#"<property name="Level" type="u" access="read">"#), "\(introspected)")

        let monitor = try await bus.monitor(interface: "org.freedesktop.DBus.Properties")
        level.set(9)
        thread.perform { connection, _ in try? connection.emitPropertyChanged(of: Self.shape) }
        try await monitor.stdout.wait(for: "PropertiesChanged") {
            monitor.stdout.text.contains("member=PropertiesChanged") && monitor.stdout.text.contains("uint32 9")
        }
    }

    @Test func aCallGetsItsAnswersSenderOrTheErrorItWasAnsweredWith() async throws {
        let bus = try await PrivateBus()
        let thread = try #require(BusThread<Void>())
        defer { thread.stop() }
        let replies = Locked<[String: Result<String?, BusError>]>([:])
        let failure = Locked<BusError?>(nil)
        let address = bus.address
        Task {
            do throws(BusError) {
                try await thread.run(address: address) { connection throws(BusError) in
                    for (destination, member) in [("org.freedesktop.DBus", "GetNameOwner"), ("org.example.Nobody", "Hello")] {
                        try connection.call(destination, "/org/freedesktop/DBus", destination, member, argument: "org.freedesktop.DBus") {
                            reply in replies.update { $0[member] = reply }
                        }
                    }
                }
            } catch {
                failure.set(error)
            }
        }
        try await waitUntil(timeout: 10, failing: HarnessError(description: "no answers: \(replies.value)")) {
            replies.value.count == 2 || failure.value != nil
        }
        #expect(failure.value == nil)
        #expect(try replies.value["GetNameOwner"]?.get() == "org.freedesktop.DBus")
        guard case .failure(let error)? = replies.value["Hello"] else {
            Issue.record("a call to a name nobody owns was answered: \(replies.value)")
            return
        }
        #expect(error.name == "org.freedesktop.DBus.Error.ServiceUnknown", "\(error)")
    }
}

/// A value a test's threads share.
final class Locked<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    init(_ value: Value) { mutex = Mutex(value) }

    var value: Value { mutex.withLock { $0 } }

    func set(_ value: Value) { mutex.withLock { $0 = value } }

    func update(_ change: (inout Value) -> Void) { mutex.withLock { change(&$0) } }
}
