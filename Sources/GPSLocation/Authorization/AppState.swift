import LocateSupport

/// Whether the program is in use, in CoreLocation's sense of "when in use": iOS reads it from the
/// app's scene (active, background); here the host says it (``GPSLocationManager/setAppState(_:)``:
/// a desktop app when its window comes to the front or goes away), or, by default, the terminal
/// rule decides: a command in the foreground process group of its controlling terminal is in use,
/// a background job is not (for now), and a program without a terminal (cron, systemd, CI,
/// `setsid`) never is.
public enum AppState: String, Sendable, Hashable, CaseIterable {
    /// In use: the user sees the program (its window is in front; it runs in the foreground of
    /// its terminal).
    case foreground
    /// Not in use now, but it may be again (a minimized window, a terminal's background job): a
    /// when-in-use stream pauses, and resumes when the program is in the foreground again.
    case background
    /// Never in use: a daemon, a timer's job, a program without a terminal. When-in-use
    /// authorizes nothing; only `always` does.
    case unattended

    /// This process by the terminal rule, now.
    public static var terminal: AppState {
        let state = Terminal.state()
        return state.hasTerminal ? (state.isForeground ? .foreground : .background) : .unattended
    }
}
