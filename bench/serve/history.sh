#!/usr/bin/env bash
# The first view of error pages and history answers of sites a later revision
# added, which read the diff across that edge to find a renamed file's copy:
# two builds of errdex against one store, in turns (A/B, a ratio).
#
# usage: bench/serve/history.sh BASE_BIN NEW_BIN STORE_URL REPO FROM TO [N] [ROUNDS]
#   e.g. a store holding two Python versions' standard libraries:
#   errdex scan --python python3.11 --db sqlite:two.db; errdex scan --python python3.13 --db sqlite:two.db
#   bench/serve/history.sh /tmp/errdex.base build/errdex sqlite:two.db python/cpython v3.11.7 v3.13.0
set -euo pipefail
[[ $# -ge 6 ]] || { sed -n '2,10p' "$0"; exit 2; }
BASE=$1 NEW=$2 DB=$3 REPO=$4 FROM=$5 TO=$6 N=${7:-200} ROUNDS=${8:-2}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$NEW" diff "$REPO" "$FROM" "$TO" --json --db "$DB" |
  python3 -c "import json,sys; print('\n'.join(s['id'] for s in json.load(sys.stdin)['added'][:$N]))" > "$work/ids"
[[ -s $work/ids ]] || { echo "no site added from $FROM to $TO" >&2; exit 1; }
port=18190
one() {  # BIN -> "pages S history S"
  local bin=$1 pid
  port=$((port + 1))
  "$bin" serve --db "$DB" --listen 127.0.0.1:$port --access-log off > "$work/serve.log" 2>&1 &
  pid=$!
  for _ in $(seq 1 300); do curl -sf -o /dev/null http://127.0.0.1:$port/api/repos && break; sleep 0.5; done
  sed "s|.*|url = \"http://127.0.0.1:$port/errors/&\"\noutput = /dev/null|" "$work/ids" > "$work/pages.cfg"
  sed "s|.*|url = \"http://127.0.0.1:$port/api/errors/&/history\"\noutput = /dev/null|" "$work/ids" > "$work/api.cfg"
  local sum='{s += $2; if ($1 != 200) bad++} END {printf "%.3f%s", s, bad ? " (" bad " not 200)" : ""}'
  local p a
  p=$(curl -s -L -K "$work/pages.cfg" -w '%{http_code} %{time_total}\n' | awk "$sum")
  a=$(curl -s -K "$work/api.cfg" -w '%{http_code} %{time_total}\n' | awk "$sum")
  kill $pid; wait $pid 2>/dev/null || true
  echo "pages $p s, history $a s"
}
echo "$(wc -l < "$work/ids") sites added from $FROM to $TO, each page and history asked once, in turns:"
for r in $(seq 1 "$ROUNDS"); do
  echo "base: $(one "$BASE")"
  echo "new:  $(one "$NEW")"
done
