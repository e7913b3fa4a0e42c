/// The locate-privacy(7) page: what it says beyond the tables (see `ManPage`).
extension ManualPage {
    static let privacy = ManualPage(
        name: "locate-privacy", section: 7,
        summary: "locate's permission model and threat model",
        commands: [], listsFiles: false, showsSettings: false,
        description: #"""
            ## Description
            `locate` is a **consent layer** for the scripts and programs that use it, like GeoClue is for
            desktop apps: it makes sure that what runs through `locate` only gets a position with the user's
            consent, and only as precise as allowed. It is not a sandbox: a user or program that can talk to
            gpsd directly (`gpspipe`, a socket to port 2947) is not stopped by it; restrict gpsd's socket for
            that. `locate serve` extends the consent to gpsd's own clients (gpspipe, gpxlogger, cgps, the
            Python `gps` module, libgps programs) and to GeoClue's NMEA source, when they connect to it
            instead of gpsd: each is named from the kernel and gated per record (see locate-serve(1));
            other users' connections to it are refused. `locate agent` extends it to the desktop apps that
            ask GeoClue (see locate-agent(1)), as far as GeoClue lets an agent decide: GeoClue asks it about
            Flatpak apps only, each answered from its own `[app "ID"]` (else `[location]`), and serves every
            other client at most at the agent's level, which follows `[location]` (0, and no client at all,
            when location is off, denied or restricted). So among programs that are no Flatpak the agent
            cannot tell one from another, and what GeoClue finds by other means than the receiver (Wi-Fi,
            modems) is held only by that level. Inside this model it does not leak: when location is not authorized, no real coordinate, and
            nothing derived from one (rounded, snapped, or its accuracy), reaches stdout, stderr, the cache or
            any file it writes. In the library every position, and every record derived from one (a region
            event, a visit, the `--until` decision, a cached fix, a served sky view), passes one gate, consulted when the record
            is handed out (not when its fix arrived), against the generation of the authorization at that
            moment: a record made before a revoke, a pause or a switch to reduced accuracy is dropped however
            long it waited for a slow reader. `locate` writes the positions of a stream into its stdout in
            pieces of at most 4 KiB (into a regular file, which has no reader to wait for, a batch of at most
            64 KiB in one piece), each only while the authorization they were taken under holds (checked
            just before its write): a reader that stopped gets, after a deny, what the pipe already held and
            at most the one piece that was waiting for room, never the rest of a batch. That holds after a single request, when a stream's fix leaves
            its queue, for each event one fix made, before anything is cached, and for `locate status`; the tests prove it by replaying a track at a
            distinctive place and searching all output and written files for it, and for its place names
            (`%city` and `--geocode`), in every unauthorized state. Local users other than you are assumed
            hostile to the files `locate` reads and writes (see the files and the cache above). So the path
            to each of them is walked as given, one component at a time, as the kernel walks it (never
            resolved first with `realpath`): every directory that holds a component, including each one that
            holds a symbolic link on the way, must be yours or root's and writable by no one else (for the
            policy: root's alone), as sshd's StrictModes has it, and so must each link; then the link is
            followed (a relative target from the directory holding it, at most 40 links, as the kernel
            allows) and the walk goes on along its target. A directory of root's with the sticky bit, like
            `/tmp`, is allowed above the file's own directory, never as it: the sticky bit stops others from
            taking your files away, not from putting theirs beside them (a lock file, say). Where the path
            does not exist yet, the nearest directory that does is checked the same way, and `locate
            permission` makes the missing directories (mode 0700) one at a time, each checked before anything
            is made in it. A way that fails any of this is refused before gpsd is asked and before anything is
            written: status 78, with one line naming the file and the directory or link at fault (`locate:
            /tmp/x/cfg/locate/locate.conf: cannot be trusted: /tmp/x is owned by another user (uid 65534),
            who could replace what it holds; keep the file in a directory of your own`). The cache directory
            is walked the same way; a way to it that fails is not used (one line says why), and the fix is
            still printed.

            What else it promises, and the tests hold it to:

            - **Settings cannot be fooled into widening.** Unknown keys, bad values and malformed files fail
              closed. App names (`--app`, `LOCATE_APP`, `[app "NAME"]`) are a strict charset (1 to 64 ASCII
              letters, digits, `.`, `_`, `-`), so a name cannot add a section or a key to the file it is
              written to; the editor writes only typed settings and re-reads its result before the rename,
              refusing anything that would not read back as exactly the change asked for.
            - **A revoke is never missed, nor overtaken.** Symbolic links to the settings (dotfile managers)
              are followed and watched where they point; a `stat` signature of each file is compared every
              200 ms, so a failed or overflowed inotify delays a revoke by one tick at most. Each change of
              the authorization starts a new generation: a fix read before it is never handed out, however
              long it waited for a slow reader (only what was already in the pipe, and the one write under
              way, still reaches it).
            - **Reduced accuracy tells nothing through a status or a time.** `--accuracy`, the distance
              filter and every other judgement are made on the grid cell, never on the precise fix:
              `--accuracy 17.0` and `--accuracy 17.2` give the same answer for a receiver at 17.1 m.
            - **Outside text cannot drive your terminal, or hide in it.** Control characters, bidirectional
              overrides, format characters that show as nothing (zero-width spaces and joiners, word joiners,
              byte-order marks, soft hyphens, tag characters), the other default-ignorable code points
              (variation selectors, Hangul fillers), blank fillers such as U+2800 BRAILLE PATTERN BLANK, and
              line separators in anything from outside (the `--purpose` in the prompt, gpsd's device paths and
              error messages, settings values and paths, `geocode --batch` input) are shown as `\u{1B}`-style
              text, in messages, text, CSV and `--format` output alike; JSON writes them as `\u` escapes, so
              a JSON reader gets the text back as it was. Place names from the translation catalogues lose the
              zero-width spaces, joiners and soft hyphens some scripts use inside words.
            - **gpsd is not trusted either.** Positions off the globe and implausible times, errors, speeds
              and altitudes are not believed, whatever libgps parsed; lines longer than 64 KiB are skipped;
              each line is parsed once (libgps 3.22's `gps_unpack` loops forever on some lines, so `locate`
              calls the one-object parser under it).
            - **A clock cannot make an old fix fresh.** A fix whose time is more than 5 s ahead of this
              machine's clock has no age, so `--max-age` never takes it; the cache also keeps the local time
              of receipt, and an entry received "after now" (the clock went back) or with a receiver time
              ahead of its receipt is not served. Every member of the cache file is checked when read.
            - **Failure is never success.** A write error on stdout other than a closed pipe is status 74.
            - **A region state is a position.** `monitor` and `visits` decide only on fixes the gate
              released, and each event passes the gate again when it is handed out, so no event, no
              `--until` exit status and no visit comes from a fix that is not authorized, waited through a
              revoke, or is reduced: the hundreds of `initial` events of one fix stop at a deny however slowly
              they are read, and the detector starts afresh under a new authorization. They print nothing
              then, not even the fallback.
            - **A settings file broken for a moment pauses, it does not end.** An editor saving in two
              steps, or a typo fixed a second later, makes a running `--follow`, `monitor` or `visits` hold
              every position back (a `settings_invalid` event with the file, line and column) and resume when
              the file reads again. At the start, a malformed file is status 78.
            - **A replayed track is data, not settings.** `--replay` reads only a regular file you name (a
              symbolic link is followed; a FIFO or a device is refused at once, as is a terminal on stdin),
              or a pipe on stdin, up to 256 MiB, as it plays it: memory does not grow with the track or its
              blank lines, `--once` reads only as far as its fix, and a signal stops a pipe that stays open.
              Every point that claims a fix is checked strictly (a bad one is status 65 with its line, after
              the fixes before it); a point's recorded `accuracy` is not a permission here. Who owns the file
              does not matter, since it grants nothing and is never written.
            - **Standard descriptors stay what they are.** A stdin, stdout or stderr the parent closed
              (`>&-`) is given `/dev/null` before anything else opens a file, so no record lands in a file
              or socket that took its number; a closed stdout is status 74.

            The hostile-input suite (part of `make test`, seeded and deterministic, about 15 s) tries, every
            run: 3,000 mutated settings files (bit flips, cuts, control bytes, invalid UTF-8, byte-order
            marks, doubled and dropped lines; each as user file and as policy) and 300 more through the
            settings editor; 3,000 mutated cache files; 5,000 mutated gpsd messages through libgps;
            every option that takes a value with 20 hostile values and 2,000 mutated command lines; 3,000
            mutated GPX, NMEA and JSON Lines tracks (which found an overflow in the NMEA number reader); and end to
            end, through the built `locate`: 25 mutated settings files and 25 cache files, 27 hostile option
            values, a gpsd that lies (positions libgps accepts but no receiver can report, broken JSON, binary
            bytes, a 70 KB line), one that splits its lines anywhere, one that hangs up on every connection,
            one whose port turns into a black hole, a reader that stops reading, and 30 clients at once;
            30 mutated GPX, NMEA and JSON Lines tracks through `monitor`, `visits` and `--follow` each (90
            runs), 20 hostile region names and values on the command line and 9 in the settings, and
            `monitor` and `visits` against a gpsd that lies, one that stalls and one that hangs up. All of
            them survive: no crash, no hang past the bound, no record on an error status, no coordinate that
            gpsd did not report as a fix, and a clear message. The suite found the `gps_unpack` hang.
            """#,
        details: ""
    )
}
