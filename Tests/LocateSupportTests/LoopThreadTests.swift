import Foundation
import LocateSupport
import Synchronization
import Testing

/// The kit's loop thread: its wake-up ends a wait, its stop ends the loop, its end can be awaited
/// with the loop's value or blocked on until a deadline, and its thread has SIGPIPE blocked.
struct LoopThreadTests {
    /// Counts what the loop saw, from its thread.
    private final class Seen: Sendable {
        let wakeUps = Atomic(0)
        let pipeBlocked = Atomic(false)
    }

    @Test func aWakeUpEndsTheWaitAndAStopEndsTheLoop() throws {
        let loop = try #require(LoopThread())
        let seen = Seen()
        let started = loop.start { wait in
            var blocked = sigset_t()
            pthread_sigmask(SIG_BLOCK, nil, &blocked)
            seen.pipeBlocked.store(sigismember(&blocked, SIGPIPE) == 1, ordering: .relaxed)
            while !loop.isStopped {
                // Far longer than the test: only the wake-up ends it.
                wait.wait(for: nil, until: .now.advanced(by: .seconds(60)))
                seen.wakeUps.add(1, ordering: .relaxed)
            }
        }
        #expect(started)
        #expect(!loop.waitForEnd(until: .now.advanced(by: .milliseconds(100))), "not stopped: still running at the deadline")
        loop.wakeUp.signal()
        let deadline = ContinuousClock.now.advanced(by: .seconds(10))
        while seen.wakeUps.load(ordering: .relaxed) == 0, ContinuousClock.now < deadline { usleep(1000) }
        let wakeUps = seen.wakeUps.load(ordering: .relaxed)
        #expect(wakeUps == 1 && !loop.isStopped)
        let stopping = ContinuousClock.now
        loop.stop()
        #expect(loop.waitForEnd(until: .now.advanced(by: .seconds(10))) && loop.isStopped)
        #expect(stopping.duration(to: .now) < .seconds(5), "the stop ended the wait at once")
        let pipeBlocked = seen.pipeBlocked.load(ordering: .relaxed)
        #expect(pipeBlocked, "SIGPIPE is blocked on the loop's thread")
        #expect(loop.waitForEnd(until: .now), "ended stays ended")
    }

    @Test func runGivesTheLoopsValueAndACancellationStopsIt() async throws {
        let loop = try #require(LoopThread())
        #expect(await loop.run(unavailable: -1) { _ in 42 } == 42)
        let waiting = try #require(LoopThread())
        let task = Task {
            await waiting.run(unavailable: -1) { wait in
                var passes = 0
                while !waiting.isStopped {
                    wait.wait(for: nil, until: .now.advanced(by: .seconds(60)))
                    passes += 1
                }
                return passes
            }
        }
        try await Task.sleep(for: .milliseconds(50))
        let cancelling = ContinuousClock.now
        task.cancel()
        // Whether the loop was waiting yet or not, the cancellation stopped it: it returns long before its wait's minute.
        #expect(await task.value >= 0 && waiting.isStopped)
        #expect(cancelling.duration(to: .now) < .seconds(30))
    }
}
