#!/usr/bin/env bash
# A local PostgreSQL with errdex's schema, for trying errdex on PostgreSQL:
#   scripts/pg-local.sh [FOLDER] [PORT]      (default .pg-local, 55432)
# initdb's into FOLDER (once) as an unprivileged user when run as root
# (postgres refuses root), starts the server on 127.0.0.1:PORT, creates the
# database errdex, runs `errdex migrate` and prints the URL to use as --db or
# $ERRDEX_DB. Stop it with: pg_ctl stop -D FOLDER/data (as that user).
# Needs postgresql-15 (scripts/deps.sh test) and build/errdex.
set -euo pipefail
cd "$(dirname "$0")/.."
folder=$(realpath -m "${1:-.pg-local}")
port=${2:-55432}
bin=${ERRDEX_PG_BIN:-/usr/lib/postgresql/15/bin}
errdex=${ERRDEX:-build/errdex}
user=errdex
password=errdex

[ -x "$bin/initdb" ] || { echo "pg-local: no $bin/initdb (install postgresql-15: scripts/deps.sh test)" >&2; exit 2; }
[ -x "$errdex" ] || { echo "pg-local: no $errdex (run make build)" >&2; exit 2; }

as_user=()
if [ "$(id -u)" -eq 0 ]; then
  id errdex-pg >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin errdex-pg
  as_user=(runuser -u errdex-pg --)
fi
mkdir -p "$folder"
[ "$(id -u)" -eq 0 ] && chown errdex-pg: "$folder"
chmod 700 "$folder"

if [ ! -f "$folder/data/PG_VERSION" ]; then
  pwfile=$folder/pwfile
  echo "$password" >"$pwfile"
  [ "$(id -u)" -eq 0 ] && chown errdex-pg: "$pwfile"
  (cd "$folder" && "${as_user[@]}" "$bin/initdb" -D "$folder/data" -U "$user" --pwfile="$pwfile" \
    --auth-local=trust --auth-host=scram-sha-256 -E UTF8 --locale=C >"$folder/initdb.log")
  rm -f "$pwfile"
fi
if ! (cd "$folder" && "${as_user[@]}" "$bin/pg_ctl" status -D "$folder/data" >/dev/null 2>&1); then
  (cd "$folder" && "${as_user[@]}" "$bin/pg_ctl" start -D "$folder/data" -w -l "$folder/postgres.log" \
    -o "-p $port -k $folder -c listen_addresses=127.0.0.1" >/dev/null)
fi
url="postgresql://$user:$password@127.0.0.1:$port/errdex"
"$bin/psql" -q "postgresql://$user:$password@127.0.0.1:$port/postgres" -tAc \
  "SELECT 1 FROM pg_database WHERE datname = 'errdex'" | grep -q 1 ||
  "$bin/psql" -q "postgresql://$user:$password@127.0.0.1:$port/postgres" -c \
    "CREATE DATABASE errdex ENCODING 'UTF8' TEMPLATE template0" >/dev/null
"$errdex" migrate --db "$url" >&2
echo "$url"
