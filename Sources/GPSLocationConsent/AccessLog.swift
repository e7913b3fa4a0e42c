public import FoundationEssentials
public import GPSLocation
import LocateSupport

/// One program's use of the user's location, as "who had my location" lists it (iOS's location
/// indicator and privacy report): which app and program, run by which user and process, through
/// what (`serve`, `locate`, `publish`), the accuracy it was granted, and when positions were first
/// and last delivered to it and how many. Never a position.
public struct AccessSession: Sendable, Hashable {
    /// The app whose permission applied; `nil` for `[location]`.
    public var app: String?
    /// The program's executable, when known.
    public var program: String?
    /// The user the program ran as.
    public var user: UInt32
    /// The program's process, when known.
    public var processID: Int32?
    /// What delivered the positions: `serve`, `locate`, `publish`.
    public var via: String
    /// When the program asked.
    public var started: Date
    /// The accuracy of the positions delivered (of the last one); `nil` while none was.
    public var accuracy: AccuracyAuthorization?
    /// The first delivery of a position; `nil` while none was.
    public var firstDelivery: Date?
    /// The last delivery of a position.
    public var lastDelivery: Date?
    /// How many positions were delivered.
    public var deliveries: Int
    /// Why nothing was delivered, when the last look at the authorization said no (an attempt
    /// of a program not allowed, such as one whose permission is not determined yet).
    public var denial: DenialReason?
    /// Why the program was refused before anything was decided for it, when it was (such as
    /// `the program cannot be identified`: no process of the user's could be found holding the
    /// connection); `nil` when it was served.
    public var refusal: String?
    /// The accuracy level GeoClue's agent (`locate agent`) answered an app's request with: 0 when
    /// it refused the app, else GeoClue's level (1 country, 4 city, 5 neighbourhood, 6 street,
    /// 8 exact). GeoClue delivers the positions, so such a session counts none. `nil` for every
    /// other session.
    public var accuracyLevel: UInt32?

    /// A session that starts now, with nothing delivered yet.
    public init(app: String?, program: String?, user: UInt32, processID: Int32?, via: String, started: Date = Date()) {
        self.app = app
        self.program = program
        self.user = user
        self.processID = processID
        self.via = via
        self.started = started
        deliveries = 0
    }

    /// The session as one JSON object (the access log's line, without its line end), with
    /// `"receiving":true` or `false` first when `receiving` is given (`locate access --json`).
    public func jsonRecord(receiving: Bool? = nil) -> String {
        String(decoding: AccessLog.line(self, receiving: receiving).dropLast(), as: UTF8.self)
    }

    /// Counts one position delivered at `date`, under `accuracy`.
    public mutating func noteDelivery(accuracy: AccuracyAuthorization, at date: Date = Date()) {
        if firstDelivery == nil { firstDelivery = date }
        lastDelivery = date
        self.accuracy = accuracy
        deliveries += 1
        denial = nil
    }
}

/// Who had the user's location: the sessions of the programs positions were delivered to (and
/// the attempts of those that were refused), and the programs receiving them now. Any host that
/// hands positions to programs records here: `locate serve` for its clients, and whatever else
/// delivers positions on the user's behalf.
///
/// Kept in the user's private state directory (`$XDG_STATE_HOME/locate`, the cache's trust
/// rules: this user's alone, the way to it changeable by no one else), mode 0600: `access.jsonl`
/// holds ended sessions, one JSON object a line, rotated to `access.1.jsonl` past 256 KiB (so at
/// most twice that is kept); `receivers-PID.jsonl` holds the sessions process PID is serving now,
/// and goes when the process ends it (a file of a process that no longer runs is ignored).
public final class AccessLog: Sendable {
    /// The state directory; `nil` when no home directory is known (nothing is kept).
    public let directory: String?

    /// The log of ended sessions, and its older half.
    static let fileName = "access.jsonl"
    static let olderFileName = "access.1.jsonl"
    static let lockName = ".access.lock"
    /// The size past which the log is rotated.
    let rotationSize: Int

    /// The log in `paths`' state directory.
    public convenience init(paths: SettingsPaths = .current) {
        self.init(paths: paths, rotationSize: 256 * 1024)
    }

    init(paths: SettingsPaths, rotationSize: Int) {
        directory = paths.stateDirectory
        self.rotationSize = rotationSize
    }

    /// Adds an ended session to the log: one line appended (no rewrite, so a program that asks
    /// once and ends pays a write, not a copy of the log), the log moved to its older half under
    /// the lock once it passed the rotation size.
    /// - Throws: `GPSLocationError.invalidSettings` when the state directory cannot be trusted
    ///   or written.
    public func record(_ session: AccessSession) throws(GPSLocationError) {
        let handle = try open(create: true)
        do throws(DirectoryHandle.Failure) {
            let size = try handle.append(Self.fileName, Self.line(session))
            guard size >= rotationSize else { return }
            let lock = try handle.lock(Self.lockName, exclusive: true)
            defer { withExtendedLifetime(lock) {} }
            // Another process may have rotated it meanwhile: only a log still past the size moves.
            if try handle.append(Self.fileName, []) >= rotationSize { handle.rename(Self.fileName, to: Self.olderFileName) }
        } catch {
            throw problem(error.description)
        }
    }

    /// Makes `sessions` the ones this process is serving now (none: removes its entry).
    /// - Throws: `GPSLocationError.invalidSettings`, as ``record(_:)``.
    public func setReceivers(_ sessions: [AccessSession]) throws(GPSLocationError) {
        let handle = try open(create: true)
        let name = "receivers-\(PeerProcess.currentProcess).jsonl"
        guard !sessions.isEmpty else {
            handle.remove(name)
            return
        }
        do throws(DirectoryHandle.Failure) {
            try handle.replace(name, with: sessions.flatMap { Self.line($0) }, durable: false)
        } catch {
            throw problem(error.description)
        }
    }

    /// The ended sessions, newest last, at most `limit`.
    /// - Throws: `GPSLocationError.invalidSettings` when the state directory cannot be trusted.
    public func recentSessions(limit: Int = 100) throws(GPSLocationError) -> [AccessSession] {
        guard let handle = try openIfThere(create: false) else { return [] }
        let older = (try? handle.read(Self.olderFileName, owner: .user, limit: rotationSize * 2)) ?? nil ?? []
        let newer = (try? handle.read(Self.fileName, owner: .user, limit: rotationSize * 2)) ?? nil ?? []
        return Array(Self.sessions(in: older + newer).suffix(limit))
    }

    /// The sessions of every process that is serving positions now.
    /// - Throws: `GPSLocationError.invalidSettings` when the state directory cannot be trusted.
    public func currentReceivers() throws(GPSLocationError) -> [AccessSession] {
        guard let handle = try openIfThere(create: false) else { return [] }
        var sessions: [AccessSession] = []
        for name in handle.names().sorted() where name.hasPrefix("receivers-") && name.hasSuffix(".jsonl") {
            guard let pid = Int32(name.dropFirst(10).dropLast(6)), PeerProcess.isRunning(pid),
                let bytes = try? handle.read(name, owner: .user, limit: rotationSize)
            else { continue }
            sessions += Self.sessions(in: bytes)
        }
        return sessions
    }

    private func openIfThere(create: Bool) throws(GPSLocationError) -> DirectoryHandle? {
        guard let directory else { return nil }
        do throws(DirectoryHandle.Failure) {
            return try DirectoryHandle(path: directory, create: create, isPrivate: true)
        } catch {
            if error.isMissing, !create { return nil }
            throw problem(error.description)
        }
    }

    private func open(create: Bool) throws(GPSLocationError) -> DirectoryHandle {
        guard let handle = try openIfThere(create: create) else { throw problem("no home directory is known") }
        return handle
    }

    private func problem(_ message: String) -> GPSLocationError {
        .invalidSettings(SettingsProblem(file: directory ?? "state directory", message: message))
    }

    /// A session as one line of the log.
    static func line(_ session: AccessSession, receiving: Bool? = nil) -> [UInt8] {
        var object = JSONObjectWriter()
        if let receiving { object.add("receiving", bool: receiving) }
        func time(_ date: Date?) -> String? { date.flatMap(UTCTimestamp.iso8601) }
        object.add("app", string: session.app)
        object.add("program", string: session.program)
        object.add("user", json: String(session.user))
        object.add("pid", json: session.processID.map(String.init) ?? "null")
        object.add("via", string: session.via)
        object.add("started", string: time(session.started))
        object.add("accuracy", string: session.accuracy?.rawValue)
        object.add("first", string: time(session.firstDelivery))
        object.add("last", string: time(session.lastDelivery))
        object.add("count", json: String(session.deliveries))
        object.add("denial", string: session.denial?.rawValue)
        if let refusal = session.refusal { object.add("refused", string: refusal) }
        if let level = session.accuracyLevel { object.add("accuracy_level", json: String(level)) }
        return object.finishLine()
    }

    /// The sessions of the lines of `bytes`; a line that is not one this log wrote is skipped.
    static func sessions(in bytes: [UInt8]) -> [AccessSession] {
        bytes.split(separator: UInt8(ascii: "\n")).compactMap { line in
            guard let object = FlatJSON.parse(Array(line)), case .string(let via)? = object["via"],
                case .string(let startedText)? = object["started"], let started = UTCTimestamp.parse(startedText),
                case .number(let user)? = object["user"], user >= 0, user <= Double(UInt32.max), user == user.rounded(),
                case .number(let count)? = object["count"], count >= 0, count <= 1e15, count == count.rounded()
            else { return nil }
            func text(_ key: String) -> String? {
                if case .string(let value)? = object[key] { return value }
                return nil
            }
            var session = AccessSession(
                app: text("app"), program: text("program"), user: UInt32(user), processID: nil, via: via, started: started)
            if case .number(let pid)? = object["pid"], pid > 0, pid <= Double(Int32.max), pid == pid.rounded() {
                session.processID = Int32(pid)
            }
            session.accuracy = text("accuracy").flatMap(AccuracyAuthorization.init(rawValue:))
            session.firstDelivery = text("first").flatMap { UTCTimestamp.parse($0) }
            session.lastDelivery = text("last").flatMap { UTCTimestamp.parse($0) }
            session.deliveries = Int(count)
            session.denial = text("denial").flatMap(DenialReason.init(rawValue:))
            session.refusal = text("refused")
            if case .number(let level)? = object["accuracy_level"], level >= 0, level <= Double(UInt32.max), level == level.rounded() {
                session.accuracyLevel = UInt32(level)
            }
            return session
        }
    }
}
