import Dispatch

extension Duration {
    /// Whole microseconds, never negative.
    var microseconds: Int64 {
        max(0, components.seconds * 1_000_000 + components.attoseconds / 1_000_000_000_000)
    }

    var dispatchInterval: DispatchTimeInterval {
        .microseconds(Int(clamping: microseconds))
    }

    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
