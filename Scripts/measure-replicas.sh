#!/usr/bin/env bash
# Measures replicas on PostgreSQL, release builds, over loopback (figures: docs/MEASUREMENTS.md):
#   - importing the full ECB history into PostgreSQL, and into SQLite for comparison (target < 10 s);
#   - /v1/latest req/s from a replica on PostgreSQL and from a server on SQLite holding the same
#     data, one after the other with the same wrk run, in three rounds of alternating order, and the
#     median of the rounds' ratios (target: within 10%; answers come from memory);
#   - three replicas behind nginx's proxy_cache (Deploy/nginx-cache.conf's settings): CLIENTS SDK
#     clients (the `rates` command) sync through it, a publication arrives (refreshed on a
#     follower, fetched once by the fetcher), and they sync again; the requests that reached the
#     replicas are counted for each phase, and every client's cache is compared with the database.
#
# Needs PostgreSQL's server binaries, nginx, wrk and bc (apt-get install postgresql nginx wrk bc).
# Usage: Scripts/measure-replicas.sh [clients]   (default 20; builds the release products first)
set -euo pipefail
cd "$(dirname "$0")/.."
clients=${1:-20}
command -v nginx >/dev/null && command -v wrk >/dev/null || { echo "needs nginx and wrk: apt-get install nginx wrk" >&2; exit 1; }

swift build -c release --scratch-path .build-release --product rates-relay >/dev/null
swift build -c release --scratch-path .build-release --product rates >/dev/null
bin=.build-release/release

work=$(mktemp -d)
chmod 755 "$work"
pids=()
cleanup() {
    kill "${pids[@]}" 2>/dev/null || true
    [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
    Scripts/postgres-cluster.sh stop "$work/pg" || true
    rm -rf "$work"
}
trap cleanup EXIT
port=$((20000 + RANDOM % 20000))
token=measure-$RANDOM
wait_for() { for _ in $(seq 600); do curl -fs -o /dev/null "$1" && return 0; sleep 0.1; done; echo "no answer from $1" >&2; exit 1; }

read -r previous latest < <(Scripts/history-behind.py "$work")
url=$(Scripts/postgres-cluster.sh start "$work/pg")
echo "machine: $(nproc) cores, $(uname -m); PostgreSQL $(psql --version | awk '{print $3}'), nginx $(nginx -v 2>&1 | sed 's/.*\///')"

echo "== import: the ECB history through $previous"
for target in "$url" "$work/rates.sqlite"; do
    start=$(date +%s.%N)
    "$bin/rates-relay" import "$work/behind.csv" --db "$target" >/dev/null
    printf "  %-10s %.2f s\n" "$([[ $target == postgres* ]] && echo PostgreSQL || echo SQLite)" "$(echo "$(date +%s.%N) - $start" | bc)"
done

python3 Scripts/fake-ecb.py "$((port + 9))" "$previous" >/dev/null 2>&1 &
pids+=($!)
serve() {  # serve PORT DB
    "$bin/rates-relay" serve --host 127.0.0.1 --port "$1" --db "$2" --no-seed --no-schedule --providers none \
        --upstream-url "http://127.0.0.1:$((port + 9))/" --admin-token "$token" --log-level warning >"$work/server-$1.log" 2>&1 &
    pids+=($!)
}
for i in 1 2 3; do serve $((port + i)) "$url"; done
serve $((port + 4)) "$work/rates.sqlite"
for i in 1 2 3 4; do wait_for "http://127.0.0.1:$((port + i))/readyz"; done

echo "== /v1/latest, wrk -t2 -c64 -d10s, one server at a time, 3 rounds in alternating order (median ratio)"
rps() { wrk -t2 -c64 -d10s "$1" | awk '/Requests\/sec/ {print $2}'; }
rounds=()
for round in 1 2 3; do
    if (( round % 2 )); then
        pg=$(rps "http://127.0.0.1:$((port + 1))/v1/latest"); sqlite=$(rps "http://127.0.0.1:$((port + 4))/v1/latest")
    else
        sqlite=$(rps "http://127.0.0.1:$((port + 4))/v1/latest"); pg=$(rps "http://127.0.0.1:$((port + 1))/v1/latest")
    fi
    rounds+=("$pg $sqlite")
done
python3 - "${rounds[@]}" <<'PY'
import statistics, sys
rounds = [tuple(map(float, r.split())) for r in sys.argv[1:]]
for pg, sqlite in rounds: print(f"  PostgreSQL replica {pg:10.0f} req/s, SQLite server {sqlite:10.0f} req/s, ratio {pg / sqlite:.2f}")
print(f"  median ratio       {statistics.median(pg / sqlite for pg, sqlite in rounds):10.2f}")
PY

cat >"$work/nginx.conf" <<NGINX
worker_processes 1;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
events { worker_connections 1024; }
http {
    log_format origin '\$upstream_cache_status \$upstream_addr \$request_uri';
    access_log $work/access.log origin;
    proxy_cache_path $work/cache levels=1:2 keys_zone=rates:10m max_size=256m inactive=1h use_temp_path=off;
    upstream rates_relay {
        server 127.0.0.1:$((port + 1));
        server 127.0.0.1:$((port + 2));
        server 127.0.0.1:$((port + 3));
        keepalive 32;
    }
    server {
        listen 127.0.0.1:$((port + 5));
        proxy_http_version 1.1;
        proxy_set_header Connection "";
        location / {
            proxy_pass http://rates_relay;
            proxy_cache rates;
            proxy_cache_lock on;
            proxy_cache_lock_timeout 10s;
            proxy_cache_revalidate on;
            proxy_cache_background_update on;
            proxy_cache_use_stale error timeout updating http_500 http_502 http_503 http_504;
        }
    }
}
NGINX
nginx -c "$work/nginx.conf" 2>/dev/null
cache="http://127.0.0.1:$((port + 5))"
wait_for "$cache/healthz"
: >"$work/access.log"

sync_all() {  # every client syncs at once; fails when one does
    local failed=0
    for i in $(seq "$clients"); do "$bin/rates" sync --server "$cache" --cache "$work/client-$i.sqlite" >/dev/null 2>&1 & done
    for job in $(jobs -p); do [[ " ${pids[*]} " == *" $job "* ]] || wait "$job" || failed=$((failed + 1)); done
    [ "$failed" = 0 ] || { echo "$failed clients failed to sync" >&2; exit 1; }
}
origin() { awk '$2 != "-"' "$work/access.log" | wc -l; }
total() { wc -l <"$work/access.log"; }

echo "== $clients SDK clients through nginx's cache in front of 3 replicas"
sync_all
printf "  first sync (the whole history):  %5d requests, %4d reached a replica\n" "$(total)" "$(origin)"
: >"$work/access.log"
curl -fs -X POST "http://127.0.0.1:$((port + 9))/publish?through=$latest" >/dev/null
roles=$(for i in 1 2 3; do curl -fs "http://127.0.0.1:$((port + i))/v1/status" | python3 -c 'import json,sys; print(json.load(sys.stdin)["replicaRole"])'; done | tr '\n' ' ')
follower=$(( $(tr ' ' '\n' <<<"$roles" | grep -n follower | head -1 | cut -d: -f1) ))
curl -fs -X POST -H "Authorization: Bearer $token" "http://127.0.0.1:$((port + follower))/v1/admin/refresh" >/dev/null
for i in 1 2 3; do
    for _ in $(seq 100); do
        [ "$(curl -fs "http://127.0.0.1:$((port + i))/v1/latest" | python3 -c 'import json,sys; print(json.load(sys.stdin)["date"])')" = "$latest" ] && break
        sleep 0.1
    done
done
: >"$work/access.log"
sync_all
printf "  after the publication of %s (roles: %s; refreshed on replica %d): %d requests, %d reached a replica\n" \
    "$latest" "$roles" "$follower" "$(total)" "$(origin)"
awk '{print "    " $1}' "$work/access.log" | sort | uniq -c

echo "== every client's cache against the database"
psql -qAt "$url" -c "SELECT day || ' ' || currency || ' ' || value FROM rate ORDER BY 1" >"$work/server.txt"
differing=0
for i in $(seq "$clients"); do
    python3 -c 'import sqlite3,sys
for row in sqlite3.connect(sys.argv[1]).execute("SELECT day || \" \" || currency || \" \" || value FROM rate ORDER BY 1"): print(row[0])' \
        "$work/client-$i.sqlite" >"$work/client.txt"
    cmp -s "$work/server.txt" "$work/client.txt" || differing=$((differing + 1))
done
echo "  $clients clients, $(wc -l <"$work/server.txt") values each; $differing differ from the database"
[ "$differing" = 0 ]
