#!/usr/bin/env bash
# Third-party clients, unchanged but for their base URL, against the server (the debug build
# `swift test` made, or RATES_RELAY_BIN; Scripts/check-clients.py says which clients and what each
# exercises): what they return must equal our own /v1 answers. The server runs on a free loopback
# port with a temporary database seeded from the bundled history; its upstreams point at a closed
# port, so nothing leaves the machine.
#
# Usage: Scripts/check-clients.sh   (after `swift build` or `swift test`; RATES_RELAY_BIN overrides the binary)
#        Scripts/check-clients.sh --install   (only installs the clients, as .ci/run does ahead of time)
set -euo pipefail
cd "$(dirname "$0")/.."

# Pinned: the checks know these versions' calls.
python3 -c "import frankfurter, forex_python, exrate" 2>/dev/null || pip install -q 'frankfurter==2.0.0' 'forex-python==1.9.2' 'exrate==1.0.1'
# tap-exchangeratehost pins singer-python's old dependencies (jsonschema 2): it gets a virtual
# environment of its own under .build, so the tools CI installs beside it keep theirs.
tap_venv=.build/check-clients-tap
"$tap_venv/bin/python" -c "import tap_exchangeratehost" 2>/dev/null || {
    python3 -m venv "$tap_venv" && "$tap_venv/bin/pip" install -q 'tap-exchangeratehost==0.1.2'
}
[ "${1:-}" = "--install" ] && exit 0

bin=${RATES_RELAY_BIN:-.build/debug/rates-relay}
[ -x "$bin" ] || { echo "no server binary at $bin (run swift build first, or set RATES_RELAY_BIN)"; exit 1; }

root=$(mktemp -d)
trap 'kill "${server:-}" 2>/dev/null || true; wait "${server:-}" 2>/dev/null || true; rm -rf "$root"' EXIT
read -r port closed < <(python3 -c 'import socket
s = [socket.socket() for _ in range(2)]
for x in s: x.bind(("127.0.0.1", 0))
print(*(x.getsockname()[1] for x in s))')
"$bin" serve --host 127.0.0.1 --port "$port" --db "$root/rates.sqlite" --no-schedule --providers none \
    --upstream-url "http://127.0.0.1:$closed/" --log-level warning >"$root/server.log" 2>&1 &
server=$!
for _ in $(seq 600); do curl -fs -o /dev/null "http://127.0.0.1:$port/readyz" && break; sleep 0.1; done
curl -fs -o /dev/null "http://127.0.0.1:$port/readyz" || { echo "server never became ready"; cat "$root/server.log"; exit 1; }
TAP_PYTHON="$tap_venv/bin/python" Scripts/check-clients.py "http://127.0.0.1:$port"
