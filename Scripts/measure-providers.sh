#!/usr/bin/env bash
# The aggregator's targets on a release build, over loopback (figures: docs/MEASUREMENTS.md):
#   - importing the bundled ECB history through 2026-04-30 (the recorded provider files are of
#     February to April 2026) plus every recorded provider file (Tests/Fixtures/<bank>/) as one
#     archive through `rates-relay import --archive`, the same parsers and ingest as a fetch (target < 10 s);
#   - the currencies the merged dataset then has (target >= 215);
#   - restart to the first 200 of /v1/latest on that database (target < 0.5 s), and the RSS;
#   - the SDK on that dataset: first sync of the 90 days to 2026-04-30 (target < 300 ms) and
#     local conversions between every pair of currencies (target < 50 µs), and an app's first
#     launch offline: a new cache with the snapshot the SDK ships, then a conversion (target < 50 ms);
#   - a one-day delta: a sync client up to date before the Bank of Russia's publication of
#     2026-04-25 is imported into the running server's database, then asks for what changed
#     (bytes as sent, and gzip-compressed; target < 2 KB with gzip);
#   - the RSS after 30 daily ingests (target < 64 MB): the ECB's history but its last 30
#     publications imported into the running server's database, then those 30, each published by
#     a local stand-in (Scripts/fake-ecb.py) and fetched by POST /v1/admin/refresh (so the server is
#     a few weeks behind the real calendar, as after a short outage, and fetches the 90-day file).
#
# Usage: Scripts/measure-providers.sh   (KEEP_DB=file in the environment keeps a copy of the database
#        as imported, for LOAD_DB=file Scripts/measure-load.sh)
set -euo pipefail
cd "$(dirname "$0")/.."

swift build -c release --scratch-path .build-release --product rates-relay >/dev/null
swift build -c release --package-path Benchmarks --scratch-path .build-benchmarks >/dev/null
binary=.build-release/release/rates-relay
benchmark=.build-benchmarks/release/client-sync-benchmark
work=$(mktemp -d)
trap 'kill ${server:-} ${upstream:-} 2>/dev/null || true; rm -rf "$work"' EXIT
port=$((20000 + RANDOM % 20000))
upstream_port=$((port + 1))
token=measure-$RANDOM
base="http://127.0.0.1:$port"
db="$work/rates.sqlite"
now() { date +%s.%N; }
# VmRSS, and its anonymous part (the heap: the dataset, caches) beside its file-backed part (the
# binary's and the Swift libraries' pages mapped in).
rss() { awk '$1 == "VmRSS:" {t=$2} $1 == "RssAnon:" {a=$2} $1 == "RssFile:" {f=$2} END {printf "%.1f MB (anonymous %.1f, file-backed %.1f)", t/1024, a/1024, f/1024}' "/proc/$server/status"; }

# The ECB history through 2026-04-30 as a file to import now; the history but its last 30
# publications as one to import before the daily ingests; those 30 for the daily ingests.
mapfile -t held < <(python3 - "$work" <<'PY'
import sys, zipfile
csv = zipfile.ZipFile("Sources/RatesIngest/Resources/eurofxref-hist.zip").read("eurofxref-hist.csv").decode()
header, *rows = [line for line in csv.splitlines() if line]
kept = [row for row in rows if row[:10] <= "2026-04-30"]
open(f"{sys.argv[1]}/history.csv", "w").write("\n".join([header] + kept) + "\n")
open(f"{sys.argv[1]}/history-but-30.csv", "w").write("\n".join([header] + rows[30:]) + "\n")
print("\n".join(row[:10] for row in reversed(rows[:30])))
print(kept[0][:10])
print(rows[30][:10])
PY
)
last_imported=${held[30]}

echo "== machine: $(nproc) cores, $(uname -m); release build"
echo "== import: the ECB history through $last_imported and every recorded provider file, as one archive"
# The Bank of Russia's file of 2026-04-25 is kept for the delta below.
delta_file=Tests/Fixtures/cbr-russia/XML_daily_2026-04-25.xml
archive="$work/archive"
Scripts/recorded-archive.sh "$archive" "$work/history.csv" "$delta_file"
echo "  $(find "$archive" -type l | wc -l) files of $(find "$archive" -mindepth 1 -type d | wc -l) providers"
# One import: every provider's figures stored in one transaction, each day they touch merged once;
# the files a provider cannot read (an index page, a token page, an empty answer) are listed and left out.
started=$(now)
"$binary" import --archive "$archive" --db "$db" >"$work/import.log" 2>"$work/import.err" || { cat "$work/import.log" "$work/import.err"; exit 1; }
elapsed=$(echo "$(now) - $started" | bc)
printf "  %.2f s: %s\n" "$elapsed" "$(tail -1 "$work/import.log")"
[ -z "${KEEP_DB:-}" ] || cp "$db" "$KEEP_DB"
{ grep '^refused ' "$work/import.log" || true; } | cut -c1-200 | sed 's/^/    /'

echo "== restart to the first 200 of /v1/latest"
Scripts/fake-ecb.py "$upstream_port" "$last_imported" &
upstream=$!
until curl -fs -o /dev/null "http://127.0.0.1:$upstream_port/eurofxref-daily.xml"; do sleep 0.05; done
started=$(now)
"$binary" serve --db "$db" --port "$port" --upstream-url "http://127.0.0.1:$upstream_port/" --admin-token "$token" \
    --no-schedule --providers none >"$work/server.log" 2>&1 &
server=$!
until curl -fs -o /dev/null "$base/v1/latest"; do sleep 0.01; done
printf "  %.3f s\n" "$(echo "$(now) - $started" | bc)"
currencies=$(curl -fs "$base/v1/currencies" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
echo "== currencies with data: $currencies"
for _ in $(seq 200); do curl -fs -o /dev/null "$base/v1/latest?base=USD"; done
echo "== RSS after start and 200 answers: $(rss)"

window=$(date -u -d "$last_imported -90 days" +%F)
echo "== SDK: first sync of $window .. $last_imported, then local conversions"
"$benchmark" first --server "$base" --dir "$work/caches" --window "$window" --runs 5
"$benchmark" convert --server "$base" --dir "$work/caches" --window "$window"
echo "== SDK: an app's first launch offline, from the snapshot the SDK ships (target < 50 ms)"
"$benchmark" bundled --server "http://127.0.0.1:9/" --dir "$work/caches" --window "$window" --runs 10

echo "== one-day delta: the Bank of Russia's 2026-04-25, imported into the running server's database"
page=$(curl -fs "$base/v1/sync?from=2026-04-01")
while [ "$(python3 -c 'import json,sys; print(json.load(sys.stdin)["more"])' <<<"$page")" = True ]; do
    page=$(curl -fs "$base/v1/sync?cursor=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["cursor"])' <<<"$page")")
done
cursor=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["cursor"])' <<<"$page")
before=$(curl -fs "$base/v1/status" | python3 -c 'import json,sys; print(json.load(sys.stdin)["datasetVersion"])')
"$binary" import --provider CBR "$delta_file" --db "$db" >/dev/null
for _ in $(seq 100); do
    [ "$(curl -fs "$base/v1/status" | python3 -c 'import json,sys; print(json.load(sys.stdin)["datasetVersion"])')" != "$before" ] && break
    sleep 0.1
done
curl -fs "$base/v1/sync?cursor=$cursor" -o "$work/delta.json"
gzipped=$(curl -fs -H 'Accept-Encoding: gzip' "$base/v1/sync?cursor=$cursor" | wc -c)
python3 - "$work/delta.json" "$gzipped" <<'PY'
import json, os, sys
delta = json.load(open(sys.argv[1]))
values = sum(len(v) for v in delta["upserts"].values())
print(f"  {len(delta['upserts'])} day(s), {values} values, sources table {delta.get('sources', [])}: "
      f"{os.path.getsize(sys.argv[1])} bytes, {sys.argv[2]} with gzip")
PY

echo "== 30 daily ingests: the history but its last 30 publications imported into the running server's database, then those 30 one per POST /v1/admin/refresh"
"$binary" import "$work/history-but-30.csv" --db "$db" >/dev/null 2>&1
# The running server applies the import from the change log before the first refresh.
# (The ECB's own newest day: other providers' recordings run later than the ECB's figures here.)
ecb_latest() { curl -fs "$base/v1/providers/ECB" | python3 -c 'import json,sys; print(json.load(sys.stdin)["latestDate"])'; }
until [ "$(ecb_latest)" = "${held[31]}" ]; do sleep 0.2; done
echo "  before: RSS $(rss)"
count=0
for day in "${held[@]:0:30}"; do
    curl -fs -X POST "http://127.0.0.1:$upstream_port/publish?through=$day"
    curl -fs -o /dev/null -X POST -H "Authorization: Bearer $token" "$base/v1/admin/refresh"
    count=$((count + 1))
    [ $((count % 10)) -eq 0 ] && echo "  after $count: RSS $(rss)"
done
curl -fs -o /dev/null "$base/v1/latest?base=USD"
echo "  the ECB's latest now $(ecb_latest); RSS $(rss)"
