/// Which authorization a program asks for: CoreLocation's `requestWhenInUseAuthorization()` and
/// `requestAlwaysAuthorization()`.
public enum AuthorizationLevel: String, Sendable, Hashable, CaseIterable {
    /// Location while the program runs in the foreground of its terminal.
    case whenInUse = "when-in-use"
    /// Location with or without a terminal (services, cron, background jobs).
    case always
}

/// What the user answered.
public enum AuthorizationAnswer: String, Sendable, Hashable, CaseIterable {
    /// Authorized for this process only; nothing is saved.
    case allowOnce = "allow-once"
    /// Saved as `authorization = when-in-use`.
    case allowWhileUsing = "when-in-use"
    /// Saved as `authorization = always`.
    case allowAlways = "always"
    /// Saved as `authorization = denied`.
    case deny = "denied"
}

/// The permission prompt, implemented by the host: how the user is asked. `locate` asks on its
/// terminal; a desktop program might show a dialog, a test answers at once.
///
/// `GPSLocationManager.requestAuthorization(_:purpose:prompter:)` calls it only when the user has
/// not chosen yet, on the caller's thread; it may block while the user thinks. The app name and
/// purpose come from the host's caller: show them with `UntrustedText.visible(_:)`.
public protocol AuthorizationPrompter: Sendable {
    /// Asks the user whether `app` may use location (at `level`) for `purpose`.
    /// - Returns: the answer, or `nil` when the user could not be asked or did not answer
    ///   (nothing changes then).
    func ask(app: AppName?, purpose: String?, level: AuthorizationLevel) -> AuthorizationAnswer?
}
