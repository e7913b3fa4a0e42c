# bash completion for locate; generated from the same source as `locate --help`.
_locate() {
    local current=${COMP_WORDS[COMP_CWORD]}
    local previous=${COMP_WORDS[COMP_CWORD-1]}
    case $previous in
        permission) COMPREPLY=($(compgen -W "status allow deny reset" -- "$current")); return ;;
        --gpsd|--listen|--nmea|--timeout|--accuracy|--max-age|-n|--count|--duration|--distance|--interval|--heartbeat|--lang|--limit|--format|--null|--app|--purpose|--region|--until|--name|--by|--radius|--dwell|--replay|--replay-speed|--as|--qos|--subscribe|--publish|--mqtt-version) return ;;
    esac
    if [[ $COMP_CWORD -eq 1 && $current != -* ]]; then
        COMPREPLY=($(compgen -W "permission status geocode monitor visits publish serve access" -- "$current"))
        return
    fi
    COMPREPLY=($(compgen -W "--once -f --follow --gpsd --listen --nmea --timeout --accuracy --max-age -n --count --duration --distance --interval --heartbeat --json --geocode --lang --limit --batch --events --csv --no-header --gpx --format --null --no-fallback --app --purpose --region --until --name --by --radius --dwell --replay --replay-speed --as --qos --retain --subscribe --publish --mqtt-version --always --reduced -V --version -h --help" -- "$current"))
}
complete -F _locate locate
