/// The locate-monitor(1) page: what it says beyond the tables (see `ManPage`).
extension ManualPage {
    static let monitor = ManualPage(
        name: "locate-monitor", section: 1,
        summary: "watch regions and visits, of this machine or of a fleet's devices",
        commands: ["monitor", "visits"], listsFiles: false, showsSettings: false,
        description: #"""
            ## Description
            `locate monitor` is CoreLocation's `CLMonitor` for scripts: it watches named circles and prints
            an event when the receiver is inside or outside them. A geofence, as you would write it:

            ```console
            $ locate monitor --until inside:home --region home=37.5178,126.8863,100 && notify-send "home"
            $ locate monitor --json --region depot=64.13,-21.9,50 --region stop=64.1354,-21.9,50 >> fences.jsonl
            ```

            A region's name is what its events carry: 1 to 64 characters (at most 256 bytes), at least one
            of them visible, no control, formatting or other invisible character (no zero-width space or
            joiner, soft hyphen, word joiner, byte-order mark, tag character, variation selector or
            bidirectional override), no blank filler (U+3164 HANGUL FILLER and its halfwidth U+FFA0, the
            Hangul fillers U+115F and U+1160, U+2800 BRAILLE PATTERN BLANK), which would make a name show as
            nothing or look like another, and at most 4 combining marks on a character. Regions also come
            from the settings, one section each (a region on the command line replaces one of the same name;
            ten thousand of them are read in well under a second):

            ```ini
            [region "home"]
            center = 37.5178, 126.8863
            radius = 100
            ```

            Each region starts `unknown`; the first fix gives every region an `initial` event with its state,
            then `enter` and `exit` follow as it changes, each with the fix that decided it. A fix decides
            only when it is clear given its horizontal accuracy `h`: inside when its distance to the centre
            plus `h` is within the radius, outside when the distance minus `h` is beyond it; in between the
            state stays, so a receiver jittering at the boundary does not flap, and a fix less accurate than
            the radius decides nothing. Distances are geodesics on the WGS 84 ellipsoid (within a millimetre
            of Karney's, across the antimeridian and at the poles). `--until` exits 0 at the first event in
            that state; a stream that ends without it (`--count`, `--duration`, the end of a replay) exits 75.
            A monitor or a visit log that saw no position at all ends as `--follow` does: 77 when location
            was never authorized while it ran (a when-in-use run in the background all along), 75 when gpsd
            answered without a fix, 69 when it never answered or closed every connection; 0 only after a
            fix passed the gate.

            ### Named monitors: a geofence that remembers

            `--name NAME` makes a monitor that keeps its regions and their last states, with the time each
            was decided, between runs (as `CLMonitor` keeps its conditions across launches): the next run
            reports `enter` and `exit` against the state the last one left, and a region whose state did not
            change is not reported again, so a job run every few minutes tells "arrived since last time"
            from "still here". Each region event has a `since` field (JSON, CSV, `%since`): when the state
            before it was decided (by the last run, or an earlier fix), `null` for `initial`. A region given
            again with the same name, centre and radius keeps its state; a new or moved one starts with
            `initial`; with no region given, the kept ones are watched. The state is in
            `$XDG_STATE_HOME/locate/monitors/NAME` (default `~/.local/state/locate/monitors/NAME`), one JSON
            line per region, mode 0600 in a private directory, replaced atomically after each event. NAME is
            1 to 64 ASCII letters, digits, `.`, `_`, `-`, starting with a letter or digit (no path).

            A region's state is a position, so it is kept as the last-fix cache is: only while location is
            authorized (when-in-use or always, precise, by the files: "allow once" keeps nothing for a later
            run), checked again under a lock before each write, and `locate permission deny`, `reset` or a
            switch to reduced accuracy removes every named monitor's state. This holds for `--replay` too:
            a track is data and needs no permission to play, but a state file cannot tell whether its
            positions were this machine's own recorded ones, so a named monitor over a replay keeps its state
            under the same rule (after a deny it still runs, and keeps nothing). A state file that another
            user owns, that its group or others can write, or that has a line this store did not write, is
            status 78 with the file and the line, and the monitor does not start (remove the file to start
            afresh).

            ```console
            $ locate monitor --name commute --region home=52.5,13.0,1000 --replay piece1.jsonl
            initial outside 52.000000 13.000000 2026-01-01T00:01:00.000Z home
            $ locate monitor --name commute --region home=52.5,13.0,1000 --replay piece2.jsonl
            enter inside 52.500000 13.000000 2026-01-01T00:02:00.000Z home
            ```

            A cron job (not tested under cron itself; the three runs `initial`, `enter`, `exit` are tested,
            `NamedMonitorEndToEndTests`) that says when you arrived: location must be allowed `always`, as a
            job has no terminal.

            ```sh
            */5 * * * * locate monitor --name home --region home=37.5178,126.8863,100 --duration 60 --count 1 --json >> ~/arrivals.jsonl
            ```

            A systemd user timer (not tested), `~/.config/systemd/user/home-fence.service` and `.timer`:

            ```ini
            [Service]
            Type=oneshot
            ExecStart=/usr/local/bin/locate monitor --name home --region home=37.5178,126.8863,100 --duration 60 --count 1 --json

            [Timer]
            OnCalendar=*:0/5
            Persistent=true
            ```

            `locate visits` is `CLVisit`: an arrival when the fixes stay within `--radius` (50 m) of their
            centre for `--dwell` (300 s) of receiver time, dated by the first fix of the stay; a departure at
            the first fix clearly outside, dated by the last fix inside (before an arrival, any fix beyond
            the radius starts the stay afresh there). A visit log:

            ```console
            $ locate visits --csv $([ -s visits.csv ] && echo --no-header) >> visits.csv   # the header only into a new file
            $ locate visits --replay Scripts/tracks/commute.nmea --replay-speed 0 --dwell 30
            arrival 64.129999 -21.900000 2026-01-01T08:00:00.000Z -
            departure 64.130030 -21.900000 2026-01-01T08:00:00.000Z 2026-01-01T08:00:44.000Z
            arrival 64.135370 -21.900000 2026-01-01T08:01:35.000Z -
            ```

            Both need the same permission as `--follow` (when-in-use only in the foreground of a terminal,
            `always` otherwise) and precise location: under reduced accuracy they are unavailable, as on iOS
            (status 77, a message, no record). Not authorized means no record at all (a region state is
            location), no fallback, status 77; a revoke on the way ends them with 77 at once, and a fix that
            waited in the queue before it decides nothing. A when-in-use run sent to the background pauses.
            Status events are as for `--follow`; `--follow` also reports `stationary` after 60 s of receiver
            time within the fixes' accuracy, `moving` when the receiver leaves, and `accuracy_changed` when
            precise location is switched on or off.

            `--replay FILE` reads a track instead of gpsd, with `--once`, `--follow`, `monitor` and `visits`, so
            a script can be tried without a receiver: GPX 1.1 (the points of its tracks, else of its routes,
            else its waypoints, with every value `--gpx` writes), NMEA 0183 logs such as gpsd's receiver logs (RMC, GGA and GSA; `#` comment lines,
            and sentences with a bad checksum, are skipped as gpsd skips them) and locate's own JSON Lines
            (`locate --follow --json > run.jsonl`, then `locate --replay run.jsonl`, or `grep … run.jsonl |
            locate --replay - …` from a pipe). Fixes come in the file's order at `--replay-speed` times their
            pace (0: as fast as the output is read), with `"source":"replay"` and no `age`. A point without an
            accuracy is taken as exact; a GPX or NMEA `hdop` is taken as the accuracy in metres (GPX has no
            accuracy field, and a track file carries no better estimate; gpsd, reading the same NMEA live,
            estimates about 19 m per unit), a record's `h_acc` is its accuracy. A replayed track is not this
            machine's position: no permission is asked or needed, and it never enters the last-fix cache (so
            `--max-age`, and a gpsd endpoint, do not go with `--replay`). A track is read as it is played,
            never held whole, so a long log or a pipe (`tail -f run.jsonl | locate monitor --replay - ...`)
            costs no more memory than a short one. At `--replay-speed 0` fixes go out in batches, but none
            waits for more to come: what was read goes out before a pipe is waited on, and within 0.2 s of
            being read from a slow stretch of a file; `--once` answers with the first acceptable fix as soon
            as it is read. GPX is read in one pass: a track point is played as soon as it is read, while
            route and waypoint points (which GPX puts first) wait, up to 20,000, until it is known whether a
            track follows, since the track's points win; a file with more reads the rest again from where
            they stopped waiting, a pipe cannot (an error naming the line). The GPX scanner reads about
            200 MB/s of dense markup (a release build on a 2-core machine: 134 MB of three tags every 19
            bytes in 0.64 s, where the reader before it took 16 s). A file that cannot be read, a track
            without a fix, or a malformed point, is status 65 with the file and line (a point is found malformed when the playback
            reaches it, after the fixes before it). In NMEA, a sentence that
            claims a fix (RMC status A, GGA quality 1 to 9, GSA mode 2 or 3) is read by its grammar: coordinates
            `ddmm.mmm` with minutes under 60 and no sign, real times and dates, unsigned speeds, courses,
            dilutions and satellite ids; a
            sentence without a fix says only that (receivers fill its other fields with anything). A replay
            stopped before its first fix (a signal, `--duration`) is status 75, with no fallback: nothing
            stands in for a recorded track. So with `--once`: no fix within `--timeout` is 75 with a message
            (with `--accuracy`, the track's most accurate fix, marked `timed_out`), a track without a fix 65,
            and neither prints the fallback.

            ```console
            $ locate monitor --replay Scripts/tracks/commute.nmea --replay-speed 0 --region depot=64.13,-21.9,50 --region stop=64.1354,-21.9,50
            initial inside 64.129982 -21.900000 2026-01-01T08:00:00.000Z depot
            initial outside 64.129982 -21.900000 2026-01-01T08:00:00.000Z stop
            exit outside 64.130540 -21.900000 2026-01-01T08:00:45.000Z depot
            enter inside 64.135039 -21.900000 2026-01-01T08:01:35.000Z stop
            ```
            """#,
        details: #"""
            ## Fleets
            ### Per-device monitoring: `--by`

            `locate monitor` and `locate visits` with `--by KEY` take a stream of many devices' records and
            keep a state per device. `KEY` is `topic` for `mosquitto_sub -v` lines (the topic, a space, the
            JSON payload), or a field of the JSON record: `tid` for OwnTracks, or any other field (a string
            or a number). The records are OwnTracks locations
            (`{"_type":"location","lat":…,"lon":…,"tst":…,"acc":…,"tid":…}`; `tst` is the time, `acc` the
            accuracy; other OwnTracks types are skipped) or locate's own fix records, from `--replay FILE` or
            `--replay -` (a pipe, read as it comes, with no pacing: each record's events are written as soon
            as it is read).

            ```console
            $ mosquitto_sub -h broker.example -t 'owntracks/#' -v | locate monitor --by topic --replay - --region depot=64.13,-21.9,50
            owntracks/kim/phone initial outside 64.135400 -21.900000 2026-01-01T08:00:00.000Z depot
            owntracks/van12/kit initial inside 64.130000 -21.900000 2026-01-01T08:00:03.000Z depot
            owntracks/kim/phone enter inside 64.130010 -21.900000 2026-01-01T08:04:10.000Z depot
            $ mosquitto_sub -h broker.example -t 'owntracks/#' | locate visits --by tid --replay - --json
            ```

            Every event names its device: the first column of a text line (a device name has no space), a
            `device` field in JSON and a `device` column at the end in CSV, `%device` in `--format`. Each
            device's events come in that device's own order, whatever the others do; the tests check 50
            devices over 20 regions, as `mosquitto_sub -v` lines and as OwnTracks JSON, against an
            independent reference in Python (`Scripts/fleet/make-fleet`, `FleetEndToEndTests`). A single
            device's messages (either kind) also play as a plain track with `--replay`.

            Positions from other devices are data, like a replay: no permission of this machine applies,
            nothing of them is cached or kept, and the devices' own consent was applied where they
            published (OwnTracks and `locate` itself publish only what their user allowed). Bound by design:
            a device costs about 4.5 bytes a region (half a byte for the state, 4 for the time it was
            decided, in whole seconds) plus its name; at most 100,000 devices are watched, and a new device
            beyond them is not (one message on stderr names the first; the devices already watched go on).
            A line that is not a device's position (not JSON, a position out of range, no device key, a
            device name that is empty, over 256 bytes or has a space, control or invisible character) is
            skipped with `FILE:LINE: skipped: why` on stderr, and the rest goes on; a line over 1 MiB cannot
            be read past: status 65, naming its line. The input ending is status 0. `--by` takes `--count`;
            not `--until` or `--duration`, and `--name` only with `--subscribe` (below: a named subscription
            keeps its devices' states between runs), and a signal ends it at once, as it ends any filter.

            ### Subscribing directly: `--subscribe`

            `locate monitor` and `locate visits` subscribe to a broker themselves with
            `--subscribe mqtt[s]://[USER@]HOST[:PORT]/FILTER --name NAME --by topic|FIELD`, through
            libmosquitto (Debian `libmosquitto1`, loaded only by the commands that speak MQTT), in a
            **persistent session**: the client id is `locate-monitor-NAME` (`locate-visits-NAME`), the session
            is not clean (MQTT 5, `--mqtt-version 5`: session expiry "never"), the subscription is QoS 1 and
            sent again on every connection. So a restart resumes where it stopped: the broker holds what came
            meanwhile and delivers it, in each device's order. `--publish mqtt[s]://…/TOPIC` (also with
            `--replay`) publishes each event's record, the JSON object `--json` prints with its `device`, to
            TOPIC at QoS 1 as well as printing it. The password and the CA come from the settings' `[mqtt]`
            section, as for `locate publish`; the filter takes `+` and `#` as MQTT has them.

            ```console
            $ locate monitor --subscribe 'mqtt://central/fleet/#' --name depot --by topic --json \
                --region depot=64.13,-21.9,50 --publish mqtt://central/events/depot >> events.jsonl
            locate: subscribed to fleet/# on mqtt://central:1883
            $ locate visits --subscribe 'mqtts://ops@central/owntracks/#' --name kims --by tid
            ```

            What it guarantees (all tested, `FleetSubscribeEndToEndTests`):

            - **No message lost to a restart, even SIGKILL, and no state either.** The messages come in
              batches (what has arrived, at most 500); a batch is acknowledged to the broker only after its
              events are written and flushed and each device's state (its regions' states and their times,
              or its stay) is committed to the user's store, `$XDG_STATE_HOME/locate/store.sqlite` (one
              transaction a batch, with the disk's word), when the next batch is read (libmosquitto's
              acknowledgements are held until then). So a restart, SIGKILL included, goes on from the
              states before it: a device that left the depot while the monitor was down is reported as an
              `exit`, not `initial` again. The broker sends a batch that was not acknowledged again; the
              messages the kept states already took are known by their time (at or before the device's last
              one kept) and skipped, which also skips, once, a message of that device published late with an
              older time right after a restart (in one run such a message is judged as it comes); the events
              of a message written but not yet kept when the monitor was killed are written again (at least
              once). A signal ends a subscription at once, as it ends any filter (the shell's status of the
              signal, 130 for SIGINT, 143 for SIGTERM): what was written is out, and the batch being read is
              not acknowledged, so the next run takes it. The test kills the monitor with SIGKILL midway
              through a 50-device fleet, also while its output is blocked, and starts it again: the two
              runs' transitions together are the reference's, the second beginning at most with what the
              first wrote last. The states are kept per monitor name and definition: a monitor started with
              other regions (or another `--radius` or `--dwell`) starts its devices afresh, and says so; one
              run of a name at a time (a second is refused, status 75); a store that cannot be trusted is
              refused before anything is printed (78), and one the disk cannot write ends the run unacknowledged (74).
            - **Outages.** A broker that is away, restarts, refuses the connection or the subscription, or
              stops answering (keepalive) is no failure: the monitor connects again with a back-off (0.25 s,
              doubling, at most 4 s), says each cause once on stderr, and subscribes again.
            - **Back-pressure, bounded memory.** The monitor reads the socket only when it wants the next
              message (one message held at a time), so when it cannot keep up the backlog stays with the
              broker: in the TCP buffers, then in the broker's in-flight window (mosquitto's
              `max_inflight_messages`, 20 by default) and its queue for the session (`max_queued_messages`,
              1,000 by default: beyond it mosquitto drops QoS 1 messages for an offline or slow session, so a
              central broker for a fleet wants `max_queued_messages 0` or a large bound, and
              `persistence true` so the queue outlives a broker restart). With `--publish`, the events wait in
              the client's queue (10,000) through the other broker's outages, and the monitor stops reading
              while half of it waits; at the end they have 3 s to go out. A monitor killed loses the events
              queued for `--publish` and not yet acknowledged (they were printed).
            - Positions from other devices are data (no permission of this machine applies, nothing cached);
              a message that is not a position is skipped with `BROKER/FILTER message N: skipped: why`.

            `--subscribe` needs `--by` and `--name`, and takes `--count` (status 0 once that many events are
            out); not `--replay`, `--until` or `--duration`. It runs until a signal ends it (SIGINT, SIGTERM:
            at once, as a filter does; nothing is lost, see above). An `[mqtt]` file that cannot be trusted
            is status 78, libmosquitto missing 69, a bad URL or filter 64.

            ### Scale-out with a broker

            The durable, clustered part is a broker that already is one, never our own. Per-device order and
            state need each device to stay on one monitor, so devices are partitioned by topic: publishers
            write `fleet/<shard>/<device>`, where `<shard>` is a stable hash of the device's name modulo N
            (computed by the publisher, or by a bridge's topic remapping), and central monitor `k`
            subscribes to `fleet/<k>/#` only, in a session of its own:

            ```sh
            # central monitor k of N (k = 0 … N-1), each on its own machine or process
            locate monitor --subscribe "mqtt://central/fleet/$k/#" --name "shard-$k" --by topic --json \
              --region depot=64.13,-21.9,50 >> "events-$k.jsonl"
            ```

            Tested: two monitors on `fleet/0/#` and `fleet/1/#` together give exactly the transitions one
            gives (each device's, in order), through mosquitto; the same single-monitor fleet test runs
            against nats-server with JetStream and MQTT enabled (one server). On paper (not tested here):

            - **mosquitto bridges**: each edge broker bridges `fleet/#` to the central one
              (`connection central` / `topic fleet/# out 1`), so a site keeps publishing while the link is
              down and catches up after.
            - **NATS JetStream clusters** through nats-server's MQTT support (Debian `nats-server`,
              `mqtt { port: 1883 }` with JetStream enabled; MQTT 3.1.1 only): the MQTT sessions and QoS 1
              messages live in JetStream streams, replicated across a cluster, so a monitor (a session) can
              restart on another node.

            What each part guarantees: the broker, at-least-once delivery in each device's order on its
            topic (QoS 1) and the session's messages while a monitor is away (up to its queue limits);
            `locate`, each device's events in its order, a message acknowledged only once its events are
            written. Moving a shard to another monitor means starting that monitor with the shard's `--name`
            (the session is the name's).
            """#
    )
}
