#!/usr/bin/env bash
# A throwaway PostgreSQL cluster on loopback, for the tests of the PostgreSQL backend.
#
#   Scripts/postgres-cluster.sh start DIR   creates a cluster in DIR, starts it on a free loopback port and
#                                           prints its URL (postgres://rates@127.0.0.1:PORT/rates); with
#                                           openssl at hand it also offers TLS, with a certificate for
#                                           127.0.0.1 and localhost from a throwaway authority in DIR/root.crt
#   Scripts/postgres-cluster.sh stop DIR    stops it (DIR can then be removed)
#
# Debian's server binaries (apt: postgresql); the server refuses to run as root, so under root the
# cluster belongs to the `postgres` user the package creates. Trust authentication, loopback only:
# nothing else can reach it, and it lives as long as the test run.
set -euo pipefail

command=${1:?usage: postgres-cluster.sh start|stop DIR}
dir=${2:?usage: postgres-cluster.sh start|stop DIR}
bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$bin/initdb" ] || { echo "no PostgreSQL server binaries (apt-get install postgresql)" >&2; exit 1; }

as_owner() {
    if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case $command in
start)
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    as_owner "$bin/initdb" -D "$dir/data" -U rates --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 ||
        { cat "$dir/initdb.log" >&2; exit 1; }
    tls=()
    if command -v openssl >/dev/null; then
        openssl req -x509 -newkey rsa:2048 -nodes -days 7 -subj "/CN=rates-relay test authority" \
            -keyout "$dir/root.key" -out "$dir/root.crt" >"$dir/openssl.log" 2>&1
        openssl req -newkey rsa:2048 -nodes -subj "/CN=localhost" -keyout "$dir/data/server.key" -out "$dir/server.csr" >>"$dir/openssl.log" 2>&1
        printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\n' >"$dir/server.ext"
        openssl x509 -req -in "$dir/server.csr" -CA "$dir/root.crt" -CAkey "$dir/root.key" -CAcreateserial -days 7 \
            -extfile "$dir/server.ext" -out "$dir/data/server.crt" >>"$dir/openssl.log" 2>&1
        chmod 600 "$dir/data/server.key"
        [ "$(id -u)" = 0 ] && chown postgres "$dir/data/server.key" "$dir/data/server.crt"
        tls=(-c ssl=on)
    fi
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    # fsync off: a crash of a throwaway cluster loses nothing worth keeping, and the tests run faster.
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 start \
        -o "-h 127.0.0.1 -p $port -k $dir -c fsync=off -c max_connections=200 ${tls[*]}" >/dev/null ||
        { cat "$dir/server.log" >&2; exit 1; }
    as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U rates rates
    echo "postgres://rates@127.0.0.1:$port/rates"
    ;;
stop)
    [ -d "$dir/data" ] && as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null || true
    ;;
*)
    echo "usage: postgres-cluster.sh start|stop DIR" >&2
    exit 2
    ;;
esac
