/// Everything `--help`, the man page and the shell completions say besides the options (which
/// are `OptionTable.options`), in one place; each of them is rendered from these tables and the
/// option table (`HelpText`, `ManPage`, `Completions`), so they cannot disagree.
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
        "locate geocode LAT LON | NAME [--json] [--limit N] [--lang LANG]",
        "locate geocode --batch [--json | --csv [--no-header]] [--lang LANG] < points",
        "locate monitor --region NAME=LAT,LON,RADIUS ... [--name NAME] [--until inside:NAME|outside:NAME] [--count N] [--duration S] [options]",
        "locate visits [--radius M] [--dwell S] [--count N] [--duration S] [options]",
        "locate publish mqtt[s]://[USER@]HOST[:PORT]/TOPIC [--as owntracks|homeassistant|json] [--qos 0|1|2] [--retain] [--region ...] [follow options] [host[:port[:device]]]",
        "locate [--once | --follow | monitor ... | visits ... | publish ...] --replay FILE [--replay-speed X]",
        "locate monitor|visits --by topic|FIELD --replay FILE|- ... [--count N]   (a state per device of a fleet's records)",
        "locate monitor|visits --by topic|FIELD --subscribe mqtt[s]://[USER@]HOST[:PORT]/FILTER --name NAME [--publish mqtt[s]://.../TOPIC] ...",
        "locate serve [--listen HOST:PORT | --listen unix:PATH]... [--nmea PATH]... [host[:port[:device]]]",
        "locate access [--json]",
    ]

    static let argument = (
        name: "host[:port[:device]]",
        help: """
        The gpsd to ask, as gpsd's clients take it ([::1]:2947 for IPv6); also --gpsd SPEC, \
        LOCATE_GPSD, or [gpsd] server in the settings. Default localhost:2947.
        """
    )

    static let exitStatuses: [(code: Int32, meaning: String)] = [
        (
            0,
            "A fix was printed; --follow ended normally (count, duration, SIGINT, SIGTERM, SIGHUP, closed pipe) after a live fix; monitor reached --until, or monitor and visits ended normally; publish ended normally with every record taken by the broker; serve ended by a signal."
        ),
        (64, "Usage error: unknown option, bad value, unknown --format token, a --listen address beyond loopback."),
        (
            65,
            "locate geocode --batch read lines that are not points (each got an error record; the others their place); a --replay track cannot be read or is not one."
        ),
        (
            69,
            "gpsd unreachable, it refused the request, or it has no GPS device (the fallback is printed unless disabled); or place names were asked for and libgeonames cannot be read; or publish ended with records the broker never took; or serve cannot listen on an address."
        ),
        (74, "Writing the output failed for another reason than a closed pipe (a full disk, an I/O error)."),
        (
            75,
            "No acceptable fix in time, or only fixes older than --max-age (the best fix seen, or the fallback, is printed; never the fallback for a --replay); --follow ended without a single fix from a gpsd that answered; monitor ended before --until was met."
        ),
        (
            77,
            "Location not authorized: services off, not determined, restricted, denied, or when-in-use without the foreground of a terminal (the fallback is printed unless disabled; monitor and visits print nothing, and need full accuracy too; publish publishes no position, only a status)."
        ),
        (
            78,
            "A settings or policy file is unreadable, malformed or not to be trusted (not a regular file, writable by others, owned by someone else), or so is a file it names ([mqtt] password-file must be yours alone, mode 0600); nothing is printed, gpsd is not asked."
        ),
        (1, "locate geocode found no place (nothing within 1,500 km, or no place of that name); anything else."),
    ]

    static let files: [(path: String, meaning: String)] = [
        (
            "$XDG_CONFIG_HOME/locate/locate.conf",
            "Your settings (default ~/.config/locate/locate.conf), written by locate permission and the prompt."
        ),
        ("$XDG_CONFIG_DIRS/locate/policy.conf", "The administrator's policy (default /etc/xdg/locate/policy.conf); it can only restrict."),
        (
            "$XDG_CACHE_HOME/locate/last-fix.json",
            "The last fix handed out (default ~/.cache/locate/last-fix.json), for --max-age; removed by locate permission deny and reset."
        ),
        (
            "$XDG_STATE_HOME/locate/access.jsonl",
            "Who had your location (default ~/.local/state/locate/access.jsonl): a session per program positions were delivered to or refused, never a position; rotated to access.1.jsonl past 256 KiB. locate access lists it."
        ),
        (
            "$XDG_STATE_HOME/locate/monitors/NAME",
            "The regions and last states of monitor --name NAME (default ~/.local/state/locate/monitors/NAME); kept only while location is allowed precisely, removed (every monitor's) by locate permission deny and reset and by reduced accuracy."
        ),
        (
            "$XDG_CACHE_HOME/locate/places.index",
            "The places of libgeonames, tzdata and iso-codes in a compact form, built on first use of place names and again after any of them changes; the same for every user, nothing of the position."
        ),
    ]

    static let footer = "Records go to stdout, one per line; messages and status events go to stderr."
}
