#!/usr/bin/env bash
# Measures the server's resident memory across its life on an empty database (release build):
# the first start (the whole history, about 7,000 days, fetched into an empty database), a
# catch-up of about 20 publications (the 90-day file), then 30 ingests of one publication each,
# asked for by POST /v1/admin/refresh. A local stand-in for the ECB (Scripts/fake-ecb.py) serves
# the real history up to the day it is told. Prints the RSS after each step; the target is < 60 MB.
#
# Usage: Scripts/measure-memory.sh
set -euo pipefail
cd "$(dirname "$0")/.."

swift build -c release --scratch-path .build-release --product rates-relay >/dev/null
binary=.build-release/release/rates-relay

work=$(mktemp -d)
trap 'kill ${server:-} ${upstream:-} 2>/dev/null || true; rm -rf "$work"' EXIT
port=$((20000 + RANDOM % 20000))
upstream_port=$((port + 1))
token=measure-$RANDOM
base="http://127.0.0.1:$port"

# The last 51 real publications: the server starts 50 behind, catches up 20, then takes 30 one by one.
mapfile -t days < <(python3 - <<'PY'
import zipfile
csv = zipfile.ZipFile("Sources/RatesIngest/Resources/eurofxref-hist.zip").read("eurofxref-hist.csv").decode()
rows = [line.split(",")[0] for line in csv.splitlines()[1:] if line]
print("\n".join(reversed(rows[:51])))
PY
)
Scripts/fake-ecb.py "$upstream_port" "${days[0]}" &
upstream=$!
until curl -fs -o /dev/null "http://127.0.0.1:$upstream_port/eurofxref-daily.xml"; do sleep 0.05; done
publish() { curl -fs -X POST "http://127.0.0.1:$upstream_port/publish?through=$1"; }
refresh() { curl -fs -X POST -H "Authorization: Bearer $token" "$base/v1/admin/refresh" | python3 -c 'import json,sys; r=json.load(sys.stdin); print(r["outcome"], r["latestDate"], r["rowsChanged"])'; }
rss() { awk '/^VmRSS/ {r=$2} /^RssAnon/ {a=$2} /^RssFile/ {f=$2} END {printf "%.1f MB (heap %.1f, files %.1f)", r / 1024, a / 1024, f / 1024}' "/proc/$server/status"; }

"$binary" serve --db "$work/rates.sqlite" --port "$port" --upstream-url "http://127.0.0.1:$upstream_port/" \
    --admin-token "$token" --no-seed --no-schedule --providers none >"$work/server.log" 2>&1 &
server=$!
until curl -fs -o /dev/null "$base/healthz"; do sleep 0.05; done
echo "== machine: $(nproc) cores, $(uname -m); release build"
echo "empty database, started:          $(rss)"
echo "history fetched into it:          $(refresh) → $(rss)"
publish "${days[20]}"
echo "catch-up of 20 publications:      $(refresh) → $(rss)"
for i in $(seq 21 50); do
    publish "${days[$i]}"
    echo "ingest $((i - 20)) of 30:                  $(refresh) → $(rss)"
done
curl -fs -o /dev/null "$base/v1/latest"
echo "after the 30 ingests and a read:  $(rss)"
kill "$server"; wait "$server" 2>/dev/null || true
"$binary" serve --db "$work/rates.sqlite" --port "$port" --upstream-url "http://127.0.0.1:$upstream_port/" \
    --admin-token "$token" --no-schedule --providers none >>"$work/server.log" 2>&1 &
server=$!
until curl -fs -o /dev/null "$base/v1/latest"; do sleep 0.05; done
echo "restarted on that database, a read: $(rss)"
