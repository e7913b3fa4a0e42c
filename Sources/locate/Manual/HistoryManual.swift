/// The locate-history(1) page: what it says beyond the tables (see `ManPage`).
extension ManualPage {
    static let history = ManualPage(
        name: "locate-history", section: 1,
        summary: "keep where this machine was, and read it back under the reader's permission",
        commands: ["record", "history"], listsFiles: false, showsSettings: false,
        description: #"""
            ## Description
            `locate record` is `--follow` (its filters, `--count`, `--duration`, `--replay`) whose positions
            are kept in the history on disk instead of printed; `locate history` prints them back, sums them
            up by day, or forgets them. No server: the history is a table of the user's store,
            `$XDG_STATE_HOME/locate/store.sqlite` (SQLite, mode 0600, beside `locate publish`'s outbox, under
            the state directory's trust rules: a directory another user owns or can write, or a store that is
            not this user's regular file, is refused, status 78, before anything is read or written).

            ```console
            $ locate permission allow --always --app record
            $ locate record --distance 10 &
            $ locate history --from 2026-12-01 --to 2026-12-02 --gpx > tuesday.gpx
            $ locate history --days
            2026-12-01 4120 35211.4 5102 Reykjavík, Capital Region, Iceland
            $ locate history --near 64.1466,-21.9426,200 --json | jq -r .time
            ```

            **Recording is an app like any other**: `record`, unless `--app` names another, so `[app "record"]`
            decides, and `locate access` lists it. Only the positions its permission hands out are kept (under
            reduced accuracy, the grid cells it is handed); while it is not authorized nothing is written, and
            a run that starts without permission plays nothing and exits 77. A `--replay` track (for trying
            it out) is kept only while `record` is allowed too: it lands in the same history as this machine's
            positions. Each point is committed to disk as it comes; the end says how many were kept.
            `[history] keep = 90d` deletes the points older than 90 days at the start and the end of each
            `locate record` (the policy's value wins over the user's).

            **Reading the history is a location request of the reading app** (`--app`, else `[location]`),
            judged as a live stream's: an app not authorized now gets nothing (status 77 and the reason on
            stderr; not even how many points there are), a reduced one gets grid cells, at most one for each
            five minutes of the clock (the first point of each, whatever the query), and its `--from`,
            `--to` and `--near` ask about those cells, never the precise points (no sequence of questions
            tells more than the cells do); a read that handed positions out is a session in
            `locate access` (via `locate history`). So a point reaches a reader only if the recorder was
            allowed it when it was taken and the reader is allowed it now. No other tracker's history asks.

            **Queries**: `--from TIME` (at or after) and `--to TIME` (before), each `YYYY-MM-DD` (local
            midnight), `YYYY-MM-DDTHH:MM[:SS]` (local time), the same with `Z` or `±HH:MM`, or Unix seconds;
            `--near LAT,LON,RADIUS` keeps the points within RADIUS metres (geodesic). The points come in
            time order as the records of `--follow` (`source` is `history`) in its formats: text, `--json`,
            `--csv`, `--gpx` (a track), or `--geojson`, one FeatureCollection (RFC 7946) of `Point`
            features, `[lon, lat, alt]`, with the `--json` record as properties. Nothing matched: the
            document is empty and the status is 1, as grep's.

            **`--days`**: a line per local day (the `TZ` of the reader): the date, the points, `distance_m`,
            the geodesic length of the day's track, `moving_s`, the time between consecutive points at
            0.5 m/s or more, and the places of the day's visits (50 m, 5 minutes, named offline when the place
            data is installed); a gap of more than 5 minutes between two points counts for neither. With
            `--json`: `{"date","points","distance_m","moving_s","places"}`.

            **`--forget`** deletes every point, or those before `--before TIME`, their bytes too (SQLite's
            `secure_delete`, and the write-ahead log emptied); it needs no permission: it hands nothing out
            (and says how many points it deleted only to an app allowed to read them).

            Local times are the `TZ` of the command, taken as mktime(3) takes them: a time a change to
            summer time skips is moved past it, one a change back repeats is the zone's choice.
            """#,
        details: ""
    )
}
