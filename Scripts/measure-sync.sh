#!/usr/bin/env bash
# Measures delta sync on release builds, over loopback, against real ECB data:
#   - the /v1/sync body for a client one publication behind (identity and gzip-accepting),
#   - the 304 for an up-to-date client,
#   - the SDK: first sync of a 90-day window, applying one publication, local conversions.
#
# Setup: the server's database holds the bundled ECB history minus its last day; a local
# stand-in for the ECB (Scripts/fake-ecb.py) publishes that day before POST /v1/admin/refresh.
#
# Usage: Scripts/measure-sync.sh [runs]   (default 10; builds both release products first)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10}

swift build -c release --scratch-path .build-release --product rates-relay >/dev/null
swift build -c release --package-path Benchmarks --scratch-path .build-benchmarks >/dev/null
server_binary=.build-release/release/rates-relay
benchmark=.build-benchmarks/release/client-sync-benchmark

work=$(mktemp -d)
trap 'kill ${server:-} ${upstream:-} 2>/dev/null || true; rm -rf "$work"' EXIT
port=$((20000 + RANDOM % 20000))
upstream_port=$((port + 1))
token=measure-$RANDOM
base="http://127.0.0.1:$port"

# The history without its newest day (imported); the stand-in for the ECB (Scripts/fake-ecb.py)
# publishes up to that day now, and the newest one when told.
read -r previous latest < <(Scripts/history-behind.py "$work")
window=$(date -u -d "$latest -90 days" +%F)
"$server_binary" import "$work/behind.csv" --db "$work/server.sqlite" >/dev/null
Scripts/fake-ecb.py "$upstream_port" "$previous" &
upstream=$!
"$server_binary" serve --db "$work/server.sqlite" --port "$port" --upstream-url "http://127.0.0.1:$upstream_port/" \
    --admin-token "$token" --no-schedule --providers none >"$work/server.log" 2>&1 &
server=$!
until curl -fs -o /dev/null "$base/readyz"; do sleep 0.05; done

echo "== machine: $(nproc) cores, $(uname -m); window $window .. $latest"
echo "== SDK, one publication behind the ECB"
"$benchmark" first --server "$base" --dir "$work/caches" --window "$window" --runs "$runs"

# The cursor of a client holding everything but the newest day.
cursor=$(python3 - "$base" "$window" <<'PY'
import json, sys, urllib.request
base, window = sys.argv[1:]
query = f"from={window}"
while True:
    page = json.load(urllib.request.urlopen(f"{base}/v1/sync?{query}"))
    if not page["more"]:
        print(page["cursor"]); break
    query = f"cursor={page['cursor']}"
PY
)

curl -fs -X POST "http://127.0.0.1:$upstream_port/publish?through=$latest"
curl -fs -o /dev/null -X POST -H "Authorization: Bearer $token" "$base/v1/admin/refresh"
echo "== server: /v1/sync for a client one publication behind (latest now $(curl -fs "$base/v1/status" | python3 -c 'import json,sys; print(json.load(sys.stdin)["latestDate"])'))"
curl -fs -o "$work/delta.json" -D "$work/delta.headers" -w "identity: %{http_code}, %{size_download} bytes\n" "$base/v1/sync?cursor=$cursor"
curl -fs -o /dev/null -D "$work/gzip.headers" -H "Accept-Encoding: gzip" -w "Accept-Encoding gzip: %{http_code}, %{size_download} bytes on the wire" "$base/v1/sync?cursor=$cursor"
grep -qi '^content-encoding: gzip' "$work/gzip.headers" && echo " (gzip)" || echo " (sent uncompressed)"
python3 -c 'import json,sys; p=json.load(open(sys.argv[1])); print("  days:", list(p["upserts"]), "values:", sum(map(len, p["upserts"].values())), "deletes:", len(p["deletes"]))' "$work/delta.json"
next=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["cursor"])' "$work/delta.json")
etag=$(curl -fs -D - -o /dev/null "$base/v1/sync?cursor=$next" | tr -d '\r' | awk -F': ' 'tolower($1)=="etag"{print $2}')
curl -s -o /dev/null -H "If-None-Match: $etag" -w "up-to-date client (If-None-Match): %{http_code}, %{size_download} bytes\n" "$base/v1/sync?cursor=$next"

echo "== SDK, after the publication"
"$benchmark" apply --server "$base" --dir "$work/caches" --window "$window" --runs "$runs"
