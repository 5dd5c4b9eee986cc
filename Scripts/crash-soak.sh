#!/usr/bin/env bash
# The long crash soak: runs the "Crash recovery" suite with N SIGKILLs per scenario
# (full-history import, server start and ingest, SDK `rates sync`) instead of CI's 8.
# Each kill is followed by an integrity check, the all-or-none check and a run that must complete.
#
# Usage: Scripts/crash-soak.sh [N]   (default 200: about 5 minutes on a 2-core machine)
set -euo pipefail
cd "$(dirname "$0")/.."
iterations=${1:-200}
[[ "$iterations" =~ ^[1-9][0-9]*$ ]] || { echo "usage: $0 [iterations]" >&2; exit 2; }

echo "== building the tests and the executables they kill (rates-relay, rates)"
swift build --build-tests 2>&1 | tail -1

echo "== $iterations kills per scenario"
start=$(date +%s)
log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
CRASH_ITERATIONS="$iterations" swift test --skip-build --filter CrashRecoveryTests >"$log" 2>&1 || status=$?
grep -E 'crash recovery:|✔ Test|✘|Issue recorded|error:' "$log" || true
echo "== finished in $(( $(date +%s) - start )) s, exit status $status"
exit "$status"
