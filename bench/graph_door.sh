#!/usr/bin/env bash
# `grundy graph FILE` at the door against the library on the same graph (issue 39).
#
#   bench/graph_door.sh [VERTICES] [EDGES] [SEED] [REPEATS]   (defaults: 10^6, 3·10^6, 1, 3)
#
# Writes two graph files with bench/graph_file.py (vertices v0 … declared first, then the
# edges): `loopy`, uniform random heads and tails (loops and repeats allowed: cycles, ∞(K)
# values, draws; the same graph as crates/loopy/examples/loopy_bench.rs for the same
# arguments), and `dag`, the same draws each written from the smaller index to the larger.
# Then, REPEATS times each, runs under /usr/bin/time -v, output to /dev/null:
#   grundy graph FILE          (the text table)
#   grundy graph FILE --json   (one JSON document)
# for both files, and the library's own bench on the loopy graph (build, label and write out
# every value with its K, no file to parse; its own in-process clock). Prints user+sys CPU
# seconds and peak resident memory of each run, and the output's size once. Builds the
# release binaries first.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-1000000}
M=${2:-$((3 * N))}
SEED=${3:-1}
REPEATS=${4:-3}
cargo build --release -q -p grundy-cli
cargo build --release -q -p grundy-loopy --example loopy_bench
BIN=$PWD/target/release/grundy
LIB=$PWD/target/release/examples/loopy_bench
DIR=${TMPDIR:-/tmp}/grundy-graph-door
mkdir -p "$DIR"
for kind in loopy dag; do
  file=$DIR/$kind-$N-$M-$SEED.txt
  [[ -s $file ]] || python3 bench/graph_file.py "$N" "$M" "$SEED" "$kind" >"$file"
done

# One run: prints "cpu_seconds peak_MB".
measure() {
  local log
  log=$(mktemp)
  /usr/bin/time -v "$@" >/dev/null 2>"$log"
  awk -F': ' '/User time/ {u = $2} /System time/ {s = $2} /Maximum resident/ {m = $2}
    END {printf "%.2f %.0f\n", u + s, m / 1024}' "$log"
  rm -f "$log"
}

printf '%-34s %s\n' "command" "CPU s (user+sys), peak MB, per run"
for kind in loopy dag; do
  file=$DIR/$kind-$N-$M-$SEED.txt
  for json in "" "--json"; do
    label="grundy graph $kind.txt $json"
    runs=""
    for _ in $(seq "$REPEATS"); do
      runs+=" $(measure "$BIN" graph "$file" $json | tr ' ' '/')"
    done
    bytes=$("$BIN" graph "$file" $json | wc -c)
    printf '%-34s%s   (%s bytes out)\n' "$label" "$runs" "$bytes"
  done
done
# The library's figure is the bench's own clock for the random digraph (its later rows, other
# workloads, are not this graph).
runs=""
for _ in $(seq "$REPEATS"); do
  runs+=" $("$LIB" "$N" "$M" "$SEED" | awk '/^total:/ {print $2; exit}')"
done
printf '%-34s%s   (wall s in-process: build + label + write out)\n' "library: loopy_bench $N $M $SEED" "$runs"
