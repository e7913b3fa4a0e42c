/// The texts of `--help` and `--version`, and the short usage line shown with usage errors.
enum Usage {
    static let version = "0.1.0"

    static let synopsis = "Usage: locate [--once | --follow] [options] [host[:port[:device]]]"

    static let help = """
        OVERVIEW: Print this machine's position from gpsd: one fix, or a live stream.

        USAGE: locate [--once] [--timeout S] [--accuracy M] [--json] [host[:port[:device]]]
               locate --follow [--count N] [--duration S] [--distance M] [--interval S]
                      [--heartbeat S] [--json] [host[:port[:device]]]

        ARGUMENTS:
          host[:port[:device]]    The gpsd to ask, as gpsd's clients take it; also --gpsd SPEC or
                                  the LOCATE_GPSD environment variable (default localhost:2947).

        OPTIONS:
          --once                  Print one fix and exit (the default).
          -f, --follow            Print fixes as they come until interrupted, --count or --duration.
          --gpsd SPEC             The gpsd endpoint, host[:port[:device]].
          --timeout S             (once) Give up after S seconds without an acceptable fix (default 30).
          --accuracy M            (once) Accept only fixes with horizontal error of M metres or less;
                                  on timeout print the best fix seen, marked timed_out (exit 75).
          -n, --count N           (follow) Stop after N fixes.
          --duration S            (follow) Stop after S seconds.
          --distance M            (follow) Print a fix only after moving M metres (default 0).
          --interval S            (follow) Print at most one fix every S seconds.
          --heartbeat S           (follow) Print the newest fix at least every S seconds, even when
                                  --distance holds it back.
          --json                  One JSON object per line instead of "latitude longitude".
          -V, --version           Show the version and the libgps API it was built with.
          -h, --help              Show help information.

        EXIT STATUS:
          0    a fix was printed; --follow ended normally (count, duration, SIGINT, SIGTERM, closed pipe)
          64   usage error
          69   gpsd unreachable, or it has no GPS device
          75   no acceptable fix in time (the best fix seen is printed when there was one)
          1    anything else

        Records go to stdout, one per line; messages and status events go to stderr.
        """
}
