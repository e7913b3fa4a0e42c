import LocateSupport

/// `locate permission [status|allow|deny|reset]`'s options: the action, whose permission
/// (`--app`), how an allow allows (`--always`, `--reduced`), and whether the status is JSON.
struct PermissionOptions: Sendable {
    enum Action: String, Sendable, CaseIterable {
        case status, allow, deny, reset
    }

    var action = Action.status
    /// `--app` or `LOCATE_APP` (`nil`: `[location]`).
    var app: String?
    /// `--always`: allowed also without a terminal or in the background.
    var always = false
    /// `--reduced`: allowed only positions snapped to a grid cell.
    var reduced = false
    var json = false
}

extension PermissionOptions {
    /// The options of `parsed`, checked: no argument (not even gpsd's endpoint).
    init(_ parsed: ParsedArguments, environment: EnvironmentVariables) throws(UsageError) {
        self = parsed.permission
        try parsed.checkOutput()
        _ = try parsed.endpoint(parsed.positional, .none, environment: environment)
        app = try parsed.app(environment: environment)
        json = parsed.output.isJSON
    }
}
