/// The locate(1) page: what it says beyond the tables (see `ManPage`).
extension ManualPage {
    static let locate = ManualPage(
        name: "locate", section: 1,
        summary: "Print this machine's position from gpsd, with the user's permission",
        commands: [""], listsFiles: true, showsSettings: false,
        description: #"""
            ## Description
            locate prints where this machine is, from gpsd, the way iOS CoreLocation gives positions to apps: one fix for the weather-app case (`locate --once`, the default), or a live stream for the running-app case (`locate --follow`). Records go to stdout, one per line, flushed as they come; messages and status events go to stderr, prefixed `locate:`; the exit status says what happened. Nothing is read from gpsd until location is authorized (see `locate-permission`(1)); without authorization, without gpsd or without a fix in time, locate prints a fallback coordinate marked as such, and exits with a status a script can branch on.

            Seconds (S) are a number or carry a unit: 90, 90s, 1.5m, 2h; --timeout, --max-age and --duration also take inf. Short options bundle and take attached values as getopt's do: `locate -fn5` is `locate --follow --count 5`.
            """#,
        details: #"""
            ## Details
            A bare word is the gpsd host only when it cannot be a slip of a command or option: `locate statsu`,
            `locate follow` or `locate help` never look a name up; the first two are usage errors (64) with
            "did you mean 'status'?" and "did you mean '--follow'?", the last is the help. A host of such a
            name is given as `NAME:2947` or with `--gpsd NAME`; a host that cannot be looked up is reported as
            "cannot look up NAME, taken as gpsd's host name" (69). Every usage error shows the usage lines of
            the command it was for and points to that command's `--help`.

            Seconds (`S`) are a number or carry a unit: `90`, `90s`, `1.5m`, `2h`. Short options bundle and
            take attached values as getopt's do, so gpspipe's fingers work: `locate -fn5` is
            `locate --follow --count 5`.

            Options take their value as the next word or after `=` (`--timeout=5`). Follow-only options with
            `--once`, and once-only options with `--follow`, are usage errors (status 64), as are unknown options.

            Examples, against the simulated receivers of `make run`, with location allowed:

            ```console
            $ locate 127.0.0.1:44287
            64.150432 -21.940457
            $ locate --json --accuracy 20 --timeout 10 127.0.0.1:44287
            {"type":"fix","time":"2026-11-29T22:12:07.000Z","lat":64.1504322,"lon":-21.9404567,"alt_msl":12.5,"alt_hae":57.5,"h_acc":17.1,"v_acc":29.9,"speed":0.00,"speed_acc":34.77,"course":0.0,"course_acc":null,"climb":0.00,"mode":"3d","sats_used":8,"device":"/dev/pts/1","source":"gpsd","age":0.4,"accuracy":"full","reason":null,"timed_out":false}
            $ locate --follow --count 3 127.0.0.1:58769
            64.140148 -21.910120
            64.140178 -21.910123
            64.140208 -21.910126
            $ locate --follow 127.0.0.1:58769 | head -3     # ends quietly with status 0 when head is done
            $ LOCATE_GPSD=127.0.0.1:58769 locate --follow --distance 100 --heartbeat 60 --json >> track.jsonl
            ```

            ### How a single fix is fast

            `locate --once` connects, and sends gpsd `?WATCH` and `?POLL;` in one write. When gpsd already
            has a fix (another client is watching, or gpsd runs with `-n`), the POLL reply answers at once:
            about 4 ms for the whole process on the reference machine (make bench measures it), where a client that waits for the next
            report (like `gpspipe -w`) needs up to a full receiver cycle. When gpsd has no fix yet, `locate`
            waits for streamed fixes until one is acceptable or `--timeout` passes.

            ### The last-fix cache

            Every fix `locate` hands out is kept in `$XDG_CACHE_HOME/locate/last-fix.json` (default
            `~/.cache/locate/`, mode 0600, written atomically, and replaced at most every 4 s, so a `--max-age` shorter than that may find it
            too old and ask gpsd), so
            `locate --max-age 300` can answer at once when a young enough fix is known, even with gpsd away.
            Only what passed the permission check is kept, as it was handed out: under reduced accuracy only
            the grid cell. A cached fix is checked again before it is handed out. `locate permission deny` and
            `reset` remove it, and so does any run that finds location denied, restricted or switched off.
            The fix is written to stdout first and kept after, so keeping it never delays the answer.

            The cache is private or it is not used: the directory must be yours alone (not a symbolic link,
            owned by you, writable by no one else, on a path no one else can change: see the threat model),
            and a file in it is read only when you own it; a
            temporary file gets a name of its own, created exclusively. When `XDG_CACHE_HOME` points into a
            directory another user can write (a `locate` directory they made in `/tmp`, say), `locate` says
            `locate: not using the cache ...: it is writable by others (mode 777), not yours alone` once and
            goes on without it: the fix is still printed. A fix is kept under the cache's lock after the
            settings are read again, and `permission deny` purges under the same lock after it changed the
            settings, so a `--once` in flight can never leave a fix behind a deny.

            ### What `--follow` does when things go wrong

            - A receiver without a fix (gpsd mode 1) is not an error: `locate: no fix yet` goes to stderr once,
              and fixes resume when the receiver has one again.
            - gpsd without a receiver (just started, or hot-plugging a USB receiver) is not final either:
              `--follow` reports `no_device` and waits; `--once` and `locate status` say
              `locate: gpsd at ... has no GPS device; waiting for one` once and wait for it until their
              deadline like they wait for a fix, and only then exit 69.
            - gpsd going away (restart, crash) is survived: `locate: lost gpsd ...; reconnecting in 0.25 s` on
              stderr, retries with back-off from 0.25 s doubling up to 4 s, `locate: reconnected ...`, and fixes
              resume. The back-off keeps growing until gpsd reports a fix state again, so a gpsd that accepts
              and hangs up at once is not hammered.
            - Connecting is bounded, every time: `locate` connects to gpsd on a socket of its own that never
              blocks (libgps's own `connect()` has no limit), so a first connection gives up after 5 s (or
              `--timeout`, if shorter) with status 69, and each reconnection attempt after 5 s, when it is
              tried again with the back-off. A name that needs a resolver is looked up on a thread of its own,
              so a slow resolver cannot hold up a stop either.
            - A gpsd that stalls or sends garbage never produces a position: lines libgps cannot parse, or TPVs
              without mode 2/3 and finite coordinates, are not fixes.
              gpsd that cannot be reached when `locate --follow` *starts* (or when it resumes after a grant)
              is an error (status 69, after the fallback record), as for `--once`, so a typo in the endpoint
              does not hang a script.
            - gpsd often reports one epoch several times: a 2D fix, then the same time as 3D, or a position a
              later message of the same second corrects. A fix for the receiver time of the one before it is
              printed when it changes what a record says about the position (its mode, or its latitude or
              longitude to the record's 7 decimals), and dropped only when it changes nothing. Without filters,
              `--follow` prints every distinct (lat, lon, mode) gpsd reports, in order.
            - A consumer that reads slower than the receiver reports holds up the reading of gpsd
              (back-pressure) while up to 4096 updates wait; only when it takes nothing for 2 s are the oldest
              fixes dropped (the status events among them stay), and a `dropped` status event says how many.
              Memory stays bounded, and nothing is lost while the consumer keeps up.
            - Ctrl-C, SIGTERM or SIGHUP (a closed terminal, a logout) ends the stream cleanly (a GPX
              document is closed, the status is the stream's own). A second one ends `locate`
              at once, and so does the first when stdout is blocked (its reader stopped reading), since a
              clean end would have to write: the status is then the signal's (130 for SIGINT, 143 for SIGTERM).

            ## Output
            stdout carries records only, one per line, each written and flushed as it is made; messages and
            status events go to stderr, one line each, prefixed `locate:`. Numbers are written with `.` as the
            decimal separator whatever `LANG` or `LC_NUMERIC` say, never in exponent form. There is no colour.

            **Text** (default): `latitude longitude`, decimal degrees with 6 decimals, for `read lat lon`:

            ```console
            $ locate
            64.150432 -21.940457
            ```

            **`--format TEMPLATE`**: a line per record from tokens `%lat %lon %alt %alt_hae %speed %course
            %h_acc %v_acc %time %epoch %mode %sats %source %age %device %reason %fix %hdop %vdop %pdop %heading
            %geoid_sep %integrity` (`%epoch`: the fix's time in
            whole Unix seconds; `--json`'s `time` stays ISO 8601); `%%` is a percent sign, `\n` and `\t`
            a line break and a tab. A token is the whole word after `%` (`%lat%lon` works; `%timezone` is the
            time zone, not `%time` + `zone`); an unknown token is a usage error (64) that lists the valid
            ones. The place tokens `%city`, `%state`, `%country`, `%country_code`, `%timezone` and `%place`
            ("city, state, country" without repeats) name the place of the record (see locate-geocode(1)). Unknown values are empty, or the `--null TEXT`. Coordinates have 6 decimals, other numbers
            the precision of the JSON table below.

            ```console
            $ locate --format '%lat,%lon ±%h_acc m (%sats satellites, %alt m)' --null '?'
            64.150432,-21.940457 ±17.1 m (8 satellites, 12.5 m)
            ```

            **`--json`**: one object per line, these fields in this order; unknown values are `null`, never
            NaN or -1. With `--events`, status events join stdout as objects of their own (below).

            ```console
            $ locate --json
            {"type":"fix","time":"2026-11-29T22:12:07.000Z","lat":64.1504322,"lon":-21.9404567,"alt_msl":12.5,"alt_hae":57.5,"h_acc":17.1,"v_acc":29.9,"speed":0.00,"speed_acc":34.77,"course":0.0,"course_acc":null,"climb":0.00,"mode":"3d","sats_used":8,"device":"/dev/ttyUSB0","source":"gpsd","age":0.4,"accuracy":"full","reason":null,"timed_out":false}
            ```

            | field | type | unit / values | null when |
            | --- | --- | --- | --- |
            | `type` | string | `"fix"`, or `"fallback"` for the fallback coordinate (never `"fix"`: a consumer that reads only `type` cannot take it for a position) | never |
            | `time` | string | ISO 8601 UTC with milliseconds, the receiver's time of the fix: a fix always has one (a report of gpsd's without a time, as a receiver's first epochs send, is no fix yet, and the next is waited for) | the fallback; a replayed point without one |
            | `lat`, `lon` | number | degrees, WGS 84, 7 decimals | never |
            | `alt_msl`, `alt_hae` | number | metres above mean sea level / the WGS 84 ellipsoid, 0.1 | 2D fix, reduced accuracy, or unknown |
            | `h_acc`, `v_acc` | number | estimated horizontal / vertical error (gpsd `eph`/`epv`), metres, 0.1; under reduced accuracy `h_acc` is the grid cell's size | unknown |
            | `speed`, `speed_acc` | number | speed over ground and its error, m/s, 0.01 | unknown; reduced accuracy |
            | `course`, `course_acc` | number | course over ground from true north and its error, degrees, 0.1 | unknown; reduced accuracy |
            | `climb` | number | vertical speed, m/s, 0.01 | unknown; reduced accuracy |
            | `mode` | string | `"2d"` or `"3d"` | the fallback |
            | `sats_used` | number | satellites used in the fix (gpsd's latest sky view) | unknown |
            | `device` | string | the receiver, as gpsd names it | unknown |
            | `source` | string | `"gpsd"` for a live fix, `"cache"` for the last-fix cache (`--max-age`), `"fallback"` for the fallback coordinate | never |
            | `age` | number | seconds from the fix's time to now, 0.1 | no fix time |
            | `accuracy` | string | `"full"`, or `"reduced"` for a grid-cell position (and for the fallback) | never |
            | `reason` | string | why the position is not live: `services_off`, `not_determined`, `restricted`, `denied`, `background`, `gpsd_unavailable`, `timeout` | a live fix |
            | `timed_out` | bool | the fix did not reach `--accuracy` in time; it is the best seen | never |
            | `fix` | string | how the fix was made, from gpsd's TPV `status` (an NMEA receiver's GGA quality): `gps`, `dgps`, `rtk_float`, `rtk_fixed`, `dr` (dead reckoning), `gnss_dr`, `surveyed`, `simulated`, `pps` (the Precise Positioning Service); `--min-fix` orders `gps` < `dgps` < `rtk_float` < `rtk_fixed` | reduced accuracy; the fallback |
            | `hdop`, `vdop`, `pdop`, `tdop`, `gdop` | number | the dilutions of precision of gpsd's latest sky view (SKY) of the fix's receiver, 0.01 | unknown; reduced accuracy |
            | `x_acc`, `y_acc`, `time_acc` | number | estimated error in longitude and latitude (gpsd `epx`, `epy`), metres, 0.1, and of the fix's time (`ept`), seconds, 0.001 | unknown; reduced accuracy |
            | `heading` | number | true heading, degrees from true north, 0.1: where the vehicle points (gpsd's ATT from a receiver's `$GPHDT`), which is not its course when it drifts or stands still | no heading receiver; reduced accuracy |
            | `mag_var`, `geoid_sep` | number | magnetic variation (degrees, east positive) and the height of the geoid above the WGS 84 ellipsoid (metres), 0.1 | unknown; reduced accuracy |
            | `integrity`, `integrity_reason` | string | `ok`, or `suspect` with why: `jump` (a move from the receiver's fix before that no vehicle makes in the time between them: over 500 m/s, beyond both fixes' errors), `speed` (a reported speed far from the one the two positions imply), `time_backwards` (a time more than 5 s before the fix before it; a log where two sessions were joined is suspect at the join, and nowhere else). Each fix is checked against the one before from the same receiver, suspect or not. `--reject-suspect` leaves suspect fixes out | not checked: the fallback, a cached fix, reduced accuracy |
            | `city`, `state`, `country` | string | (only with `--geocode`) the place of this record's coordinate, in the language of `--lang`, `LANGUAGE` or the locale (see locate-geocode(1)) | no place within 100 km; `state` also when the data has none |
            | `country_code` | string | (only with `--geocode`) ISO 3166-1 alpha-2, such as `"IS"` | no place within 100 km |
            | `timezone` | string | (only with `--geocode`) IANA time zone of the place, such as `"Atlantic/Reykjavik"` | no place within 100 km |

            **Status events** (`--json --events`): `{"type":"status","event":NAME,"time":NOW,...,"message":TEXT}`
            with `event` one of `no_fix`, `no_device`, `gpsd_lost` (with `retry_in`, seconds), `reconnected`,
            `paused`, `resumed`, `authorization_changed` (with `authorization` and `reason`, `null` when
            location is authorized again), `accuracy_changed` (with `accuracy`: precise location switched on
            or off), `stationary` and `moving` (`--follow`: no movement beyond the fixes' accuracy for 60 s of
            receiver time, and the end of it), `dropped` (with `count`), `settings_invalid` (with `file`,
            `line` and `column`: a settings file cannot be read, and positions are held back until it can),
            and `timeout`, `gpsd_unavailable` and `not_authorized` (a single request, or a stream that ended
            without a position, says why it had none). Without `--events` each is one line on stderr (the
            `message`).

            **Region and visit records** (`monitor`, `visits`; see Regions, visits and replay) carry their own
            fields, in JSON, CSV and `--format` (`%region %event %state %time %lat %lon %h_acc`, and
            `%event %arrival %departure %lat %lon %h_acc`) alike:
            `{"type":"region","region":"home","event":"initial"|"enter"|"exit","state":"inside"|"outside"|"unknown","time":…,"lat":…,"lon":…,"h_acc":…}`
            with the fix that decided the event, and
            `{"type":"visit","event":"arrival"|"departure","arrival":TIME,"departure":TIME|null,"lat":…,"lon":…,"h_acc":…}`
            with the visit's centre and accuracy. Their text line is `EVENT STATE LAT LON TIME NAME` (the
            name last, so `read event state lat lon time name` keeps a name with spaces whole) and
            `EVENT LAT LON ARRIVAL DEPARTURE`, an unknown value as `-`.

            ```console
            $ locate --follow --json --events | jq -c 'select(.type == "status") | {event, message}'
            {"event":"gpsd_lost","message":"lost gpsd at localhost:2947; reconnecting in 0.25 s"}
            ```

            **`--csv`**: RFC 4180: a header line of the JSON field names (leave it out with `--no-header`), then
            one row per record with the same columns; unknown values are empty; fields with a comma, a quote or
            a line break are quoted. Lines end in `\n`.

            ```console
            $ locate --follow --csv --count 2 | python3 -c 'import csv, sys; print([r["lat"] for r in csv.DictReader(sys.stdin)])'
            ['64.1400000', '64.1400297']
            ```

            **`--gpx`**: GPX 1.1 (namespace `http://www.topografix.com/GPX/1/1`). `--once` writes one `<wpt>`;
            `--follow` writes a `<trk>` with `<trkpt>`s (`<ele>` from `alt_msl`, `<time>`, `<fix>`, `<sat>`,
            `<hdop>` where known) and starts a new `<trkseg>` after each gap (no fix, gpsd lost, paused, not
            authorized). The document is closed on `--count`, `--duration`, SIGINT, SIGTERM and SIGHUP, so an
            interrupted recording is still a valid file. The fallback is not a place the receiver was: a track
            leaves it out; the single waypoint of `--once` carries it with `<desc>REASON</desc><src>fallback</src>`.

            ```console
            $ locate --follow --gpx > run.gpx        # Ctrl-C when done
            $ gpsbabel -i gpx -f run.gpx -o kml -F run.kml
            ```

            ## Recipes
            All three are tested as written here (`BarAndServiceRecipeEndToEndTests`), with the test's
            binary and gpsd in place of `locate` and localhost.

            **i3blocks** (Debian's `i3blocks`), the city or "no fix", never the fallback's Seoul:

            ```ini
            # ~/.config/i3blocks/config
            [location]
            command=locate --app bar --no-fallback --format '%place' || echo 'no fix'
            interval=60
            ```

            **waybar**'s `custom` module, which reads `{"text": ...}` JSON (`jq -R` quotes the place safely):

            ```json
            "custom/location": {
                "exec": "locate --app bar --no-fallback --format %place | jq -Rc '{text: .}'",
                "return-type": "json",
                "interval": 60
            }
            ```

            Permission: a bar runs its commands without a terminal, where a when-in-use grant does not
            count (it would say `background`, 77, on every run), so the bar's app needs `always`; a city
            needs no more than the ~5.6 km grid cell, so give it only that:
            `locate permission allow --always --reduced --app bar`.

            **A track logger** as a systemd user unit, a JSON line per 10 m moved, appended to a file:

            ```ini
            # ~/.config/systemd/user/track-logger.service
            [Unit]
            Description=Log this machine's track
            [Service]
            ExecStart=%h/.local/bin/locate --follow --json --distance 10 --app tracker
            StandardOutput=append:%h/track.jsonl
            Restart=on-failure
            RestartSec=30
            [Install]
            WantedBy=default.target
            ```

            ```sh
            locate permission allow --always --app tracker   # a service has no terminal: always, full accuracy for a track
            systemctl --user enable --now track-logger
            ```

            `systemctl --user stop` sends SIGTERM, a normal end (0 after a fix); while gpsd is down or
            restarts the stream pauses and resumes by itself, so `Restart=on-failure` is only for what
            cannot resume (unusable settings, 78). Tested: `systemd-analyze verify` accepts the unit, and
            its command, run without a terminal, logs fixes until SIGTERM and exits 0 (the test does not
            start a user manager).

            ## Statuses of a stream
            `--follow` ends with the status of its last record: 0 after a live fix, otherwise the status of the
            fallback's reason. A stream that ends (`--count`, `--duration`, a signal) without a single live
            fix has not succeeded: the fallback record is printed then (unless disabled), with 75 when gpsd
            answered without a fix (or every fix it sent was held back by `--accuracy`, `--distance` or
            `--interval`) and 69 when it never answered or closed every connection. A closed pipe
            (`locate --follow | head -3`) is a normal end, with the status the command would have ended
            with at that moment: 0 once a live fix was written, the record's own status for `--once`, and
            otherwise the status for no position (77 when not authorized, 69 when gpsd is down), never 0
            after nothing; any other write
            error on stdout (a full disk: `locate > /dev/full`) ends `locate` with a message and status 74,
            whatever it was printing. `--no-fallback` (or `enabled = no` in `[fallback]`) prints nothing instead of the
            fallback; the message and the status stay.
            """#
    )
}
