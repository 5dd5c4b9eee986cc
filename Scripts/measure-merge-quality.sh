#!/usr/bin/env bash
# The merge's quality with every recording imported (the bundled ECB history and every recorded
# provider file under Tests/Fixtures, as one archive through `rates-relay import --archive`), and what
# the import, the restart and the memory cost with it (figures: docs/MEASUREMENTS.md):
#   - pegged values more than 0.5% off parity x anchor where the issuer published nothing (target 0);
#   - days an issuer published a currency and another figure was served (target 0);
#   - values served by neither the ECB, the issuer nor a peg, more than 1% (target under 1% of them)
#     and 2% (target none) from the median of three or more same-day sources, by source;
#   - the import's time, the restart to the first 200 of /v1/latest, the RSS after 200 answers.
# Each binary given is measured in turn on the same archive, so two builds compare in one run; with
# none, the release build of this checkout.
#
# Usage: Scripts/measure-merge-quality.sh [RATES_RELAY_BINARY ...]   (FROM=2025-01-01 TO=2026-11-01 by default;
#        IMPORTS=N times each binary's import N times, into a new database each time, before measuring;
#        RESTARTS=N restarts each binary's server N times on it)
set -euo pipefail
cd "$(dirname "$0")/.."

binaries=("$@")
if [ ${#binaries[@]} -eq 0 ]; then
    swift build -c release --scratch-path .build-release --product rates-relay >/dev/null
    binaries=(.build-release/release/rates-relay)
fi
from=${FROM:-2025-01-01}
to=${TO:-2026-11-01}
work=$(mktemp -d)
trap 'kill ${server:-} 2>/dev/null || true; rm -rf "$work"' EXIT
port=$((20000 + RANDOM % 20000))
now() { date +%s.%N; }

python3 - "$work/history.csv" <<'PY'
import sys, zipfile
open(sys.argv[1], "w").write(zipfile.ZipFile("Sources/RatesIngest/Resources/eurofxref-hist.zip").read("eurofxref-hist.csv").decode())
PY
Scripts/recorded-archive.sh "$work/archive" "$work/history.csv"
# An older build knows fewer providers: the archive keeps only those every binary knows (as each
# lists them when asked for one it does not), so that each imports the same files.
for binary in "${binaries[@]}"; do
    known=$("$binary" import --provider '?' /dev/null --db "$work/probe.sqlite" 2>&1 | sed -n 's/.*known keys: //p' | tr -d ' ' || true)
    rm -f "$work/probe.sqlite"*
    for folder in "$work/archive"/*/; do
        key=$(basename "$folder")
        [[ ",$known," == *",$key,"* ]] || { echo "== left out: $key (unknown to $binary)"; rm -rf "$folder"; }
    done
done
echo "== machine: $(nproc) cores, $(uname -m); $(find "$work/archive" -type l | wc -l) files of $(find "$work/archive" -mindepth 1 -type d | wc -l) providers"

for binary in "${binaries[@]}"; do
    echo "== $binary"
    for _ in $(seq "${IMPORTS:-1}"); do
        db="$work/rates-$RANDOM.sqlite"
        started=$(now)
        "$binary" import --archive "$work/archive" --db "$db" >"$work/import.log" 2>&1 || { cat "$work/import.log"; exit 1; }
        printf "  import: %.2f s, %s values stored\n" "$(echo "$(now) - $started" | bc)" \
            "$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("select count(*) from rate").fetchone()[0])' "$db")"
    done
    # The first start after the import is a restart too; RESTARTS=N times N of them (the last one stays up).
    for attempt in $(seq "${RESTARTS:-1}"); do
        [ "$attempt" -gt 1 ] && { kill "$server"; wait "$server" 2>/dev/null || true; }
        started=$(now)
        "$binary" serve --db "$db" --port "$port" --no-schedule --providers none >"$work/server.log" 2>&1 &
        server=$!
        until curl -fs -o /dev/null "http://127.0.0.1:$port/v1/latest"; do
            kill -0 "$server" 2>/dev/null || { echo "the server ended before answering:"; tail -20 "$work/server.log"; exit 1; }
            sleep 0.01
        done
        printf "  restart to the first 200: %.3f s\n" "$(echo "$(now) - $started" | bc)"
    done
    for _ in $(seq 200); do curl -fs -o /dev/null "http://127.0.0.1:$port/v1/latest?base=USD"; done
    # The file-backed part (code and read-only data) moves by about a megabyte with what the page
    # cache holds: the kernel maps the cached pages around each one touched.
    echo "  RSS after 200 answers: $(awk '$1 ~ /^(VmRSS|RssAnon|RssFile):$/ {mb[$1] = $2 / 1024}
        END {printf "%.1f MB (anonymous %.1f, file-backed %.1f)", mb["VmRSS:"], mb["RssAnon:"], mb["RssFile:"]}' "/proc/$server/status")"
    Scripts/merge-quality.py "http://127.0.0.1:$port" "$from" "$to"
    kill "$server"; wait "$server" 2>/dev/null || true
    rm -f "$db"
done
