#!/usr/bin/env bash
# Proves the server works under systemd's MemoryDenyWriteExecute=yes (Deploy/rates-relay.service)
# without systemd: Scripts/mdwe-exec.c applies the same restriction (PR_SET_MDWE, and the seccomp
# filter older systemd uses) and execs the server, which must seed an empty database, answer the
# endpoints below (cross rates, a long series, gzip, sync, events, the bundled contract, a failed
# upstream fetch), and exit 0 on SIGTERM. A process that maps writable memory executable, or makes
# memory executable, would be refused (`mdwe-exec --probe` shows that the restriction holds after exec).
#
# Usage: Scripts/check-mdwe.sh [BINARY]   (default .build/release/rates-relay; its resource bundle beside it)
set -euo pipefail
cd "$(dirname "$0")/.."

bin=$(realpath "${1:-.build/release/rates-relay}")
[ -x "$bin" ] || { echo "no server binary at $bin (swift build -c release --product rates-relay)"; exit 1; }
cc=$(command -v cc || command -v gcc || command -v clang) || { echo "no C compiler (the Swift toolchain ships clang)"; exit 1; }

root=$(mktemp -d)
chmod 755 "$root"
trap 'kill "${server:-}" 2>/dev/null || true; rm -rf "$root"' EXIT
"$cc" -O2 -Wall -Werror -o "$root/mdwe-exec" Scripts/mdwe-exec.c

echo "== kernel $(uname -r); the restriction after exec:"
"$root/mdwe-exec" "$root/mdwe-exec" --probe | sed 's/^/  /'

port=$((20000 + RANDOM % 20000))
token=mdwe-check
"$root/mdwe-exec" "$bin" serve --db "$root/rates.sqlite" --host 127.0.0.1 --port "$port" --upstream-url http://127.0.0.1:9/ \
    --no-schedule --providers none --admin-token "$token" >"$root/server.log" 2>&1 &
server=$!
for _ in $(seq 300); do curl -fs -o /dev/null "http://127.0.0.1:$port/readyz" && break; sleep 0.1; done
grep -q '^Seccomp:[[:space:]]*2' "/proc/$server/status" || { echo "the server runs without the seccomp filter"; exit 1; }

base="http://127.0.0.1:$port"
failed=0
check() {   # check EXPECTED_STATUS PATH [curl options...]
    local expected=$1 path=$2
    shift 2
    local status
    status=$(curl -s -o "$root/body" -w '%{http_code}' "$@" "$base$path" || true)   # 000: no answer
    printf '  %-3s %s (%s bytes)\n' "$status" "$path" "$(wc -c <"$root/body")"
    [ "$status" = "$expected" ] || failed=1
}
echo "== served under the restriction (seeded from the bundled history):"
check 200 /readyz
check 200 '/v1/latest?base=USD&symbols=EUR,JPY&amount=10'
check 200 '/v1/timeseries?start=1999-01-04&end=2026-10-30&base=GBP' --compressed -H 'Accept-Encoding: gzip'
check 200 '/v1/convert?from=USD&to=JPY&amount=100&date=2020-03-16'
check 200 '/v1/sync?from=2026-01-01'
check 200 /v1/status
check 200 /metrics
check 200 /openapi.yaml
check 200 /v1/events --max-time 1   # a stream: cut after 1 s, its status is what counts
check 200 /v1/admin/refresh -X POST -H "Authorization: Bearer $token"   # the upstream is closed: a failed fetch, answered
kill -0 "$server" 2>/dev/null || { echo "the server died"; cat "$root/server.log"; exit 1; }

kill -TERM "$server"
status=0
wait "$server" || status=$?
server=
echo "== SIGTERM: exit status $status"
if [ "$status" -ne 0 ] || [ "$failed" -ne 0 ]; then
    echo "== server log"
    cat "$root/server.log"
    exit 1
fi
