import LocateSupport
import Synchronization

/// GeoClue over the system bus, the agent's transport: the agent's object exported at
/// `/org/freedesktop/GeoClue2/Agent`, registered with GeoClue's manager (`AddAgent`) at the start
/// and again each time GeoClue comes onto the bus (it is started on demand, and forgets its
/// agents when it exits idle), on a thread of its own (`BusThread`). Calls are taken from
/// GeoClue alone (the bus's policy lets GeoClue's user and root call an agent; the agent asks no
/// more of a caller than to be GeoClue).
final class GeoClueBus: AgentTransport {
    /// GeoClue's agent interface, as GeoClue 2.6 calls it.
    static let agent = BusObjectShape(
        path: "/org/freedesktop/GeoClue2/Agent", interface: "org.freedesktop.GeoClue2.Agent", method: "AuthorizeApp",
        argumentNames: "desktop_id\0req_accuracy_level\0authorized\0allowed_accuracy_level\0", property: "MaxAccuracyLevel")
    /// GeoClue's name on the bus.
    static let service = "org.freedesktop.GeoClue2"

    /// What the bus's thread keeps: GeoClue's unique name, whether an `AddAgent` waits for its
    /// answer, and the calls waiting for theirs.
    final class Registration {
        var geoClue: String?
        var isAdding = false
        var waiting: [UInt64: BusMethodCall] = [:]
        var nextCall: UInt64 = 0
    }

    private let address: String?
    private let thread: BusThread<Registration>
    private let level = Atomic<UInt32>(0)
    private let diagnose: @Sendable (String) -> Void

    /// A transport on the bus at `address` (`nil`: the system bus, at `DBUS_SYSTEM_BUS_ADDRESS`
    /// when it is set); `nil` when the process is out of descriptors.
    init?(address: String?, diagnose: @escaping @Sendable (String) -> Void) {
        guard let thread = BusThread<Registration>() else { return nil }
        self.address = address
        self.thread = thread
        self.diagnose = diagnose
    }

    func run(
        authorize: @escaping @Sendable (AuthorizationRequest, _ reply: @escaping @Sendable (AgentAnswer) -> Void) -> Void
    ) async throws(GeoClueAgent.Failure) {
        do throws(BusError) {
            try await thread.run(address: address) { [self] connection throws(BusError) in
                let registration = Registration()
                try connection.export(
                    Self.agent, call: { [self] call in take(call, in: registration, authorize: authorize) },
                    value: { [self] in level.load(ordering: .relaxed) })
                // Its name, for a person who looks at the bus (busctl introspect NAME /org/freedesktop/GeoClue2/Agent).
                diagnose("agent: on the bus as \(try connection.uniqueName())")
                try connection.watchOwner(of: Self.service) { [self] owner in
                    registration.geoClue = owner.isEmpty ? nil : owner
                    if owner.isEmpty {
                        diagnose("agent: GeoClue left the bus; waiting for it to come back")
                    } else if !registration.isAdding {
                        // Through the thread's work, which is given the connection: a callback the
                        // connection keeps must not keep the connection.
                        thread.perform { [self] connection, registration in register(on: connection, registration) }
                    }
                }
                // GeoClue may be on the bus already, or the bus starts it for the call.
                register(on: connection, registration)
                return registration
            }
        } catch {
            throw GeoClueAgent.Failure(description: "the bus: \(error.description)")
        }
    }

    func setMaxAccuracyLevel(_ level: UInt32) {
        guard self.level.exchange(level, ordering: .relaxed) != level else { return }
        thread.perform { [diagnose] connection, _ in
            do throws(BusError) {
                try connection.emitPropertyChanged(of: Self.agent)
            } catch {
                diagnose("agent: GeoClue cannot be told the new level: \(error.description)")
            }
        }
    }

    func stop() {
        thread.stop()
    }

    /// Takes GeoClue's `AuthorizeApp` (any other caller's is refused): kept until its answer.
    private func take(
        _ call: BusMethodCall, in registration: Registration,
        authorize: @Sendable (AuthorizationRequest, _ reply: @escaping @Sendable (AgentAnswer) -> Void) -> Void
    ) -> Bool {
        guard let sender = call.sender, sender == registration.geoClue else {
            diagnose(
                "agent: AuthorizeApp from \(UntrustedText.visible(call.sender ?? "an unknown sender", limit: 80)), not GeoClue: refused")
            return false
        }
        let id = registration.nextCall
        registration.nextCall += 1
        registration.waiting[id] = call
        authorize(AuthorizationRequest(desktopID: call.text, level: call.number)) { [thread, diagnose] answer in
            thread.perform { _, registration in
                guard let call = registration.waiting.removeValue(forKey: id) else { return }
                do throws(BusError) {
                    try call.reply(answer.authorized, answer.level)
                } catch {
                    diagnose("agent: GeoClue cannot be answered: \(error.description)")
                }
            }
        }
        return true
    }

    /// Asks GeoClue's manager to take the agent, and says what it answered.
    private func register(on connection: BusConnection, _ registration: Registration) {
        registration.isAdding = true
        do throws(BusError) {
            try connection.call(
                Self.service, "/org/freedesktop/GeoClue2/Manager", "org.freedesktop.GeoClue2.Manager", "AddAgent",
                argument: GeoClueAgent.name
            ) { [diagnose] reply in
                registration.isAdding = false
                switch reply {
                case .success(let sender):
                    registration.geoClue = sender ?? registration.geoClue
                    diagnose("agent: registered with GeoClue as its agent '\(GeoClueAgent.name)'")
                case .failure(let error) where Self.absent.contains(error.name ?? ""):
                    diagnose("agent: GeoClue is not on the bus; waiting for it")
                case .failure(let error) where error.name == "org.freedesktop.DBus.Error.AccessDenied":
                    diagnose(
                        "agent: GeoClue refused the agent (\(error.description)): add \(GeoClueAgent.name) to [agent] whitelist in "
                            + "/etc/geoclue/geoclue.conf and restart GeoClue; waiting for it to come back")
                case .failure(let error):
                    diagnose("agent: GeoClue did not take the agent: \(error.description); waiting for it to come back")
                }
            }
        } catch {
            registration.isAdding = false
            diagnose("agent: GeoClue cannot be asked to take the agent: \(error.description)")
        }
    }

    /// The errors of a call to a name nobody owns (and the bus cannot start).
    private static let absent: Set<String> = [
        "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner",
    ]
}
