/// The locate-serve(1) page: what it says beyond the tables (see `ManPage`).
extension ManualPage {
    static let serve = ManualPage(
        name: "locate-serve", section: 1,
        summary: "serve gpsd's clients and GeoClue, each under its app's permission",
        commands: ["serve"], listsFiles: false, showsSettings: false,
        description: #"""
            ## Description
            Everything else that reads positions on Linux reads gpsd directly: `gpspipe`, `gpxlogger`,
            `cgps`, navit, foxtrotgps, OpenCPN, Home Assistant's gpsd integration, the Python `gps` module,
            any libgps program. gpsd has no access control, so for them `locate`'s consent does not exist.
            `locate serve` is one client of gpsd that speaks gpsd's own protocol to local programs, and
            gives each of them what its permission says, record by record, when it is written.

            ```sh
            locate serve &                                   # listens on 127.0.0.1:2948 (gpsd's port plus one)
            locate permission allow --always --app gpxlogger # gpxlogger runs as a daemon: it needs 'always'
            gpxlogger -f track.gpx localhost:2948            # a GPX of the served fixes
            gpspipe -w localhost:2948                        # no section for gpspipe: [location] decides
            locate access                                    # who had the location, and who has it now
            systemctl --user enable --now locate-serve       # as a service (make install puts the unit there)
            ```

            - **Who is asking.** Each connection's user and process come from the kernel: `SO_PEERCRED`
              for a Unix socket (`--listen unix:PATH`, mode 0600, in a directory of yours alone: a directory
              another user owns or can write, `/tmp` included, is refused with status 78 naming it, as every
              path `locate` trusts, since that user could move serve's socket aside and put theirs in its
              place; a socket of yours already at the path is replaced only when nothing answers on it, and
              at its end serve removes only the socket it made), and for loopback TCP the peer socket's
              owner in `/proc/net/tcp` and the processes of yours that hold it (`/proc/PID/fd`). A connection
              of another user is closed before a byte is sent, and said on stderr once a minute per user,
              with a count (2,000 connections of another user: one line). The program's executable names its app:
              `/usr/bin/gpxlogger` gets `[app "gpxlogger"]`; `program = /usr/bin/gpxlogger` in a section
              pins it to that executable (a section named otherwise applies to it, and the section of its
              name applies to no other executable); otherwise `[location]`. A Python script's executable is
              `python3.11`; pin a section to it, or let `[location]` decide. When-in-use means the client is
              in the foreground of its terminal, by the rule `locate` applies to itself; a daemon needs
              `always`. A connection of yours whose program cannot be told (no process of yours can be read
              holding it: one that made itself non-dumpable, whose `/proc/PID` is then root's, or one in
              another PID namespace) could be any app's, so it is refused, never served as `[location]`: an
              ERROR after its first request, or a second after it connects (`... refused: its program
              cannot be identified ...`), the end of the connection, and the attempt in the access log
              (`"refused"`); such refusals are said on stderr once a minute each, with a count. So is a connection that processes of different
              executables hold (a program that forked and handed its socket to an allowed one): the ERROR
              names every holder (`refused: it is held by processes of different programs (pid 41
              /usr/bin/python3.11, pid 42 /usr/bin/gpxlogger)`). Processes of one executable sharing it are
              served as that program. A Unix socket's process is the one that connected (`SO_PEERCRED`).
            - **Judged twice, per client.** Every record (a line gpsd sent: a TPV, a SKY, a sentence of the
              receiver's) is taken for a client when it arrives, only if the client's app may have it then,
              at that accuracy, and written only while the app's authorization is still the one it was taken
              under: a change (a revoke, the client leaving the foreground of its terminal, a switch to
              reduced accuracy, even one undone at once) drops everything taken before it, and a record it
              finds half written ends the connection. So a client stopped with Ctrl-Z across a deny and an
              allow gets, once it reads again, only what was in flight before the deny (4 KiB at most) and
              then fixes taken after the allow, never one taken while it was denied. This is proven over
              every interleaving of five steps (100,000 of them: take, deny, allow, reduce, full, read,
              stall, a write cut in a line, POLL, hang-up) against the client's state machine, and end to end
              with a stopped reader beside a witness. Not authorized: no TPV with a position, and one ERROR
              report, after the client's first request, says why (`{"class":"ERROR","message":"gpspipe:
              location permission is denied (...); allow it with: locate permission allow --always --app
              gpspipe"}`, `--always` for a client without a terminal), again after each change that denies
              it (one such ERROR waits for a client that does not read, not one a change); a TPV
              without a position (`{"class":"TPV","mode":1}`) keeps any watch alive that got nothing for 2 s
              (a denied one, a reduced one between its cells, any while gpsd is away). A denied client is an
              attempt in the access log, whether it asks anything or not. Not determined: the same, and `locate permission allow --app NAME` starts that
              client's stream without a reconnect (settings changes are taken within 200 ms). Reduced
              accuracy: TPVs of the grid cell only (`lat`, `lon`, `time`, `mode`; no altitude, speed, course
              or errors), one every five minutes to the app, over all its connections (a reconnect does not
              get another), and nothing else (no SKY, GST or sentence but the cell's GGA, RMC and GSA). A
              client's authorization is looked at only when what decides it may have changed: its app (a
              section pinned to its program makes it another app's, and nothing taken before reaches it) and
              its app's decision when the settings change (watched, the directories they rest on too: a
              directory made writable by others stops every client within a tick), and, for a when-in-use app, its process's place
              at its terminal each tick (200 ms: what was taken in the tick in which it left the
              foreground may still reach it); never per record.
            - **As gpsd answers.** A client whose app has full accuracy gets gpsd's own lines, as gpsd wrote
              them: TPV with every key gpsd gives (`epx`, `epy`, `ept`, `magvar`, `geoidSep`, ...), SKY every
              epoch with all its dilutions, GST, the receiver's sentences for `"nmea":true` and `"raw":1` or
              `2` (`gpspipe -r`, gpsmon), TOFF and PPS for `"pps":true` (JSON watch or not), the timing keys for
              `"timing":true`, DEVICE when a receiver comes or goes (and each again when gpsd comes back),
              only the watched receiver's with `"device"` (a sentence names no receiver: a watch of one gets
              sentences only while gpsd has that one alone). serve's own answers are written as gpsd 3.22 writes them: the banner (gpsd's own, once
              serve has heard it), WATCH, DEVICES and DEVICE (gpsd's objects, with `driver`, `bps`,
              `parity`, `stopbits`, `cycle`), POLL, ERROR. Requests are read as gpsd reads them: each read
              (of at most 8,191 bytes) on its own, ignored unless it starts with `?`, requests ended by `;`, a line end or nothing at all (gps3, Home Assistant's
              gpsd client, sends `?WATCH={"enable":true,"json":true}` bare), an ERROR for one gpsd does not
              know, nothing for a read that is no request (a megabyte of garbage is ignored, as gpsd ignores
              it). Malformed requests (a WATCH value of the wrong type, a DEVICE without a path) may get
              another ERROR text than gpsd's, or none. A differential test sends the same requests to gpsd and to serve over one receiver and
              compares the classes and keys of every answer. Where serve answers differently, consent is
              why: the above for clients not allowed or reduced; a POLL gives only what was taken while the
              client's app was allowed it: for an app the settings alone decide (always), what was taken
              since the settings last changed, as gpsd gives its current fix to a client that polls as it
              connects (gpsd-py3, gpsd-client-async); for a when-in-use app, whose process could have been
              anywhere before, only what was taken since it came (empty lists until the next fix); and
              `?DEVICE={...}` that would configure the receiver (its speed, cycle or mode) gets an ERROR:
              serve does not pass reconfiguration on. Not consent but a limit of one relay: `"raw"` gives the
              receiver's NMEA sentences, and for a receiver that speaks a binary protocol (u-blox, SiRF)
              gpsd's NMEA of it, not its packets (gpsmon's and ubxtool's raw views of such a receiver stay
              gpsd's own).
            - **One gpsd connection for all.** serve reads gpsd once (the library's `GPSDRelay`, which
              watches everything gpsd tells a watcher and reconnects with back-off when gpsd goes away) and
              fans each line out, so gpsd's 64-client limit does not apply (200 clients at once are tested).
              serve raises its limit of open files to the hard one and serves that many clients less 32;
              beyond, new connections wait in the listener's backlog until clients leave (said once: `too
              many open files (at most N clients)`), and at most 256 are being named at a time (a flood of
              connections waits in the backlog, not in serve). One thread polls every socket (listeners, clients,
              gpsd's relay and the settings' watcher) and never waits for one. Every client is watched for
              its hang-up, read or not, and closed at once: 1,500 clients that flood requests and exit leave
              serve's descriptors and memory where they were. No record starts while a client has 4 KiB or
              more it has not read (serve asks the kernel only when what it wrote since it last asked could
              reach that: its own send queue, `SIOCOUTQ`, and for loopback TCP the client's receive queue,
              through the kernel's socket diagnostics), so a client that stops reading holds up nobody and
              what it has not read stays in serve's queue, where a revoke reaches it; such a client is looked
              at again after 20 ms, then less and less often, up to every 500 ms, while it does not read
              (a client stopped with Ctrl-Z costs two looks a second). The queue keeps 32 KiB of records (the
              oldest give way); answers, which hold no position, are written as the socket takes them, and
              requests are answered while less than 16 KiB of answers waits for the client (100 clients sending 1,364 `?POLL;` each and never reading: serve grows by
              less than 16 MB, not 140 MB).
            - **GeoClue.** `--nmea PATH` also serves plain NMEA 0183 on a Unix socket, as GeoClue's NMEA
              source (`geoclue --nmea-socket PATH`, or `[network-nmea] nmea-socket=` in `geoclue.conf`) and
              chart plotters read it: the receiver's own sentences to an app with full accuracy, GGA, RMC
              and GSA of the grid cell under reduced accuracy. Its clients are
              apps too (`/usr/libexec/geoclue` is `geoclue`), and a denied one gets silence, never an error
              or an end: GeoClue drops its NMEA source for good when the connection ends. The tests run
              Debian's `geoclue-2.0` on a private system bus with its `where-am-i` demo
              (`Scripts/with-geoclue`). On a desktop GeoClue runs as its own user (`geoclue`), whom a
              user's `locate serve` refuses, so this takes a serve run as that user, with `[app "geoclue"]`
              in its settings (a recipe, not tested here). Which desktop apps then get GeoClue's positions
              is its agent's to decide: `locate agent` answers from your settings (see locate-agent(1)).
            - **Who had my location.** Every client is a session in the access log
              (`$XDG_STATE_HOME/locate/access.jsonl`, the cache's trust rules, mode 0600, rotated past 256
              KiB): app, program, user, process, accuracy granted, first and last delivery and how many,
              or why nothing was delivered; never a position. A connection that got nothing and was neither
              denied nor refused is no session, and of the attempts (denied or refused) one a minute is kept
              per app, program and reason, so that a flood of connections does not push out who had
              positions. When the log cannot be written, serve says so once and goes on; the sessions that
              end meanwhile (the newest 1,000) are written once it can be again. `locate access` lists who receives now and the recent sessions: the last 100 that
              had positions and the last 20 attempts (`--json`: one object each, `"receiving"` saying
              which), and `locate status`
              counts the clients served (`served_clients`). `locate`'s own runs are sessions too: a
              `--once`, `--follow`, `monitor` or `visits` that handed out a position of this machine (not the
              fallback, not a replayed track) adds one line when it ends, after its output (an append, not a
              rewrite of the log). The API is `AccessLog` in `GPSLocationConsent`, for any host that hands
              positions on; a library host that does not record there is not listed.

            What it protects, and what it cannot:

            - It protects the user's location from every program that gets it through serve: each gets what
              its section says, a revoke stops it within a tick, and the log says who had it.
            - It cannot stop a program that talks to gpsd directly (port 2947): make gpsd reachable only by
              the service. A recipe (not tested here; nftables, cgroup v2): let only the service's cgroup
              reach gpsd's port,
              ```sh
              nft add table inet gpsdguard
              nft add chain inet gpsdguard out '{ type filter hook output priority 0; }'
              nft add rule inet gpsdguard out tcp dport 2947 socket cgroupv2 level 5 \
                  "user.slice/user-1000.slice/user@1000.service/app.slice/locate-serve.service" accept
              nft add rule inet gpsdguard out tcp dport 2947 reject
              ```
              and keep gpsd's control socket (`-F`) root's. Programs that open the receiver's device
              themselves are not covered either.
            - Programs of the same user are told apart by their executables, which that user can copy and
              rename (`program =` pins a section to a path, against an accident, not an attack): a program
              running as you can also edit your settings. Per-app consent among your own programs is
              consent for well-behaved programs, as on a desktop without a sandbox.
            - What the kernel already holds for a client when a revoke comes still reaches it: less than
              4 KiB plus the record that crossed them, all of it taken and written while the app was allowed
              it (tested with a client that stops reading, with the kernel's default buffers); nothing serve
              still had for it does, then or after an allow.

            Exit statuses: 0 after SIGINT or SIGTERM (every client is closed; SIGHUP does nothing, since
            settings changes are taken as they come); 64 for a `--listen`
            beyond loopback or a Unix socket path over 107 bytes (with serve's usage line); 69 when an address cannot be listened on; 78 when the settings cannot be read at
            the start, or a socket's directory is not yours alone. The tests run it end to end against a gpsfake gpsd with `gpspipe -w` and `-r`,
            `gpxlogger` (its GPX compared with the track), the Python `gps` module, gps3 (Home Assistant's
            gpsd client, from PyPI in a virtual environment), a libgps C program
            (`Scripts/libgps-client.c`, which also reads the served SKY with libgps's own parser), `cgps`
            on a terminal of its own, per-app allow and deny at once,
            reduced accuracy, when-in-use in and out of a terminal's foreground, an allow and a revoke while
            clients are connected, a reader stopped across a deny and an allow, 200 clients, a client that
            never reads, garbage and megabytes that are no request, 1,500 clients that flood and exit,
            another user (`nobody`) and a flood of its connections, sockets in directories of others, gpsd
            going away and coming back, SIGHUP, and GeoClue allowed and denied; and beside gpsd itself, the
            same requests to both.
            """#,
        details: #"""
            ## How it differs from gpsd
            locate serve answers as gpsd 3.22 answers, for every request form a client sends (ended by ;, a line end, or nothing), and passes gpsd's own lines on to a client whose app has full accuracy: TPV with every key, SKY every epoch, GST, the receiver's sentences for nmea and raw, TOFF and PPS for pps, the timing keys for timing. Each client is an app, named by the executable of the process holding the socket; other users are refused (said once a minute per user). It differs from gpsd where consent says: a client whose app may not have positions gets none, and an ERROR after its first request says why; one with reduced accuracy gets its fix's grid cell at most every five minutes and nothing finer (no SKY, GST or sentence but the cell's GGA, RMC and GSA); a POLL gives only what was taken while the client's app was allowed it (for an app the settings alone decide, what was taken since they last changed; for a when-in-use app, nothing from before the client came); ?DEVICE that would reconfigure the receiver gets an ERROR. raw gives the receiver's NMEA sentences (for a binary receiver, gpsd's NMEA of it), not its binary packets.

            Every record is judged twice: when it is taken (as gpsd's line arrives) and when it is written. A change of the app's authorization (deny, reduced accuracy, the client leaving the foreground of its terminal, even one undone at once) drops everything taken before it, so a client that was not reading gets nothing taken while it was denied. No record starts while a client has 4 KiB unread; it keeps 32 KiB of records (the oldest give way) and its requests are read while less than 16 KiB of answers wait. Every client is watched for its hang-up and closed at once. A Unix socket (--listen unix:PATH, --nmea PATH) must be in a directory of yours alone, as every path locate trusts.
            """#
    )
}
