#!/usr/bin/env bash
# What one request, or many idle ones, can cost the server, with every recording imported (the
# bundled ECB history but its last day, and every recorded provider file under Tests/Fixtures, as
# one archive through `rates-relay import --archive`), on a release build over loopback (figures:
# docs/MEASUREMENTS.md):
#   - four whole-history `/v2/rates?expand=providers` requests at once, each with its own base, in
#     JSON and then in NDJSON: each answer's status, size and refusals (a 503 is retried after its
#     Retry-After), the peak RSS while they run (target < 160 MB) and the RSS 5 s after (< 80 MB);
#   - /v1/latest's p99 latency, one request after another, idle and while those run (target: within 3x);
#   - 8,000 idle /v1/events streams (SUBSCRIBERS=N): the RSS with all of them open (target < 120 MB),
#     then the ECB's last day published by a local stand-in (Scripts/fake-ecb.py) and fetched by
#     POST /v1/admin/refresh: how many streams got the event, and when (target: each within 1 s).
# Each binary given is measured in turn on the same archive; with none, the release build of this checkout.
#
# Usage: Scripts/measure-large-answers.sh [RATES_RELAY_BINARY ...]
set -euo pipefail
cd "$(dirname "$0")/.."

binaries=("$@")
if [ ${#binaries[@]} -eq 0 ]; then
    swift build -c release --scratch-path .build-release --product rates-relay >/dev/null
    binaries=(.build-release/release/rates-relay)
fi
subscribers=${SUBSCRIBERS:-8000}
ulimit -n "$(ulimit -Hn)"   # a descriptor per stream, in the server and in the client
work=$(mktemp -d)
trap 'kill ${server:-} ${upstream:-} ${sampler:-} 2>/dev/null || true; rm -rf "$work"' EXIT
port=$((20000 + RANDOM % 20000))
upstream_port=$((port + 1))
base="http://127.0.0.1:$port"
token=measure-$RANDOM
now() { date +%s.%N; }
rss() { awk '$1 == "VmRSS:" {printf "%.1f", $2/1024}' "/proc/$server/status"; }

# The history but its last day (the publication to come), and the day before it.
mapfile -t days < <(python3 - "$work/history.csv" <<'PY'
import sys, zipfile
csv = zipfile.ZipFile("Sources/RatesIngest/Resources/eurofxref-hist.zip").read("eurofxref-hist.csv").decode()
header, *rows = [line for line in csv.splitlines() if line]
open(sys.argv[1], "w").write("\n".join([header] + rows[1:]) + "\n")
print(rows[0][:10]); print(rows[1][:10])
PY
)
coming=${days[0]}; held=${days[1]}
Scripts/recorded-archive.sh "$work/archive" "$work/history.csv"
echo "== machine: $(nproc) cores, $(uname -m); $(find "$work/archive" -type l | wc -l) files of $(find "$work/archive" -mindepth 1 -type d | wc -l) providers; release build"

for binary in "${binaries[@]}"; do
    echo "== $binary"
    db="$work/rates-$RANDOM.sqlite"
    "$binary" import --archive "$work/archive" --db "$db" >"$work/import.log" 2>&1 || { cat "$work/import.log"; exit 1; }
    Scripts/fake-ecb.py "$upstream_port" "$held" &
    upstream=$!
    "$binary" serve --db "$db" --port "$port" --no-schedule --no-seed --providers none --admin-token "$token" \
        --upstream-url "http://127.0.0.1:$upstream_port/" --log-level warning >"$work/server.log" 2>&1 &
    server=$!
    until curl -fs -o /dev/null "$base/v1/latest"; do
        kill -0 "$server" 2>/dev/null || { echo "the server ended before answering:"; tail -20 "$work/server.log"; exit 1; }
        sleep 0.05
    done
    for _ in $(seq 200); do curl -fs -o /dev/null "$base/v1/latest?base=USD"; done
    echo "  RSS at rest: $(rss) MB"
    read -r count median p99 < <(Scripts/large-answers.py latency "$base" 5)
    echo "  /v1/latest idle: $count answers in 5 s, median $median ms, p99 $p99 ms"

    for format in json ndjson; do
        # RSS sampled every 50 ms while the four requests run.
        (peak=0; while kill -0 "$server" 2>/dev/null; do r=$(awk '$1 == "VmRSS:" {print $2}' "/proc/$server/status"); [ "$r" -gt "$peak" ] && { peak=$r; echo "$peak" >"$work/peak"; }; sleep 0.05; done) &
        sampler=$!
        Scripts/large-answers.py latency "$base" 30 >"$work/latency" &
        latency=$!
        Scripts/large-answers.py heavy "$base" "$format" EUR USD GBP JPY
        wait "$latency"
        sleep 5
        kill "$sampler"; wait "$sampler" 2>/dev/null || true
        read -r count median p99 <"$work/latency"
        printf "  %s: peak RSS %.1f MB, %s MB 5 s after; /v1/latest meanwhile: %s answers in 30 s, median %s ms, p99 %s ms\n" \
            "$format" "$(echo "$(cat "$work/peak") / 1024" | bc -l)" "$(rss)" "$count" "$median" "$p99"
    done

    Scripts/large-answers.py subscribers "$base" "$subscribers" "$work/ready" 30 >"$work/subscribers" &
    listening=$!
    until [ -s "$work/ready" ]; do sleep 0.2; done
    sleep 2
    echo "  $(cat "$work/ready") of $subscribers /v1/events streams open: RSS $(rss) MB"
    curl -fs -X POST "http://127.0.0.1:$upstream_port/publish?through=$coming" >/dev/null
    curl -fs -X POST -H "Authorization: Bearer $token" "$base/v1/admin/refresh?providers=ECB" >/dev/null
    announced=$(now)
    wait "$listening"
    python3 - "$work/subscribers" "$announced" <<'PY'
import json, sys
result, announced = json.load(open(sys.argv[1])), float(sys.argv[2])
print(f"  the publication reached {result['received']} of {result['connected']} streams; the last "
      f"{result['last'] - announced:+.3f} s from the refresh's answer, {result['last'] - result['first']:.3f} s after the first")
PY
    kill "$server" "$upstream"; wait "$server" "$upstream" 2>/dev/null || true
    rm -f "$work/ready" "$db"*
done
