/// Everything `--help`, the man page and the shell completions say, in one place; each of them
/// is rendered from these tables (`HelpText`, `ManPage`, `Completions`), so they cannot disagree.
enum Usage {
    static let version = "0.3.0"

    static let summary = "print this machine's position from gpsd, with the user's permission"

    static let overview = """
        Print this machine's position from gpsd, with the user's permission: one fix, or a live \
        stream. Without permission, or without gpsd, print a fallback coordinate and say why.
        """

    static let synopsis = "Usage: locate [--once | --follow] [options] [host[:port[:device]]]"

    static let usageLines = [
        "locate [--once] [--timeout S] [--accuracy M] [--max-age S] [options] [host[:port[:device]]]",
        "locate --follow [--count N] [--duration S] [--distance M] [--interval S] [--heartbeat S] [options] [host[:port[:device]]]",
        "locate permission [status|allow|deny|reset] [--always] [--reduced] [--app NAME] [--json]",
        "locate status [--json] [--app NAME] [host[:port[:device]]]",
    ]

    /// One option as the help lists it.
    struct Option {
        /// The spellings, such as `["-f", "--follow"]`.
        let flags: [String]
        /// The value's name, such as `S`, or `nil` for a switch.
        let value: String?
        let help: String
    }

    static let argument = (name: "host[:port[:device]]", help: """
        The gpsd to ask, as gpsd's clients take it ([::1]:2947 for IPv6); also --gpsd SPEC, \
        LOCATE_GPSD, or [gpsd] server in the settings. Default localhost:2947.
        """)

    static let options: [Option] = [
        Option(flags: ["--once"], value: nil, help: "Print one fix and exit (the default)."),
        Option(flags: ["-f", "--follow"], value: nil, help: "Print fixes as they come until interrupted, --count or --duration."),
        Option(flags: ["--gpsd"], value: "SPEC", help: "The gpsd endpoint, host[:port[:device]]."),
        Option(flags: ["--timeout"], value: "S", help: "(once) Give up after S seconds without an acceptable fix (default 30)."),
        Option(flags: ["--accuracy"], value: "M", help: "(once) Accept only a fix with a horizontal error of M metres or less; on timeout print the best fix seen, marked timed_out."),
        Option(flags: ["--max-age"], value: "S", help: "(once) A fix no older than S seconds is good enough: from the last-fix cache without asking gpsd, or gpsd's current fix."),
        Option(flags: ["-n", "--count"], value: "N", help: "(follow) Stop after N records."),
        Option(flags: ["--duration"], value: "S", help: "(follow) Stop after S seconds."),
        Option(flags: ["--distance"], value: "M", help: "(follow) Print a fix only after moving M metres from the last one printed."),
        Option(flags: ["--interval"], value: "S", help: "(follow) Print at most one fix every S seconds."),
        Option(flags: ["--heartbeat"], value: "S", help: "(follow) Print the newest fix at least every S seconds, even when --distance holds it back."),
        Option(flags: ["--json"], value: nil, help: "One JSON object per line."),
        Option(flags: ["--events"], value: nil, help: "(with --json) Status events on stdout as {\"type\":\"status\",...} objects."),
        Option(flags: ["--csv"], value: nil, help: "CSV (RFC 4180) with a header line and the JSON fields as columns."),
        Option(flags: ["--no-header"], value: nil, help: "(with --csv) Leave the header line out."),
        Option(flags: ["--gpx"], value: nil, help: "GPX 1.1: a waypoint for --once, a track for --follow."),
        Option(flags: ["--format"], value: "TEMPLATE", help: "A line per record from tokens: %lat %lon %alt %alt_hae %speed %course %h_acc %v_acc %time %mode %sats %source %age %device %reason; %% is a percent sign, \\n and \\t a line break and a tab."),
        Option(flags: ["--null"], value: "TEXT", help: "(with --format) What an unknown value is written as (default: nothing)."),
        Option(flags: ["--no-fallback"], value: nil, help: "Print nothing instead of the fallback coordinate."),
        Option(flags: ["--app"], value: "NAME", help: "Whose permission applies ([app \"NAME\"] in the settings); also LOCATE_APP."),
        Option(flags: ["--purpose"], value: "TEXT", help: "Why the location is needed, shown in the permission prompt."),
        Option(flags: ["--always"], value: nil, help: "(permission allow) Allow also without a terminal or in the background."),
        Option(flags: ["--reduced"], value: nil, help: "(permission allow) Allow only positions snapped to a grid cell of about 5.6 km."),
        Option(flags: ["-V", "--version"], value: nil, help: "Show the version and the libgps it was built with."),
        Option(flags: ["-h", "--help"], value: nil, help: "Show help information."),
    ]

    static let exitStatuses: [(code: Int32, meaning: String)] = [
        (0, "A fix was printed; --follow ended normally (count, duration, SIGINT, SIGTERM, closed pipe) after a live fix."),
        (64, "Usage error: unknown option, bad value, unknown --format token."),
        (69, "gpsd unreachable, it refused the request, or it has no GPS device (the fallback is printed unless disabled)."),
        (74, "Writing the output failed for another reason than a closed pipe (a full disk, an I/O error)."),
        (75, "No acceptable fix in time (the best fix seen, or the fallback, is printed)."),
        (77, "Location not authorized: services off, not determined, restricted, denied, or when-in-use without the foreground of a terminal (the fallback is printed unless disabled)."),
        (78, "A settings or policy file is unreadable or malformed (nothing is printed, gpsd is not asked)."),
        (1, "Anything else."),
    ]

    static let files: [(path: String, meaning: String)] = [
        ("$XDG_CONFIG_HOME/locate/locate.conf", "Your settings (default ~/.config/locate/locate.conf), written by locate permission and the prompt."),
        ("$XDG_CONFIG_DIRS/locate/policy.conf", "The administrator's policy (default /etc/xdg/locate/policy.conf); it can only restrict."),
        ("$XDG_CACHE_HOME/locate/last-fix.json", "The last fix handed out (default ~/.cache/locate/last-fix.json), for --max-age; removed by locate permission deny and reset."),
    ]

    static let footer = "Records go to stdout, one per line; messages and status events go to stderr."
}
