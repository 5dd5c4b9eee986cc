#!/usr/bin/env bash
# Refreshes the snapshot RatesClient ships (Sources/RatesClient/Resources/bundled-rates.json): the
# newest publication of a database, every currency with its source, as `rates-relay export --snapshot`
# writes it. Run at release, against the production database. Then measures what an app's first
# launch gets from it: the file's size (raw and gzip) and the time of a first conversion with no
# server, by the `rates` command line on a fresh cache (process start included), median of 5.
#
# Usage: Scripts/bundle-rates.sh [DB]
#   DB               the database to export (SQLite file or postgres:// URL); without it, a temporary one
#                    holding the bundled ECB history and every recording under Tests/Fixtures
#                    (Scripts/recorded-archive.sh), whose newest publication is the ECB's
#   RATES_RELAY_BIN  server binary (default .build/debug/rates-relay; `rates` is taken beside it)
set -euo pipefail
cd "$(dirname "$0")/.."

bin=${RATES_RELAY_BIN:-.build/debug/rates-relay}
rates="$(dirname "$bin")/rates"
[ -x "$bin" ] && [ -x "$rates" ] || { echo "no rates-relay and rates binaries at $(dirname "$bin") (run swift build first, or set RATES_RELAY_BIN)"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
output=Sources/RatesClient/Resources/bundled-rates.json

db=${1:-}
if [ -z "$db" ]; then
    db="$work/rates.sqlite"
    Scripts/recorded-archive.sh "$work/archive" Sources/RatesIngest/Resources/eurofxref-hist.zip
    "$bin" import --archive "$work/archive" --db "$db" >"$work/import.log" 2>&1 || { cat "$work/import.log"; exit 1; }
fi
"$bin" export --snapshot --db "$db" --output "$output"
python3 - "$output" <<'PY'
import gzip, json, sys
raw = open(sys.argv[1], "rb").read()
page = json.loads(raw)
codes = sum(len(rates) for rates in page["upserts"].values())
print(f"{sys.argv[1]}: {page['latestDate']}, {codes} currencies, {len(raw)} bytes, {len(gzip.compress(raw, 9))} bytes gzip")
PY

# A first conversion on a fresh cache, the server unreachable: the SDK answers from the snapshot.
# The binary reads the snapshot it was built with: rebuild before measuring a new one.
python3 - "$rates" "$work" <<'PY'
import statistics, subprocess, sys, time
rates, work = sys.argv[1], sys.argv[2]
times = []
for run in range(5):
    started = time.perf_counter()
    result = subprocess.run([rates, "convert", "100", "USD", "JPY", "--server", "http://127.0.0.1:9/", "--cache", f"{work}/first-{run}.sqlite"],
                            capture_output=True, text=True)
    times.append((time.perf_counter() - started) * 1000)
    if result.returncode != 0:
        sys.exit(f"rates convert failed: {result.stderr}")
print(f"first conversion offline (process start included): median {statistics.median(times):.1f} ms of 5; {result.stdout.strip()}")
PY
