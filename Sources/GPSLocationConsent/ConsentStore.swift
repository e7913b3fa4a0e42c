import FoundationEssentials
public import GPSLocation
import LocateStore
import LocateSupport
import Synchronization

/// The file-backed consent store `locate` uses, and the `AuthorizationSource` a host uses by
/// default: the user's settings file and the administrator's policy decide, the user's answers
/// are kept in the user's file, and the last fix handed out is kept in the user's cache.
///
/// - **One line model.** Reading and editing share it, so any file the reader accepts (CRLF line
///   ends, no final line end, a byte-order mark, tabs) can be edited, and an edit changes only
///   its own lines.
/// - **Transactions.** Every edit holds a lock across reading, editing and the atomic rename, and
///   reads its result back before letting go: concurrent edits all land. Through a symbolic link
///   (dotfile managers), the file the link leads to is edited and the link stays.
/// - **Refusals.** A user file that is not a regular file, that its group or others can write, or
///   that anyone but the user (or root) owns is refused, as is a policy that is not root's alone,
///   and so is a file whose path someone else could change: each directory on it, walked as the
///   kernel walks it (the ones holding symbolic links included, and each link), must be the
///   user's or root's (root's for a policy) and writable by no one else, a sticky one such as
///   `/tmp` only above the file's own directory; an edit makes nothing before the path is
///   checked. `GPSLocationError.invalidSettings` names the file and the directory at fault, and
///   the store fails closed. Paths are absolute ones only (``SettingsPaths``).
/// - **Read once.** The files are parsed once, and again only when their `stat` signature changes.
/// - **A private cache.** The cache directory is used only when it is the user's alone (not a
///   link, owned by the user, writable by no one else, on a path checked as the settings' is);
///   its files are read only when they are the user's own. Otherwise the cache is skipped, with
///   one ``init(paths:appName:warning:)`` warning.
/// - **Ordered purges.** A location is kept under the cache's lock, after the decision is read
///   again from the files: a deny (whose purge takes the same lock after the settings changed)
///   can never be followed by a kept location. The named monitors' states
///   (``namedMonitor(_:regions:)``) are positions too: they are kept the same way, under a lock
///   of their own, and every purge removes them all.
public final class ConsentStore: AuthorizationSource {
    /// Where the settings, the policy and the cache are.
    public let paths: SettingsPaths
    /// The app whose `[app "NAME"]` section applies, if any.
    let app: AppName?
    private let warning: (@Sendable (String) -> Void)?
    private let state = Mutex(State())

    private struct State {
        var loaded: (signatures: [FileSignature], files: SettingsFiles, resolved: ConsentSettings)?
        var hasWarnedAboutTheCache = false
    }

    /// A store at `paths`, for the app named `appName` (its `[app "NAME"]` section applies).
    /// - Parameters:
    ///   - paths: where the settings, the policy and the cache are; by default, this process's
    ///     XDG directories.
    ///   - appName: the app whose section applies; `nil` for `[location]` alone.
    ///   - warning: told, once, what the store skips without failing (a cache directory that is
    ///     not the user's alone); the host decides where to show it (`locate` writes it to stderr).
    /// - Throws: `GPSLocationError.invalidAppName` for a name outside the app-name
    ///   charset (1 to 64 ASCII letters, digits, `.`, `_`, `-`, starting with a letter or digit).
    public convenience init(
        paths: SettingsPaths = .current, appName: String? = nil, warning: (@Sendable (String) -> Void)? = nil
    ) throws(GPSLocationError) {
        self.init(paths: paths, app: try appName.map { (name) throws(GPSLocationError) in try AppName(name) }, warning: warning)
    }

    /// A store at `paths` for `app`.
    init(paths: SettingsPaths, app: AppName?, warning: (@Sendable (String) -> Void)? = nil) {
        self.paths = paths
        self.app = app
        self.warning = warning
    }

    /// The app's name.
    public var appName: String? { app?.rawValue }

    /// When the settings files (the user's and the policy's) last changed, in Unix seconds; `nil`
    /// when none exists. What a process keeps across runs under the authorization of its time (an
    /// outbox) is older than a change no run watched: a deny and an allow again may be between.
    public var settingsLastChanged: Double? {
        ([paths.userFile].compactMap { $0 } + paths.policyCandidates).compactMap { FileSignature(path: $0).file.lastChange }.max()
    }

    // MARK: - Reading

    /// What the files decide now for the store's app.
    /// - Throws: `GPSLocationError.invalidSettings` for a file that is unreadable,
    ///   untrusted or malformed.
    public func currentDecision() throws(GPSLocationError) -> AuthorizationDecision {
        try settings().decision
    }

    /// Everything the files say for the store's app, and where it was said, read again only
    /// when a file changed. A refusal found on reading (services off, restricted, denied) purges
    /// the cache: a fix kept from before must not outlive it.
    /// - Throws: `GPSLocationError.invalidSettings` for a file that is unreadable, untrusted or
    ///   malformed.
    public func settings() throws(GPSLocationError) -> ConsentSettings {
        try loaded().resolved
    }

    /// The apps the files have an `[app "NAME"]` section for, in either of them, sorted.
    /// - Throws: `GPSLocationError.invalidSettings`, as ``settings()``.
    public func appNames() throws(GPSLocationError) -> [String] {
        let files = try loaded().files
        return Set(files.user.apps.keys).union(files.policy.apps.keys).sorted().map(\.rawValue)
    }

    /// The app whose section applies to the program at `path` (an executable, as the kernel
    /// names a process's), for a host that serves other programs (`locate serve`): the
    /// section whose `program = PATH` is `path`; otherwise the section named as the
    /// executable, unless it is pinned to another program; otherwise `nil`, `[location]`.
    /// The administrator's pins come before the user's.
    /// - Throws: `GPSLocationError.invalidSettings`, as ``settings()``.
    public func appName(forProgram path: String) throws(GPSLocationError) -> String? {
        let files = try loaded().files
        for settings in [files.policy, files.user] {
            if let pinned = settings.apps.first(where: { $0.value.program?.value == path }) { return pinned.key.rawValue }
        }
        let name = String(path.split(separator: "/").last ?? "")
        guard let app = try? AppName(name) else { return nil }
        let pins = [files.policy, files.user].compactMap { $0.apps[app]?.program?.value }
        return pins.allSatisfy { $0 == path } ? app.rawValue : nil
    }

    /// The store of the same files for the app named `appName` (`nil`: `[location]` alone).
    /// - Throws: `GPSLocationError.invalidAppName` for a name outside the app-name charset.
    public func forApp(_ appName: String?) throws(GPSLocationError) -> ConsentStore {
        try ConsentStore(paths: paths, appName: appName, warning: warning)
    }

    /// Checks that `name` can name an app (1 to 64 ASCII letters, digits, `.`, `_` and `-`,
    /// starting with a letter or digit): such a name cannot add a section or a key to the file
    /// it is written to, nor drive the terminal it is shown on.
    /// - Throws: `GPSLocationError.invalidAppName` otherwise.
    public static func checkAppName(_ name: String) throws(GPSLocationError) {
        _ = try AppName(name)
    }

    /// - Parameter purging: purge the cache when a fresh read finds a refusal (`false` for a
    ///   caller that holds the cache's lock, and purges itself).
    private func loaded(purging: Bool = true) throws(GPSLocationError) -> (files: SettingsFiles, resolved: ConsentSettings) {
        let signatures = SettingsFiles.signatures(paths)
        if let loaded = state.withLock({ $0.loaded }), loaded.signatures == signatures { return (loaded.files, loaded.resolved) }
        let files = try SettingsFiles(paths, signatures: signatures)
        let resolved = ConsentSettings(user: files.user, policy: files.policy, app: app)
        state.withLock { $0.loaded = (signatures, files, resolved) }
        if purging, Self.isRefusal(resolved.decision) {
            purgeCache()
        } else if purging, resolved.decision.accuracy == .reducedAccuracy {
            // Precise location switched off: a precise fix kept from before must not stay.
            purgeCache(keepingReduced: true)
        }
        return (files, resolved)
    }

    /// The fallback coordinate the files set (Seoul by default), or `nil` when it is disabled.
    /// - Parameter resolve: turns a `[fallback] place = NAME` into a coordinate
    ///   (`GPSLocationPlaces`' `PlaceFinder` does, offline); without it, such a setting is an error.
    /// - Throws: `GPSLocationError.invalidSettings` for a malformed file, or a place that
    ///   cannot be resolved (naming its file and line).
    public func fallback(
        resolvingPlaceNames resolve: ((String) throws(GPSLocationError) -> FallbackCoordinate)? = nil
    ) throws(GPSLocationError) -> FallbackCoordinate? {
        switch try settings().fallback {
        case .disabled:
            return nil
        case .coordinate(let coordinate):
            return coordinate
        case .place(let place):
            func problem(_ message: String) -> GPSLocationError {
                .invalidSettings(SettingsProblem(file: place.origin.file, line: place.origin.line, message: message))
            }
            guard let resolve else {
                throw problem("'place' needs place names, which this program does not read; set latitude and longitude")
            }
            do {
                return try resolve(place.value)
            } catch {
                throw problem(error.description)
            }
        }
    }

    // MARK: - Following

    /// The decision now, then again each time it changes, until the consumer stops iterating. A
    /// thread of its own watches the files (inotify on their directories and on every link on the
    /// way, and a `stat` signature every 200 ms, so a missed inotify delays a change by one tick
    /// at most). A file that becomes unreadable, untrusted or malformed (an editor saving in two
    /// steps, a typo) gives `AuthorizationDecision(invalidSettings:)`, which authorizes nothing,
    /// and the decision comes again when the file reads again. The sequence ends with
    /// `GPSLocationError.invalidSettings` only when the files cannot be watched.
    public func decisionUpdates() -> AsyncUpdates<AuthorizationDecision> {
        let (updates, continuation) = AsyncUpdates<AuthorizationDecision>.makeStream(bufferingNewest: 8)
        guard let loop = LoopThread() else {
            continuation.finish(throwing: unwatchable("out of file descriptors"))
            return updates
        }
        continuation.onTermination { loop.stop() }
        let started = loop.start { [self] wait in
            // The watcher comes first, so that a change made while the files are read is seen.
            let watcher = FileWatcher((paths.userFile.map { [$0] } ?? []) + paths.policyCandidates)
            var last: AuthorizationDecision?
            while !loop.isStopped {
                let decision: AuthorizationDecision
                do throws(GPSLocationError) {
                    decision = try currentDecision()
                } catch {
                    decision = AuthorizationDecision(invalidSettings: Self.problem(of: error))
                }
                if decision != last { continuation.yield(decision) }
                last = decision
                wait.wait(
                    for: watcher.descriptor.map(PollRequest.reading),
                    until: .now.advanced(by: EventWait.tick))
                // The signatures decide (in `settings()`); the watcher's events only wake this loop early.
                _ = watcher.filesChanged()
            }
        }
        if !started { continuation.finish(throwing: unwatchable("cannot start a thread")) }
        return updates
    }

    /// What a settings error says, for a decision that cannot be known: the problem of an
    /// `invalidSettings`, or the error's description as one.
    private static func problem(of error: GPSLocationError) -> SettingsProblem {
        if case .invalidSettings(let problem) = error { return problem }
        return SettingsProblem(file: "locate.conf", message: error.description)
    }

    private func unwatchable(_ reason: String) -> GPSLocationError {
        .invalidSettings(SettingsProblem(file: paths.userFile ?? "locate.conf", message: "cannot watch: \(reason)"))
    }

    // MARK: - Editing

    /// Keeps the user's answer to a prompt in the user's file (`authorization = ...` in the app's
    /// section, or `[location]`); a deny purges the cache.
    /// - Throws: `GPSLocationError.invalidSettings` when the file is untrusted, malformed
    ///   or cannot be written (it is left as it was).
    public func record(_ status: AuthorizationStatus) throws(GPSLocationError) {
        guard Self.userChoices.contains(status) else {
            throw .invalidArgument(
                name: "status", reason: "'\(status.rawValue)' is not a choice a user makes (when-in-use, always, denied)")
        }
        try edit(setting: [.authorization(status)])
        if status == .denied { purgeCache() }
    }

    /// The statuses a user can choose, as the settings file writes them.
    static let userChoices: [AuthorizationStatus] = [.authorizedWhenInUse, .authorizedAlways, .denied]

    /// Allows location (`locate permission allow`): when-in-use, or with `always` also when the
    /// program is not in use, at `accuracy`.
    /// - Throws: `GPSLocationError.invalidSettings`, as ``record(_:)``.
    public func allow(always: Bool = false, accuracy: AccuracyAuthorization = .fullAccuracy) throws(GPSLocationError) {
        try edit(setting: [.authorization(always ? .authorizedAlways : .authorizedWhenInUse), .accuracy(accuracy)])
    }

    /// Denies location (`locate permission deny`) and purges the cache.
    /// - Throws: `GPSLocationError.invalidSettings`, as ``record(_:)``.
    public func deny() throws(GPSLocationError) {
        try record(.denied)
    }

    /// Forgets the choice (`locate permission reset`): not determined again, so the user is
    /// asked next time; purges the cache.
    /// - Throws: `GPSLocationError.invalidSettings`, as ``record(_:)``.
    public func reset() throws(GPSLocationError) {
        try edit(setting: [], removing: [.authorization, .accuracy])
        purgeCache()
    }

    private func edit(setting: [UserSetting], removing: [UserSetting.Key] = []) throws(GPSLocationError) {
        guard let userFile = paths.userFile else {
            throw .invalidSettings(
                SettingsProblem(
                    file: "locate.conf",
                    message:
                        "no home directory is known (HOME is not an absolute path, and the passwd entry has none); there is nowhere to keep settings"
                ))
        }
        try SettingsEditor(file: userFile).update(app: app, setting: setting, removing: removing)
    }

    // MARK: - The last fix

    /// The last fix kept in the cache (unchecked against any gate: the manager releases it).
    public func keptLocation() -> Location? {
        guard let directory = cacheDirectory(create: false) else { return nil }
        return LastFixCache.load(from: directory)
    }

    /// Keeps `location` in the cache, if the files still decide what they decided when the gate
    /// released it: checked under the cache's lock, so a deny's purge is never overtaken. A fix kept
    /// less than 4 s before stays: the file is replaced at most that often. What the files decide
    /// now is enforced here too, whoever read their change first: a refusal removes the kept fix,
    /// reduced accuracy a precise one.
    public func keep(_ location: Location, releasedUnder authorization: Authorization) {
        guard let directory = cacheDirectory(create: true), let lock = try? directory.lock(LastFixCache.lockName, exclusive: true),
            let decision = try? loaded(purging: false).resolved.decision
        else { return }
        // A keep killed before its rename left its temporary file (a fix): it goes too.
        directory.removeTemporaries(of: LastFixCache.fileName)
        if Self.isRefusal(decision) {
            directory.remove(LastFixCache.fileName)
        } else {
            if decision.accuracy == .reducedAccuracy, LastFixCache.load(from: directory)?.accuracy != .reducedAccuracy {
                directory.remove(LastFixCache.fileName)
            }
            if decision == authorization.decision, !LastFixCache.isRecent(in: directory) {
                LastFixCache.store(location, in: directory)
            }
        }
        withExtendedLifetime(lock) {}
    }

    /// Removes the kept fix, under the cache's lock, and every named monitor's state (a
    /// region's state is a precise position: reduced accuracy keeps none).
    /// - Parameter keepingReduced: keep a fix that is a grid cell already (reduced accuracy
    ///   keeps what it released); remove only a precise one.
    func purgeCache(keepingReduced: Bool = false) {
        purgeMonitors()
        purgeOutbox()
        guard let directory = cacheDirectory(create: false) else { return }
        let lock = try? directory.lock(LastFixCache.lockName, exclusive: true)
        directory.removeTemporaries(of: LastFixCache.fileName)
        if !keepingReduced || LastFixCache.load(from: directory)?.accuracy != .reducedAccuracy {
            directory.remove(LastFixCache.fileName)
        }
        withExtendedLifetime(lock) {}
    }

    // MARK: - Named monitors

    /// A named region monitor (CLMonitor's `init(_ name:)`) of `regions`, each starting from the
    /// state the monitor's last run kept, or, when `regions` is empty, of the regions it kept.
    /// A monitor's state is kept in `$XDG_STATE_HOME/locate/monitors/NAME` only while location
    /// is authorized (when-in-use or always, precise, as the files decide: "allow once" keeps
    /// nothing for a later run), and a deny, a reset or reduced accuracy purges every monitor's
    /// state, whatever the positions it was decided on (a replayed track may well be this
    /// machine's own).
    /// - Throws: `GPSLocationError.invalidArgument` for a name that is not one
    ///   (`RegionMonitor.isValidName(_:)`); `GPSLocationError.invalidSettings` naming the
    ///   file (and line) when the state cannot be trusted (a file or directory someone else
    ///   owns or can write, a line this store did not write): fail closed, nothing starts.
    public func namedMonitor(_ name: String, regions: [CircularRegion]) throws(GPSLocationError) -> RegionMonitor {
        _ = try RegionMonitor(name: name, regions: [])
        // Reading the settings purges what a refusal must not leave.
        let decision = try settings().decision
        // A state directory that is not the user's alone is refused now, under any authorization,
        // before the monitor prints anything (not at its first state kept, after its records).
        let directory = try monitorsDirectory(create: false)
        var records: [MonitoringRecord] = []
        if Self.keepsMonitors(decision), let directory {
            let path = directory.path + "/" + name
            let bytes: [UInt8]?
            do throws(TrustedFile.Refusal) {
                bytes = try directory.read(name, owner: .user, limit: MonitorStateFile.maximumSize)
            } catch {
                throw .invalidSettings(SettingsProblem(file: path, message: error.description))
            }
            if let bytes { records = try MonitorStateFile.parse(bytes, name: name, path: path) }
        }
        return try RegionMonitor(name: name, regions: regions.isEmpty ? records.map(\.region) : regions, restoring: records)
    }

    /// Keeps `records` as the state of the monitor named `name`, when the files still authorize
    /// it (see ``namedMonitor(_:regions:)``): checked under the monitors' lock, so a deny's purge
    /// is never overtaken; otherwise the monitor's state is removed.
    /// - Parameters:
    ///   - records: the monitor's regions and their last states (`RegionMonitor.records`, or
    ///     as the events handed out leave them).
    ///   - name: the monitor's name.
    ///   - authorization: what the records' positions were released under, or `nil` for
    ///     positions that are data (a replay): then the files' decision alone says.
    /// - Throws: `GPSLocationError.invalidSettings` when the state cannot be written.
    public func keep(
        _ records: [MonitoringRecord], ofMonitorNamed name: String, releasedUnder authorization: Authorization?
    ) throws(GPSLocationError) {
        _ = try RegionMonitor(name: name, regions: [])
        guard let directory = try monitorsDirectory(create: true) else { return }
        let lock: FileLock
        do throws(DirectoryHandle.Failure) {
            lock = try directory.lock(MonitorStateFile.lockName, exclusive: true)
        } catch {
            throw .invalidSettings(SettingsProblem(file: directory.path, message: error.description))
        }
        let decision = try loaded(purging: false).resolved.decision
        directory.removeTemporaries(of: name)
        if Self.keepsMonitors(decision), authorization.map({ $0.decision == decision }) ?? true {
            do throws(DirectoryHandle.Failure) {
                try directory.replace(name, with: MonitorStateFile.bytes(of: records, name: name), durable: false)
            } catch {
                throw .invalidSettings(SettingsProblem(file: directory.path + "/" + name, message: error.description))
            }
        } else {
            directory.remove(name)
        }
        withExtendedLifetime(lock) {}
    }

    /// Whether `decision` lets a monitor's state be kept: authorized, precise.
    private static func keepsMonitors(_ decision: AuthorizationDecision) -> Bool {
        !Self.isRefusal(decision) && decision.accuracy == .fullAccuracy
            && (decision.status == .authorizedWhenInUse || decision.status == .authorizedAlways)
    }

    /// Deletes the positions waiting in `locate publish`'s outbox (the store in the state
    /// directory) for this app, or every app's for the settings of all: whatever the outbox
    /// kept under the authorization now refused, or now reduced, is never sent.
    private func purgeOutbox() {
        guard let directory = paths.stateDirectory else { return }
        _ = try? Outbox.removePositions(directory: directory, app: app?.rawValue)
    }

    /// Removes every named monitor's state, under the monitors' lock.
    private func purgeMonitors() {
        guard let directory = try? monitorsDirectory(create: false) else { return }
        let lock = try? directory.lock(MonitorStateFile.lockName, exclusive: true)
        for entry in directory.names() where entry != MonitorStateFile.lockName { directory.remove(entry) }
        withExtendedLifetime(lock) {}
    }

    /// The monitors' directory, when there is one (`nil`: none, and none made); it must be the
    /// user's alone.
    /// - Throws: `GPSLocationError.invalidSettings` when it is not.
    /// Location refused outright (services off, restricted, denied), not just unavailable to
    /// this process now: what was kept from before (the last fix, a monitor's states) must not
    /// outlive it.
    private static func isRefusal(_ decision: AuthorizationDecision) -> Bool {
        !decision.locationServicesEnabled || decision.status == .restricted || decision.status == .denied
    }

    private func monitorsDirectory(create: Bool) throws(GPSLocationError) -> DirectoryHandle? {
        guard let path = paths.monitorsDirectory else { return nil }
        do throws(DirectoryHandle.Failure) {
            return try DirectoryHandle(path: path, create: create, isPrivate: true)
        } catch {
            if error.isMissing { return nil }
            throw .invalidSettings(SettingsProblem(file: path, message: error.description))
        }
    }

    /// The cache directory, when it is the user's alone; otherwise `nil`, with one warning.
    private func cacheDirectory(create: Bool) -> DirectoryHandle? {
        guard let path = paths.cacheDirectory else { return nil }
        do {
            return try DirectoryHandle(path: path, create: create, isPrivate: true)
        } catch {
            if !error.isMissing { warnOnce("not using the cache \(path): it \(error.description)") }
            return nil
        }
    }

    private func warnOnce(_ message: String) {
        let first = state.withLock { state in
            defer { state.hasWarnedAboutTheCache = true }
            return !state.hasWarnedAboutTheCache
        }
        if first { warning?(UntrustedText.visible(message)) }
    }
}
