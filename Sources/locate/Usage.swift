/// Everything `--help`, the man page and the shell completions say besides the options (which
/// are `OptionTable.options`), in one place; each of them is rendered from these tables and the
/// option table (`HelpText`, `ManPage`, `Completions`), so they cannot disagree.
enum Usage {
    static let version = "0.3.0"

    /// The name locate was run as (the last component of its argv[0], such as `gps-locate` when
    /// installed beside plocate), which every usage line and hint uses; `locate` when it has none
    /// fit to show.
    static let program: String = {
        // Bytes, not characters: this runs at every start, --once's too.
        let path = Array((CommandLine.arguments.first ?? "").utf8)
        let name = path[((path.lastIndex(of: UInt8(ascii: "/")) ?? -1) + 1)...]
        let fits = !name.isEmpty && name.count <= 64 && name.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "'") }
        return fits ? String(decoding: name, as: UTF8.self) : "locate"
    }()

    static let summary = "print this machine's position from gpsd, with the user's permission"

    static let overview = """
        Print this machine's position from gpsd, with the user's permission: one fix, or a live \
        stream. Without permission, or without gpsd, print a fallback coordinate and say why.
        """

    /// The usage lines, each after the program's name, by the commands (`CommandSpec.name`) they
    /// use; a command's help and its usage errors show its own, and `--help` each line once.
    static let usageLines: [(commands: [String], line: String)] = [
        ([""], "[--once] [--timeout S] [--accuracy M] [--max-age S] [options] [host[:port[:device]]]"),
        ([""], "--follow [--count N] [--duration S] [--distance M] [--interval S] [--heartbeat S] [options] [host[:port[:device]]]"),
        (["permission"], "permission [status|allow|deny|reset] [--always] [--reduced] [--app NAME] [--json]"),
        (["status"], "status [--json] [--app NAME] [host[:port[:device]]]"),
        (["geocode"], "geocode LAT LON | LAT,LON | NAME [--json] [--limit N] [--lang LANG]"),
        (["geocode"], "geocode --batch [--json | --csv [--no-header]] [--lang LANG] < points"),
        (
            ["monitor"],
            "monitor --region NAME=LAT,LON,RADIUS ... [--name NAME] [--until inside:NAME|outside:NAME] [--count N] [--duration S] [options]"
        ),
        (["visits"], "visits [--radius M] [--dwell S] [--count N] [--duration S] [options]"),
        (
            ["publish"],
            "publish mqtt[s]://[USER@]HOST[:PORT]/TOPIC | http[s]://[USER@]HOST[:PORT]/PATH [--as owntracks|homeassistant|json|osmand] [--qos 0|1|2] [--retain] [--outbox-limit N] [--every S] [--region ...] [follow options] [host[:port[:device]]]"
        ),
        ([""], "[--once | --follow | monitor ... | visits ... | publish ...] --replay FILE [--replay-speed X]"),
        (
            ["monitor", "visits"],
            "monitor|visits --by topic|FIELD --replay FILE|- ... [--count N]   (a state per device of a fleet's records)"
        ),
        (
            ["monitor", "visits"],
            "monitor|visits --by topic|FIELD --subscribe mqtt[s]://[USER@]HOST[:PORT]/FILTER --name NAME [--publish mqtt[s]://.../TOPIC] ..."
        ),
        (["serve"], "serve [--listen HOST:PORT | --listen unix:PATH]... [--nmea PATH]... [host[:port[:device]]]"),
        (["access"], "access [--json]"),
        (
            ["record"],
            "record [--distance M] [--interval S] [--heartbeat S] [--count N] [--duration S] [--replay FILE] [host[:port[:device]]]"
        ),
        (
            ["history"],
            "history [--from TIME] [--to TIME] [--near LAT,LON,RADIUS] [--json | --csv | --gpx | --geojson | --days [--json]] [--app NAME]"
        ),
        (["history"], "history --forget [--before TIME]"),
        (["agent"], "agent"),
        (["help"], "help [COMMAND]"),
    ]

    /// The positional arguments, by the commands that take them.
    static let arguments: [(commands: [String], name: String, help: String)] = [
        (
            ["", "status"], "host[:port[:device]]",
            """
            The gpsd to ask, as gpsd's clients take it ([::1]:2947 for IPv6); also --gpsd SPEC, \
            LOCATE_GPSD, or [gpsd] server in the settings. Default localhost:2947. A bare word near \
            a command or option name (statsu, follow, help) is taken as a mistake, not a host: give \
            such a host as NAME:2947.
            """
        ),
        (
            ["geocode"], "LAT LON | LAT,LON | NAME",
            "A coordinate in degrees (north and east positive; also as one word \"LAT LON\"), or the name of a place."
        ),
        (["help"], "COMMAND", "The command to explain: \(CommandTable.topics.joined(separator: ", "))."),
    ]

    static let exitStatuses: [(code: Int32, meaning: String)] = [
        (
            0,
            "A fix was printed; --follow ended normally (count, duration, SIGINT, SIGTERM, SIGHUP, closed pipe) after a live fix; monitor reached --until, or monitor and visits ended normally; publish ended normally with every record acknowledged by the broker; serve or agent ended by a signal."
        ),
        (64, "Usage error: unknown option, bad value, unknown --format token, a --listen address beyond loopback."),
        (
            65,
            "locate geocode --batch read lines that are not points (each got an error record; the others their place); a --replay track cannot be read or is not one."
        ),
        (
            69,
            "gpsd unreachable, it refused the request, or it has no GPS device (the fallback is printed unless disabled); or place names were asked for and libgeonames cannot be read; or publish lost a record (still queued or unacknowledged at the end, refused by the broker, or dropped from the full queue during an outage); or serve cannot listen on an address; or agent cannot reach the system bus, or lost it."
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
        (
            1,
            "locate geocode found no place (nothing within 1,500 km, or no place of that name); a second signal cut publish's goodbye short though no record was lost; anything else."
        ),
    ]

    /// What each command's exit status means, for its own help and the man page.
    static let commandStatuses: [(command: String, statuses: [(code: Int32, meaning: String)])] = [
        (
            "",
            [
                (0, "A fix was printed (--once), or the stream printed a live fix before it ended."),
                (69, "gpsd unreachable or without a device; the fallback is printed unless disabled."),
                (
                    75,
                    "No fix accurate enough (--accuracy) or young enough (--max-age) in time; with --follow, no fix from a gpsd that answered."
                ),
                (77, "Location not authorized; the fallback is printed unless disabled."),
            ]
        ),
        (
            "permission",
            [
                (0, "The choice was written and holds now (status: the permissions were shown)."),
                (
                    77,
                    "allow: the choice was written, but the administrator's policy (restricted, or a reduced accuracy) or the services switch overrides it, so location is still not as asked."
                ),
                (78, "A settings or policy file is unusable; nothing was written."),
            ]
        ),
        (
            "status",
            [
                (0, "Location is authorized and gpsd answered (with or without a fix)."),
                (69, "gpsd unreachable, refused or did not answer in --timeout (default 3 s)."),
                (77, "Location is not authorized now (gpsd is not asked)."),
                (78, "A settings or policy file is unusable."),
            ]
        ),
        (
            "geocode",
            [
                (0, "A place was printed for the coordinate or name (every --batch line was a point)."),
                (1, "No place: nothing within 1,500 km, or no place of that name."),
                (65, "--batch read lines that are not points (each got an error record)."),
                (69, "The place data (libgeonames) cannot be read."),
            ]
        ),
        (
            "monitor",
            [
                (0, "--until was met, or the monitor ended normally after a position."),
                (69, "gpsd never answered while it ran."),
                (75, "It ended (--count, --duration, a signal) before --until was met."),
                (77, "Location is not authorized at full accuracy; nothing is printed."),
            ]
        ),
        (
            "visits",
            [
                (0, "It ended normally (--count, --duration, a signal) after a position."),
                (69, "gpsd never answered while it ran."),
                (75, "It ended without a position from a gpsd that answered."),
                (77, "Location is not authorized at full accuracy; nothing is printed."),
            ]
        ),
        (
            "publish",
            [
                (
                    0,
                    "It ended normally (--count, --duration, a signal, the end of a replay) after a position, every record taken by the broker."
                ),
                (64, "A broker URL, format or option that does not go with publish."),
                (
                    69,
                    "Records the broker never took (away, refused, TLS failed, dropped by the outbox's bound; those kept go first next run), or gpsd unreachable."
                ),
                (74, "The outbox's disk failed (full): records went on, but a crash could have lost them."),
                (75, "Another locate publish sends to the same broker, topic and app now (one outbox, one sender)."),
                (77, "Location not authorized: a status was published, never a position."),
                (
                    78,
                    "A settings or policy file, the [mqtt] password-file, or the outbox's store is unusable, not private, or not the store."
                ),
            ]
        ),
        (
            "serve",
            [
                (0, "It ended by a signal (SIGTERM, SIGINT)."),
                (64, "A --listen address beyond loopback, or a bad option."),
                (69, "It cannot listen on an address (in use, or a socket of another's at the path)."),
                (78, "A settings or policy file is unusable, or a socket's directory is not yours alone."),
            ]
        ),
        (
            "access",
            [
                (0, "The sessions were listed."),
                (78, "The state directory cannot be trusted."),
            ]
        ),
        (
            "agent",
            [
                (0, "It ended by a signal (SIGTERM, SIGINT)."),
                (69, "The system bus cannot be reached or was lost, or libsystemd cannot be loaded."),
                (78, "A settings or policy file is unusable when it starts."),
            ]
        ),
    ]

    /// The environment variables locate reads.
    static let environment: [(name: String, meaning: String)] = [
        ("LOCATE_GPSD", "The gpsd endpoint, host[:port[:device]], when neither an argument nor --gpsd gives one."),
        ("LOCATE_APP", "The app whose permission applies, as --app NAME (which wins)."),
        ("LANGUAGE, LC_ALL, LC_MESSAGES, LANG", "The language of place names, as gettext takes them, unless --lang is given."),
        ("XDG_CONFIG_HOME, XDG_CONFIG_DIRS", "Where the settings and the administrator's policy are (see FILES)."),
        ("XDG_CACHE_HOME", "Where the last-fix cache and the place index are (see FILES)."),
        ("XDG_STATE_HOME", "Where the access log and the named monitors' states are (see FILES)."),
        (
            "LOCATE_GENERATE",
            "man, man:PAGE (locate-serve, locate.conf, ...), man-pages (each page and its file name), bash, zsh or fish: print that man page or completion for the name run as, and exit (make install uses it)."
        ),
    ]

    /// Command lines and what they do, by the command (`CommandSpec.name`) whose man page shows them.
    static let examples: [(command: String, line: String, meaning: String)] = [
        ("permission", "locate permission allow", "Allow location while in use: in the foreground of a terminal."),
        ("", "locate --json --accuracy 20 --timeout 1m", "One fix of at most 20 m of error as JSON, waiting up to a minute."),
        (
            "", "read lat lon < <(locate --no-fallback) && echo \"$lat $lon\"",
            "A script that takes only a real fix (without one, nothing is read)."
        ),
        ("", "locate -fn10 --gpx > track.gpx", "Ten fixes as a GPX track."),
        ("geocode", "locate geocode 37.5,127", "The place at a coordinate, offline."),
        ("monitor", "locate monitor --region home=37.5178,126.8863,100 --until inside:home", "Wait until the machine is home."),
        ("visits", "locate visits --csv --no-header >> visits.csv", "Append arrivals and departures to a log that has its header."),
        ("status", "locate status --timeout 10", "Why a fix would or would not come, waiting up to 10 s for gpsd."),
        ("publish", "locate publish mqtt://broker/owntracks/me/van --as owntracks", "Positions to an OwnTracks recorder."),
        ("serve", "locate serve & gpspipe -w localhost:2948", "gpsd's clients through the consent gate."),
        ("agent", "locate agent", "GeoClue's agent on this terminal: an app nothing is decided for is asked about here."),
    ]

    /// The fields of `geocode`'s records, for the man page.
    static let geocodeFields = """
        lat, lon (the coordinate asked about; geocode --batch: the input point), city, state, country, country_code, \
        timezone, place_lat, place_lon (the place's own point), population, distance_m; --batch: line and error for \
        a line that is no point.
        """

    /// What the settings example says first, for the man page.
    static let settingsIntroduction = """
        The settings are sections of key = value lines; # or ; starts a comment (after a value, when white space \
        comes before it). Every key is optional:
        """

    /// The settings file's syntax, for the man page.
    static let settingsSyntax = [
        "[location]",
        "services = on               # on | off",
        "authorization = when-in-use # when-in-use | always | denied (the policy: restricted)",
        "accuracy = full             # full | reduced",
        "timeout = 30                # --once's default, seconds",
        "[fallback]",
        "latitude = 37.517829        # or: place = Seoul",
        "longitude = 126.886270",
        "enabled = yes               # no: print nothing instead",
        "[gpsd]",
        "server = localhost:2947",
        "[app \"weather\"]             # --app weather, LOCATE_APP=weather",
        "authorization = always",
        "[region \"home\"]             # for monitor, and --until inside:home",
        "center = 37.5178, 126.8863",
        "radius = 100                # metres",
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
            "$XDG_STATE_HOME/locate/store.sqlite",
            "The outbox of locate publish (default ~/.local/state/locate/store.sqlite, SQLite): records waiting for their broker, each committed before it is sent and deleted once acknowledged, sent first by the next run to the same broker, topic and app; positions deleted (their bytes too) by a revoke, reduced accuracy or services off."
        ),
        (
            "$XDG_CACHE_HOME/locate/places.index",
            "The places of libgeonames, tzdata and iso-codes in a compact form, built on first use of place names and again after any of them changes; the same for every user, nothing of the position."
        ),
    ]

    static let footer = """
        Records go to stdout, one per line; messages and status events go to stderr. S is seconds, \
        also with a unit: 90, 90s, 1.5m and 2h; --timeout, --max-age and --duration also take inf. \
        Short options bundle as getopt's do: -fn2 is -f -n 2.
        """
}
