/// The locate-permission(1) page: what it says beyond the tables (see `ManPage`).
extension ManualPage {
    static let permission = ManualPage(
        name: "locate-permission", section: 1,
        summary: "show, give, refuse or forget an app's location permission; explain the state; list who had the location",
        commands: ["permission", "status", "access"], listsFiles: true, showsSettings: false,
        description: #"""
            ## Description
            `locate` asks for and respects the user's permission the way iOS does for apps. Nothing is read
            from gpsd until location is authorized; when it is not, `locate` prints a **fallback coordinate**
            (by default 37.517829 126.886270), marked `"type": "fallback"` and `"source": "fallback"` with the `reason`, says why on
            stderr, and exits 77, so a script always gets an answer it can use and can tell it is not real.
            The same fallback stands in when gpsd is unreachable (69) or no fix comes in time (75).

            Each change says on stderr what holds now (here from a script, so "not authorized now
            (background)" for a when-in-use grant: it counts only in the foreground of a terminal):

            ```console
            $ locate permission allow            # allowed while in use (in the foreground of a terminal)
            locate: default: when-in-use (set in /home/me/.config/locate/locate.conf:2), accuracy full (set in /home/me/.config/locate/locate.conf:3), not authorized now (background)
            $ locate permission allow --always   # allowed also from cron, systemd, CI and background jobs
            locate: default: always (set in /home/me/.config/locate/locate.conf:2), accuracy full (set in /home/me/.config/locate/locate.conf:3), authorized now
            $ locate permission allow --reduced --app weather   # the weather app gets a ~5.6 km grid cell only
            locate: app "weather": when-in-use (set in /home/me/.config/locate/locate.conf:6), accuracy reduced (set in /home/me/.config/locate/locate.conf:7), not authorized now (background)
            $ locate permission deny --app tracker
            locate: app "tracker": denied (set in /home/me/.config/locate/locate.conf:10), accuracy full (set in /home/me/.config/locate/locate.conf:3), not authorized now (denied)
            $ locate permission reset            # back to "not determined": ask again next time
            locate: default: not-determined (not set), accuracy full (default), not authorized now (not_determined)
            $ locate permission status
            default: when-in-use (set in /home/me/.config/locate/locate.conf:2), accuracy full (set in /home/me/.config/locate/locate.conf:3), authorized now
            $ locate status                       # services, permission and where it was decided, gpsd, devices, fix quality
            ```

            `permission allow` exits 77 (after writing the choice) when the administrator's policy
            (`authorization = restricted`, or `accuracy = reduced` for a full-accuracy grant) or the services
            switch overrides it, so a set-up script can tell that location is still not as it asked; the
            choice is kept and applies once the policy allows it. `locate status` waits up to 3 s for gpsd
            (`--timeout S` to change it) and exits 0 when location is authorized and gpsd answered, 69 when
            gpsd is unreachable or did not answer in time, 77 when location is not authorized (gpsd is not
            asked) and 78 for unusable settings. Each command's statuses are in `locate COMMAND --help` and
            the man page.

            ### The states

            | state | comes from | what `locate` does |
            | --- | --- | --- |
            | services off | `services = off` in your settings or the policy | no gpsd access at all; fallback, status 77; the message names the file, or says to ask the administrator |
            | not determined | no `authorization` set | on a terminal: **asks** (below); otherwise fallback, 77, with the hint `locate permission allow` |
            | restricted | the policy says `authorization = restricted` | fallback, 77; you cannot change it, and the message does not pretend you can |
            | denied | you chose deny | fallback, 77; the message says how to allow |
            | when-in-use | you allowed | positions while `locate` runs in the foreground process group of its terminal; from cron, systemd, CI, `setsid` (no terminal) it is not authorized (reason `background`, hint `--always`); a `--follow` sent to the background pauses and resumes when brought back |
            | always | you allowed with `--always` | positions with or without a terminal |

            **The prompt.** When nothing is decided and `locate` runs in the foreground of a terminal, it asks
            on the terminal (`/dev/tty`, so it works with stdout in a pipe), naming the app (`--app` or
            `LOCATE_APP`) and the reason given with `--purpose`:

            ```
            "weather" would like to use your location.
            To show the forecast for where you are.
              1) Allow once
              2) Allow while using
              3) Always allow
              4) Don't allow
            Choose 1-4:
            ```

            "Allow once" authorizes this run only and saves nothing; the other answers are saved. End of input
            (Ctrl-D) at the prompt decides nothing and saves nothing (the fallback follows, status 77);
            Ctrl-C ends `locate` there, also saving nothing.

            **Reduced accuracy** (`accuracy = reduced`, or `locate permission allow --reduced`, or a policy cap)
            is iOS's "Precise Location: off": positions are snapped to the centre of a fixed grid cell about
            5.6 km across, `h_acc` is the cell size, altitude, speed and course are left out, `--follow` gives
            at most one record every five minutes and keeps its cell until the receiver is well past a border.
            The grid is fixed, so every record from one cell is the same point: averaging many of them gives
            the cell centre, never the precise position.

            **Without authorization, `--follow` waits.** It prints the fallback record once (with the
            reason), then waits for a grant (or the terminal's foreground, for when-in-use) and resumes with
            live fixes; `--count`, `--duration` and signals end it as usual, with status 77 if its last record
            was the fallback.

            **Live changes.** `--follow` watches both files and the process's terminal state. inotify watches
            the directory of each file, and of each symbolic link on the way to it and its target, so editors
            that replace the file and dotfile managers (stow, home-manager, chezmoi) that make `locate.conf` a
            link are seen; links are followed again whenever something changes. Every 200 ms, a `stat`
            signature of each file (through its links, and of the link itself) is compared too, so a missed
            or failed inotify can delay a revoke by one tick but never lose it. A revoke takes effect within
            a fraction of a second: gpsd is no longer read, the message goes to stderr and the fallback
            record to stdout; a grant resumes live fixes.
            """#,
        details: ""
    )
}
