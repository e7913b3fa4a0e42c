# bash completion for locate; generated from the same source as `locate --help`.
_locate() {
    local current=${COMP_WORDS[COMP_CWORD]} previous=${COMP_WORDS[COMP_CWORD-1]} command= word names
    # A colon splits words in bash: --until inside:NAME arrives as --until, inside, :, NAME.
    if [[ $previous == : && ${COMP_WORDS[COMP_CWORD-3]} == --until ]]; then
        COMPREPLY=($(compgen -W "$(sed -n 's/^[[:space:]]*\[region "\([^"]*\)"\].*/\1/p' "${XDG_CONFIG_HOME:-$HOME/.config}/locate/locate.conf" 2>/dev/null)" -- "$current")); return
    fi
    case $previous in
        --replay) COMPREPLY=($(compgen -f -- "$current")); compopt -o filenames 2>/dev/null; return ;;
        --until)
            names=$(sed -n 's/^[[:space:]]*\[region "\([^"]*\)"\].*/\1/p' "${XDG_CONFIG_HOME:-$HOME/.config}/locate/locate.conf" 2>/dev/null)
            COMPREPLY=($(compgen -W "$(for word in $names; do printf 'inside:%s outside:%s ' "$word" "$word"; done)" -- "$current")); return ;;
        --app) COMPREPLY=($(compgen -W "$(sed -n 's/^[[:space:]]*\[app "\([^"]*\)"\].*/\1/p' "${XDG_CONFIG_HOME:-$HOME/.config}/locate/locate.conf" 2>/dev/null)" -- "$current")); return ;;
        --gpsd|--listen|--nmea|--timeout|--accuracy|--min-fix|--max-age|-n|--count|--duration|--distance|--interval|--heartbeat|--lang|--limit|--from|--to|--near|--before|--format|--null|--purpose|--region|--name|--by|--radius|--dwell|--replay-speed|--as|--qos|--every|--outbox-limit|--subscribe|--publish|--mqtt-version) return ;;
    esac
    for word in "${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
        case $word in permission|status|geocode|monitor|visits|publish|serve|access|record|history|agent|help) command=$word; break ;; esac
    done
    if [[ -z $command && $COMP_CWORD -eq 1 && $current != -* ]]; then
        COMPREPLY=($(compgen -W "permission status geocode monitor visits publish serve access record history agent help" -- "$current")); return
    fi
    case $command in
        '')
            COMPREPLY=($(compgen -W "--once -f --follow --gpsd --timeout --accuracy --min-fix --reject-suspect --max-age -n --count --duration --distance --interval --heartbeat --json --geocode --lang --events --csv --no-header --gpx --format --null --no-fallback --app --purpose --replay --replay-speed -V --version -h --help" -- "$current")) ;;
        permission)
            if [[ $previous == permission && $current != -* ]]; then COMPREPLY=($(compgen -W "status allow deny reset" -- "$current")); return; fi
            COMPREPLY=($(compgen -W "--json --app --always --reduced -V --version -h --help" -- "$current")) ;;
        status)
            COMPREPLY=($(compgen -W "--gpsd --timeout --json --app -V --version -h --help" -- "$current")) ;;
        geocode)
            COMPREPLY=($(compgen -W "--json --lang --limit --batch --csv --no-header --app -V --version -h --help" -- "$current")) ;;
        monitor)
            COMPREPLY=($(compgen -W "--gpsd --accuracy --reject-suspect -n --count --duration --json --events --csv --no-header --format --null --app --purpose --region --until --name --by --replay --replay-speed --subscribe --publish --mqtt-version -V --version -h --help" -- "$current")) ;;
        visits)
            COMPREPLY=($(compgen -W "--gpsd --accuracy --reject-suspect -n --count --duration --json --events --csv --no-header --format --null --app --purpose --name --by --radius --dwell --replay --replay-speed --subscribe --publish --mqtt-version -V --version -h --help" -- "$current")) ;;
        publish)
            COMPREPLY=($(compgen -W "--gpsd --accuracy --min-fix --reject-suspect -n --count --duration --distance --interval --heartbeat --app --purpose --region --replay --replay-speed --as --qos --retain --every --outbox-limit --mqtt-version -V --version -h --help" -- "$current")) ;;
        serve)
            COMPREPLY=($(compgen -W "--gpsd --listen --nmea --app -V --version -h --help" -- "$current")) ;;
        access)
            COMPREPLY=($(compgen -W "--json --app -V --version -h --help" -- "$current")) ;;
        record)
            COMPREPLY=($(compgen -W "--gpsd --accuracy -n --count --duration --distance --interval --heartbeat --app --purpose --replay --replay-speed -V --version -h --help" -- "$current")) ;;
        history)
            COMPREPLY=($(compgen -W "--json --csv --no-header --gpx --geojson --from --to --near --days --forget --before --app -V --version -h --help" -- "$current")) ;;
        agent)
            COMPREPLY=($(compgen -W "-V --version -h --help" -- "$current")) ;;
        help)
            if [[ $previous == help && $current != -* ]]; then COMPREPLY=($(compgen -W "permission status geocode monitor visits publish serve access record history agent" -- "$current")); return; fi
            COMPREPLY=($(compgen -W "" -- "$current")) ;;
    esac
}
complete -F _locate locate
