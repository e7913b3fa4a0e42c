internal import CCurl
import LocateSupport
import Synchronization

// The libcurl boundary: the only Swift file that touches libcurl's C types. The library is opened
// with dlopen when the first client of an http(s):// URL is made (linking it would load a TLS
// library and its dependencies into every run of locate). Each connection has an easy handle of
// its own; each request blocks a thread of its own (`curl_easy_perform`, bounded by a timeout),
// never the client's loop, which goes on keeping what is handed over meanwhile; callbacks run
// inside `curl_easy_perform`, on that thread. The handle is used by one thread at a time: the
// request's while it runs, the loop's only between requests.

/// libcurl's functions, looked up once in the shared object.
/// Sendable by hand: `curl_easy_setopt` and `curl_easy_getinfo` are variadic, and Swift takes a
/// pointer to a variadic function for an opaque pointer; all of them are constant addresses.
struct CurlLibrary: @unchecked Sendable {
    let easyInit: CCurl_easy_init
    let easyCleanup: CCurl_easy_cleanup
    let easyPerform: CCurl_easy_perform
    let easyStrerror: CCurl_easy_strerror
    let easySetopt: CCurl_easy_setopt
    let easyGetinfo: CCurl_easy_getinfo
    let slistAppend: CCurl_slist_append
    let slistFreeAll: CCurl_slist_free_all

    /// The library, or why it cannot be had: Debian's libcurl4 (OpenSSL) or libcurl3-gnutls
    /// (GnuTLS), whichever is installed; both trust the system's store by default.
    static let loaded: Result<CurlLibrary, MQTTError> = {
        do throws(DynamicLibrary.Failure) {
            let shared = try DynamicLibrary(["libcurl.so.4", "libcurl-gnutls.so.4"], package: "libcurl4")
            return .success(
                CurlLibrary(
                    easyInit: try shared.symbol("curl_easy_init", as: CCurl_easy_init.self),
                    easyCleanup: try shared.symbol("curl_easy_cleanup", as: CCurl_easy_cleanup.self),
                    easyPerform: try shared.symbol("curl_easy_perform", as: CCurl_easy_perform.self),
                    easyStrerror: try shared.symbol("curl_easy_strerror", as: CCurl_easy_strerror.self),
                    easySetopt: try shared.symbol("curl_easy_setopt", as: CCurl_easy_setopt.self),
                    easyGetinfo: try shared.symbol("curl_easy_getinfo", as: CCurl_easy_getinfo.self),
                    slistAppend: try shared.symbol("curl_slist_append", as: CCurl_slist_append.self),
                    slistFreeAll: try shared.symbol("curl_slist_free_all", as: CCurl_slist_free_all.self)))
        } catch {
            return .failure(.unusable(error.description))
        }
    }()
}

/// An HTTP endpoint as the client's connection: each message is one POST of its payload, started
/// by `publish` on a thread of its own (one at a time: the client's window is 1) and
/// acknowledged by a 2xx answer, which wakes the client's loop. Any
/// other answer, a refused connection or a timeout fails the connection: the client keeps the
/// message and tries again with its back-off. An empty payload (a retained message's clear,
/// which HTTP has no use for) is acknowledged without a request. Redirects are not followed,
/// and only http and https are spoken.
/// Sendable by hand: the handle and the request's buffers belong to one thread at a time (the
/// request's while it runs, `inFlight` says which), and what both threads read is in `results`.
final class CurlConnection: PublishingConnection, @unchecked Sendable {
    /// The longest wait for a connection, and for a whole request and its answer.
    static let connectTimeout = Duration.seconds(10)
    static let requestTimeout = Duration.seconds(30)
    /// The most bytes of an answer read; a longer one is cut off (its status still counts).
    static let answerLimit = 64 * 1024

    private let library: CurlLibrary
    private let handle: UnsafeMutableRawPointer
    private let url: String
    private var headers: UnsafeMutablePointer<curl_slist>?
    /// Wakes the client's loop when a request ends.
    private let wake: @Sendable () -> Void
    /// What the requests' threads report: the events, the failure, and whether one runs.
    private let results = Mutex<(events: [ConnectionEvent], failure: String?, inFlight: Bool)>(([], nil, false))
    private var nextID: Int32 = 1
    /// The request being made (its thread's): the bytes of its answer so far, and whether it may still go.
    private var answer: [UInt8] = []
    private var admits: (@Sendable () -> Bool)?
    private var isGivenUp = false
    private var hasAnswered = false

    /// A handle configured from `settings`: the endpoint, its user and password (Basic), the
    /// CA file (else the system's store), the headers; `wake` is called when a request ends.
    /// - Throws: ``MQTTError/unusable(_:)`` when libcurl is missing or refuses a setting.
    init(_ settings: MQTTConfiguration, wake: @escaping @Sendable () -> Void) throws(MQTTError) {
        let library = try CurlLibrary.loaded.get()
        guard let handle = library.easyInit() else { throw .unusable("libcurl could not make a handle (out of memory)") }
        self.library = library
        self.handle = handle
        self.wake = wake
        url = settings.broker.requestURL
        for header in settings.httpHeaders {
            guard let list = library.slistAppend(headers, header) else {
                throw .unusable("libcurl could not keep a header (out of memory)")
            }
            headers = list
        }
        try configure(settings)
    }

    deinit {
        library.easyCleanup(handle)
        if let headers { library.slistFreeAll(headers) }
    }

    private func configure(_ settings: MQTTConfiguration) throws(MQTTError) {
        func check(_ what: String, _ code: CURLcode) throws(MQTTError) {
            guard code == CURLE_OK else { throw .unusable("libcurl refused \(what): \(describe(code))") }
        }
        func option(_ option: CURLoption, _ value: Int) throws(MQTTError) {
            try check("option \(option.rawValue)", CCurl_setopt_long(library.easySetopt, handle, option, value))
        }
        func option(_ option: CURLoption, _ text: String) throws(MQTTError) {
            // libcurl copies the strings it is given (7.17 and later).
            try check("option \(option.rawValue)", text.withCString { CCurl_setopt_pointer(library.easySetopt, handle, option, $0) })
        }
        try option(CURLOPT_URL, url)
        try option(CURLOPT_PROTOCOLS_STR, "http,https")
        // No signal for the name lookup's timeout: this is one thread of many.
        try option(CURLOPT_NOSIGNAL, 1)
        try option(CURLOPT_FOLLOWLOCATION, 0)
        try option(CURLOPT_CONNECTTIMEOUT_MS, Int(Self.connectTimeout.components.seconds) * 1000)
        try option(CURLOPT_TIMEOUT_MS, Int(Self.requestTimeout.components.seconds) * 1000)
        try option(CURLOPT_USERAGENT, "locate")
        // Basic (CURLAUTH_BASIC, a macro Swift cannot import), as OwnTracks' apps log in, and only
        // with a password: the user alone is OwnTracks' X-Limit-U.
        if let user = settings.broker.user, let password = settings.password {
            try option(CURLOPT_USERNAME, user)
            try option(CURLOPT_PASSWORD, password)
            try option(CURLOPT_HTTPAUTH, 1)
        }
        if let caFile = settings.caFile { try option(CURLOPT_CAINFO, caFile) }
        if let headers {
            try check("the headers", CCurl_setopt_pointer(library.easySetopt, handle, CURLOPT_HTTPHEADER, headers))
        }
        // Closures that capture nothing are C function pointers; the connection is their data.
        let context = Unmanaged.passUnretained(self).toOpaque()
        try check(
            "the answer's reader",
            CCurl_setopt_write(library.easySetopt, handle) { bytes, size, count, context in
                guard let context, let bytes else { return 0 }
                let connection = Unmanaged<CurlConnection>.fromOpaque(context).takeUnretainedValue()
                let total = size * count
                let room = max(0, CurlConnection.answerLimit - connection.answer.count)
                connection.answer += UnsafeRawBufferPointer(start: bytes, count: min(total, room))
                // Past the limit the transfer ends (its status was read already).
                return room >= total ? total : 0
            })
        try check("option WRITEDATA", CCurl_setopt_pointer(library.easySetopt, handle, CURLOPT_WRITEDATA, context))
        try check(
            "the progress watch",
            CCurl_setopt_progress(library.easySetopt, handle) { context, _, _, uploadTotal, uploaded in
                guard let context else { return 0 }
                let connection = Unmanaged<CurlConnection>.fromOpaque(context).takeUnretainedValue()
                // A request not sent yet (a connection still being made) whose admission now says no is given up.
                guard uploaded < uploadTotal || uploadTotal == 0, connection.admits?() == false else { return 0 }
                connection.isGivenUp = true
                return 1
            })
        try check("option XFERINFODATA", CCurl_setopt_pointer(library.easySetopt, handle, CURLOPT_XFERINFODATA, context))
        try option(CURLOPT_NOPROGRESS, 0)
    }

    private func describe(_ code: CURLcode) -> String {
        library.easyStrerror(code).map { String(cString: $0) } ?? "error \(code.rawValue)"
    }

    /// Nothing to do before the first request: the endpoint is connected to as a request needs
    /// it, and counts as connected once it answered one with a 2xx.
    func connect(host: String, port: Int, keepalive: Int) -> String? { nil }

    var isUpBeforeItAnswers: Bool { true }

    /// Starts POSTing `message`'s payload on a thread of its own; its answer comes as an event
    /// (and wakes the loop). After a failure, nothing more is requested (the id is given, and the
    /// message goes back to the queue with the others).
    func publish(_ message: MQTTMessage, while admits: (@Sendable () -> Bool)?) -> Int32? {
        let id = nextID
        nextID += 1
        let idle = results.withLock { results -> Bool in
            guard results.failure == nil, !results.inFlight else { return false }
            if message.payload.isEmpty {
                results.events.append(.acknowledged(id: id, refused: false))
            } else {
                results.inFlight = true
            }
            return true
        }
        guard idle, !message.payload.isEmpty else { return id }
        answer = []
        isGivenUp = false
        self.admits = admits
        let started = DedicatedThread.start { [self] in
            let outcome = post(message.payload)
            results.withLock { results in
                results.inFlight = false
                switch outcome {
                case .success(let first):
                    if first { results.events.append(.connected(refusal: nil)) }
                    results.events.append(.acknowledged(id: id, refused: false))
                case .failure(let failure):
                    results.failure = failure.description
                }
            }
            wake()
        }
        if !started { results.withLock { ($0.inFlight, $0.failure) = (false, "cannot start a thread for the request") } }
        return id
    }

    /// Why a request did not go through.
    private struct RequestFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// POSTs `payload` and waits for the answer, on the request's thread; whether this was the
    /// endpoint's first 2xx answer, or why it failed.
    private func post(_ payload: [UInt8]) -> Result<Bool, RequestFailure> {
        defer { admits = nil }
        var code = CCurl_setopt_long(library.easySetopt, handle, CURLOPT_POSTFIELDSIZE, payload.count)
        if code == CURLE_OK {
            code = payload.withUnsafeBytes { bytes in
                // Copied by libcurl: the bytes need not outlive this call.
                CCurl_setopt_pointer(library.easySetopt, handle, CURLOPT_COPYPOSTFIELDS, bytes.baseAddress)
            }
        }
        if code == CURLE_OK { code = library.easyPerform(handle) }
        var status = 0
        _ = CCurl_getinfo_long(library.easyGetinfo, handle, CURLINFO_RESPONSE_CODE, &status)
        if (200...299).contains(status) {
            defer { hasAnswered = true }
            return .success(!hasAnswered)
        }
        if isGivenUp { return .failure(RequestFailure(description: "a request was given up: its position is no longer admitted")) }
        if code != CURLE_OK { return .failure(RequestFailure(description: describe(code))) }
        let said = UntrustedText.visible(String(decoding: answer.prefix(200), as: UTF8.self), limit: 120)
        return .failure(RequestFailure(description: "HTTP \(status)" + (said.isEmpty ? "" : " (\(said))")))
    }

    func disconnect() {}

    func abort() {}

    var socket: PollRequest? { nil }

    var waitsOnSocket: Bool { false }

    func service(readable: Bool) -> String? {
        results.withLock { results in
            defer { results.failure = nil }
            return results.failure
        }
    }

    var hasEvents: Bool { results.withLock { !$0.events.isEmpty || $0.failure != nil } }

    func takeEvents() -> [ConnectionEvent] {
        results.withLock { results in
            defer { results.events.removeAll() }
            return results.events
        }
    }
}
