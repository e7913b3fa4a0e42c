internal import CSDBus
import Glibc
import LocateSupport

// The sd-bus boundary: the only Swift file that touches libsystemd's C types. The library is
// opened with dlopen when the agent first connects (see shim.h). A `BusConnection` is one
// connection, made, used and closed by one thread (sd-bus is not thread-safe; `BusThread` is that
// thread); the callbacks it is given run on that thread, inside `processAll()`.

/// libsystemd's sd-bus functions, looked up once in the shared object.
/// Sendable by hand: the variadic ones are opaque pointers to Swift; all are constant addresses.
private struct SDBusLibrary: @unchecked Sendable {
    let openSystem: CSDBus_open_system
    let new: CSDBus_new
    let setAddress: CSDBus_set_address
    let setBusClient: CSDBus_set_bus_client
    let start: CSDBus_start
    let flushCloseUnref: CSDBus_flush_close_unref
    let getFD: CSDBus_get_fd
    let getEvents: CSDBus_get_events
    let getTimeout: CSDBus_get_timeout
    let process: CSDBus_process
    let getUniqueName: CSDBus_get_unique_name
    let addObjectVtable: CSDBus_add_object_vtable
    let addMatch: CSDBus_add_match
    let slotUnref: CSDBus_slot_unref
    let messageRef: CSDBus_message_ref
    let messageUnref: CSDBus_message_unref
    let messageSender: CSDBus_message_get_sender
    let messageError: CSDBus_message_get_error
    let messageIsMethodError: CSDBus_message_is_method_error
    let messageRead: CSDBus_message_read
    let messageAppend: CSDBus_message_append
    let replyMethodReturn: CSDBus_reply_method_return
    let callMethodAsync: CSDBus_call_method_async
    let emitPropertiesChanged: CSDBus_emit_properties_changed
    /// `sd_bus_object_vtable_format`, which a vtable's start names (see shim.h).
    let vtableFormat: UnsafePointer<UInt32>

    /// The library, or why it cannot be had (libsystemd0 is on every Debian system with systemd
    /// or its libraries; a container may lack it).
    static let loaded: Result<SDBusLibrary, BusError> = {
        do throws(DynamicLibrary.Failure) {
            let shared = try DynamicLibrary(["libsystemd.so.0"], package: "libsystemd0")
            return .success(
                SDBusLibrary(
                    openSystem: try shared.symbol("sd_bus_open_system", as: CSDBus_open_system.self),
                    new: try shared.symbol("sd_bus_new", as: CSDBus_new.self),
                    setAddress: try shared.symbol("sd_bus_set_address", as: CSDBus_set_address.self),
                    setBusClient: try shared.symbol("sd_bus_set_bus_client", as: CSDBus_set_bus_client.self),
                    start: try shared.symbol("sd_bus_start", as: CSDBus_start.self),
                    flushCloseUnref: try shared.symbol("sd_bus_flush_close_unref", as: CSDBus_flush_close_unref.self),
                    getFD: try shared.symbol("sd_bus_get_fd", as: CSDBus_get_fd.self),
                    getEvents: try shared.symbol("sd_bus_get_events", as: CSDBus_get_events.self),
                    getTimeout: try shared.symbol("sd_bus_get_timeout", as: CSDBus_get_timeout.self),
                    process: try shared.symbol("sd_bus_process", as: CSDBus_process.self),
                    getUniqueName: try shared.symbol("sd_bus_get_unique_name", as: CSDBus_get_unique_name.self),
                    addObjectVtable: try shared.symbol("sd_bus_add_object_vtable", as: CSDBus_add_object_vtable.self),
                    addMatch: try shared.symbol("sd_bus_add_match", as: CSDBus_add_match.self),
                    slotUnref: try shared.symbol("sd_bus_slot_unref", as: CSDBus_slot_unref.self),
                    messageRef: try shared.symbol("sd_bus_message_ref", as: CSDBus_message_ref.self),
                    messageUnref: try shared.symbol("sd_bus_message_unref", as: CSDBus_message_unref.self),
                    messageSender: try shared.symbol("sd_bus_message_get_sender", as: CSDBus_message_get_sender.self),
                    messageError: try shared.symbol("sd_bus_message_get_error", as: CSDBus_message_get_error.self),
                    messageIsMethodError: try shared.symbol("sd_bus_message_is_method_error", as: CSDBus_message_is_method_error.self),
                    messageRead: try shared.symbol("sd_bus_message_read", as: CSDBus_message_read.self),
                    messageAppend: try shared.symbol("sd_bus_message_append", as: CSDBus_message_append.self),
                    replyMethodReturn: try shared.symbol("sd_bus_reply_method_return", as: CSDBus_reply_method_return.self),
                    callMethodAsync: try shared.symbol("sd_bus_call_method_async", as: CSDBus_call_method_async.self),
                    emitPropertiesChanged: try shared.symbol(
                        "sd_bus_emit_properties_changed", as: CSDBus_emit_properties_changed.self),
                    vtableFormat: try shared.symbol("sd_bus_object_vtable_format", as: UnsafePointer<UInt32>.self)))
        } catch {
            return .failure(BusError(description: error.description))
        }
    }()

    /// `result` when it is not an error (sd-bus's are negative errno values).
    func check(_ result: Int32, _ what: String) throws(BusError) {
        guard result < 0 else { return }
        throw BusError(description: "\(what): \(String(cString: strerror(-result)))")
    }
}

/// Why the bus failed a request, in words: sd-bus's own failure (an errno), or the error a peer
/// answered a call with (its D-Bus name, such as `org.freedesktop.DBus.Error.AccessDenied`).
struct BusError: Error, Sendable, CustomStringConvertible {
    /// The D-Bus error's name, when a peer answered with one.
    var name: String?
    /// What went wrong.
    let description: String
}

/// The shape of an object a connection exports: one method that takes a string and a `UInt32`
/// and answers a boolean and a `UInt32`, and one read-only `UInt32` property that emits its
/// changes with its value (GeoClue's agent is such an object). The names are literals: sd-bus
/// keeps pointing at them while the object is exported.
struct BusObjectShape: Sendable {
    let path: String
    let interface: String
    let method: StaticString
    /// The method's argument names, then its result's, each ended by a NUL (`"a\0b\0c\0d\0"`).
    let argumentNames: StaticString
    let property: StaticString
}

/// A literal as C takes it: its bytes live as long as the program, with a NUL after them.
private func cString(_ text: StaticString) -> UnsafePointer<CChar> {
    UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self)
}

/// A method call received, kept to be answered later, on the connection's thread.
final class BusMethodCall {
    /// The caller's unique name.
    let sender: String?
    /// The call's arguments.
    let text: String
    let number: UInt32
    private let library: SDBusLibrary
    private let message: OpaquePointer

    fileprivate init(library: SDBusLibrary, message: OpaquePointer, text: String, number: UInt32) {
        self.library = library
        // sd_bus_message_ref gives back the message it was given.
        _ = library.messageRef(message)
        self.message = message
        sender = library.messageSender(message).map { String(cString: $0) }
        self.text = text
        self.number = number
    }

    deinit {
        _ = library.messageUnref(message)
    }

    /// Answers the call with `flag` and `number`.
    func reply(_ flag: Bool, _ number: UInt32) throws(BusError) {
        try library.check(CSDBus_reply_bool_uint32(library.replyMethodReturn, message, flag ? 1 : 0, number), "cannot answer")
    }
}

/// What an exported object's callbacks reach through their user data.
private final class ExportedObject {
    let library: SDBusLibrary
    let call: (BusMethodCall) -> Bool
    let value: () -> UInt32

    init(library: SDBusLibrary, call: @escaping (BusMethodCall) -> Bool, value: @escaping () -> UInt32) {
        (self.library, self.call, self.value) = (library, call, value)
    }
}

/// What a signal match's callback reaches through its user data.
private final class SignalWatch {
    let library: SDBusLibrary
    let changed: (_ name: String, _ newOwner: String) -> Void

    init(library: SDBusLibrary, changed: @escaping (String, String) -> Void) {
        (self.library, self.changed) = (library, changed)
    }
}

/// What a call's reply callback reaches through its user data; done once it ran.
private final class PendingCall {
    let library: SDBusLibrary
    let reply: (Result<String?, BusError>) -> Void
    var isDone = false

    init(library: SDBusLibrary, reply: @escaping (Result<String?, BusError>) -> Void) {
        (self.library, self.reply) = (library, reply)
    }
}

/// One connection to a bus, used by one thread alone.
final class BusConnection {
    private let library: SDBusLibrary
    private let bus: OpaquePointer
    private var slots: [OpaquePointer] = []
    private var vtables: [UnsafeMutablePointer<sd_bus_vtable>] = []
    /// The objects the callbacks' user data point at, kept while the connection is.
    private var exported: [ExportedObject] = []
    private var watches: [SignalWatch] = []
    private var pending: [PendingCall] = []

    /// Connects to `address` (a D-Bus address, `unix:path=...`), or, for `nil`, to the system bus
    /// (at `DBUS_SYSTEM_BUS_ADDRESS` when it is set, else at its usual place). The connection
    /// says hello to the bus as its first messages are processed.
    /// - Throws: `BusError` when libsystemd is missing or the bus cannot be connected to.
    init(address: String?) throws(BusError) {
        let library = try SDBusLibrary.loaded.get()
        var bus: OpaquePointer?
        if let address {
            try library.check(library.new(&bus), "cannot make a bus connection")
            guard let made = bus else { throw BusError(description: "cannot make a bus connection") }
            do throws(BusError) {
                try library.check(address.withCString { library.setAddress(made, $0) }, "cannot use the bus address \(address)")
                try library.check(library.setBusClient(made, 1), "cannot make a bus client")
                try library.check(library.start(made), "cannot connect to the bus at \(address)")
            } catch {
                _ = library.flushCloseUnref(made)
                throw error
            }
        } else {
            try library.check(library.openSystem(&bus), "cannot connect to the system bus")
        }
        guard let bus else { throw BusError(description: "cannot connect to the bus") }
        self.library = library
        self.bus = bus
    }

    deinit {
        for slot in slots { _ = library.slotUnref(slot) }
        for table in vtables { free(table) }
        _ = library.flushCloseUnref(bus)
    }

    /// The connection's unique name on the bus (waits for the bus's hello when it has not come yet).
    func uniqueName() throws(BusError) -> String {
        var name: UnsafePointer<CChar>?
        try library.check(library.getUniqueName(bus, &name), "the bus gave no name")
        return name.map { String(cString: $0) } ?? ""
    }

    /// Handles everything the bus has for the connection now (calls to its objects, replies,
    /// signals: their callbacks run here) and sends what waits.
    /// - Throws: `BusError` when the connection is lost.
    func processAll() throws(BusError) {
        while true {
            let result = library.process(bus, nil)
            try library.check(result, "the bus connection failed")
            if result == 0 { break }
        }
        pending.removeAll { $0.isDone }
    }

    /// What to wait for before processing again: the connection's socket, for what sd-bus
    /// wants of it, and the deadline of its own timeouts (a call's reply), if any.
    var nextWait: (request: PollRequest?, deadline: ContinuousClock.Instant?) {
        var deadline: ContinuousClock.Instant?
        var microseconds: UInt64 = 0
        if library.getTimeout(bus, &microseconds) >= 0, microseconds != UInt64.max {
            // An absolute CLOCK_MONOTONIC time.
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            let nowMicroseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
            let wait = min(microseconds > nowMicroseconds ? microseconds - nowMicroseconds : 0, 86_400_000_000)
            deadline = .now.advanced(by: .microseconds(wait))
        }
        let descriptor = library.getFD(bus)
        let events = library.getEvents(bus)
        guard descriptor >= 0, events >= 0 else { return (nil, deadline) }
        return (.peer(descriptor, reading: events & Int32(POLLIN) != 0, writing: events & Int32(POLLOUT) != 0), deadline)
    }

    /// Exports an object of `shape`: `call` gets each call of its method (and says whether it
    /// takes it: a call it does not take is answered AccessDenied), `value` gives the property's
    /// value whenever it is read or its change sent.
    /// - Throws: `BusError` when sd-bus refuses the object (a path or interface exported already).
    func export(_ shape: BusObjectShape, call: @escaping (BusMethodCall) -> Bool, value: @escaping () -> UInt32) throws(BusError) {
        let handler: sd_bus_message_handler_t = { message, userdata, _ in
            guard let message, let userdata else { return -EINVAL }
            let object = Unmanaged<ExportedObject>.fromOpaque(userdata).takeUnretainedValue()
            var text: UnsafePointer<CChar>?
            var number: UInt32 = 0
            let read = CSDBus_read_string_uint32(object.library.messageRead, message, &text, &number)
            guard read >= 0, let text else { return read < 0 ? read : -EINVAL }
            let call = BusMethodCall(library: object.library, message: message, text: String(cString: text), number: number)
            return object.call(call) ? 1 : -EACCES
        }
        let getter: sd_bus_property_get_t = { _, _, _, _, reply, userdata, _ in
            guard let reply, let userdata else { return -EINVAL }
            let object = Unmanaged<ExportedObject>.fromOpaque(userdata).takeUnretainedValue()
            return CSDBus_append_uint32(object.library.messageAppend, reply, object.value())
        }
        guard
            let table = CSDBus_method_and_property_vtable(
                library.vtableFormat, cString(shape.method), cString("su"), cString("bu"), cString(shape.argumentNames), handler,
                cString(shape.property), cString("u"), getter)
        else { throw BusError(description: "out of memory") }
        let object = ExportedObject(library: library, call: call, value: value)
        var slot: OpaquePointer?
        let result = shape.path.withCString { path in
            shape.interface.withCString { interface in
                library.addObjectVtable(bus, &slot, path, interface, table, Unmanaged.passUnretained(object).toOpaque())
            }
        }
        guard result >= 0, let slot else {
            free(table)
            try library.check(result, "cannot export \(shape.interface) at \(shape.path)")
            throw BusError(description: "cannot export \(shape.interface) at \(shape.path)")
        }
        slots.append(slot)
        vtables.append(table)
        exported.append(object)
    }

    /// Sends `PropertiesChanged` for `shape`'s property, with its value as `value` gives it now.
    func emitPropertyChanged(of shape: BusObjectShape) throws(BusError) {
        let result = shape.path.withCString { path in
            shape.interface.withCString { interface in
                CSDBus_emit_property_changed(library.emitPropertiesChanged, bus, path, interface, cString(shape.property))
            }
        }
        try library.check(result, "cannot send PropertiesChanged")
    }

    /// Calls `member` of `interface` at `path` of `destination` with one string argument; `reply`
    /// gets the sender of its answer, or the error it was answered with (a timeout after sd-bus's
    /// 25 s), on this connection's thread.
    func call(
        _ destination: String, _ path: String, _ interface: String, _ member: String, argument: String,
        reply: @escaping (Result<String?, BusError>) -> Void
    ) throws(BusError) {
        let call = PendingCall(library: library, reply: reply)
        let callback: sd_bus_message_handler_t = { message, userdata, _ in
            guard let message, let userdata else { return 0 }
            let call = Unmanaged<PendingCall>.fromOpaque(userdata).takeUnretainedValue()
            let library = call.library
            call.isDone = true
            if library.messageIsMethodError(message, nil) > 0, let error = library.messageError(message) {
                let name = error.pointee.name.map { String(cString: $0) }
                let text = error.pointee.message.map { String(cString: $0) } ?? name ?? "an error"
                call.reply(.failure(BusError(name: name, description: text)))
            } else {
                call.reply(.success(library.messageSender(message).map { String(cString: $0) }))
            }
            return 0
        }
        // A floating slot (none asked for): sd-bus frees it once the reply came; `pending` keeps
        // the user data until then.
        let result = destination.withCString { destination in
            path.withCString { path in
                interface.withCString { interface in
                    member.withCString { member in
                        argument.withCString { argument in
                            CSDBus_call_string_async(
                                library.callMethodAsync, bus, nil, destination, path, interface, member, callback,
                                Unmanaged.passUnretained(call).toOpaque(), argument)
                        }
                    }
                }
            }
        }
        try library.check(result, "cannot call \(interface).\(member)")
        pending.append(call)
    }

    /// Watches who owns `name`: `changed` gets its new owner's unique name (empty when it left)
    /// each time it changes, on this connection's thread. Asks the bus at once (a blocking call).
    func watchOwner(of name: String, _ changed: @escaping (_ newOwner: String) -> Void) throws(BusError) {
        let watch = SignalWatch(library: library) { changedName, owner in
            if changedName == name { changed(owner) }
        }
        let callback: sd_bus_message_handler_t = { message, userdata, _ in
            guard let message, let userdata else { return 0 }
            let watch = Unmanaged<SignalWatch>.fromOpaque(userdata).takeUnretainedValue()
            // Only the bus itself says who owns a name: a match rule's sender does not stop a peer
            // that sends the signal to this connection directly (any local user may send signals).
            guard let sender = watch.library.messageSender(message), String(cString: sender) == "org.freedesktop.DBus" else { return 0 }
            var name: UnsafePointer<CChar>?
            var old: UnsafePointer<CChar>?
            var new: UnsafePointer<CChar>?
            guard CSDBus_read_three_strings(watch.library.messageRead, message, &name, &old, &new) >= 0, let name, let new else {
                return 0
            }
            watch.changed(String(cString: name), String(cString: new))
            return 0
        }
        // The name is a bus name (letters, digits, `.`, `_`, `-`): nothing in it ends the quotes.
        let match =
            "type='signal',sender='org.freedesktop.DBus',path='/org/freedesktop/DBus',interface='org.freedesktop.DBus',"
            + "member='NameOwnerChanged',arg0='\(name)'"
        var slot: OpaquePointer?
        let result = match.withCString { library.addMatch(bus, &slot, $0, callback, Unmanaged.passUnretained(watch).toOpaque()) }
        try library.check(result, "cannot watch \(name) on the bus")
        if let slot { slots.append(slot) }
        watches.append(watch)
    }
}
