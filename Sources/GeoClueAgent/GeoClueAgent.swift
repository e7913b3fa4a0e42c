public import GPSLocation
public import GPSLocationConsent
import LocateSupport
import Synchronization

/// GeoClue's agent, answering from the consent store: the engine of `locate agent`.
///
/// GeoClue (2.6, Debian 12's) serves desktop programs their position over D-Bus, and leaves
/// the question of who may have it to the agent of the client's user. It asks the agent about
/// one kind of client only, a sandboxed app (a Flatpak, which it tells by the client's cgroup):
/// `AuthorizeApp(desktop_id, level)`, which this agent answers from the app's own decision
/// (`[app "ID"]`, else `[location]`), and records in the access log. Every other client GeoClue
/// serves without asking, at most at the agent's `MaxAccuracyLevel`, which follows the user's
/// global decision as it changes (0 when location is off, denied or restricted, which also stops
/// the clients GeoClue serves).
///
/// The library never prints: what a person running the agent should know goes to `diagnose`.
public final class GeoClueAgent: Sendable {
    /// Why the agent cannot serve.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// What went wrong.
        public let description: String
    }

    /// The name the agent registers with GeoClue under, which the `[agent] whitelist` of
    /// `/etc/geoclue/geoclue.conf` must list.
    public static let name = "locate"

    /// One request waiting for the user to be asked: the app's store, and the answer's way back.
    private struct Question: Sendable {
        let request: AuthorizationRequest
        let app: ConsentStore
        let reply: @Sendable (AgentAnswer) -> Void
        let asked = ContinuousClock.now
    }

    /// How long GeoClue waits for an answer (D-Bus's default timeout of a call): an answer later
    /// than that reaches no one, and its app's start was refused.
    static let geoClueWaits = Duration.seconds(25)

    private let store: ConsentStore
    private let log: AccessLog
    private let transport: any AgentTransport
    private let prompter: (any AuthorizationPrompter)?
    private let diagnose: @Sendable (String) -> Void
    private let questions: AsyncStream<Question>
    private let asking: AsyncStream<Question>.Continuation
    /// Whether the access log failed at its last write (said once until it works again).
    private let logFails = Mutex(false)
    private let hasRun = Mutex(false)

    /// An agent on the system bus (`DBUS_SYSTEM_BUS_ADDRESS` when it is set), or on the bus at
    /// `bus` (a D-Bus address, `unix:path=...`), ready to ``run()``.
    /// - Parameters:
    ///   - store: the consent store whose decisions answer, and where the access log is.
    ///   - bus: the bus's address; `nil` for the system bus.
    ///   - prompter: how a person is asked about an app nothing is decided for (`nil`: nobody
    ///     is, and such an app is refused, the attempt recorded).
    ///   - diagnose: told, on the agent's threads, each answer, each change of the level, and
    ///     what becomes of GeoClue and the bus; the library prints nothing.
    /// - Throws: ``Failure`` when the process is out of file descriptors.
    public convenience init(
        store: ConsentStore, bus: String? = nil, prompter: (any AuthorizationPrompter)?, diagnose: @escaping @Sendable (String) -> Void
    ) throws(Failure) {
        guard let transport = GeoClueBus(address: bus, diagnose: diagnose) else { throw Failure(description: "out of file descriptors") }
        self.init(store: store, transport: transport, prompter: prompter, diagnose: diagnose)
    }

    /// An agent answering through `transport`.
    /// - Parameters:
    ///   - store: the consent store whose decisions answer, and where the access log is.
    ///   - prompter: how a person is asked about an app nothing is decided for (`nil`: nobody
    ///     is, and such an app is refused).
    ///   - diagnose: told each answer, each change of the level and what becomes of the bus.
    init(
        store: ConsentStore, transport: any AgentTransport, prompter: (any AuthorizationPrompter)?,
        diagnose: @escaping @Sendable (String) -> Void
    ) {
        // The global decision is [location]'s, whatever app the store was made for.
        self.store = (try? store.forApp(nil)) ?? store
        log = AccessLog(paths: store.paths)
        self.transport = transport
        self.prompter = prompter
        self.diagnose = diagnose
        (questions, asking) = AsyncStream.makeStream(of: Question.self)
    }

    /// Serves GeoClue until ``stop()`` or the task is cancelled: registers as its agent (again
    /// each time GeoClue comes back), answers its requests, and follows the settings.
    /// - Throws: ``Failure`` when the bus cannot be had or is lost, the settings cannot be
    ///   watched, or the agent has run before.
    public func run() async throws(Failure) {
        guard
            hasRun.withLock({ hasRun in
                defer { hasRun = true }
                return !hasRun
            })
        else { throw Failure(description: "the agent has run already") }
        let transport = transport
        let first = AgentRules.maxAccuracyLevel(for: Self.decision(of: store))
        transport.setMaxAccuracyLevel(first)
        diagnose("agent: MaxAccuracyLevel \(first) (\(AccuracyLevel.name(first)))")
        let unwatchable = Mutex<Failure?>(nil)
        let (store, diagnose) = (store, diagnose)
        let follower = Task {
            var level = first
            do throws(GPSLocationError) {
                for try await decision in store.decisionUpdates() {
                    let now = AgentRules.maxAccuracyLevel(for: decision)
                    guard now != level else { continue }
                    level = now
                    transport.setMaxAccuracyLevel(now)
                    diagnose("agent: MaxAccuracyLevel \(now) (\(AccuracyLevel.name(now)))")
                }
            } catch {
                unwatchable.withLock { $0 = Failure(description: "the settings cannot be watched: \(error.description)") }
                transport.stop()
            }
        }
        let asker = Task { await askInTurn() }
        defer {
            follower.cancel()
            asking.finish()
            asker.cancel()
        }
        let served = await withTaskCancellationHandler { () async -> Result<Void, Failure> in
            do throws(Failure) {
                try await transport.run { [self] request, reply in authorize(request, reply: reply) }
                return .success(())
            } catch {
                return .failure(error)
            }
        } onCancel: {
            transport.stop()
        }
        try served.get()
        if let failure = unwatchable.withLock({ $0 }) { throw failure }
    }

    /// Ends ``run()``.
    public func stop() {
        transport.stop()
    }

    /// Answers `request` from the app's decision now, or has the user asked when nothing is decided.
    func authorize(_ request: AuthorizationRequest, reply: @escaping @Sendable (AgentAnswer) -> Void) {
        let app: ConsentStore
        do throws(GPSLocationError) {
            app = try store.forApp(request.desktopID)
        } catch {
            // GeoClue cuts a Flatpak id at its first dash: an id that names no app is no app of the settings.
            finish(
                request, .refused(.denied), refusal: "'\(UntrustedText.visible(request.desktopID, limit: 80))' cannot name an app",
                reply: reply)
            return
        }
        guard let answer = AgentRules.answer(for: Self.decision(of: app), requested: request.level) else {
            asking.yield(Question(request: request, app: app, reply: reply))
            return
        }
        finish(request, answer, reply: reply)
    }

    /// Asks the user about each app nothing is decided for, one question at a time; a question
    /// whose app was decided meanwhile (an answer to the one before) is answered without asking.
    private func askInTurn() async {
        for await question in questions {
            let (request, app) = (question.request, question.app)
            let decision = Self.decision(of: app)
            if let answer = AgentRules.answer(for: decision, requested: request.level) {
                finish(request, answer, reply: question.reply)
                continue
            }
            let reply = await prompter?.ask(
                AuthorizationQuestion(
                    app: request.desktopID, purpose: "Through GeoClue, at its accuracy level \(AccuracyLevel.name(request.level)).",
                    asksForAlways: false))
            let kept: AuthorizationStatus? =
                switch reply {
                case .allowWhileUsing?: .authorizedWhenInUse
                case .allowAlways?: .authorizedAlways
                case .deny?: .denied
                case .allowOnce?, nil: nil
                }
            if let kept {
                do throws(GPSLocationError) {
                    try app.record(kept)
                } catch {
                    diagnose("agent: the answer for \(request.desktopID) cannot be kept: \(error.description)")
                }
            }
            guard question.asked.duration(to: .now) < Self.geoClueWaits else {
                // The answer is kept for its next start (above); this one GeoClue gave up on.
                finish(request, .refused(.notDetermined), refusal: "answered after GeoClue stopped waiting", reply: question.reply)
                continue
            }
            finish(request, AgentRules.answer(after: reply, accuracy: decision.accuracy, requested: request.level), reply: question.reply)
        }
    }

    /// Records `answer` in the access log, says it, and gives it to GeoClue.
    private func finish(
        _ request: AuthorizationRequest, _ answer: AgentAnswer, refusal: String? = nil, reply: @Sendable (AgentAnswer) -> Void
    ) {
        // An id that names no app is said in the refusal, not taken for [location].
        let app = (try? store.forApp(request.desktopID)) != nil ? request.desktopID : nil
        var session = AccessSession(app: app, program: nil, user: PeerProcess.currentUser, processID: nil, via: "agent")
        session.accuracyLevel = answer.level
        session.denial = answer.denial
        session.refusal = refusal
        if answer.authorized { session.accuracy = answer.level >= AccuracyLevel.exact ? .fullAccuracy : .reducedAccuracy }
        let failure: GPSLocationError?
        do throws(GPSLocationError) {
            try log.record(session)
            failure = nil
        } catch {
            failure = error
        }
        let failedBefore = logFails.withLock { failed in
            defer { failed = failure != nil }
            return failed
        }
        if let failure, !failedBefore { diagnose("agent: the access log cannot be kept: \(failure.description)") }
        if failure == nil, failedBefore { diagnose("agent: the access log is kept again") }
        let shown = UntrustedText.visible(request.desktopID, limit: 80)
        diagnose(
            answer.authorized
                ? "agent: \(shown) authorized at level \(answer.level) (\(AccuracyLevel.name(answer.level)))"
                : "agent: \(shown) refused (\(refusal ?? answer.denial?.rawValue ?? "not authorized"))")
        reply(answer)
    }

    /// The decision `store` has now; one that cannot be read authorizes nothing.
    private static func decision(of store: ConsentStore) -> AuthorizationDecision {
        do throws(GPSLocationError) {
            return try store.currentDecision()
        } catch {
            guard case .invalidSettings(let problem) = error else {
                return AuthorizationDecision(invalidSettings: SettingsProblem(file: "locate.conf", message: error.description))
            }
            return AuthorizationDecision(invalidSettings: problem)
        }
    }
}
