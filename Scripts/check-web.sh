#!/usr/bin/env bash
# The web page in a real browser: Debian's Chromium, driven by Selenium (Scripts/check-web.py),
# against the real server (RATES_RELAY_BIN, else the debug build) and a local stand-in for the ECB
# (Scripts/fake-ecb.py). Checks the converter, the chart, the table's filter, a failing source and
# a live update, measures the first render with data, and saves screenshots at 360 and 1280 px
# wide (and both in the dark scheme) into Artifacts/screenshots/.
#
# Setup: the server's database holds the bundled ECB history without its newest day (imported);
# the stand-in publishes up to the day before, and the newest day when the check says so. The NBP,
# the one other provider, is sent to a local server that answers every request 500.
#
# Usage: Scripts/check-web.sh           (after `swift build` or `swift test`)
#   RATES_RELAY_BIN   server binary (default .build/debug/rates-relay)
#   SCREENSHOTS       where the screenshots go (default Artifacts/screenshots)
set -euo pipefail
cd "$(dirname "$0")/.."

bin=${RATES_RELAY_BIN:-.build/debug/rates-relay}
screenshots=${SCREENSHOTS:-Artifacts/screenshots}
[ -x "$bin" ] || { echo "no server binary at $bin (run swift build first, or set RATES_RELAY_BIN)"; exit 1; }
command -v chromium >/dev/null && command -v chromedriver >/dev/null \
    || { echo "chromium and chromedriver are not installed: apt-get install chromium chromium-driver"; exit 1; }
python3 -c "import selenium" 2>/dev/null || { echo "selenium is not installed: pip install selenium"; exit 1; }

root=$(mktemp -d)
cleanup() {
    for pid in ${server:-} ${ecb:-} ${failing:-}; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    rm -rf "$root"
}
trap cleanup EXIT
token="web-check-token"

# Three free loopback ports: the server, the stand-in ECB, and the upstream that fails.
read -r port ecb_port failing_port < <(python3 -c 'import socket
s = [socket.socket() for _ in range(3)]
for x in s: x.bind(("127.0.0.1", 0))
print(*(x.getsockname()[1] for x in s))')

# The history without its newest day, and the two newest days.
read -r previous latest < <(Scripts/history-behind.py "$root")
start=$(date +%s)
"$bin" import "$root/behind.csv" --db "$root/rates.sqlite" >"$root/import.log" 2>&1 || { cat "$root/import.log"; exit 1; }
echo "== imported the history through $previous ($(($(date +%s) - start)) s)"

Scripts/fake-ecb.py "$ecb_port" "$previous" &
ecb=$!
python3 - "$failing_port" <<'PY' &
import http.server, sys
class Failing(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(500)
        self.send_header("Content-Length", "0")
        self.end_headers()
    def log_message(self, *args):
        pass
http.server.ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1])), Failing).serve_forever()
PY
failing=$!

"$bin" serve --host 127.0.0.1 --port "$port" --db "$root/rates.sqlite" --no-schedule --no-seed \
    --admin-token "$token" --upstream-url "http://127.0.0.1:$ecb_port/" \
    --providers NBP --upstream "NBP=http://127.0.0.1:$failing_port/nbp" \
    --log-level warning >"$root/server.log" 2>&1 &
server=$!
for _ in $(seq 300); do curl -fs -o /dev/null "http://127.0.0.1:$port/readyz" && break; sleep 0.1; done
curl -fs -o /dev/null "http://127.0.0.1:$port/readyz" || { echo "server never became ready"; cat "$root/server.log"; exit 1; }

mkdir -p "$screenshots"
status=0
timeout 600 python3 Scripts/check-web.py --base "http://127.0.0.1:$port" --ecb "http://127.0.0.1:$ecb_port" --token "$token" \
    --previous "$previous" --latest "$latest" --screenshots "$screenshots" || status=$?
if [ "$status" -ne 0 ]; then echo "== server log"; tail -50 "$root/server.log"; fi
exit "$status"
