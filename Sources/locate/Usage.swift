/// The texts of `--help` and `--version`, and the short usage line shown with usage errors.
enum Usage {
    static let version = "0.2.0"

    static let synopsis = "Usage: locate [--once | --follow] [options] [host[:port[:device]]]"

    static let help = """
        OVERVIEW: Print this machine's position from gpsd, with the user's permission: one fix,
        or a live stream. Without permission or without gpsd, print a fallback coordinate.

        USAGE: locate [--once] [--timeout S] [--accuracy M] [options] [host[:port[:device]]]
               locate --follow [--count N] [--duration S] [--distance M] [--interval S]
                      [--heartbeat S] [options] [host[:port[:device]]]
               locate permission [status|allow|deny|reset] [--always] [--reduced] [--app NAME] [--json]
               locate status [--json] [--app NAME] [host[:port[:device]]]

        ARGUMENTS:
          host[:port[:device]]    The gpsd to ask, as gpsd's clients take it; also --gpsd SPEC,
                                  LOCATE_GPSD, or [gpsd] server in the settings (default localhost:2947).

        OPTIONS:
          --once                  Print one fix and exit (the default).
          -f, --follow            Print fixes as they come until interrupted, --count or --duration.
          --gpsd SPEC             The gpsd endpoint, host[:port[:device]].
          --timeout S             (once) Give up after S seconds without an acceptable fix (default 30).
          --accuracy M            (once) Accept only fixes with horizontal error of M metres or less;
                                  on timeout print the best fix seen, marked timed_out (exit 75).
          -n, --count N           (follow) Stop after N records.
          --duration S            (follow) Stop after S seconds.
          --distance M            (follow) Print a fix only after moving M metres (default 0).
          --interval S            (follow) Print at most one fix every S seconds.
          --heartbeat S           (follow) Print the newest fix at least every S seconds, even when
                                  --distance holds it back.
          --json                  One JSON object per line instead of "latitude longitude".
          --no-fallback           Print nothing instead of the fallback coordinate.
          --app NAME              Whose permission applies ([app "NAME"] in the settings); also LOCATE_APP.
          --purpose TEXT          Why the location is needed, shown in the permission prompt.
          --always                (permission allow) Allow also without a terminal or in the background.
          --reduced               (permission allow) Allow only positions snapped to a ~5.6 km grid cell.
          -V, --version           Show the version and the libgps API it was built with.
          -h, --help              Show help information.

        EXIT STATUS:
          0    a fix was printed; --follow ended normally (count, duration, SIGINT, SIGTERM, closed pipe)
          64   usage error
          69   gpsd unreachable, or it has no GPS device (the fallback is printed unless disabled)
          75   no acceptable fix in time (the best fix seen, or the fallback, is printed)
          77   location not authorized: services off, not determined, restricted, denied, or
               when-in-use without the foreground of a terminal (the fallback is printed unless disabled)
          78   a settings or policy file is unreadable or malformed (nothing is printed)
          1    anything else

        FILES:
          $XDG_CONFIG_HOME/locate/locate.conf   your settings (default ~/.config/locate/locate.conf)
          $XDG_CONFIG_DIRS/locate/policy.conf   the administrator's policy (default /etc/xdg/locate/policy.conf)

        Records go to stdout, one per line; messages and status events go to stderr.
        """
}
