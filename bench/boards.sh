#!/usr/bin/env bash
# grundy-board against igsolve 0.1.2 (Beling's solver; `-m lvb` and `-m br-asp-set`) on
# empty Cram boards, side by side.
#
#   bench/boards.sh [BOARDS...]        (defaults: 4x7 5x6 5x7 4x9 5x8 6x7)
#
# Finds igsolve 0.1.2 on PATH or in target/peers/bin, else installs it there
# (`cargo install igsolve --version 0.1.2 --root target/peers`; never into ~/.cargo/bin).
# Builds grundy-board's example `cram` in release (`cargo build --release -p grundy-board
# --example cram` only) and runs it with a table of MAXMEM (default 64M) bytes. For each board
# runs grundy-board and each igsolve method once and prints a markdown table of wall seconds
# and peak memory (GNU time's maximum resident set), the values found, and igsolve's best time
# over grundy-board's. Runs longer than TIMEOUT seconds (default 300) count as timed out.
# GRUNDY_CRAM=PATH runs that build of the example instead (no build): an earlier commit's,
# to compare two builds in one sitting.
#
# METHODS (default "lvb br-asp-set br-asp-set+edb"): igsolve's pruning methods; `M+edb` runs
# method M with igsolve's end database (`--edb_segments 1`: every position of a board's
# first slice, cached on disk per board under target/peers/edb). The database is
# built by a first run (its seconds, search included, are the "+edb first run" column) and the timed run
# reads it back, which is how a researcher who keeps the cache uses it.
set -euo pipefail
cd "$(dirname "$0")/.."
BOARDS=("$@")
[ ${#BOARDS[@]} -gt 0 ] || BOARDS=(4x7 5x6 5x7 4x9 5x8 6x7)
TIMEOUT=${TIMEOUT:-300}
MAXMEM=${MAXMEM:-64M}
METHODS=(${METHODS:-lvb br-asp-set br-asp-set+edb})
root=$PWD
if [ -n "${GRUNDY_CRAM:-}" ]; then
  ours=$(realpath "$GRUNDY_CRAM")
else
  cargo build --release -q -p grundy-board --example cram
  ours="$root/target/release/examples/cram"
fi
igsolve=""
for cand in "$(command -v igsolve || true)" "$root/target/peers/bin/igsolve"; do
  if [ -n "$cand" ] && [ -x "$cand" ] && "$cand" --version 2>/dev/null | grep -q "0.1.2"; then
    igsolve=$cand
    break
  fi
done
if [ -z "$igsolve" ]; then
  echo "installing igsolve 0.1.2 into target/peers ..." >&2
  cargo install igsolve --version 0.1.2 --root "$root/target/peers" --locked -q 2>/dev/null ||
    cargo install igsolve --version 0.1.2 --root "$root/target/peers" -q
  igsolve="$root/target/peers/bin/igsolve"
fi
[ -x /usr/bin/time ] || { echo "needs GNU time at /usr/bin/time (apt-get install time)" >&2; exit 1; }
# Runs a command; prints "seconds kilobytes value" (value: the last number after PATTERN), or
# "timeout - -".
measure() {
  local pattern=$1
  shift
  local out log
  out=$(mktemp)
  log=$(mktemp)
  if timeout "$TIMEOUT" /usr/bin/time -f "%e %M" -o "$out" "$@" >"$log" 2>&1; then
    local v
    v=$(grep -oE "$pattern *[0-9]+" "$log" | tail -1 | grep -oE '[0-9]+$' || echo "?")
    echo "$(cat "$out") $v"
  else
    echo "timeout - -"
  fi
  rm -f "$out" "$log"
}
mb() { [ "$1" = - ] && echo - || python3 -c "print(f'{$1/1024:.1f}')"; }
echo "Cram, empty boards, one run each; $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg) at the start;"
echo "grundy-board table cap $MAXMEM; igsolve $("$igsolve" --version 2>/dev/null | head -1)"
echo
head="| board | value | grundy-board s | grundy-board MB |"
rule="|---|---|---|---|"
edb=no
for m in "${METHODS[@]}"; do
  head="$head igsolve $m s | $m MB |"
  rule="$rule---|---|"
  [[ $m == *+edb ]] && edb=yes
done
if [ $edb = yes ]; then
  head="$head +edb first run s (builds the database) |"
  rule="$rule---|"
fi
edbdir="$root/target/peers/edb"
mkdir -p "$edbdir"
echo "$head best igsolve / grundy-board |"
echo "$rule---|"
for b in "${BOARDS[@]}"; do
  r=${b%x*}
  c=${b#*x}
  read -r gs gk gv <<<"$(measure 'grundy' "$ours" "$b" --max-memory "$MAXMEM")"
  row="| $b | $gv | $gs | $(mb "$gk") |"
  times=()
  build=-
  for m in "${METHODS[@]}"; do
    if [[ $m == *+edb ]]; then
      # First run: builds (or finds) the cached end database; not timed as igsolve's search.
      read -r build _ _ <<<"$(measure 'initial position:' env -C "$edbdir" "$igsolve" --edb_segments 1 -m "${m%+edb}" cram -r "$r" -c "$c")"
      read -r s k v <<<"$(measure 'initial position:' env -C "$edbdir" "$igsolve" --edb_segments 1 -m "${m%+edb}" cram -r "$r" -c "$c")"
    else
      read -r s k v <<<"$(measure 'initial position:' "$igsolve" -m "$m" cram -r "$r" -c "$c")"
    fi
    if [ "$v" != "-" ] && [ "$gv" != "-" ] && [ "$v" != "$gv" ]; then
      echo "VALUE MISMATCH on $b: grundy-board $gv, igsolve $m $v" >&2
    fi
    row="$row $s | $(mb "$k") |"
    times+=("$s")
  done
  [ $edb = yes ] && row="$row $build |"
  ratio=$(python3 -c "
import sys
g, *p = sys.argv[1:]
ok = [float(x) for x in p if x != 'timeout']
print('-' if g == 'timeout' or not ok else f'{min(ok) / float(g):.2f}x')" "$gs" "${times[@]}")
  echo "$row $ratio |"
done
