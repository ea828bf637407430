#!/usr/bin/env bash
# bench/serve: req/s and p99 of `errdex serve` under wrk, against nginx
# serving the same records exported as static JSON files, in the same run on
# the same machine. Indexes this machine's Python standard library.
#
#   bench/serve/run.sh            (ERRDEX=build/errdex, DURATION=10s)
#
# Appends a section to bench/RESULTS.md. Not part of `make test`.
set -euo pipefail
cd "$(dirname "$0")/../.."
errdex=${ERRDEX:-build/errdex}
duration=${DURATION:-10s}
# The JSON lookup is measured in this many back-to-back nginx/errdex pairs;
# the ratio reported is the median of the pairs' ratios (the machine is
# shared, a single pair can be off by 2x either way).
rounds=${ROUNDS:-3}
threads=${WRK_THREADS:-2}
[ -x "$errdex" ] || { echo "build errdex first (make build)"; exit 2; }
command -v wrk >/dev/null || { echo "wrk missing: run scripts/deps.sh"; exit 2; }
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)
[ -x "$nginx_bin" ] || { echo "nginx missing: run scripts/deps.sh"; exit 2; }

tmp=$(mktemp -d /tmp/errdex-bench-serve-XXXXXX)
chmod 755 "$tmp"
errdex_pid=""
nginx_pid=""
cleanup() {
  [ -n "$errdex_pid" ] && kill "$errdex_pid" 2>/dev/null && wait "$errdex_pid" 2>/dev/null || true
  [ -n "$nginx_pid" ] && kill "$nginx_pid" 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT

db="sqlite:$tmp/stdlib.db"
stdlib=$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["stdlib"])')
version=$(python3 -c 'import platform; print(platform.python_version())')
echo "bench/serve: indexing $stdlib"
"$errdex" scan "$stdlib" --repo python/cpython --prefix Lib --ref "v$version" --db "$db" -q >/dev/null

# The same records as static files: /api/errors/<id> holds exactly the
# bytes errdex answers there (one dataset line).
mkdir -p "$tmp/www/api/errors"
"$errdex" export --db "$db" > "$tmp/dataset.jsonl"
python3 - "$tmp" <<'PY'
import json, sys, urllib.parse
tmp = sys.argv[1]
ids, pages, searches = [], [], []
words = set()
with open(f"{tmp}/dataset.jsonl", "rb") as f:
    for raw in f:
        line = raw.rstrip(b"\n")
        rec = json.loads(line)["record"]
        with open(f"{tmp}/www/api/errors/{rec['id']}", "wb") as out:
            out.write(line)
        ids.append(rec["id"])
        pages.append(f"/errors/{rec['id']}/{rec['slug'] or 'error'}")
        for w in rec["errorMessage"].split():
            if w.isalpha() and len(w) > 3:
                words.add(w.lower())
words = sorted(words)[:500]
open(f"{tmp}/paths-json", "w").write("".join(f"/api/errors/{i}\n" for i in ids))
open(f"{tmp}/paths-page", "w").write("".join(p + "\n" for p in pages))
open(f"{tmp}/paths-search", "w").write("".join(f"/api/search?q={urllib.parse.quote(w)}&limit=10\n" for w in words))
open(f"{tmp}/paths-match", "w").write("/api/match\n")
print(f"bench/serve: {len(ids)} records, {len(words)} search words")
PY
# A real traceback for the match requests.
python3 -c "import json; json.loads('')" 2> "$tmp/traceback.txt" || true

cat > "$tmp/nginx.conf" <<NGINX
daemon off;
worker_processes 2;
user root;
pid $tmp/nginx.pid;
error_log $tmp/nginx-error.log;
events { worker_connections 4096; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  types { }
  default_type application/json;
  server {
    listen 127.0.0.1:18492;
    root $tmp/www;
  }
}
NGINX
"$nginx_bin" -c "$tmp/nginx.conf" -p "$tmp" &
nginx_pid=$!
"$errdex" serve --db "$db" --listen 127.0.0.1:18491 --threads 2 --access-log off > "$tmp/serve.out" 2>&1 &
errdex_pid=$!
for _ in $(seq 200); do
  grep -q "serving http" "$tmp/serve.out" 2>/dev/null && curl -sf -o /dev/null http://127.0.0.1:18492/api/errors/$(head -1 "$tmp/paths-json" | cut -d/ -f4) && break
  sleep 0.1
done
grep -q "serving http" "$tmp/serve.out" || { cat "$tmp/serve.out"; echo "errdex serve did not start"; exit 2; }
rss() { awk '/VmRSS/ {print $2}' "/proc/$1/status"; }
rss_before=$(rss "$errdex_pid")
echo "bench/serve: errdex RSS before: ${rss_before} kB"

results=()
run() {  # name server port paths connections [method] [unique]
  local name=$1 server=$2 port=$3 paths=$4 conns=$5 method=${6:-GET} unique=${7:-0}
  local body_env=()
  [ "$method" = POST ] && body_env=(WRK_BODY_FILE="$tmp/traceback.txt")
  local out
  out=$(env WRK_PATHS="$tmp/$paths" WRK_METHOD="$method" WRK_UNIQUE="$unique" "${body_env[@]}" \
        wrk -t "$threads" -c "$conns" -d "$duration" --timeout 5s -s bench/serve/wrk.lua "http://127.0.0.1:$port" 2>&1)
  local line
  line=$(echo "$out" | grep '^RESULT' || true)
  if [ -z "$line" ]; then echo "$out"; exit 2; fi
  read -r _ reqs dur errs p50 p99 <<<"$line"
  local rps
  rps=$(awk -v r="$reqs" -v d="$dur" 'BEGIN { printf "%.0f", r / (d / 1e6) }')
  printf 'bench/serve: %-28s %-7s c=%-4s %8s req/s  p50 %6s us  p99 %6s us  errors %s\n' "$name" "$server" "$conns" "$rps" "$p50" "$p99" "$errs"
  results+=("$name|$server|$conns|$rps|$p50|$p99|$errs")
}

for c in 64 256; do
  for _ in $(seq "$rounds"); do
    run "error JSON" nginx 18492 paths-json "$c"
    run "error JSON" errdex 18491 paths-json "$c"
  done
  run "error page (HTML)" errdex 18491 paths-page "$c"
  run "search (uncached)" errdex 18491 paths-search "$c" GET 1
  run "match (traceback)" errdex 18491 paths-match "$c" POST
done
rss_after=$(rss "$errdex_pid")
echo "bench/serve: errdex RSS after: ${rss_after} kB"

# Ratios of the JSON lookup against nginx: each errdex run over the nginx
# run just before it; the median of those.
ratio() {
  local c=$1 n="" ratios=()
  for r in "${results[@]}"; do
    IFS='|' read -r name server conns rps _ _ _ <<<"$r"
    [ "$name" = "error JSON" ] && [ "$conns" = "$c" ] || continue
    if [ "$server" = nginx ]; then n=$rps; else ratios+=("$(awk -v e="$rps" -v n="$n" 'BEGIN { printf "%.2f", e / n }')"); fi
  done
  printf '%s\n' "${ratios[@]}" | sort -n | awk '{ a[NR] = $1 } END { printf "%s (pairs: ", a[int((NR + 1) / 2)]; for (i = 1; i <= NR; i++) printf "%s%s", a[i], (i < NR ? ", " : ")") }'
}
r64=$(ratio 64)
r256=$(ratio 256)
echo "bench/serve: errdex/nginx on error JSON (median of $rounds pairs): ${r64} at 64 connections, ${r256} at 256"

records=$(wc -l < "$tmp/paths-json")
{
  echo
  echo "### serve, stdlib ($records records), $(date -u '+%Y-%m-%d %H:%M') UTC"
  echo
  echo "Command: \`bench/serve/run.sh\` (wrk -t $threads -d $duration --timeout 5s, requests rotating over every record id / page /"
  echo "500 search words; errdex serve --threads 2 --access-log off; nginx 2 workers, access log off, the same"
  echo "records as static files; wrk, errdex and nginx share the 2 cores)"
  echo
  echo "| request | server | connections | req/s | p50 µs | p99 µs | errors |"
  echo "|---|---|---:|---:|---:|---:|---:|"
  for r in "${results[@]}"; do
    IFS='|' read -r name server conns rps p50 p99 errs <<<"$r"
    echo "| $name | $server | $conns | $rps | $p50 | $p99 | $errs |"
  done
  echo
  echo "errdex/nginx req/s on the error JSON, median of $rounds back-to-back pairs: **${r64}** at 64 connections, **${r256}** at 256."
  echo "errdex serve RSS: ${rss_before} kB before, ${rss_after} kB after."
} >> bench/RESULTS.md
echo "bench/serve: appended to bench/RESULTS.md"
