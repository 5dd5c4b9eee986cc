#!/usr/bin/env bash
# Measures, on a release build, the full-history import time and the time from process start
# to the first 200 from /v1/latest on an existing database.
#
# Usage: Scripts/measure-startup.sh [path/to/rates-relay]   (default: .build-release/release/rates-relay)
# Build first: swift build -c release --scratch-path .build-release --product rates-relay
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-.build-release/release/rates-relay}
[ -x "$binary" ] || { echo "no binary at $binary; build with: swift build -c release --scratch-path .build-release --product rates-relay" >&2; exit 1; }
work=$(mktemp -d)
trap 'kill "${server:-}" 2>/dev/null || true; rm -rf "$work"' EXIT
port=$((20000 + RANDOM % 20000))

echo "== full-history import (bundled ECB zip) into an empty database"
"$binary" import Sources/RatesIngest/Resources/eurofxref-hist.zip --db "$work/rates.sqlite" | tail -1

echo "== start to first 200 on that database (5 runs, no network: upstream points at a closed port)"
for run in 1 2 3 4 5; do
    start=$(date +%s%N)
    "$binary" serve --db "$work/rates.sqlite" --port "$port" --upstream-url http://127.0.0.1:9/ --no-schedule >"$work/log" 2>&1 &
    server=$!
    until curl -fs -o /dev/null "http://127.0.0.1:$port/v1/latest"; do sleep 0.002; done
    end=$(date +%s%N)
    echo "run $run: $(( (end - start) / 1000000 )) ms"
    kill -TERM "$server"; wait "$server" || true
done
