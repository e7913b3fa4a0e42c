import LocateSupport

/// What the user answered.
public enum AuthorizationAnswer: String, Sendable, Hashable, CaseIterable {
    /// Authorized for this manager's life only, as when-in-use; nothing is kept.
    case allowOnce = "allow-once"
    /// Kept as when-in-use.
    case allowWhileUsing = "when-in-use"
    /// Kept as always.
    case allowAlways = "always"
    /// Kept as denied.
    case deny = "denied"
}

/// What a prompt asks: who, for what, and at which level.
public struct AuthorizationQuestion: Sendable, Hashable {
    /// The app whose permission is asked for, as its ``AuthorizationSource`` names it; `nil`
    /// for the default. Checked by the source (the consent store allows a strict charset only).
    public var app: String?
    /// Why the program needs location, as its caller said: outside text, so show it with its
    /// control and formatting characters made harmless (a purpose could hold a terminal's
    /// escape sequences, or a bidirectional override that reorders the choices).
    public var purpose: String?
    /// Whether the program asks for location also when it is not in use (`always`), not only
    /// while it is.
    public var asksForAlways: Bool
    /// The user allowed when-in-use before, and the program asks to change it to always (iOS's
    /// "Change to Always Allow"): an answer other than always or deny leaves it as it is.
    public var isUpgrade: Bool

    /// Creates a question.
    public init(app: String?, purpose: String?, asksForAlways: Bool, isUpgrade: Bool = false) {
        self.app = app
        self.purpose = purpose
        self.asksForAlways = asksForAlways
        self.isUpgrade = isUpgrade
    }
}

/// The permission prompt, implemented by the host: how the user is asked. `locate` asks on its
/// terminal; a desktop program shows a dialog (its prompter may be `@MainActor`), a test answers
/// at once.
///
/// ``GPSLocationManager/requestWhenInUseAuthorization(purpose:prompter:)`` and
/// ``GPSLocationManager/requestAlwaysAuthorization(purpose:prompter:)`` await it only when the
/// user has to be asked, one prompt at a time per manager; the user may take as long as they like.
public protocol AuthorizationPrompter: Sendable {
    /// Asks the user `question`.
    /// - Returns: the answer, or `nil` when the user could not be asked or did not answer
    ///   (nothing changes then).
    func ask(_ question: AuthorizationQuestion) async -> AuthorizationAnswer?
}
