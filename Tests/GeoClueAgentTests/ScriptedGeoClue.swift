import GPSLocation
import Synchronization

@testable import GeoClueAgent

/// GeoClue played by a test: it asks the agent as GeoClue asks about a Flatpak app, and notes
/// every level the agent sets.
final class ScriptedGeoClue: AgentTransport {
    typealias Authorize = @Sendable (AuthorizationRequest, _ reply: @escaping @Sendable (AgentAnswer) -> Void) -> Void

    private struct State {
        var authorize: Authorize?
        var levels: [UInt32] = []
        var isStopped = false
        var running: CheckedContinuation<Void, Never>?
    }

    private let state = Mutex(State())

    func run(authorize: @escaping Authorize) async throws(GeoClueAgent.Failure) {
        await withCheckedContinuation { (running: CheckedContinuation<Void, Never>) in
            let stopped = state.withLock { state in
                state.authorize = authorize
                state.running = running
                return state.isStopped
            }
            if stopped { stop() }
        }
    }

    func setMaxAccuracyLevel(_ level: UInt32) {
        state.withLock { $0.levels.append(level) }
    }

    func stop() {
        let running = state.withLock { state in
            state.isStopped = true
            defer { state.running = nil }
            return state.running
        }
        running?.resume()
    }

    /// The levels the agent set, in order.
    var levels: [UInt32] { state.withLock { $0.levels } }

    /// Asks the agent about `app` at `level`, once it serves, and waits for its answer.
    func ask(_ app: String, level: UInt32 = 8) async throws -> AgentAnswer {
        try await waitUntil("the agent to serve") { state.withLock { $0.authorize != nil } }
        guard let authorize = state.withLock({ $0.authorize }) else { throw Timeout(what: "the agent") }
        return await withCheckedContinuation { answered in
            authorize(AuthorizationRequest(desktopID: app, level: level)) { answered.resume(returning: $0) }
        }
    }
}

/// A person at the agent's terminal, answering every question with `answer`.
final class ScriptedPrompter: AuthorizationPrompter {
    let answer: AuthorizationAnswer?
    private let asked = Mutex<[AuthorizationQuestion]>([])

    init(answering answer: AuthorizationAnswer?) {
        self.answer = answer
    }

    /// The questions put, in order.
    var questions: [AuthorizationQuestion] { asked.withLock { $0 } }

    func ask(_ question: AuthorizationQuestion) async -> AuthorizationAnswer? {
        asked.withLock { $0.append(question) }
        return answer
    }
}

struct Timeout: Error, CustomStringConvertible {
    let what: String
    var description: String { "timed out waiting for \(what)" }
}

/// Waits until `condition` holds, looking every 10 ms, at most `timeout` seconds.
func waitUntil(_ what: String, timeout: Duration = .seconds(10), _ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now.advanced(by: timeout)
    while !condition() {
        guard ContinuousClock.now < deadline else { throw Timeout(what: what) }
        try await Task.sleep(for: .milliseconds(10))
    }
}
