import Synchronization

/// A flag that one thread sets and others read.
package final class Flag: Sendable {
    private let value = Atomic<Bool>(false)

    package init() {}

    package var isSet: Bool { value.load(ordering: .acquiring) }

    package func set() { value.store(true, ordering: .releasing) }
}
