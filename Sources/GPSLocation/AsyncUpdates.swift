/// An asynchronous sequence of updates that ends normally or with a ``GPSLocationError``: the
/// decisions of an ``AuthorizationSource``, or a manager's ``Authorization`` as it changes.
///
/// A producer makes one with ``makeStream(bufferingNewest:)`` and feeds it through the
/// continuation; when the consumer stops iterating, the continuation's termination handler runs,
/// so the producer can stop too. A consumer that falls behind gets the newest updates, never an
/// unbounded backlog.
public struct AsyncUpdates<Element: Sendable>: AsyncSequence, Sendable {
    /// The error the sequence ends with.
    public typealias Failure = GPSLocationError

    private let base: AsyncThrowingStream<Element, any Error>

    /// A new sequence and the continuation that feeds it.
    /// - Parameter limit: how many updates wait for a slow consumer; older ones are dropped.
    public static func makeStream(bufferingNewest limit: Int = 16) -> (updates: AsyncUpdates, continuation: Continuation) {
        let (base, continuation) = AsyncThrowingStream.makeStream(of: Element.self, bufferingPolicy: .bufferingNewest(Swift.max(1, limit)))
        return (AsyncUpdates(base: base), Continuation(base: continuation))
    }

    /// Starts iterating.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator())
    }

    /// Feeds an ``AsyncUpdates`` sequence; safe from any thread.
    public struct Continuation: Sendable {
        fileprivate let base: AsyncThrowingStream<Element, any Error>.Continuation

        /// Hands `element` to the consumer.
        public func yield(_ element: Element) {
            base.yield(element)
        }

        /// Ends the sequence after the updates already given: normally, or with `error`.
        public func finish(throwing error: GPSLocationError? = nil) {
            base.finish(throwing: error)
        }

        /// Runs `handler` once when the sequence ends: finished, or the consumer stopped.
        public func onTermination(_ handler: @escaping @Sendable () -> Void) {
            base.onTermination = { _ in handler() }
        }
    }

    /// Iterates an ``AsyncUpdates`` sequence.
    public struct Iterator: AsyncIteratorProtocol {
        /// The error the sequence ends with.
        public typealias Failure = GPSLocationError

        fileprivate var base: AsyncThrowingStream<Element, any Error>.Iterator

        /// The next update, or `nil` at the end (or when the task is cancelled).
        /// - Throws: the ``GPSLocationError`` the sequence ended with.
        public mutating func next() async throws(GPSLocationError) -> Element? {
            try await next(isolation: #isolation)
        }

        /// ``next()``, on the caller's isolation.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(GPSLocationError) -> Element? {
            do {
                return try await base.next(isolation: actor)
            } catch {
                throw GPSLocationError(error)
            }
        }
    }
}
