extension Duration {
    /// Whole milliseconds, saturating: never negative, and `Int64.max / 1000` at most.
    package var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        if seconds < 0 || (seconds == 0 && attoseconds <= 0) { return 0 }
        if seconds >= Int64.max / 1000 { return Int64.max / 1000 }
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }

    /// The duration in seconds, as a `Double` (shared with the command, which writes seconds).
    package var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }

    /// The duration clamped to what a wait can take: from zero up to `NumericText.maximumDuration`.
    /// Durations from the library's callers pass through this before any deadline is computed.
    package var boundedForWaiting: Duration {
        min(max(self, .zero), NumericText.maximumDuration)
    }
}

extension Duration {
    /// Whole milliseconds, rounded up so a wait never ends before its deadline; saturating like `milliseconds`.
    package var millisecondsRoundedUp: Int64 {
        guard self > .zero else { return 0 }
        let whole = milliseconds
        return Duration.milliseconds(whole) < self && whole < Int64.max / 1000 ? whole + 1 : whole
    }
}

extension Duration {
    /// Seconds for a message, to the millisecond, as `NumberFormatting.plain` writes numbers:
    /// `2`, `0.25`, `1.5`.
    package var formattedSeconds: String {
        NumberFormatting.plain((seconds * 1000).rounded() / 1000)
    }
}
