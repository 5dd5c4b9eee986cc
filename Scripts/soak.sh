#!/usr/bin/env bash
# Soak test: the release server under wrk with a realistic mix of endpoints
# (Scripts/soak-mix.lua: latest with and without base/symbols, convert on various pairs, amounts
# and dates, history days and ranges, sync first page and an up-to-date cursor with and without
# If-None-Match, currencies, status, and a few intended 404/400s). Samples the server's RSS from
# /proc every 5 s during the run and for 10 s after it, then reports requests/s, latency
# p50/p90/p99/max, status classes, socket errors and RSS at start, peak, end and after 10 s idle.
# Errors are 5xx answers and socket errors (intended 4xx are not errors). Exits non-zero on any
# error, or when RSS after the idle period is more than 5% above its value at the end of the load.
#
# Needs wrk (apt-get install wrk).
# Usage: Scripts/soak.sh [seconds, default 60] [connections, default 256]
# RATES_RELAY_BINARY=path uses an already built binary instead of building the release one.
set -euo pipefail
cd "$(dirname "$0")/.."
duration=${1:-60}
connections=${2:-256}
command -v wrk >/dev/null || { echo "needs wrk: apt-get install wrk" >&2; exit 1; }

binary=${RATES_RELAY_BINARY:-}
if [ -z "$binary" ]; then
    swift build -c release --scratch-path .build-release --product rates-relay >/dev/null
    binary=.build-release/release/rates-relay
fi

work=$(mktemp -d)
trap 'kill ${sampler:-} ${server:-} 2>/dev/null || true; rm -rf "$work"' EXIT
port=$((20000 + RANDOM % 20000))

"$binary" import Sources/RatesIngest/Resources/eurofxref-hist.zip --db "$work/rates.sqlite" >/dev/null
"$binary" serve --db "$work/rates.sqlite" --port "$port" --upstream-url http://127.0.0.1:9/ --no-schedule >"$work/server.log" 2>&1 &
server=$!
wait_for() { for _ in $(seq 200); do curl -fs -o /dev/null "$1" && return 0; sleep 0.05; done; echo "no answer from $1" >&2; exit 1; }
wait_for "http://127.0.0.1:$port/readyz"
rss_kb() { awk '$1 == "VmRSS:" {print $2}' "/proc/$server/status"; }
start_rss=$(rss_kb)

cursor=$(curl -fs "http://127.0.0.1:$port/v1/sync?from=2026-10-30" | python3 -c 'import json,sys; print(json.load(sys.stdin)["cursor"])')
etag=$(curl -fsI "http://127.0.0.1:$port/v1/sync?cursor=$cursor" | tr -d '\r' | awk -F': ' 'tolower($1)=="etag"{print $2}')

# RSS samples every 5 s (kB), from the start of the load until the end of the idle period.
( while kill -0 "$server" 2>/dev/null; do rss_kb >>"$work/rss"; sleep 5; done ) &
sampler=$!

threads=2
SOAK_CURSOR=$cursor SOAK_ETAG=$etag wrk -t"$threads" -c"$connections" -d"${duration}s" --timeout 10s --latency \
    -s Scripts/soak-mix.lua "http://127.0.0.1:$port" >"$work/wrk.txt"
end_rss=$(rss_kb)
sleep 10
idle_rss=$(rss_kb)
kill "$sampler" 2>/dev/null || true
peak_rss=$(awk '$1 == "VmHWM:" {print $2}' "/proc/$server/status")
kill -0 "$server" || { echo "the server died during the soak" >&2; exit 1; }

echo "machine: $(nproc) cores, $(uname -m); wrk -t$threads -c$connections -d${duration}s, mixed endpoints (Scripts/soak-mix.lua)"
python3 - "$work/wrk.txt" "$work/rss" "$start_rss" "$peak_rss" "$end_rss" "$idle_rss" <<'PY'
import re, sys
text = open(sys.argv[1]).read()
fields = dict(re.findall(r"(\w+)=([\d.]+)", " ".join(l for l in text.splitlines() if l.startswith("SOAK"))))
samples = [int(l) for l in open(sys.argv[2]).read().split()]
start, peak, end, idle = (int(v) for v in sys.argv[3:7])
mb = lambda kb: f"{kb / 1024:.1f} MB"
socket_errors = sum(int(fields[k]) for k in ("socket_connect", "socket_read", "socket_write", "socket_timeout"))
errors = int(fields["status5xx"]) + socket_errors
print(f"requests: {int(fields['requests']):,} in {fields['seconds']} s = {float(fields['rps']):,.0f} req/s")
print(f"latency: p50 {fields['p50_ms']} ms, p90 {fields['p90_ms']} ms, p99 {fields['p99_ms']} ms, max {fields['max_ms']} ms")
print(f"status: 2xx {int(fields['status2xx']):,}, 3xx {int(fields['status3xx']):,}, 4xx (intended) {int(fields['status4xx']):,}, 5xx {fields['status5xx']}")
print(f"socket errors: connect {fields['socket_connect']}, read {fields['socket_read']}, write {fields['socket_write']}, timeout {fields['socket_timeout']}")
print(f"RSS: start {mb(start)}, peak {mb(peak)}, end of load {mb(end)}, after 10 s idle {mb(idle)}")
print("RSS samples every 5 s: " + ", ".join(f"{s / 1024:.0f}" for s in samples) + " MB")
flat = idle <= end * 1.05
print(f"errors: {errors}; RSS flat after the load: {'yes' if flat else 'no'}")
sys.exit(0 if errors == 0 and flat else 1)
PY
