/// The locate-publish(1) page: what it says beyond the tables (see `ManPage`).
extension ManualPage {
    static let publish = ManualPage(
        name: "locate-publish", section: 1,
        summary: "publish positions to an MQTT broker or an HTTP endpoint: OwnTracks, Home Assistant, Traccar, JSON",
        commands: ["publish"], listsFiles: false, showsSettings: false,
        description: #"""
            ## Description
            `locate publish` is `--follow` with an MQTT broker or an HTTP endpoint as its output: the same
            live stream (its filters, `--region`, `--replay`, the permission model), published by a real
            MQTT client (libmosquitto, MQTT 3.1.1 or 5, TLS) or POSTed by a real HTTP client (libcurl,
            TLS) in the language of the tracker that reads it, through outages.

            ```
            locate publish http[s]://[USER@]HOST[:PORT]/PATH [--as owntracks|json|osmand] [--outbox-limit N] [--every S] ...
            locate publish mqtt[s]://[USER@]HOST[:PORT]/TOPIC [--as owntracks|homeassistant|json]
                           [--qos 0|1|2] [--retain] [--mqtt-version 3.1.1|5] [--outbox-limit N] [--every S]
                           [--region NAME=LAT,LON,RADIUS ...]
                           [--distance M] [--interval S] [--heartbeat S] [--count N] [--duration S] [host[:port[:device]]]
            ```

            ```console
            $ locate publish mqtt://broker.lan/owntracks/me/van --as owntracks --distance 25 --heartbeat 300
            locate: connected to mqtt://broker.lan:1883
            $ mosquitto_sub -h broker.lan -t 'owntracks/#' -v
            owntracks/me/van {"_type":"location","lat":64.1299820,"lon":-21.9000000,"tst":1767254400,"acc":1,"alt":20,"tid":"an","created_at":1796175464}
            ```

            **What it publishes** (`TOPIC` is the URL's topic):

            | `--as` | positions | region events (`--region`) | status (last will, `online`/`offline`, not authorized) |
            | --- | --- | --- | --- |
            | `owntracks` | `TOPIC` (`owntracks/USER/DEVICE`, three levels): `{"_type":"location","lat","lon","tst","acc","alt","vac","vel","cog","tid","created_at"}`; `tst` is the fix's time in Unix seconds, `vel` km/h; `acc`, `alt`, `vac`, `vel`, `cog` whole numbers, only when known and not zero (as OwnTracks' apps send them); `tid` the last two letters or digits of the device (the topic's last level; a topic with an empty level is a usage error) | `TOPIC/event`: `{"_type":"transition","event":"enter"\|"leave","desc":NAME,"wtst","lat","lon","tst","acc","tid","t":"c"}`, the position of the deciding fix | `TOPIC`: `{"_type":"lwt","tst":START}`, not retained (as OwnTracks' apps do: a retained one would replace the retained location) |
            | `homeassistant` | `TOPIC/attributes`: `{"latitude","longitude","gps_accuracy","altitude","speed","course","time","accuracy"}` (numbers as HA wants them) | none: HA finds its zones itself | `TOPIC/availability`: `online` / `offline`, retained; plus the discovery config `homeassistant/device_tracker/locate_OBJECT/config` (retained, announced on every connection) for a `device_tracker` with `json_attributes_topic`, `availability_topic`, `source_type: gps`, `device`, `origin`, `object_id` (`locate_` and the topic in lower case, other characters `_`: what Home Assistant before 2025.10 reads, 2024.3 included) and `default_entity_id` (`device_tracker.` and the same: what later versions read), so the entity's id is the same in every version; OBJECT is the topic with `/` as `_`, `-` as `--` and any other character but letters and digits as `-` and its hex bytes (`_` is `-5f`), so no two topics share a config |
            | `json` (default) | `TOPIC`: locate's `--json` record | `TOPIC/event`: locate's region record (as `locate monitor --json`) | `TOPIC/status`: `{"type":"status","event":"online"\|"offline"\|"not_authorized",...}`, retained; `time` is when it was said, and the last will's `offline` has none (it is made at the start, for an end no one knows yet) |

            **To an HTTP endpoint** (`http://`, `https://`), each record is the body of one POST, as
            OwnTracks' apps in their HTTP mode and Traccar's clients send them, one request at a time,
            in order; a 2xx answer is the acknowledgement (its body is read, at most 64 KiB, and
            ignored). A refused connection, a timeout (10 s to connect, 30 s a request) or any other
            answer (a 401, a 503, a redirect, which is not followed) keeps the record, says so on stderr
            once, and tries again with the back-off; everything below about the outbox, the send window
            and consent holds as for a broker. No status goes over HTTP (no last will, no `online`, no
            clear: HTTP keeps nothing retained); `--qos`, `--retain` and `--mqtt-version` are usage errors.

            | `--as` over HTTP | body | headers |
            | --- | --- | --- |
            | `owntracks` | the `location` and `transition` objects above (`tid`: the last two letters or digits of the device) | `Content-Type: application/json`, `X-Limit-U`: the URL's user (required: Home Assistant's OwnTracks webhook names the device after it), `X-Limit-D`: this machine's host name |
            | `osmand` | Traccar's OsmAnd form: the URL's query (`?id=DEVICE`, required), then `lat`, `lon` (7 decimals), `timestamp` (the fix's Unix seconds), `speed` (knots, as Traccar's clients send it), `bearing`, `altitude`, `accuracy` (metres), each only when known; the query goes in the form, not the URL (Traccar reads the one or the other) | `Content-Type: application/x-www-form-urlencoded` |
            | `json` (default) | locate's `--json` record | `Content-Type: application/json` |

            Basic authentication, with the URL's user, only when `[http] password-file` names the
            password (a private file, as for MQTT below); `https://` verifies the server against the
            system's CA store or `[http] ca-file`. Only http and https are spoken. A request that is
            still waiting for its connection when its position stops being admitted (a revoke) is
            given up before it is sent.

            QoS 1 by default (`--qos`): at least once, so a subscriber may see a record twice after an
            outage (a record in flight at the cut); de-duplicate on `tst` or `time`. `--retain` keeps the
            newest position on the broker for subscribers that come later.

            **Consent, as everywhere.** Every record is made of a position the stream handed out through the
            gate, and goes to the broker only while the authorization it was taken under still holds,
            checked at the moment it is handed to the broker, not when it was made: records that waited
            through an outage are dropped by a revoke that came meanwhile (tested). A change of
            authorization (or a pause) also drops the connection at once, with a TCP reset, so nothing
            handed to it before the change goes out after it; what was not acknowledged is checked at the
            gate again. A broker that stops reading is handed no more once it is late to acknowledge (by
            0.1 s, or four times its usual time): a revoke while it stalls lets at most the records of
            the moment it stalled through (tested: a stalled mosquitto, 22 fixes, at most 2 arrive after the
            revoke instead of the 20 in flight; bytes the broker's host already received cannot be recalled).
            The fallback is never
            published: when location is not authorized, at the start or later (denied, not determined
            without a terminal, when-in-use in the background, services off), `locate publish` keeps running,
            publishes the status instead (`offline`, OwnTracks' `lwt`, `not_authorized` with the reason's
            keyword: `denied`, `not_determined`, `restricted`, `services_off`, `background`,
            `settings_invalid` or `paused`; the explanation, which names your settings file, stays on stderr), and
            clears the retained position (an empty retained message, whether or not this run has
            `--retain`: an earlier run may have left one; also while paused in the background; tested); when location is allowed again it
            goes on. Under reduced accuracy it publishes the grid cell, and `--region` decides nothing.

            **Through outages.** A broker that is away, restarts or refuses is no failure: `locate` says so
            once on stderr, tries again with gpsd's capped back-off (0.25 s doubling to 4 s), and keeps the
            records meanwhile in its **outbox**, at every QoS: at most `--outbox-limit` records (10,000 by
            default; the oldest dropped first, said on stderr, and the status is then not 0; tested: a
            stalled broker at QoS 0 fills the sockets, then the outbox, and no more); when the broker is back
            they go out in order, with the fixes' own times (tested: the broker stopped and restarted
            mid-stream, all 60 records arrive). Records sent but not acknowledged when a connection drops
            are sent again, checked at the gate again.

            **The outbox is on disk**, in the user's store `$XDG_STATE_HOME/locate/store.sqlite` (SQLite,
            mode 0600; the state directory's trust rules: a directory another user owns or can write,
            or a store or log that is not this user's regular file, mode 0600, is refused, status 78,
            before anything is sent; a file that is not the store is refused, not changed; one
            `locate publish` a broker, topic and app at a time, so no record goes twice: a second is
            refused, status 75): each record is committed, with the disk's word (`synchronous = FULL`), before it
            goes to the broker, and deleted once the broker acknowledged it (at QoS 0: once written). So a
            power cut, SIGKILL or a restart during an outage loses none (at most the record being taken
            at the instant of the kill), and the next `locate publish` to the same broker, topic and app
            sends what waited first, in order, before its own (tested: killed twice during an outage,
            every kept record arrives, in order, once the broker is back). Only positions are kept:
            statuses (`online`, the clear, `not_authorized`) are said by each run afresh. **A revoke
            deletes what waited**: a deny, reduced accuracy, services off or a pause seen by the run
            deletes the waiting positions from disk at once (their bytes too: SQLite's `secure_delete`,
            and the write-ahead log emptied, as it is at the end of every run), and so does any command
            that finds location refused or reduced in the settings (`locate permission deny` among them)
            while `publish` is not running; where the rows cannot be deleted (a full or read-only disk),
            the store's files are removed instead, every queue with them, rather than a position kept;
            a run that starts without full authorization deletes them unsent; what waited goes only while
            this run's first authorization holds; and what waited from before the settings files last
            changed is deleted unsent too, since no run watched that change (a deny and an allow again
            written by hand in between; a change that revoked nothing costs those records, the price of
            never sending one after a revoke). So nothing queued before a revoke is ever sent, after
            any restart and any re-allow (tested). A disk that cannot keep them (full) is said once on
            stderr; the records still go, and the status is 74. A replay read as fast as it goes
            (`--replay-speed 0`) goes at the broker's pace instead of overrunning the bound while the
            broker is there (tested: 120 records through an outbox of 4, none dropped); the outbox
            takes some 13,000 records a second to a local mosquitto at QoS 1 (make bench).

            **A send window** (`--every S`): records are held (in the outbox, on disk) and sent in one
            burst every S seconds, connected to the broker only for the burst and disconnected cleanly
            after it (so no last will between bursts), for a radio that should not wake at every fix:
            the first burst goes with the first record, the next S seconds after the start of the one
            before; a broker away at a burst is tried again with the back-off until the burst went;
            the end sends what is held at once. Nothing is lost, and a revoke in between deletes what
            was held, as ever (tested: fixes every 0.2 s for 4 s arrive in two to four groups, a
            connection each).

            Records still waiting, or handed to the broker and never acknowledged, when `locate publish`
            ends are not delivered (the outbox keeps them for the next run), and those the broker refuses
            are lost (MQTT 5 tells: a PUBACK reason code of 0x80 or more, such as its access rules not
            letting this user publish there; MQTT 3.1.1 brokers drop them silently), as are those dropped
            past the limit; the end says how many of each, and the status is 69, never 0 (tested: a
            stalled broker, an ACL refusal). A last will (`offline`, OwnTracks' `lwt`) tells subscribers when
            `locate` dies without a goodbye (tested with SIGKILL); `online` is published on every
            connection, and after a re-allow only once the fresh position went out (Home Assistant shows
            the state it has when it reads `online`, which must not be the one from before the revoke);
            an OwnTracks region's `wtst` is drawn from its definition (name, centre, radius), the same in
            every run; a clean end (SIGINT, SIGTERM, SIGHUP, `--count`, `--duration`, the end of a replay)
            sends what is queued and then `offline`, waiting at most 3 s for the broker (tested with a
            broker host that never answers the TCP connection: the connect does not block, and a name lookup
            that hangs is left behind at the deadline). A second SIGINT or SIGTERM during that wait ends it
            at once, without the goodbye (the broker publishes the last will instead), and still says how
            many records were not delivered; the status is then 69 if any was lost, 1 otherwise (tested); a
            third ends the process there and then.

            **What it cannot protect.** Once the broker has a record, it is out of `locate`'s hands: the
            broker's operator, and every client its access rules let subscribe, read it; a revoke stops
            what comes next and clears the retained position, but cannot recall what subscribers already
            got. Give each device its own user and restrict its topics in the broker (mosquitto's
            `acl_file`), and use `mqtts://` beyond one machine: positions are personal data. With `--qos 0`
            a record handed to a connection that then drops is lost (QoS 1 and 2 send it again), and since
            the broker acknowledges nothing, a broker that stalls without closing the connection still
            receives, into its host's socket buffer, every record made until that buffer fills, and reads
            them after a revoke when it goes on: use QoS 1 (the default) where a revoke must hold at once.

            **Credentials.** A password never goes on the command line (every local user sees it in `ps`;
            `mqtt://user:password@...` is a usage error): it is the first line of the file named by
            `[mqtt] password-file` in your settings, which must be yours alone (mode 0600, on a path only you
            or root can change; otherwise status 78 and nothing is sent). `mqtts://` verifies the broker's
            certificate and host name against the system's CA store, or against `[mqtt] ca-file`.

            **Recipes.**

            - *OwnTracks Recorder* (recipe, not run here: Debian has no Recorder package; the records are
              tested field by field against a real mosquitto, and follow what a Recorder built from source
              accepted: a topic of three levels, numeric `lat`/`lon`, `tst` in seconds):
              ```sh
              ot-recorder -S ~/owntracks --doc-root ~/owntracks/htdocs -H broker.lan -p 1883 'owntracks/#' &
              locate publish mqtt://locate@broker.lan/owntracks/me/van --as owntracks --retain --distance 25 --heartbeat 300
              ```
              The Recorder ignores retained messages delivered on subscribe unless run with `--useretained`.
            - *Home Assistant* (recipe; discovery and attributes are tested field by field against a real
              mosquitto, not against a running Home Assistant): point HA's MQTT integration at the broker, then
              ```sh
              locate publish mqtts://locate@broker.lan/locate/van --as homeassistant --retain --distance 25
              ```
              and `device_tracker.locate_locate_van` appears, on the map while `online`.
            - *Traccar* (recipe; no Traccar here: the form is tested field by field against a real HTTP
              server, beside locate's own record of the same fixes), through its OsmAnd protocol on port 5055:
              ```sh
              locate publish 'http://traccar.lan:5055/?id=van' --as osmand --distance 25 --heartbeat 300
              ```
            - *Home Assistant's OwnTracks integration* (recipe; its webhook reads the OwnTracks HTTP
              mode tested here against a real HTTP server): add the OwnTracks integration, which gives a
              webhook URL, then
              ```sh
              locate publish https://me@ha.lan/api/webhook/WEBHOOK_ID --as owntracks --distance 25
              ```
              and `device_tracker.me_HOSTNAME` appears.
            - *A fleet on one broker* (tested with mosquitto and nats-server's MQTT mode): each machine runs
              `locate publish mqtt://broker/fleet/$(hostname)` as a service (location must be allowed
              `always` there), and anything subscribes to `fleet/+`.

            The old recipe `locate --follow --json | mosquitto_pub -l` is gone: it published the fallback
            coordinate as a fix when not authorized, lost everything while the broker was away, and told
            subscribers nothing when the device went away.
            """#,
        details: ""
    )
}
