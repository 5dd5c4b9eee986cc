#!/usr/bin/env bash
# Proves what the container image would hold, without a Docker engine: builds the static
# release binary the Dockerfile builds, installs it with its resources the way the image does,
# runs it as an unprivileged user whose only writable directory is the data volume, checks that
# it seeds, serves and reports ready, then stops it with SIGTERM while a client holds an event
# stream open and checks it exits 0 within 10 seconds. Then runs the same binary under the restriction of the systemd
# unit's MemoryDenyWriteExecute=yes (Scripts/check-mdwe.sh), and lints Deploy/Dockerfile with hadolint when it is installed.
#
# Usage (as root, for the user switch): Scripts/check-deploy.sh
set -euo pipefail
cd "$(dirname "$0")/.."

swift build -c release --static-swift-stdlib --scratch-path .build-static --product rates-relay >/dev/null
bin=$(swift build -c release --static-swift-stdlib --scratch-path .build-static --show-bin-path)

root=$(mktemp -d)
chmod 755 "$root"
trap 'kill "${server:-}" 2>/dev/null || true; rm -rf "$root"' EXIT
mkdir -p "$root/app" "$root/data"
cp "$bin/rates-relay" "$root/app/"
find -L "$bin/" -maxdepth 1 -name '*.resources' -exec cp -R {} "$root/app/" \;   # as the Dockerfile stages them
chmod -R a+rX,go-w "$root/app"
chown nobody "$root/data"   # the only directory the server may write, like the image's /data volume

echo "== dynamic libraries of the static-stdlib binary (what the runtime image must provide)"
ldd "$root/app/rates-relay" | awk '{print "  " $1}'

port=$((20000 + RANDOM % 20000))
cd "$root/data"
touch "$root/started"
# setpriv execs the server itself (no intermediate process), so the signals below reach it.
setpriv --reuid=nobody --regid=nogroup --clear-groups env HOST=127.0.0.1 PORT="$port" DB="$root/data/rates.sqlite" \
    "$root/app/rates-relay" serve --upstream-url http://127.0.0.1:9/ --no-schedule >"$root/server.log" 2>&1 &
server=$!
for _ in $(seq 100); do curl -fs -o /dev/null "http://127.0.0.1:$port/readyz" && break; sleep 0.1; done
latest=$(curl -fs "http://127.0.0.1:$port/v1/latest?symbols=USD") || { echo "not serving"; cat "$root/server.log"; exit 1; }
# The web page comes from the resource bundle staged beside the binary.
page=$(curl -fs -o /dev/null -w '%{http_code} %{content_type}' "http://127.0.0.1:$port/web/app.js") \
    || { echo "the web page's files are missing from the staged resource bundle"; exit 1; }
echo "== as user $(ps -o user= -p "$server" | tr -d ' '): readyz $(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/readyz"), latest $latest, /web/app.js $page"
written=$(find "$root" -newer "$root/started" -type f ! -path "$root/server.log" -printf '%P (%u)\n' | sort)
echo "== files the server wrote (owner): $(echo "$written" | tr '\n' ' ')"
if echo "$written" | grep -qv '^data/.* (nobody)$'; then echo "wrote outside the data directory or as another user"; exit 1; fi

# An open event stream must not hold the shutdown up.
curl -sN "http://127.0.0.1:$port/v1/events" >/dev/null 2>&1 &
sleep 0.5
start=$(date +%s%N)
kill -TERM "$server"
status=0
wait "$server" || status=$?
elapsed=$(( ($(date +%s%N) - start) / 1000000 ))
server=
echo "== SIGTERM with an event stream open: exit status $status after $elapsed ms"
[ "$status" -eq 0 ] && [ "$elapsed" -lt 10000 ] || { cat "$root/server.log"; exit 1; }

cd - >/dev/null
echo "== under MemoryDenyWriteExecute (Scripts/check-mdwe.sh)"
Scripts/check-mdwe.sh "$root/app/rates-relay"

if command -v hadolint >/dev/null && [ -f Deploy/Dockerfile ]; then
    echo "== hadolint Deploy/Dockerfile"
    hadolint Deploy/Dockerfile && echo "  clean"
fi
