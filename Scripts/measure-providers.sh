#!/usr/bin/env bash
# Issue 13's targets on a release build, over loopback:
#   - importing the bundled ECB history plus every recorded provider file (Tests/Fixtures/<bank>/)
#     through `rates-relay import --provider`, the same parsers and ingest as a fetch (target < 5 s);
#   - the currencies the merged dataset then has (target >= 150);
#   - restart to the first 200 of /v1/latest on that database (target < 0.5 s), and the RSS;
#   - a one-day delta: a sync client up to date before the Bank of Russia's publication of
#     2026-04-25 is imported into the running server's database, then asks for what changed
#     (bytes as sent, and gzip-compressed; target < 2 KB with gzip).
#
# Usage: Scripts/measure-providers.sh
set -euo pipefail
cd "$(dirname "$0")/.."

swift build -c release --scratch-path .build-release --product rates-relay >/dev/null
binary=.build-release/release/rates-relay
work=$(mktemp -d)
trap 'kill ${server:-} 2>/dev/null || true; rm -rf "$work"' EXIT
port=$((20000 + RANDOM % 20000))
base="http://127.0.0.1:$port"
db="$work/rates.sqlite"
now() { date +%s.%N; }

# Fixture folders by provider key; the Bank of Russia's file is kept for the delta below.
declare -A keys=(
    [banxico-mexico]=BANXICO [bcb-brazil]=BCB [bdi-italy]=BDI [bnm-malaysia]=BNM [bnr-romania]=BNR
    [boc-canada]=BOC [boe-uk]=BOE [boi-israel]=BOI [boj-japan]=BOJ [bot-thailand]=BOT [cbu-uzbekistan]=CBU
    [cnb-czech]=CNB [dnb-denmark]=DNB [fbil-india]=FBIL [fred-h10-usa]=FRED [hkma-hongkong]=HKMA [imf]=IMF
    [mnb-hungary]=MNB [nbg-georgia]=NBG [nbk-kazakhstan]=NBK [nbp-poland]=NBP [nbrb-belarus]=NBRB
    [nbu-ukraine]=NBU [norgesbank-norway]=NB [rba-australia]=RBA [riksbank-sweden]=RB [sbi-iceland]=SBI [tcmb-turkey]=TCMB
)

echo "== import: the ECB history, then every recorded provider file"
imported=0; refused=()
started=$(now)
"$binary" import Sources/RatesIngest/Resources/eurofxref-hist.zip --db "$db" >/dev/null 2>&1
for folder in Tests/Fixtures/*/; do
    name=$(basename "$folder"); key=${keys[$name]:-}
    [ -n "$key" ] || continue
    mapfile -t files < <(find "$folder" -type f ! -name '*.yml' ! -name '*.md' | sort)
    if [ "$key" = NBP ]; then groups=("${files[*]}"); else groups=("${files[@]}"); fi   # NBP: tables A and B are one publication
    for group in "${groups[@]}"; do
        # Files answering one series name it in the file name: BCB's currency, FRED's series.
        subject=()
        case "$key" in
            BCB) subject=(--subject "$(basename "$group" | sed -E 's/.*CotacaoMoedaPeriodo_([A-Z]{3})_.*/\1/')") ;;
            FRED) subject=(--subject "$(basename "$group" | sed -E 's/^fred_([A-Z]+)_.*/\1/')") ;;
        esac
        # shellcheck disable=SC2086
        if "$binary" import --provider "$key" "${subject[@]}" $group --db "$db" >/dev/null 2>"$work/import.err"; then
            imported=$((imported + $(wc -w <<<"$group")))
        else
            refused+=("$key $(basename "${group%% *}"): $(tail -1 "$work/import.err")")
        fi
    done
done
elapsed=$(echo "$(now) - $started" | bc)
printf "  %d provider files imported, %d refused, in %.2f s (ECB history included)\n" "$imported" "${#refused[@]}" "$elapsed"
for line in "${refused[@]}"; do echo "    refused: $line"; done

echo "== restart to the first 200 of /v1/latest"
started=$(now)
"$binary" serve --db "$db" --port "$port" --upstream-url http://127.0.0.1:9/ --no-schedule --providers none >"$work/server.log" 2>&1 &
server=$!
until curl -fs -o /dev/null "$base/v1/latest"; do sleep 0.01; done
printf "  %.3f s\n" "$(echo "$(now) - $started" | bc)"
currencies=$(curl -fs "$base/v1/currencies" | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')
echo "== currencies with data: $currencies"
for _ in $(seq 200); do curl -fs -o /dev/null "$base/v1/latest?base=USD"; done
echo "== RSS after start and 200 answers: $(awk '$1 == "VmRSS:" {printf "%.1f MB", $2/1024}' "/proc/$server/status")"

echo "== one-day delta: the Bank of Russia's 2026-04-25, imported into the running server's database"
page=$(curl -fs "$base/v1/sync?from=2026-04-01")
while [ "$(python3 -c 'import json,sys; print(json.load(sys.stdin)["more"])' <<<"$page")" = True ]; do
    page=$(curl -fs "$base/v1/sync?cursor=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["cursor"])' <<<"$page")")
done
cursor=$(python3 -c 'import json,sys; print(json.load(sys.stdin)["cursor"])' <<<"$page")
before=$(curl -fs "$base/v1/status" | python3 -c 'import json,sys; print(json.load(sys.stdin)["datasetVersion"])')
"$binary" import --provider CBR Tests/Fixtures/cbr-russia/XML_daily_2026-04-25.xml --db "$db" >/dev/null
for _ in $(seq 100); do
    [ "$(curl -fs "$base/v1/status" | python3 -c 'import json,sys; print(json.load(sys.stdin)["datasetVersion"])')" != "$before" ] && break
    sleep 0.1
done
curl -fs "$base/v1/sync?cursor=$cursor" -o "$work/delta.json"
gzipped=$(curl -fs -H 'Accept-Encoding: gzip' "$base/v1/sync?cursor=$cursor" | wc -c)
python3 - "$work/delta.json" "$gzipped" <<'PY'
import json, os, sys
delta = json.load(open(sys.argv[1]))
values = sum(len(v) for v in delta["upserts"].values())
print(f"  {len(delta['upserts'])} day(s), {values} values, sources table {delta.get('sources', [])}: "
      f"{os.path.getsize(sys.argv[1])} bytes, {sys.argv[2]} with gzip")
PY
