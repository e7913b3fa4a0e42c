import Synchronization

/// The last value seen, shared between threads; tells whether a new value differs.
final class LatestValue<Value: Sendable & Equatable>: Sendable {
    private let value = Mutex<Value?>(nil)

    /// Stores `newValue`; `true` when it differs from the value stored before.
    func replace(with newValue: Value) -> Bool {
        value.withLock { stored in
            defer { stored = newValue }
            return stored != newValue
        }
    }
}
