import LocateSupport
import Synchronization

/// A bus connection served by a thread of its own, never Swift's cooperative pool: sd-bus is
/// used from that thread alone (it is not thread-safe). The thread waits in `poll` for the
/// connection's socket, sd-bus's own deadlines and its wake-up, processes what the bus has (the
/// connection's callbacks run then), and runs the work other threads hand it with `perform`.
///
/// `Context` is what the work needs beside the connection (the calls waiting for an answer, say):
/// made on the thread by `run`'s set-up, it never leaves it.
final class BusThread<Context>: Sendable {
    private let work = Mutex<[@Sendable (BusConnection, Context) -> Void]>([])
    private let loop: LoopThread

    /// A thread not started yet; `nil` when the process is out of descriptors.
    init?() {
        guard let loop = LoopThread() else { return nil }
        self.loop = loop
    }

    /// Connects to `address` (`nil`: the system bus), lets `setUp` export objects and watch
    /// signals, and serves until ``stop()`` or the task is cancelled; then closes the connection
    /// (what waits to be sent is sent first).
    /// - Throws: `BusError` when the bus cannot be connected to, `setUp` fails, the connection
    ///   is lost, or no thread can be had.
    func run(address: String?, setUp: @escaping @Sendable (BusConnection) throws(BusError) -> Context) async throws(BusError) {
        let outcome = await loop.run(unavailable: .failure(BusError(description: "cannot start a thread"))) { [self] wait in
            serve(address: address, setUp: setUp, waiting: &wait)
        }
        try outcome.get()
    }

    /// Runs `work` on the thread, with the connection and the context, before it next waits.
    func perform(_ work: @escaping @Sendable (BusConnection, Context) -> Void) {
        self.work.withLock { $0.append(work) }
        loop.wakeUp.signal()
    }

    /// Ends ``run(address:setUp:)``.
    func stop() {
        loop.stop()
    }

    private func serve(
        address: String?, setUp: (BusConnection) throws(BusError) -> Context, waiting wait: inout EventWait
    ) -> Result<Void, BusError> {
        do throws(BusError) {
            let connection = try BusConnection(address: address)
            let context = try setUp(connection)
            while !loop.isStopped {
                let now = work.withLock { work in
                    defer { work = [] }
                    return work
                }
                for work in now { work(connection, context) }
                try connection.processAll()
                let next = connection.nextWait
                wait.wait(for: next.request, until: next.deadline)
            }
            return .success(())
        } catch {
            return .failure(error)
        }
    }
}
