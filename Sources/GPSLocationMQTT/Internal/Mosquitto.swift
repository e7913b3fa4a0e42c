internal import CMosquitto
import Glibc
import LocateSupport

// The libmosquitto boundary: the only Swift file that touches libmosquitto's C types. The library
// is opened with dlopen when the first client is made (see shim.h: linking it would load libssl
// and libcrypto into every run of locate). Each
// connection to the broker gets a handle of its own, made for it and destroyed after it, and is
// driven by one thread (the client's loop) with its own poll: libmosquitto's thread gives up for
// good on some failures (a TLS verification failure, an MQTT 5 refusal), and with one owner there
// is no lock to reason about. Callbacks run inside `service`, on that same thread.

/// libmosquitto's functions, looked up once in the shared object.
struct MosquittoLibrary {
    /// The shared object's name (Debian's libmosquitto1).
    static let soname = "libmosquitto.so.1"

    let libInit: CMosquitto_lib_init
    let strerror: CMosquitto_strerror
    let reasonString: CMosquitto_reason_string
    let connackString: CMosquitto_connack_string
    let new: CMosquitto_new
    let userDataSet: CMosquitto_user_data_set
    let destroy: CMosquitto_destroy
    let connectV5CallbackSet: CMosquitto_connect_v5_callback_set
    let publishV5CallbackSet: CMosquitto_publish_v5_callback_set
    let intOption: CMosquitto_int_option
    let maxInflightMessagesSet: CMosquitto_max_inflight_messages_set
    let usernamePwSet: CMosquitto_username_pw_set
    let tlsSet: CMosquitto_tls_set
    let willSet: CMosquitto_will_set
    let connectBindAsync: CMosquitto_connect_bind_async
    let connectBindV5: CMosquitto_connect_bind_v5
    let publish: CMosquitto_publish
    let disconnect: CMosquitto_disconnect
    let loopWrite: CMosquitto_loop_write
    let socket: CMosquitto_socket
    let wantWrite: CMosquitto_want_write
    let loopRead: CMosquitto_loop_read
    let loopMisc: CMosquitto_loop_misc
    let subscribe: CMosquitto_subscribe
    let messageCallbackSet: CMosquitto_message_callback_set
    let subscribeCallbackSet: CMosquitto_subscribe_callback_set
    let threadedSet: CMosquitto_threaded_set
    let propertyAddInt32: CMosquitto_property_add_int32
    let propertyFreeAll: CMosquitto_property_free_all

    /// The library, opened and initialized (`mosquitto_lib_init`), or why it cannot be.
    static let loaded: Result<MosquittoLibrary, MQTTError> = {
        let shared: DynamicLibrary
        do throws(DynamicLibrary.Failure) {
            shared = try DynamicLibrary([soname], package: "libmosquitto1")
        } catch {
            return .failure(.unusable(error.description))
        }
        func symbol<Function>(_ name: String, as type: Function.Type) throws(MQTTError) -> Function {
            do throws(DynamicLibrary.Failure) { return try shared.symbol(name, as: type) } catch { throw .unusable(error.description) }
        }
        do throws(MQTTError) {
            let library = MosquittoLibrary(
                libInit: try symbol("mosquitto_lib_init", as: CMosquitto_lib_init.self),
                strerror: try symbol("mosquitto_strerror", as: CMosquitto_strerror.self),
                reasonString: try symbol("mosquitto_reason_string", as: CMosquitto_reason_string.self),
                connackString: try symbol("mosquitto_connack_string", as: CMosquitto_connack_string.self),
                new: try symbol("mosquitto_new", as: CMosquitto_new.self),
                userDataSet: try symbol("mosquitto_user_data_set", as: CMosquitto_user_data_set.self),
                destroy: try symbol("mosquitto_destroy", as: CMosquitto_destroy.self),
                connectV5CallbackSet: try symbol("mosquitto_connect_v5_callback_set", as: CMosquitto_connect_v5_callback_set.self),
                publishV5CallbackSet: try symbol("mosquitto_publish_v5_callback_set", as: CMosquitto_publish_v5_callback_set.self),
                intOption: try symbol("mosquitto_int_option", as: CMosquitto_int_option.self),
                maxInflightMessagesSet: try symbol("mosquitto_max_inflight_messages_set", as: CMosquitto_max_inflight_messages_set.self),
                usernamePwSet: try symbol("mosquitto_username_pw_set", as: CMosquitto_username_pw_set.self),
                tlsSet: try symbol("mosquitto_tls_set", as: CMosquitto_tls_set.self),
                willSet: try symbol("mosquitto_will_set", as: CMosquitto_will_set.self),
                connectBindAsync: try symbol("mosquitto_connect_bind_async", as: CMosquitto_connect_bind_async.self),
                connectBindV5: try symbol("mosquitto_connect_bind_v5", as: CMosquitto_connect_bind_v5.self),
                publish: try symbol("mosquitto_publish", as: CMosquitto_publish.self),
                disconnect: try symbol("mosquitto_disconnect", as: CMosquitto_disconnect.self),
                loopWrite: try symbol("mosquitto_loop_write", as: CMosquitto_loop_write.self),
                socket: try symbol("mosquitto_socket", as: CMosquitto_socket.self),
                wantWrite: try symbol("mosquitto_want_write", as: CMosquitto_want_write.self),
                loopRead: try symbol("mosquitto_loop_read", as: CMosquitto_loop_read.self),
                loopMisc: try symbol("mosquitto_loop_misc", as: CMosquitto_loop_misc.self),
                subscribe: try symbol("mosquitto_subscribe", as: CMosquitto_subscribe.self),
                messageCallbackSet: try symbol("mosquitto_message_callback_set", as: CMosquitto_message_callback_set.self),
                subscribeCallbackSet: try symbol("mosquitto_subscribe_callback_set", as: CMosquitto_subscribe_callback_set.self),
                threadedSet: try symbol("mosquitto_threaded_set", as: CMosquitto_threaded_set.self),
                propertyAddInt32: try symbol("mosquitto_property_add_int32", as: CMosquitto_property_add_int32.self),
                propertyFreeAll: try symbol("mosquitto_property_free_all", as: CMosquitto_property_free_all.self))
            guard library.libInit() == MOSQ_ERR_SUCCESS.rawValue else { return .failure(.unusable("libmosquitto did not start")) }
            return .success(library)
        } catch {
            return .failure(error)
        }
    }()
}

/// The library as a whole.
enum Mosquitto {

    /// The words for a libmosquitto status code.
    static func describe(_ code: Int32) -> String {
        if code == MOSQ_ERR_KEEPALIVE.rawValue { return "the broker stopped answering (keepalive)" }
        if code == MOSQ_ERR_CONN_LOST.rawValue { return "the connection was lost" }
        if code == MOSQ_ERR_TLS.rawValue {
            return "the TLS handshake failed (is the broker's certificate for this host, and signed by a CA trusted here?)"
        }
        if code == MOSQ_ERR_ERRNO.rawValue { return String(cString: strerror(errno)) }
        return (try? MosquittoLibrary.loaded.get())?.strerror(code).map { String(cString: $0) } ?? "error \(code)"
    }
}

/// One connection to the broker over one libmosquitto handle; used by one thread only.
final class MosquittoConnection: PublishingConnection {
    private let library: MosquittoLibrary
    private let handle: OpaquePointer
    private let isVersion5: Bool
    /// What the callbacks reported since the last `takeEvents()`.
    private var events: [ConnectionEvent] = []
    /// A subscriber's: the messages that came since the last `takeMessages()`, and the
    /// subscription's granted QoS once the broker answered (128: refused).
    private var messages: [MosquittoDelivery] = []
    private var granted: Int32?

    /// A handle configured from `settings`, not connected yet; with `session`, a persistent
    /// session of that client id (the broker keeps its subscriptions and queues for it).
    /// - Throws: ``MQTTError/unusable(_:)`` when libmosquitto refuses a setting (a CA file it cannot read).
    init(_ settings: MQTTConfiguration, session: String? = nil) throws(MQTTError) {
        let library = try MosquittoLibrary.loaded.get()
        guard let handle = library.new(session, session == nil, nil) else {
            throw .unusable("libmosquitto could not make a client (out of memory)")
        }
        self.library = library
        self.handle = handle
        isVersion5 = settings.protocolVersion == .v5
        library.userDataSet(handle, Unmanaged.passUnretained(self).toOpaque())
        installCallbacks()
        try configure(settings)
    }

    deinit {
        library.destroy(handle)
    }

    private static func connection(_ context: UnsafeMutableRawPointer?) -> MosquittoConnection? {
        context.map { Unmanaged<MosquittoConnection>.fromOpaque($0).takeUnretainedValue() }
    }

    private func installCallbacks() {
        // Closures that capture nothing are C function pointers; the connection is the user data.
        library.connectV5CallbackSet(handle) { _, context, code, _, _ in
            guard let connection = MosquittoConnection.connection(context) else { return }
            connection.events.append(.connected(refusal: code == 0 ? nil : connection.refusal(code)))
        }
        library.publishV5CallbackSet(handle) { _, context, id, reason, _ in
            // Reason codes below 0x80 are successes (16: no subscriber matched).
            MosquittoConnection.connection(context)?.events.append(.acknowledged(id: id, refused: reason >= 0x80))
        }
    }

    /// The words for a CONNACK refusal: MQTT 5 reason codes and 3.1.1 return codes differ.
    private func refusal(_ code: Int32) -> String {
        let text = isVersion5 ? library.reasonString(code) : library.connackString(code)
        return text.map { String(cString: $0) } ?? "refused (\(code))"
    }

    private func configure(_ settings: MQTTConfiguration) throws(MQTTError) {
        func check(_ what: String, _ code: Int32) throws(MQTTError) {
            guard code == MOSQ_ERR_SUCCESS.rawValue else { throw .unusable("\(what): \(Mosquitto.describe(code))") }
        }
        if isVersion5 {
            try check("MQTT 5", library.intOption(handle, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V5))
        }
        try check("in-flight window", library.maxInflightMessagesSet(handle, UInt32(settings.window)))
        if let user = settings.broker.user {
            try check("user name", library.usernamePwSet(handle, user, settings.password))
        }
        if settings.broker.usesTLS {
            if let caFile = settings.caFile {
                try check("CA file \(caFile)", library.tlsSet(handle, caFile, nil, nil, nil, nil))
            } else {
                try check("system CA store", library.intOption(handle, MOSQ_OPT_TLS_USE_OS_CERTS, 1))
            }
        }
        if let will = settings.will {
            try check(
                "last will",
                will.payload.withUnsafeBytes { bytes in
                    library.willSet(handle, will.topic, Int32(bytes.count), bytes.baseAddress, will.qos.rawValue, will.retain)
                })
        }
    }

    /// Starts connecting: the name lookup blocks, the TCP connect does not (a host that never
    /// answers is the caller's deadline to keep); TLS and the CONNACK come in `service`.
    /// - Returns: why it failed, or `nil`.
    func connect(host: String, port: Int, keepalive: Int) -> String? {
        let code = library.connectBindAsync(handle, host, Int32(port), Int32(keepalive), nil)
        return code == MOSQ_ERR_SUCCESS.rawValue ? nil : Mosquitto.describe(code)
    }

    /// Hands `message` to libmosquitto; its id (for the acknowledgement), or `nil` when it failed.
    /// Once handed over it is libmosquitto's (the loop's `abort` recalls what it still holds).
    func publish(_ message: MQTTMessage, while admits: (@Sendable () -> Bool)? = nil) -> Int32? {
        var id: Int32 = 0
        let code = message.payload.withUnsafeBytes { bytes in
            library.publish(handle, &id, message.topic, Int32(bytes.count), bytes.baseAddress, message.qos.rawValue, message.retain)
        }
        return code == MOSQ_ERR_SUCCESS.rawValue ? id : nil
    }

    /// Sends DISCONNECT (the broker then keeps the will to itself) and writes it out.
    func disconnect() {
        _ = library.disconnect(handle)
        _ = library.loopWrite(handle, 1)
    }

    /// Drops the connection with a TCP reset when the handle goes (`SO_LINGER` of 0): what
    /// waits in this host's socket is discarded rather than sent, and libmosquitto's queue
    /// goes with the handle.
    func abort() {
        let socket = library.socket(handle)
        guard socket >= 0 else { return }
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(socket, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
    }

    /// The socket to wait on, and whether libmosquitto has bytes to write (then wait for
    /// writing); `nil` once the connection is closed.
    var waitsOnSocket: Bool { true }

    var isUpBeforeItAnswers: Bool { false }

    var socket: PollRequest? {
        let socket = library.socket(handle)
        guard socket >= 0 else { return nil }
        return library.wantWrite(handle) ? .writing(socket) : .reading(socket)
    }

    /// Reads what arrived (when `readable`), writes what waits, and keeps the connection alive
    /// (PINGREQ); the callbacks run in here.
    /// - Returns: why the connection failed, or `nil` while it holds.
    func service(readable: Bool) -> String? {
        var code = MOSQ_ERR_SUCCESS.rawValue
        if readable { code = library.loopRead(handle, 1) }
        if code == MOSQ_ERR_SUCCESS.rawValue, library.socket(handle) >= 0, library.wantWrite(handle) {
            code = library.loopWrite(handle, 1)
        }
        if code == MOSQ_ERR_SUCCESS.rawValue { code = library.loopMisc(handle) }
        if code == MOSQ_ERR_SUCCESS.rawValue, library.socket(handle) < 0 { return "the connection was closed" }
        return code == MOSQ_ERR_SUCCESS.rawValue ? nil : Mosquitto.describe(code)
    }

    /// Whether the callbacks reported something not taken yet (a QoS 0 message written as it
    /// was handed over reports at once, before any wait).
    var hasEvents: Bool { !events.isEmpty }

    /// What the callbacks reported since the last call, in order.
    func takeEvents() -> [ConnectionEvent] {
        defer { events.removeAll() }
        return events
    }
}

/// A message that came to a subscriber: its topic and payload, as bytes.
struct MosquittoDelivery {
    let topic: [UInt8]
    let payload: [UInt8]
}

extension MosquittoConnection {
    /// Makes this connection a subscriber's: messages are kept for `takeMessages()`, and every
    /// packet libmosquitto answers with (a message's PUBACK above all) waits for `service` to
    /// write it, so that a message is acknowledged only once its receiver asked for the next one.
    func receiveMessages() {
        _ = library.threadedSet(handle, true)
        library.messageCallbackSet(handle) { _, context, message in
            guard let connection = MosquittoConnection.connection(context), let message = message?.pointee else { return }
            let topic =
                message.topic.map {
                    Array(UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: strlen($0)))
                } ?? []
            let payload = message.payload.map { Array(UnsafeRawBufferPointer(start: $0, count: Int(max(0, message.payloadlen)))) } ?? []
            connection.messages.append(MosquittoDelivery(topic: topic, payload: payload))
        }
        library.subscribeCallbackSet(handle) { _, context, _, count, qos in
            guard let connection = MosquittoConnection.connection(context) else { return }
            connection.granted = count > 0 ? qos?.pointee ?? 128 : 128
        }
    }

    /// Connects a persistent session (DNS and TCP, blocking); MQTT 5 asks the broker to keep it
    /// as long as it can (session expiry 0xFFFFFFFF: never).
    /// - Returns: why it failed, or `nil`.
    func connectSession(host: String, port: Int, keepalive: Int) -> String? {
        var properties: OpaquePointer?
        defer { if properties != nil { library.propertyFreeAll(&properties) } }
        if isVersion5 {
            let code = library.propertyAddInt32(&properties, Int32(MQTT_PROP_SESSION_EXPIRY_INTERVAL.rawValue), UInt32.max)
            guard code == MOSQ_ERR_SUCCESS.rawValue else { return Mosquitto.describe(code) }
        }
        let code = library.connectBindV5(handle, host, Int32(port), Int32(keepalive), nil, properties)
        return code == MOSQ_ERR_SUCCESS.rawValue ? nil : Mosquitto.describe(code)
    }

    /// Sends SUBSCRIBE for `filter` at QoS 1.
    /// - Returns: why it could not, or `nil`.
    func subscribe(_ filter: String) -> String? {
        granted = nil
        let code = library.subscribe(handle, nil, filter, 1)
        return code == MOSQ_ERR_SUCCESS.rawValue ? nil : Mosquitto.describe(code)
    }

    /// The QoS the broker granted the subscription (128: refused), once it answered.
    var grantedQoS: Int32? { granted }

    /// Reads at most `limit` packets, if the socket is readable, running the callbacks.
    /// - Returns: why the connection failed, or `nil`.
    func read(upTo limit: Int) -> String? {
        let code = library.loopRead(handle, Int32(limit))
        return code == MOSQ_ERR_SUCCESS.rawValue ? nil : Mosquitto.describe(code)
    }

    /// How many messages came and were not taken yet.
    var messageCount: Int { messages.count }

    /// The messages that came since the last call, in order.
    func takeMessages() -> [MosquittoDelivery] {
        defer { messages.removeAll(keepingCapacity: true) }
        return messages
    }
}
