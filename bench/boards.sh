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
set -euo pipefail
cd "$(dirname "$0")/.."
BOARDS=("$@")
[ ${#BOARDS[@]} -gt 0 ] || BOARDS=(4x7 5x6 5x7 4x9 5x8 6x7)
TIMEOUT=${TIMEOUT:-300}
MAXMEM=${MAXMEM:-64M}
METHODS=(${METHODS:-lvb br-asp-set})
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
for m in "${METHODS[@]}"; do
  head="$head igsolve $m s | $m MB |"
  rule="$rule---|---|"
done
echo "$head best igsolve / grundy-board |"
echo "$rule---|"
for b in "${BOARDS[@]}"; do
  r=${b%x*}
  c=${b#*x}
  read -r gs gk gv <<<"$(measure 'grundy' "$ours" "$b" --max-memory "$MAXMEM")"
  row="| $b | $gv | $gs | $(mb "$gk") |"
  times=()
  for m in "${METHODS[@]}"; do
    read -r s k v <<<"$(measure 'initial position:' "$igsolve" -m "$m" cram -r "$r" -c "$c")"
    if [ "$v" != "-" ] && [ "$gv" != "-" ] && [ "$v" != "$gv" ]; then
      echo "VALUE MISMATCH on $b: grundy-board $gv, igsolve $m $v" >&2
    fi
    row="$row $s | $(mb "$k") |"
    times+=("$s")
  done
  ratio=$(python3 -c "
import sys
g, *p = sys.argv[1:]
ok = [float(x) for x in p if x != 'timeout']
print('-' if g == 'timeout' or not ok else f'{min(ok) / float(g):.2f}x')" "$gs" "${times[@]}")
  echo "$row $ratio |"
done
