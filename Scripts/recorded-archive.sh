#!/usr/bin/env bash
# Builds an archive for `rates-relay import --archive` from every recording in the repository: a
# folder per provider key (as each Tests/Fixtures/<bank>/scenario.json names it) holding links to
# its recorded files, and the ECB's folder holding the history file given.
#
# Usage: Scripts/recorded-archive.sh ARCHIVE_DIR ECB_HISTORY_FILE [FILE_LEFT_OUT]
set -euo pipefail
cd "$(dirname "$0")/.."
archive=$1
history=$2
left_out=${3:-}

declare -A keys=()
while read -r name key; do keys[$name]=$key; done < <(python3 - <<'PY'
import glob, json, os
for path in sorted(glob.glob("Tests/Fixtures/*/scenario.json")):
    print(os.path.basename(os.path.dirname(path)), json.load(open(path))["key"])
PY
)
mkdir -p "$archive/ECB"
ln -s "$(realpath "$history")" "$archive/ECB/$(basename "$history")"
for folder in Tests/Fixtures/*/; do
    name=$(basename "$folder"); key=${keys[$name]:-}
    [ -n "$key" ] || continue
    mapfile -t files < <(find "$folder" -type f ! -name '*.yml' ! -name '*.md' ! -name '*.json*' -o -type f -name '*.json' ! -name scenario.json \
        | { if [ -n "$left_out" ]; then grep -v "$left_out"; else cat; fi } | sort)
    [ ${#files[@]} -gt 0 ] || continue
    mkdir -p "$archive/$key"
    for file in "${files[@]}"; do ln -s "$PWD/$file" "$archive/$key/"; done
done
