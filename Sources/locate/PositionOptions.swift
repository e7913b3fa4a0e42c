import LocateSupport

/// `locate [--once]`'s options: the stream's and the output's (a fix's record), and how long a
/// fix may take or be old.
struct OnceOptions: Sendable {
    var stream = StreamOptions()
    var output = OutputOptions()
    /// `--timeout`; `nil` leaves it to the settings (default 30 s).
    var timeout: Duration?
    /// `--max-age`: a cached or current fix this young is good enough.
    var maxAge: Duration?
}

/// `locate --follow`'s options: the stream's and the output's (a fix's record).
struct FollowOptions: Sendable {
    var stream = StreamOptions()
    var output = OutputOptions()
}

extension OnceOptions {
    /// `locate [--once]`'s options of `parsed`, checked.
    init(_ parsed: ParsedArguments, environment: EnvironmentVariables) throws(UsageError) {
        self = parsed.once
        (stream, output) = try parsed.readingOptions(records: .fix, .endpointUnlessSlip, following: false, environment: environment)
    }
}

extension FollowOptions {
    /// `locate --follow`'s options of `parsed`, checked.
    init(_ parsed: ParsedArguments, environment: EnvironmentVariables) throws(UsageError) {
        (stream, output) = try parsed.readingOptions(records: .fix, .endpointUnlessSlip, following: true, environment: environment)
    }
}
