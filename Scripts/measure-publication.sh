#!/usr/bin/env bash
# From a publication upstream to a client, on a release build over loopback: a local stand-in for
# the ECB (Scripts/fake-ecb.py) holds back the last day of the bundled history while the server's
# scheduler polls it with conditional GETs; then it publishes that day. The script reports the
# time from the publication to its announcement on /v1/events (target: at most 60 s, the poll
# interval) and to the table of an SDK client (`rates latest --watch`, observing with autoRefresh),
# and the stand-in's answers: one 200 for the publication, 304s while it was not out.
#
# The scheduler polls while a publication is due: run this within 8 hours after 16:00 CET on a
# TARGET working day (otherwise it rightly waits for the next publication, and the script says so).
#
# Usage: Scripts/measure-publication.sh
set -euo pipefail
cd "$(dirname "$0")/.."

swift build -c release --scratch-path .build-release --product rates-relay >/dev/null
swift build -c release --scratch-path .build-release --product rates >/dev/null
binary=.build-release/release/rates-relay
rates=.build-release/release/rates
work=$(mktemp -d)
trap 'kill ${server:-} ${upstream:-} ${events:-} ${watch:-} 2>/dev/null || true; rm -rf "$work"' EXIT
port=$((20000 + RANDOM % 20000))
upstream_port=$((port + 1))
base="http://127.0.0.1:$port"
fake="http://127.0.0.1:$upstream_port"
now() { date +%s.%N; }
counts() { curl -fs "$fake/counts"; }

# The history but its last day, imported; the last day is the publication to come.
mapfile -t days < <(python3 - "$work" <<'PY'
import sys, zipfile
csv = zipfile.ZipFile("Sources/RatesIngest/Resources/eurofxref-hist.zip").read("eurofxref-hist.csv").decode()
header, *rows = [line for line in csv.splitlines() if line]
open(f"{sys.argv[1]}/history.csv", "w").write("\n".join([header] + rows[1:]) + "\n")
print(rows[0][:10]); print(rows[1][:10])
PY
)
coming=${days[0]}; held=${days[1]}
"$binary" import "$work/history.csv" --db "$work/rates.sqlite" >/dev/null

Scripts/fake-ecb.py "$upstream_port" "$held" &
upstream=$!
until curl -fs -o /dev/null "$fake/eurofxref-daily.xml"; do sleep 0.05; done
"$binary" serve --db "$work/rates.sqlite" --port "$port" --upstream-url "$fake/" --providers none >"$work/server.log" 2>&1 &
server=$!
until curl -fs -o /dev/null "$base/v1/latest"; do sleep 0.05; done
curl -fsN "$base/v1/events" >"$work/events" &
events=$!
# An app: the SDK's cache synced once, then observed with autoRefresh until the script ends.
"$rates" sync --server "$base" --cache "$work/cache.sqlite" >/dev/null 2>&1
"$rates" latest --watch --symbols USD --server "$base" --cache "$work/cache.sqlite" >"$work/watch" 2>&1 &
watch=$!

echo "== machine: $(nproc) cores, $(uname -m); release build; poll interval 60 s"
echo "== waiting for two polls of the stand-in (it holds back $coming)"
for _ in $(seq 300); do
    [ "$(counts | python3 -c 'import json,sys; print(json.load(sys.stdin)["304"])')" -ge 2 ] && break
    sleep 1
done
if [ "$(counts | python3 -c 'import json,sys; print(json.load(sys.stdin)["304"])')" -lt 2 ]; then
    echo "  no poll in 5 minutes: no ECB publication is due now (run within 8 h after 16:00 CET on a working day)"
    exit 1
fi
echo "  before the publication: $(counts)"
curl -fs -X POST "$fake/publish?through=$coming"
published=$(now)
until grep -q "\"latestDate\":\"$coming\"" "$work/events"; do sleep 0.05; done
printf "== publication to the /v1/events announcement: %.1f s\n" "$(echo "$(now) - $published" | bc)"
until grep -q "rates of $coming" "$work/watch"; do sleep 0.05; done
printf "== publication to the SDK client's table (rates latest --watch): %.1f s\n" "$(echo "$(now) - $published" | bc)"
sleep 5
echo "  the stand-in's answers in all (the first fetch, the polls, the publication): $(counts)"
