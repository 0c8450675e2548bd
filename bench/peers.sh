#!/usr/bin/env bash
# grundy against ogsolve 0.0.7 (`-m rc` and `-m rc2`) on the hard octal games, side by side.
#
#   bench/peers.sh [N] [GAMES...]     (defaults: N = 2^22; 0.161 0.167 0.014 0.034 0.172)
#
# Finds ogsolve 0.0.7 on PATH or in target/peers/bin, else installs it there
# (`cargo install ogsolve --version 0.0.7 --root target/peers`; never into ~/.cargo/bin).
# For each game runs grundy (`heap CODE --upto N --summary`, default threads, then
# `--threads 1`) and each ogsolve method once, and prints a markdown table of wall seconds and
# peak memory (GNU time's maximum resident set), with the best peer's time over grundy's.
# Builds grundy's release binary first. Runs longer than TIMEOUT seconds (default 600) count as
# timed out. BEFORE=PATH adds another grundy binary (an earlier build, say) measured the same
# way in the same run, for before/after tables: its seconds, both thread counts, and its MB.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-2^22}
shift || true
GAMES=("$@")
[ ${#GAMES[@]} -gt 0 ] || GAMES=(0.161 0.167 0.014 0.034 0.172)
TIMEOUT=${TIMEOUT:-600}
root=$PWD
cargo build --release -q -p grundy-cli
grundy="$root/target/release/grundy"
# `grundy` must not link Luau (whose start-up costs 2-3 MB; see crates/cli/src/lib.rs): a C++
# runtime among its libraries means something it runs reaches the heavy front ends.
if command -v ldd >/dev/null 2>&1 && ldd "$grundy" | grep -q 'libstdc++'; then
  echo "warning: $grundy links the C++ runtime, so Luau: its memory figures include it" >&2
fi
ogsolve=""
for cand in "$(command -v ogsolve || true)" "$root/target/peers/bin/ogsolve"; do
  if [ -n "$cand" ] && [ -x "$cand" ] && "$cand" --version 2>/dev/null | grep -q "0.0.7"; then
    ogsolve=$cand
    break
  fi
done
if [ -z "$ogsolve" ]; then
  echo "installing ogsolve 0.0.7 into target/peers ..." >&2
  cargo install ogsolve --version 0.0.7 --root "$root/target/peers" --locked -q 2>/dev/null ||
    cargo install ogsolve --version 0.0.7 --root "$root/target/peers" -q
  ogsolve="$root/target/peers/bin/ogsolve"
fi
[ -x /usr/bin/time ] || { echo "needs GNU time at /usr/bin/time (apt-get install time)" >&2; exit 1; }
# N as a plain number for ogsolve.
n=$(python3 -c "import sys; s=sys.argv[1]; print(2**int(s[2:]) if s.startswith('2^') else int(float(s)))" "$N")
measure() { # prints "seconds kilobytes", or "timeout -"
  local out
  out=$(mktemp)
  if timeout "$TIMEOUT" /usr/bin/time -f "%e %M" -o "$out" "$@" >/dev/null 2>&1; then
    cat "$out"
  else
    echo "timeout -"
  fi
  rm -f "$out"
}
echo "G(0..$N) per game, one run each; $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
echo
BEFORE=${BEFORE:-}
if [ -n "$BEFORE" ] && [ ! -x "$BEFORE" ]; then
  echo "BEFORE=$BEFORE is not an executable" >&2
  exit 2
fi
head="| game | grundy s | grundy MB | grundy 1 thread s | ogsolve rc s | rc MB | ogsolve rc2 s | rc2 MB | best peer / grundy | best peer / grundy 1 thread |"
rule="|---|---|---|---|---|---|---|---|---|---|"
if [ -n "$BEFORE" ]; then
  head="$head before s | before 1 thread s | before MB | best peer / before | best peer / before 1 thread |"
  rule="$rule---|---|---|---|---|"
fi
echo "$head"
echo "$rule"
# The best peer's time over each of two grundy times: ratios GRUNDY GRUNDY_1 PEER...
ratios() {
  python3 -c "
import sys
g, g1, *peers = sys.argv[1:]
ok = [float(p) for p in peers if p != 'timeout']
best = min(ok) if ok else None
f = lambda x: '-' if best is None or x == 'timeout' else f'{best / float(x):.1f}x'
print(f(g), f(g1))" "$@"
}
mb() { [ "$1" = - ] && echo - || python3 -c "print(f'{$1/1024:.1f}')"; }
for g in "${GAMES[@]}"; do
  read -r gs gk < <(measure "$grundy" heap "$g" --upto "$N" --summary)
  read -r g1 _ < <(measure "$grundy" heap "$g" --upto "$N" --summary --threads 1)
  if [ -n "$BEFORE" ]; then
    read -r bs bk < <(measure "$BEFORE" heap "$g" --upto "$N" --summary)
    read -r b1 _ < <(measure "$BEFORE" heap "$g" --upto "$N" --summary --threads 1)
  fi
  read -r rs rk < <(measure "$ogsolve" -m rc -n "$n" "$g")
  read -r r2 r2k < <(measure "$ogsolve" -m rc2 -n "$n" "$g")
  read -r r_all r_one < <(ratios "$gs" "$g1" "$rs" "$r2")
  row="| $g | $gs | $(mb "$gk") | $g1 | $rs | $(mb "$rk") | $r2 | $(mb "$r2k") | $r_all | $r_one |"
  if [ -n "$BEFORE" ]; then
    read -r b_all b_one < <(ratios "$bs" "$b1" "$rs" "$r2")
    row="$row $bs | $b1 | $(mb "$bk") | $b_all | $b_one |"
  fi
  echo "$row"
done
