internal import CMosquitto
import Glibc
import LocateSupport

// The libmosquitto boundary: the only Swift file that touches libmosquitto's C types. Each
// connection to the broker gets a handle of its own, made for it and destroyed after it, and is
// driven by one thread (the client's loop) with its own poll: libmosquitto's thread gives up for
// good on some failures (a TLS verification failure, an MQTT 5 refusal), and with one owner there
// is no lock to reason about. Callbacks run inside `service`, on that same thread.

/// The library as a whole.
enum Mosquitto {
    /// `mosquitto_lib_init`, once per process, before the first handle.
    static let initialized: Bool = mosquitto_lib_init() == MOSQ_ERR_SUCCESS.rawValue

    /// The words for a libmosquitto status code.
    static func describe(_ code: Int32) -> String {
        if code == MOSQ_ERR_KEEPALIVE.rawValue { return "the broker stopped answering (keepalive)" }
        if code == MOSQ_ERR_CONN_LOST.rawValue { return "the connection was lost" }
        if code == MOSQ_ERR_TLS.rawValue {
            return "the TLS handshake failed (is the broker's certificate for this host, and signed by a CA trusted here?)"
        }
        if code == MOSQ_ERR_ERRNO.rawValue { return String(cString: strerror(errno)) }
        return mosquitto_strerror(code).map { String(cString: $0) } ?? "error \(code)"
    }
}

/// What happened on a connection during one `service` round.
enum MosquittoEvent: Equatable {
    /// The broker's CONNACK: `refusal` is `nil` when it accepted the connection.
    case connected(refusal: String?)
    /// The broker acknowledged message `id` (QoS 1 and 2), or it was written (QoS 0).
    case acknowledged(id: Int32)
}

/// One connection to the broker over one libmosquitto handle; used by one thread only.
final class MosquittoConnection {
    private let handle: OpaquePointer
    private let isVersion5: Bool
    /// What the callbacks reported since the last `takeEvents()`.
    private var events: [MosquittoEvent] = []

    /// A handle configured from `settings`, not connected yet.
    /// - Throws: ``MQTTError/unusable(_:)`` when libmosquitto refuses a setting (a CA file it cannot read).
    init(_ settings: MQTTConfiguration) throws(MQTTError) {
        guard Mosquitto.initialized, let handle = mosquitto_new(nil, true, nil) else {
            throw .unusable("libmosquitto could not make a client (out of memory)")
        }
        self.handle = handle
        isVersion5 = settings.protocolVersion == .v5
        mosquitto_user_data_set(handle, Unmanaged.passUnretained(self).toOpaque())
        installCallbacks()
        try configure(settings)
    }

    deinit {
        mosquitto_destroy(handle)
    }

    private static func connection(_ context: UnsafeMutableRawPointer?) -> MosquittoConnection? {
        context.map { Unmanaged<MosquittoConnection>.fromOpaque($0).takeUnretainedValue() }
    }

    private func installCallbacks() {
        // Closures that capture nothing are C function pointers; the connection is the user data.
        mosquitto_connect_v5_callback_set(handle) { _, context, code, _, _ in
            guard let connection = MosquittoConnection.connection(context) else { return }
            connection.events.append(.connected(refusal: code == 0 ? nil : connection.refusal(code)))
        }
        mosquitto_publish_v5_callback_set(handle) { _, context, id, _, _ in
            // Reason codes below 0x80 are successes (16: no subscriber matched).
            MosquittoConnection.connection(context)?.events.append(.acknowledged(id: id))
        }
    }

    /// The words for a CONNACK refusal: MQTT 5 reason codes and 3.1.1 return codes differ.
    private func refusal(_ code: Int32) -> String {
        let text = isVersion5 ? mosquitto_reason_string(code) : mosquitto_connack_string(code)
        return text.map { String(cString: $0) } ?? "refused (\(code))"
    }

    private func configure(_ settings: MQTTConfiguration) throws(MQTTError) {
        func check(_ what: String, _ code: Int32) throws(MQTTError) {
            guard code == MOSQ_ERR_SUCCESS.rawValue else { throw .unusable("\(what): \(Mosquitto.describe(code))") }
        }
        if isVersion5 {
            try check("MQTT 5", mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V5))
        }
        try check("in-flight window", mosquitto_max_inflight_messages_set(handle, UInt32(settings.window)))
        if let user = settings.broker.user {
            try check("user name", mosquitto_username_pw_set(handle, user, settings.password))
        }
        if settings.broker.usesTLS {
            if let caFile = settings.caFile {
                try check("CA file \(caFile)", mosquitto_tls_set(handle, caFile, nil, nil, nil, nil))
            } else {
                try check("system CA store", mosquitto_int_option(handle, MOSQ_OPT_TLS_USE_OS_CERTS, 1))
            }
        }
        if let will = settings.will {
            try check(
                "last will",
                will.payload.withUnsafeBytes { bytes in
                    mosquitto_will_set(handle, will.topic, Int32(bytes.count), bytes.baseAddress, will.qos.rawValue, will.retain)
                })
        }
    }

    /// Connects (DNS and TCP, blocking; TLS and the CONNACK come in `service`).
    /// - Returns: why it failed, or `nil`.
    func connect(host: String, port: Int, keepalive: Int) -> String? {
        let code = mosquitto_connect_bind_v5(handle, host, Int32(port), Int32(keepalive), nil, nil)
        return code == MOSQ_ERR_SUCCESS.rawValue ? nil : Mosquitto.describe(code)
    }

    /// Hands `message` to libmosquitto; its id (for the acknowledgement), or `nil` when it failed.
    func publish(_ message: MQTTMessage) -> Int32? {
        var id: Int32 = 0
        let code = message.payload.withUnsafeBytes { bytes in
            mosquitto_publish(handle, &id, message.topic, Int32(bytes.count), bytes.baseAddress, message.qos.rawValue, message.retain)
        }
        return code == MOSQ_ERR_SUCCESS.rawValue ? id : nil
    }

    /// Sends DISCONNECT (the broker then keeps the will to itself) and writes it out.
    func disconnect() {
        _ = mosquitto_disconnect(handle)
        _ = mosquitto_loop_write(handle, 1)
    }

    /// The socket to wait on, and whether libmosquitto has bytes to write (then wait for
    /// writing); `nil` once the connection is closed.
    var socket: PollRequest? {
        let socket = mosquitto_socket(handle)
        guard socket >= 0 else { return nil }
        return mosquitto_want_write(handle) ? .writing(socket) : .reading(socket)
    }

    /// Reads what arrived (when `readable`), writes what waits, and keeps the connection alive
    /// (PINGREQ); the callbacks run in here.
    /// - Returns: why the connection failed, or `nil` while it holds.
    func service(readable: Bool) -> String? {
        var code = MOSQ_ERR_SUCCESS.rawValue
        if readable { code = mosquitto_loop_read(handle, 1) }
        if code == MOSQ_ERR_SUCCESS.rawValue, mosquitto_socket(handle) >= 0, mosquitto_want_write(handle) {
            code = mosquitto_loop_write(handle, 1)
        }
        if code == MOSQ_ERR_SUCCESS.rawValue { code = mosquitto_loop_misc(handle) }
        if code == MOSQ_ERR_SUCCESS.rawValue, mosquitto_socket(handle) < 0 { return "the connection was closed" }
        return code == MOSQ_ERR_SUCCESS.rawValue ? nil : Mosquitto.describe(code)
    }

    /// What the callbacks reported since the last call, in order.
    func takeEvents() -> [MosquittoEvent] {
        defer { events.removeAll() }
        return events
    }
}
