import GPSLocation
import LocateSupport

/// `locate history`'s options: which points (`--from`, `--to` in Unix seconds, `--near`), a
/// summary per day (`--days`), or forgetting them (`--forget`, `--before`); the output's, and
/// the stream's endpoint and app (whose permission reads them).
struct HistoryOptions: Sendable {
    var stream = StreamOptions()
    var output = OutputOptions()
    var from: Double?
    var to: Double?
    var near: CircularRegion?
    var days = false
    var forget = false
    var before: Double?
}

extension HistoryOptions {
    /// The options of `parsed`, checked: the output's combinations, then what goes with
    /// `--forget` and `--days` and an order of `--from` and `--to`, then the endpoint and the app.
    init(_ parsed: ParsedArguments, environment: EnvironmentVariables) throws(UsageError) {
        self = parsed.history
        try parsed.checkOutput()
        let flags = parsed.flags
        if flags.contains("--before"), !forget {
            throw UsageError(message: "'--before' goes with --forget")
        }
        if forget, let other = ["--from", "--to", "--near", "--days", "--json", "--csv", "--gpx", "--geojson"].first(where: flags.contains)
        {
            throw UsageError(message: "'\(other)' and --forget: --forget deletes (all, or --before TIME), it prints nothing")
        }
        if days, let other = ["--csv", "--gpx", "--geojson", "--no-header"].first(where: flags.contains) {
            throw UsageError(message: "'\(other)' and --days: a day's line is text, or --json")
        }
        if let from, let to, to <= from {
            throw UsageError(message: "'--to' is not after '--from': no point can be in between")
        }
        output = parsed.output
        stream = try StreamOptions(parsed, words: parsed.positional, .endpoint, following: false, environment: environment)
    }
}
