#!/usr/bin/env bash
# Compares the release server with nginx serving the same response bytes as static files, in
# the same run on the same machine: wrk, 64 connections, for /v1/latest, an up-to-date client's
# /v1/sync (its tail page) and the same request with If-None-Match (304); /healthz, the
# cheapest route, shows how much of the gap is the HTTP framework itself; the compatible routes
# (Frankfurter v1 and v2, exchangerate.host) are measured the same way. Reports requests per
# second, p99 latency, their ratios to nginx, and the server's RSS idle, after the load and at its peak.
#
# Each request is measured in ROUNDS rounds (default 3), ours and nginx's back to back, the order
# alternating from round to round; the ratio reported is the median of the rounds' ratios, so a
# neighbour's burst on this shared machine moves one round, not the verdict.
#
# Needs nginx and wrk (apt-get install nginx wrk).
# The server holds the bundled ECB history, or a copy of the database LOAD_DB names: every
# recorded provider's figures, merged, are KEEP_DB=file Scripts/measure-providers.sh's.
#
# Usage: Scripts/measure-load.sh [seconds per run, default 10]   (ROUNDS=n, LOAD_DB=file in the environment)
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${1:-10}
rounds=${ROUNDS:-3}
command -v nginx >/dev/null && command -v wrk >/dev/null || { echo "needs nginx and wrk: apt-get install nginx wrk" >&2; exit 1; }

swift build -c release --scratch-path .build-release --product rates-relay >/dev/null
binary=.build-release/release/rates-relay

work=$(mktemp -d)
chmod 755 "$work"   # nginx's workers run as an unprivileged user and must read the files
trap 'kill ${server:-} 2>/dev/null || true; [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true; rm -rf "$work"' EXIT
port=$((20000 + RANDOM % 20000))
nginx_port=$((port + 1))

if [ -n "${LOAD_DB:-}" ]; then
    cp "$LOAD_DB" "$work/rates.sqlite"
else
    "$binary" import Sources/RatesIngest/Resources/eurofxref-hist.zip --db "$work/rates.sqlite" >/dev/null
fi
"$binary" serve --db "$work/rates.sqlite" --port "$port" --upstream-url http://127.0.0.1:9/ --no-schedule --providers none >"$work/server.log" 2>&1 &
server=$!
wait_for() { for _ in $(seq 200); do curl -fs -o /dev/null "$1" && return 0; sleep 0.05; done; echo "no answer from $1" >&2; exit 1; }
wait_for "http://127.0.0.1:$port/readyz"
rss() { awk -v key="$1" '$1 == key":" {printf "%.1f MB", $2/1024}' "/proc/$server/status"; }
idle_rss=$(rss VmRSS)

# The exact bytes our server answers, as nginx's static files.
mkdir -p "$work/www"
curl -fs "http://127.0.0.1:$port/v1/latest" -o "$work/www/latest.json"
curl -fs "http://127.0.0.1:$port/healthz" -o "$work/www/healthz.json"
# The compatible routes: Frankfurter v1 (a date), its old host's root /latest (shared with
# exchangerate.host), Frankfurter v2's latest rates, exchangerate.host's /convert.
compatible=("/v1/2025-06-13" "/latest" "/v2/rates" "/convert?from=USD&to=JPY&amount=100")
for path in "${compatible[@]}"; do
    curl -fs "http://127.0.0.1:$port$path" -o "$work/www/$(tr -c 'a-z0-9' '_' <<<"${path%%\?*}").json"
done
cursor=$(curl -fs "http://127.0.0.1:$port/v1/sync?from=2026-10-30" | python3 -c 'import json,sys; print(json.load(sys.stdin)["cursor"])')
sync_path="/v1/sync?cursor=$cursor"
curl -fs "http://127.0.0.1:$port$sync_path" -o "$work/www/sync.json"
our_etag=$(curl -fsI "http://127.0.0.1:$port$sync_path" | tr -d '\r' | awk -F': ' 'tolower($1)=="etag"{print $2}')

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
        location = /v1/latest { alias $work/www/latest.json; }
        location = /v1/sync { alias $work/www/sync.json; }
        location = /healthz { alias $work/www/healthz.json; }
        location = /v1/2025-06-13 { alias $work/www/_v1_2025_06_13_.json; }
        location = /latest { alias $work/www/_latest_.json; }
        location = /v2/rates { alias $work/www/_v2_rates_.json; }
        location = /convert { alias $work/www/_convert_.json; }
    }
}
NGINX
mkdir -p "$work/tmp"
nginx -c "$work/nginx.conf" -e "$work/nginx-error.log" 2>/dev/null || nginx -c "$work/nginx.conf"
wait_for "http://127.0.0.1:$nginx_port/v1/latest"
nginx_etag=$(curl -fsI "http://127.0.0.1:$nginx_port$sync_path" | tr -d '\r' | awk -F': ' 'tolower($1)=="etag"{print $2}')

# wrk's summary → "requests/s p99-ms non-2xx/3xx"
run() {
    local url=$1; shift
    wrk -t2 -c64 -d"${duration}s" --latency "$@" "$url" | python3 -c '
import re, sys
text = sys.stdin.read()
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)", text)
scale = {"us": 0.001, "ms": 1, "s": 1000}[p99.group(2)]
errors = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
print(f"{rps:.0f} {float(p99.group(1)) * scale:.2f} {errors.group(1) if errors else 0}")'
}

echo "machine: $(nproc) cores, $(uname -m); wrk -t2 -c64 -d${duration}s, $rounds rounds per request (medians); nginx $(nginx -v 2>&1 | sed 's/.*\///')"
printf "%-34s %12s %12s %9s %9s %10s %10s  %s\n" request "ours req/s" "nginx req/s" ratio "ours p99" "nginx p99" "p99 ratio" "ratio per round"
compare() {
    local label=$1 path=$2 ours_header=$3 nginx_header=$4 results=()
    for round in $(seq "$rounds"); do
        local ours nginx
        if (( round % 2 )); then
            ours=$(run "http://127.0.0.1:$port$path" ${ours_header:+-H "$ours_header"})
            nginx=$(run "http://127.0.0.1:$nginx_port$path" ${nginx_header:+-H "$nginx_header"})
        else
            nginx=$(run "http://127.0.0.1:$nginx_port$path" ${nginx_header:+-H "$nginx_header"})
            ours=$(run "http://127.0.0.1:$port$path" ${ours_header:+-H "$ours_header"})
        fi
        results+=("$ours $nginx")
    done
    python3 - "$label" "${results[@]}" <<'PY'
import statistics, sys
label, rounds = sys.argv[1], [list(map(float, r.split())) for r in sys.argv[2:]]
# each round: ours req/s, p99, errors, nginx req/s, p99, errors
median = lambda values: statistics.median(values)
ratios = [r[0] / r[3] for r in rounds]
ours_rps, nginx_rps = median([r[0] for r in rounds]), median([r[3] for r in rounds])
ours_p99, nginx_p99 = median([r[1] for r in rounds]), median([r[4] for r in rounds])
errors = int(sum(r[2] for r in rounds))
print(f"{label:<34} {ours_rps:12.0f} {nginx_rps:12.0f} {median(ratios):8.2f}x {ours_p99:7.2f}ms {nginx_p99:8.2f}ms {median([r[1] / r[4] for r in rounds]):9.2f}x  "
      + " ".join(f"{ratio:.2f}" for ratio in ratios) + (f"  ({errors} errors)" if errors else ""))
PY
}
compare "GET /healthz (framework floor)" /healthz "" ""
compare "GET /v1/latest" /v1/latest "" ""
compare "GET /v1/sync (up-to-date cursor)" "$sync_path" "" ""
compare "GET /v1/sync + If-None-Match (304)" "$sync_path" "If-None-Match: $our_etag" "If-None-Match: $nginx_etag"
for path in "${compatible[@]}"; do compare "GET $path" "$path" "" ""; done
echo "server RSS: idle $idle_rss, after the load $(rss VmRSS), peak $(rss VmHWM)"
