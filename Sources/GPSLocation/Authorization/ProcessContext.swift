import LocateSupport

/// Whether this process is "in use" in CoreLocation's sense: running in the foreground process
/// group of its controlling terminal. Cron jobs, services, CI and `setsid` runs have no terminal;
/// `locate &` in a shell is a background job.
public struct ProcessContext: Sendable, Hashable {
    /// The process has a controlling terminal (`/dev/tty` opens).
    public var hasTerminal: Bool
    /// The process's group is the terminal's foreground group.
    public var isForeground: Bool

    /// Creates a context from its parts (for daemons, tests and previews).
    public init(hasTerminal: Bool, isForeground: Bool) {
        self.hasTerminal = hasTerminal
        self.isForeground = hasTerminal && isForeground
    }

    /// This process, now.
    public static func current() -> ProcessContext {
        let state = Terminal.state()
        return ProcessContext(hasTerminal: state.hasTerminal, isForeground: state.isForeground)
    }
}
