#!/usr/bin/env bash
# bench/serve/postgres.sh: errdex on PostgreSQL against errdex on SQLite,
# the same records (this machine's python3 standard library), in one run:
#   1. a scan of the standard library into each store (--no-cache), ratio;
#   2. wrk on the error JSON (a cached route) and on uncached searches,
#      against 1 server on SQLite, 1 on PostgreSQL, and 2 on PostgreSQL at
#      once (one wrk each; per server and together). 2 servers on SQLite at
#      once (two processes on the one file) are measured the same way: on a
#      machine whose cores the servers share, that is the like-for-like
#      baseline for "per server" (each of two servers gets half the CPU
#      whatever its store);
#   3. 10 folders of the standard library as 10 repositories, queued and
#      indexed by 1 worker, then by 2 (each worker: -j 1).
#
#   bench/serve/postgres.sh        (ERRDEX=build/errdex, DURATION=10s)
#
# Starts its own PostgreSQL 15 (scripts/pg-local.sh in a temporary folder)
# and appends a section to bench/RESULTS.md. Not part of `make test`.
set -euo pipefail
cd "$(dirname "$0")/../.."
errdex=$(realpath "${ERRDEX:-build/errdex}")
duration=${DURATION:-10s}
threads=${WRK_THREADS:-2}
conns=${CONNECTIONS:-64}
bin=${ERRDEX_PG_BIN:-/usr/lib/postgresql/15/bin}
[ -x "$errdex" ] || { echo "build errdex first (make build)"; exit 2; }
command -v wrk >/dev/null || { echo "wrk missing: run scripts/deps.sh test"; exit 2; }

tmp=$(mktemp -d /tmp/errdex-bench-pg-XXXXXX)
chmod 755 "$tmp"
pids=()
as_pg=()
[ "$(id -u)" -eq 0 ] && as_pg=(runuser -u errdex-pg --)
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  [ -f "$tmp/pg/data/postmaster.pid" ] && (cd "$tmp" && "${as_pg[@]}" "$bin/pg_ctl" stop -D "$tmp/pg/data" -m fast >/dev/null 2>&1 || true)
  rm -rf "$tmp"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

pg_port=$(free_port)
pg=$(ERRDEX="$errdex" scripts/pg-local.sh "$tmp/pg" "$pg_port" 2>/dev/null)
admin="${pg%/errdex}/postgres"
new_db() {  # a fresh database; its URL
  "$bin/psql" -q "$admin" -c "CREATE DATABASE $1 ENCODING 'UTF8' TEMPLATE template0" >/dev/null
  echo "${pg%/errdex}/$1"
}
sqlite="sqlite:$tmp/stdlib.db"
stdlib=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')
version=$(python3 -c 'import platform; print(platform.python_version())')

# 1. The scan into each store, alternating, best of 3 each.
scan_s() {  # db: seconds of one scan
  local t0 t1
  t0=$(date +%s.%N)
  "$errdex" scan "$stdlib" --repo python/cpython --prefix Lib --ref "v$version" --no-cache -q --db "$1" >/dev/null
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }'
}
best_sqlite=999 best_pg=999
for _ in 1 2 3; do
  s=$(scan_s "$sqlite"); best_sqlite=$(awk -v a="$s" -v b="$best_sqlite" 'BEGIN { print (a < b ? a : b) }')
  p=$(scan_s "$pg"); best_pg=$(awk -v a="$p" -v b="$best_pg" 'BEGIN { print (a < b ? a : b) }')
  echo "bench/pg: scan of the standard library: SQLite $s s, PostgreSQL $p s"
done
scan_ratio=$(awk -v p="$best_pg" -v s="$best_sqlite" 'BEGIN { printf "%.2f", p / s }')
records=$("$errdex" stats --json --db "$sqlite" | python3 -c 'import json, sys; print(json.load(sys.stdin)["records"])' 2>/dev/null || echo "?")

# 2. Servers. Paths as bench/serve/run.sh makes them.
"$errdex" export --db "$sqlite" > "$tmp/dataset.jsonl"
python3 - "$tmp" <<'PY'
import json, sys, urllib.parse
tmp = sys.argv[1]
ids, words = [], set()
for raw in open(f"{tmp}/dataset.jsonl", "rb"):
    rec = json.loads(raw)["record"]
    ids.append(rec["id"])
    for w in rec["errorMessage"].split():
        if w.isalpha() and len(w) > 3:
            words.add(w.lower())
open(f"{tmp}/paths-json", "w").write("".join(f"/api/errors/{i}\n" for i in ids))
open(f"{tmp}/paths-search", "w").write("".join(f"/api/search?q={urllib.parse.quote(w)}&limit=10\n" for w in sorted(words)[:500]))
PY
serve() {  # name db: starts a server on $port (not in a subshell: its pid is kept for cleanup)
  port=$(free_port)
  "$errdex" serve --db "$2" --listen "127.0.0.1:$port" --threads 2 --access-log off > "$tmp/serve-$1.out" 2>&1 &
  pids+=($!)
  for _ in $(seq 600); do grep -qs "serving http" "$tmp/serve-$1.out" && break; sleep 0.1; done
  grep -q "serving http" "$tmp/serve-$1.out" || { cat "$tmp/serve-$1.out" >&2; exit 2; }
}
serve sqlite "$sqlite"; port_sqlite=$port
serve pg1 "$pg"; port_pg1=$port
serve pg2 "$pg"; port_pg2=$port
serve sqlite2 "$sqlite"; port_sqlite2=$port

wrk_rps() {  # port paths unique: req/s (errors must be 0)
  local out line
  out=$(env WRK_PATHS="$tmp/$2" WRK_METHOD=GET WRK_UNIQUE="$3" \
        wrk -t "$threads" -c "$conns" -d "$duration" --timeout 5s -s bench/serve/wrk.lua "http://127.0.0.1:$1" 2>&1)
  line=$(echo "$out" | grep '^RESULT' || true)
  [ -n "$line" ] || { echo "$out" >&2; exit 2; }
  read -r _ reqs dur errs p50 p99 <<<"$line"
  awk -v r="$reqs" -v d="$dur" -v e="$errs" -v p="$p99" 'BEGIN { printf "%.0f %d %d\n", r / (d / 1e6), e, p }'
}
rows=()
two_at_once() {  # port port paths unique: "a b" req/s of two servers under load at once, one wrk each
  wrk_rps "$1" "$3" "$4" > "$tmp/two-a" &
  local wa=$!
  wrk_rps "$2" "$3" "$4" > "$tmp/two-b"
  wait "$wa"
  read -r a ae ap < "$tmp/two-a"
  read -r b be bp < "$tmp/two-b"
}
ratio() { awk -v x="$1" -v y="$2" 'BEGIN { printf "%.2f", x / y }'; }
measure() {  # route paths unique
  local route=$1 paths=$2 unique=$3 s p1 a b sa sb
  read -r s se sp <<<"$(wrk_rps "$port_sqlite" "$paths" "$unique")"
  read -r p1 pe pp <<<"$(wrk_rps "$port_pg1" "$paths" "$unique")"
  two_at_once "$port_sqlite" "$port_sqlite2" "$paths" "$unique"
  sa=$a sb=$b sae=$ae sbe=$be sap=$ap sbp=$bp
  two_at_once "$port_pg1" "$port_pg2" "$paths" "$unique"
  local spair=$(( (sa + sb) / 2 ))
  echo "bench/pg: $route: SQLite $s req/s, PostgreSQL $p1 req/s, 2 SQLite servers $sa + $sb, 2 PostgreSQL servers $a + $b req/s"
  rows+=("$route|1 server, SQLite|$s|$sp|$se|1.00|")
  rows+=("$route|1 server, PostgreSQL|$p1|$pp|$pe|$(ratio "$p1" "$s")|$(ratio "$p1" "$s")")
  rows+=("$route|2 servers, SQLite, the first|$sa|$sap|$sae|$(ratio "$sa" "$s")|")
  rows+=("$route|2 servers, SQLite, the second|$sb|$sbp|$sbe|$(ratio "$sb" "$s")|")
  rows+=("$route|2 servers, PostgreSQL, the first|$a|$ap|$ae|$(ratio "$a" "$s")|$(ratio "$a" "$spair")")
  rows+=("$route|2 servers, PostgreSQL, the second|$b|$bp|$be|$(ratio "$b" "$s")|$(ratio "$b" "$spair")")
  rows+=("$route|2 servers, PostgreSQL, together|$((a + b))|-|$((ae + be))|$(ratio "$((a + b))" "$s")|$(ratio "$((a + b))" "$((sa + sb))")")
}
measure "error JSON (cached)" paths-json 0
measure "search (uncached)" paths-search 1
for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
wait 2>/dev/null || true
pids=()

# 3. Workers: the 10 largest packages of the standard library, each a repository.
# 3. Workers: the 10 packages of the standard library with the most Python
# files (tests aside), each a repository.
mapfile -t folders < <(cd "$stdlib" && for d in */; do
                         d=${d%/}
                         case "$d" in site-packages|test|idlelib|__pycache__) continue ;; esac
                         echo "$(find "$d" -name '*.py' -not -path '*/test*' | wc -l) $d"
                       done | sort -rn | head -10 | awk '{ print $2 }')
drain() {  # workers: seconds to drain the queue into a fresh database
  local db t0 t1 wp=()
  db=$(new_db "workers$1")
  for f in "${folders[@]}"; do "$errdex" enqueue "$stdlib/$f" --repo "stdlib/$f" --db "$db" >/dev/null; done
  t0=$(date +%s.%N)
  for _ in $(seq "$1"); do "$errdex" worker --once -j 1 --db "$db" > "$tmp/worker-$1-$_.out" 2>&1 & wp+=($!); done
  for p in "${wp[@]}"; do wait "$p"; done
  t1=$(date +%s.%N)
  local done_jobs
  done_jobs=$("$errdex" jobs --json --db "$db" | python3 -c 'import json, sys; print(sum(j["state"] == "done" for j in json.load(sys.stdin)["jobs"]))')
  [ "$done_jobs" = "${#folders[@]}" ] || { echo "bench/pg: only $done_jobs jobs done" >&2; cat "$tmp"/worker-"$1"-*.out >&2; exit 2; }
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }'
}
one=$(drain 1)
two=$(drain 2)
speedup=$(awk -v a="$one" -v b="$two" 'BEGIN { printf "%.2f", a / b }')
echo "bench/pg: ${#folders[@]} repositories: 1 worker $one s, 2 workers $two s (${speedup}x)"

{
  echo
  echo "### PostgreSQL against SQLite, stdlib ($records records), $(date -u '+%Y-%m-%d %H:%M') UTC"
  echo
  echo "Command: \`bench/serve/postgres.sh\` (wrk -t $threads -c $conns -d $duration --timeout 5s, requests rotating over every"
  echo "record id or 500 search words, the search ones each with a query string never sent before; errdex serve --threads 2"
  echo "--access-log off; PostgreSQL 15 on the same machine (scripts/pg-local.sh); everything shares the 2 cores)"
  echo
  echo "Scan of the standard library (--no-cache, best of 3 each, alternating): SQLite ${best_sqlite} s, PostgreSQL ${best_pg} s:"
  echo "**${scan_ratio}×**."
  echo
  echo "The last column compares like with like: a PostgreSQL server against a SQLite server run the same way"
  echo "(alone, or one of two sharing the machine's cores: against the mean of the two SQLite servers at once)."
  echo
  echo "| request | servers | req/s | p99 µs | errors | / 1 SQLite server | / SQLite, same number of servers |"
  echo "|---|---|---:|---:|---:|---:|---:|"
  for r in "${rows[@]}"; do
    IFS='|' read -r route who rps p99 errs ratio same <<<"$r"
    echo "| $route | $who | $rps | $p99 | $errs | $ratio | ${same:--} |"
  done
  echo
  echo "Workers (each -j 1), ${#folders[@]} folders of the standard library as repositories (${folders[*]}):"
  echo "1 worker ${one} s, 2 workers ${two} s: **${speedup}×**."
} >> bench/RESULTS.md
echo "bench/pg: appended to bench/RESULTS.md"
