#!/usr/bin/env bash
# Runs the test command with a deadline. The whole suite takes about 5 minutes on a 2-core machine,
# so a run still going after SECONDS is a hang, not a slow machine: the script then names the tests
# that started and never ended, prints every thread's backtrace of the test process (with gdb, when
# it is installed), stops the run and fails, instead of holding CI until its own limit.
#
# Usage: Scripts/run-bounded.sh SECONDS COMMAND...   (.ci/run: Scripts/run-bounded.sh 2400 swift test)
set -uo pipefail

limit=$1
shift
log=$(mktemp)
expired=$(mktemp -u)
trap 'rm -f "$log" "$expired"' EXIT

# Line-buffered, so the log holds every line written before a hang.
( stdbuf -oL -eL "$@" 2>&1 | tee "$log" ) &
runner=$!

(
    sleep "$limit"
    kill -0 "$runner" 2>/dev/null || exit 0
    touch "$expired"
    echo "== $* still runs after $limit s: the tests that started and never ended" >&2
    python3 - "$log" >&2 <<'EOF'
import re, sys
started, ended = [], set()
for line in open(sys.argv[1], errors="replace"):
    started += re.findall(r'◇ Test "(.*?)" started', line)
    ended.update(m[0] for m in re.findall(r'[✔✘] Test "(.*?)" (with \d+ test cases? )?(passed|failed)', line))
for name in dict.fromkeys(started):
    if name not in ended:
        print("   ", name)
EOF
    for pid in $(pgrep -f 'PackageTests.xctest'); do
        if command -v gdb >/dev/null; then
            echo "== the threads of the test process $pid" >&2
            timeout 120 gdb -p "$pid" -batch -ex "thread apply all bt 30" 2>/dev/null | grep -E '^Thread|^#' >&2
        fi
        kill -9 "$pid"
    done
) &
watchdog=$!

wait "$runner"
status=$?
# The watchdog first, then its sleep: a sleep ended first would let it go on as if the time were up.
sleeping=$(pgrep -P "$watchdog")
kill "$watchdog" 2>/dev/null
kill $sleeping 2>/dev/null
wait "$watchdog" 2>/dev/null
if [ -e "$expired" ]; then
    echo "== stopped after $limit s" >&2
    exit 124
fi
exit "$status"
