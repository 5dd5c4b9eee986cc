#!/usr/bin/env bash
# Distinct requests, not repeated ones: the release server against nginx serving a same-size
# static answer for every path, in the same run on the same machine.
#
# 60,000 distinct paths (Scripts/mixed-requests.py: latest and random dates 1999-2026, random
# bases and symbol subsets, conversions with random amounts and dates, short time series) are
# answered once by a first server to learn each answer's bytes, which become nginx's files. A
# fresh server (empty answer cache) then takes wrk's load over the list (Scripts/mixed-requests.lua:
# each thread walks the list from its own random point), and nginx the same load over its files.
# Reports requests per second, p50 and p99 latency, RSS after the load, and the ratios.
#
# Needs nginx and wrk (apt-get install nginx wrk).
# Usage: Scripts/measure-mixed.sh [seconds per run, default 20] [distinct paths, default 60000]
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${1:-20}
count=${2:-60000}
command -v nginx >/dev/null && command -v wrk >/dev/null || { echo "needs nginx and wrk: apt-get install nginx wrk" >&2; exit 1; }

swift build -c release --scratch-path .build-release --product rates-relay >/dev/null 2>&1
binary=.build-release/release/rates-relay

work=$(mktemp -d)
chmod 755 "$work"   # nginx's workers run as an unprivileged user and must read the files
trap 'kill ${server:-} 2>/dev/null || true; [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
port=$((20000 + RANDOM % 20000))
nginx_port=$((port + 1))

"$binary" import Sources/RatesIngest/Resources/eurofxref-hist.zip --db "$work/rates.sqlite" >/dev/null
start_server() {
    "$binary" serve --db "$work/rates.sqlite" --port "$port" --upstream-url http://127.0.0.1:9/ --no-schedule --providers none >"$work/server.log" 2>&1 &
    server=$!
    for _ in $(seq 200); do curl -fs -o /dev/null "http://127.0.0.1:$port/readyz" && return 0; sleep 0.05; done
    echo "the server did not start" >&2; exit 1
}
rss_kb() { awk '$1 == "VmRSS:" {s += $2} END {print s}' "$@"; }

# Every path's answer, as nginx's files /s/<n>.json, with the same bytes.
python3 Scripts/mixed-requests.py "$count" 2026 >"$work/ours.txt"
start_server
mkdir -p "$work/www/s" "$work/tmp"
python3 - "$port" "$work" <<'PY'
import http.client, sys
port, work = sys.argv[1], sys.argv[2]
connection = http.client.HTTPConnection("127.0.0.1", int(port))
sizes, failures = 0, 0
with open(f"{work}/ours.txt") as paths, open(f"{work}/nginx.txt", "w") as nginx:
    for number, path in enumerate(line.strip() for line in paths):
        connection.request("GET", path)
        response = connection.getresponse()
        body = response.read()
        if response.status != 200:
            failures += 1
            print(f"{response.status} {path}: {body[:200]!r}", file=sys.stderr)
        sizes += len(body)
        with open(f"{work}/www/s/{number}.json", "wb") as file:
            file.write(body)
        nginx.write(f"/s/{number}.json\n")
print(f"{number + 1} distinct paths, {failures} not 200, mean answer {sizes / (number + 1):.0f} bytes")
PY
kill "$server"; wait "$server" 2>/dev/null || true

cat >"$work/nginx.conf" <<NGINX
worker_processes auto;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 1024; }
http {
    access_log off;
    keepalive_requests 1000000;
    client_body_temp_path $work/tmp; proxy_temp_path $work/tmp; fastcgi_temp_path $work/tmp; uwsgi_temp_path $work/tmp; scgi_temp_path $work/tmp;
    server {
        listen 127.0.0.1:$nginx_port;
        default_type application/json;
        root $work/www;
    }
}
NGINX
nginx -c "$work/nginx.conf" -e "$work/nginx-error.log" 2>/dev/null || nginx -c "$work/nginx.conf"
sleep 1; curl -fs -o /dev/null "http://127.0.0.1:$nginx_port/s/0.json" || { echo "nginx does not serve the answers" >&2; cat "$work/nginx-error.log" >&2; exit 1; }

# wrk's summary → "requests/s p50-ms p99-ms non-2xx"
run() {
    PATHS=$1 wrk -t2 -c64 -d"${duration}s" --latency -s Scripts/mixed-requests.lua "$2" | tee "$1.wrk" | python3 -c '
import re, sys
text = sys.stdin.read()
def ms(label):
    value = re.search(label + r"\s+([\d.]+)(us|ms|s)", text)
    return float(value.group(1)) * {"us": 0.001, "ms": 1, "s": 1000}[value.group(2)]
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
errors = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
socket = re.search(r"Socket errors: .*", text)
if socket: print(f"wrk: {socket.group(0)}", file=sys.stderr)
p50, p99 = ms("50%"), ms("99%")
print(f"{rps:.0f} {p50:.2f} {p99:.2f} {errors.group(1) if errors else 0}")'
}

start_server
idle=$(rss_kb "/proc/$server/status")
# PROFILE=1: perf samples the server during its run; the top functions by CPU are printed at the end.
[ -n "${PROFILE:-}" ] && { perf record -F 499 -g -p "$server" -o "$work/perf.data" >/dev/null 2>&1 & profiler=$!; }
read -r ours_rps ours_p50 ours_p99 ours_errors < <(run "$work/ours.txt" "http://127.0.0.1:$port")
[ -n "${PROFILE:-}" ] && { kill -INT "$profiler"; wait "$profiler" 2>/dev/null || true; }
ours_rss=$(rss_kb "/proc/$server/status")
ours_peak=$(awk '$1 == "VmHWM:" {print $2}' "/proc/$server/status")
read -r nginx_rps nginx_p50 nginx_p99 _ < <(run "$work/nginx.txt" "http://127.0.0.1:$nginx_port")
nginx_rss=$(rss_kb /proc/$(cat "$work/nginx.pid")/status $(pgrep -P "$(cat "$work/nginx.pid")" | sed 's|.*|/proc/&/status|'))
cache=$(curl -fs "http://127.0.0.1:$port/metrics" | awk '/^rates_relay_response_cache_lookups_total/ {printf "%s %s  ", $1, $2}')

echo "machine: $(nproc) cores, $(uname -m); wrk -t2 -c64 -d${duration}s over $count distinct paths; nginx $(nginx -v 2>&1 | sed 's/.*\///')"
python3 - "$ours_rps" "$nginx_rps" "$ours_p50" "$nginx_p50" "$ours_p99" "$nginx_p99" "$ours_rss" "$nginx_rss" "$ours_errors" <<'PY'
import sys
ours_rps, nginx_rps, ours_p50, nginx_p50, ours_p99, nginx_p99, ours_rss, nginx_rss = map(float, sys.argv[1:9])
print(f"{'':14} {'req/s':>9} {'p50':>9} {'p99':>9} {'RSS':>9}")
print(f"{'Rates Relay':14} {ours_rps:9.0f} {ours_p50:7.2f}ms {ours_p99:7.2f}ms {ours_rss / 1024:6.1f} MB" + (f"  ({sys.argv[9]} not 2xx)" if sys.argv[9] != "0" else ""))
print(f"{'nginx':14} {nginx_rps:9.0f} {nginx_p50:7.2f}ms {nginx_p99:7.2f}ms {nginx_rss / 1024:6.1f} MB")
print(f"{'ratio':14} {ours_rps / nginx_rps:8.2f}x {ours_p50 / nginx_p50:8.2f}x {ours_p99 / nginx_p99:8.2f}x")
PY
echo "server RSS idle $(awk "BEGIN {printf \"%.1f\", $idle/1024}") MB, peak $(awk "BEGIN {printf \"%.1f\", $ours_peak/1024}") MB; answer cache: $cache"
[ -n "${PROFILE:-}" ] && perf report -i "$work/perf.data" --children --sort symbol --stdio 2>/dev/null | grep -E '^ +[0-9]' \
    | swift demangle --simplified | grep -v '\[k\]' | cut -c1-150 | head -60
exit 0
