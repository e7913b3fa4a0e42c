# fish completion for locate; generated from the same source as `locate --help`.
# The command word given so far ('' for none).
function __locate_command
    for word in (commandline -opc)[2..-1]
        if contains -- $word permission status geocode monitor visits publish serve access record history agent help
            echo $word; return
        end
    end
    echo ''
end
function __locate_in
    contains -- (__locate_command) $argv
end
function __locate_sections
    set -l file (set -q XDG_CONFIG_HOME; and echo $XDG_CONFIG_HOME; or echo $HOME/.config)/locate/locate.conf
    test -r $file; and string replace -rf '^\s*\['$argv[1]' "([^"]*)"\].*' '$1' <$file
end
function __locate_until
    for name in (__locate_sections region); echo inside:$name; echo outside:$name; end
end
complete -c locate -f
complete -c locate -n 'test (__locate_command) = ""; and test (count (commandline -opc)) -eq 1' -a 'permission status geocode monitor visits publish serve access record history agent help'
complete -c locate -n '__fish_seen_subcommand_from permission; and test (commandline -opc)[-1] = permission' -a 'status allow deny reset'
complete -c locate -n '__fish_seen_subcommand_from help; and test (commandline -opc)[-1] = help' -a 'permission status geocode monitor visits publish serve access record history agent'
complete -c locate -n '__locate_in ""' -l once -d 'Print one fix and exit (the default).'
complete -c locate -n '__locate_in ""' -s f -l follow -d 'Print fixes as they come until interrupted, --count or --duration.'
complete -c locate -n '__locate_in "" status monitor visits publish serve record' -l gpsd -x -d 'The gpsd endpoint, host[:port[:device]].'
complete -c locate -n '__locate_in serve' -l listen -x -d '(serve) Listen on ADDR: a loopback HOST:PORT or unix:PATH (in a directory of yours alone); may be given more than once (default 127.0.0.1:2948).'
complete -c locate -n '__locate_in serve' -l nmea -x -d '(serve) Also serve NMEA 0183 on the Unix socket PATH (the receiver\'s sentences; a grid cell\'s GGA, RMC and GSA under reduced accuracy), for GeoClue\'s nmea-socket and chart plotters.'
complete -c locate -n '__locate_in "" status' -l timeout -x -d '(once) Give up after S seconds without an acceptable fix (default 30); (status) wait S seconds for gpsd\'s answer (default 3).'
complete -c locate -n '__locate_in "" monitor visits publish record' -l accuracy -x -d 'Use only fixes with a horizontal error of M metres or less; --once prints the best fix seen on timeout, marked timed_out.'
complete -c locate -n '__locate_in "" publish' -l min-fix -x -d '(once, follow, publish) Use only fixes at least this good: gps < dgps < rtk_float < rtk_fixed; --once prints the best fix seen on timeout, marked timed_out.'
complete -c locate -n '__locate_in "" monitor visits publish' -l reject-suspect -d '(follow, monitor, visits, publish) Leave out fixes whose integrity is suspect (a jump, a speed or a time that contradicts the fix before).'
complete -c locate -n '__locate_in ""' -l max-age -x -d '(once) A fix no older than S seconds is good enough: from the last-fix cache without asking gpsd, or gpsd\'s current fix.'
complete -c locate -n '__locate_in "" monitor visits publish record' -s n -l count -x -d '(follow, monitor, visits, publish) Stop after N records.'
complete -c locate -n '__locate_in "" monitor visits publish record' -l duration -x -d '(follow, monitor, visits, publish) Stop after S seconds (inf: no limit).'
complete -c locate -n '__locate_in "" publish record' -l distance -x -d '(follow, publish, record) Print a fix only after moving M metres from the last one printed.'
complete -c locate -n '__locate_in "" publish record' -l interval -x -d '(follow, publish, record) Print at most one fix every S seconds.'
complete -c locate -n '__locate_in "" publish record' -l heartbeat -x -d '(follow, publish, record) Print the newest fix at least every S seconds, even when --distance holds it back.'
complete -c locate -n '__locate_in "" permission status geocode monitor visits access history' -l json -d 'One JSON object per line.'
complete -c locate -n '__locate_in ""' -l geocode -d '(with --json or --csv) Add the place of each record: city, state, country, country_code, timezone.'
complete -c locate -n '__locate_in "" geocode' -l lang -x -d 'Place names in LANG (such as ko or pt_BR; C for the data\'s English names) instead of LANGUAGE or the locale\'s.'
complete -c locate -n '__locate_in geocode' -l limit -x -d '(geocode NAME) Print at most N places (default 10).'
complete -c locate -n '__locate_in geocode' -l batch -d '(geocode) Read points from stdin (LAT LON, LAT,LON or JSON Lines with lat and lon) and write a record for each line.'
complete -c locate -n '__locate_in "" monitor visits' -l events -d '(with --json) Status events on stdout as {"type":"status",...} objects.'
complete -c locate -n '__locate_in "" geocode monitor visits history' -l csv -d 'CSV (RFC 4180) with a header line and the JSON fields as columns (geocode: with --batch).'
complete -c locate -n '__locate_in "" geocode monitor visits history' -l no-header -d '(with --csv) Leave the header line out.'
complete -c locate -n '__locate_in "" history' -l gpx -d 'GPX 1.1: a waypoint for --once, a track for --follow and history.'
complete -c locate -n '__locate_in history' -l geojson -d '(history) A GeoJSON (RFC 7946) FeatureCollection: a Point feature per point, its record\'s fields as properties.'
complete -c locate -n '__locate_in history' -l from -x -d '(history) Points at or after TIME: YYYY-MM-DD[THH:MM[:SS]] local time, with Z or ±HH:MM for another zone, or Unix seconds.'
complete -c locate -n '__locate_in history' -l to -x -d '(history) Points before TIME (as --from).'
complete -c locate -n '__locate_in history' -l near -x -d '(history) Points within RADIUS metres of LAT,LON.'
complete -c locate -n '__locate_in history' -l days -d '(history) A line per local day: date, points, distance_m (geodesic), moving_s (text, or --json).'
complete -c locate -n '__locate_in history' -l forget -d '(history) Delete the stored points (all, or those before --before).'
complete -c locate -n '__locate_in history' -l before -x -d '(history, with --forget) Delete only the points before TIME.'
complete -c locate -n '__locate_in "" monitor visits' -l format -x -d 'A line per record from tokens: %lat %lon %alt %alt_hae %speed %course %h_acc %v_acc %time %epoch %mode %sats %source %age %device %reason %fix %hdop %vdop %pdop %heading %geoid_sep %integrity %city %state %country %country_code %timezone %place (monitor: %region %event %state %time %lat %lon %h_acc %since %device, visits: %event %arrival %departure %lat %lon %h_acc %device); %% is a percent sign, \\n and \\t a line break and a tab.'
complete -c locate -n '__locate_in "" monitor visits' -l null -x -d '(with --format) What an unknown value is written as (default: nothing).'
complete -c locate -n '__locate_in ""' -l no-fallback -d 'Print nothing instead of the fallback coordinate.'
complete -c locate -n '__locate_in "" permission status geocode monitor visits publish serve access record history' -l app -x -a '(__locate_sections app)' -d 'Whose permission applies ([app "NAME"] in the settings); also LOCATE_APP.'
complete -c locate -n '__locate_in "" monitor visits publish record' -l purpose -x -d 'Why the location is needed, shown in the permission prompt.'
complete -c locate -n '__locate_in monitor publish' -l region -x -d '(monitor, publish) A circular region of RADIUS metres; repeatable, and [region "NAME"] sections in the settings add more.'
complete -c locate -n '__locate_in monitor' -l until -x -a '(__locate_until)' -d '(monitor) Exit 0 as soon as region NAME is inside or outside (as at the start).'
complete -c locate -n '__locate_in monitor visits' -l name -x -d '(monitor) Keep the regions and their last states as monitor NAME (in $XDG_STATE_HOME/locate/monitors), so the next run reports enter and exit against them; with --subscribe (monitor, visits), the broker\'s session is NAME\'s.'
complete -c locate -n '__locate_in monitor visits' -l by -x -d '(monitor, visits; with --replay or --subscribe) Keep a state per device of a fleet\'s records: KEY is topic (the MQTT topic, as in mosquitto_sub -v lines) or a JSON field such as tid (OwnTracks).'
complete -c locate -n '__locate_in visits' -l radius -x -d '(visits) A visit keeps within M metres of its centre (default 50).'
complete -c locate -n '__locate_in visits' -l dwell -x -d '(visits) A visit lasts at least S seconds of receiver time (default 300).'
complete -c locate -n '__locate_in "" monitor visits publish record' -l replay -r -F -d 'Read the fixes of a track (GPX 1.1, NMEA 0183 or locate\'s JSON Lines; - for stdin) instead of gpsd; no permission needed, nothing cached.'
complete -c locate -n '__locate_in "" monitor visits publish record' -l replay-speed -x -d '(with --replay) Play the track at X times its pace; 0 for as fast as the output is read (default 1).'
complete -c locate -n '__locate_in publish' -l as -x -d '(publish) What to publish: owntracks, homeassistant (MQTT only), json (locate\'s --json record; the default) or osmand (Traccar\'s form; HTTP only).'
complete -c locate -n '__locate_in publish' -l qos -x -d '(publish; MQTT) Quality of service: 0, 1 (the default) or 2.'
complete -c locate -n '__locate_in publish' -l retain -d '(publish) The broker keeps the newest position for subscribers that come later (cleared when location is revoked).'
complete -c locate -n '__locate_in publish' -l every -x -d '(publish) Hold records and send them in one burst every S seconds, connected to the broker only for the burst (nothing lost; a revoke in between deletes what was held).'
complete -c locate -n '__locate_in publish' -l outbox-limit -x -d '(publish) Keep at most N records waiting for the broker (default 10000), on disk in the outbox; past it the oldest are dropped, said on stderr, and the status is not 0.'
complete -c locate -n '__locate_in monitor visits' -l subscribe -x -d '(monitor, visits; with --by and --name) Read the fleet\'s records from mqtt[s]://[USER@]HOST[:PORT]/FILTER in a persistent session named after --name, so a restart resumes where it stopped.'
complete -c locate -n '__locate_in monitor visits' -l publish -x -d '(monitor, visits; with --by) Publish each event\'s JSON record to mqtt[s]://[USER@]HOST[:PORT]/TOPIC (QoS 1) as well as printing it.'
complete -c locate -n '__locate_in monitor visits publish' -l mqtt-version -x -d '(publish, monitor and visits with --subscribe) The MQTT protocol: 3.1.1 (the default) or 5.'
complete -c locate -n '__locate_in permission' -l always -d '(permission allow) Allow also without a terminal or in the background.'
complete -c locate -n '__locate_in permission' -l reduced -d '(permission allow) Allow only positions snapped to a grid cell of about 5.6 km.'
complete -c locate -n '__locate_in "" permission status geocode monitor visits publish serve access record history agent' -s V -l version -d 'Show the version and the libgps it was built with.'
complete -c locate -n '__locate_in "" permission status geocode monitor visits publish serve access record history agent' -s h -l help -d 'Show help information.'
