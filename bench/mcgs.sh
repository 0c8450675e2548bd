#!/usr/bin/env bash
# grundy's side of the MCGS 1.7 table of issue 41 (docs/benchmarks.md, "Side by side with
# MCGS"): each question asked at the door, `grundy analyze GAME POSITION --moves value`, the
# release build, one fresh process each, timed by GNU time.
#
#   bench/mcgs.sh [RUNS]          (default 3 runs a question; the median is printed)
#
# Prints a markdown table: the question, grundy's value, the median user+sys CPU seconds, and
# the median peak resident memory (MB). The MCGS figures to compare with are in
# docs/benchmarks.md (MCGS allocates 1.74 GiB of transposition tables at every start).
# Builds the release binary first (GRUNDY=PATH: time that binary instead). A question slower than TIMEOUT seconds (default 300)
# prints "> TIMEOUT".
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-3}
TIMEOUT=${TIMEOUT:-300}
if [ -z "${GRUNDY:-}" ]; then
  cargo build --release -q -p grundy-cli --bin grundy
fi
grundy="${GRUNDY:-$PWD/target/release/grundy}"
command -v /usr/bin/time >/dev/null || { echo "needs GNU time (/usr/bin/time)" >&2; exit 2; }

QUESTIONS=(
  "nogo 1x14" "nogo 1x16" "nogo 1x18" "nogo 1x20" "nogo 1x21"
  "nogo 2x7" "nogo 2x8" "nogo 3x5"
  "clobber (xo)^60" "clobber (xo)^100" "clobber (xo)^150" "clobber (xo)^200"
  "clobber (xxo)^60" "clobber (xxo)^100" "clobber (xxo)^150"
  "cram 2x20" "cram 2x22" "cram 2x23" "cram 3x13" "cram 5x7"
  "kayles 1000" "kayles 10000"
)

median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

echo "grundy $(git describe --always --dirty 2>/dev/null || echo '?'), $(date -u +%Y-%m-%dT%H:%MZ), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| question | value | grundy CPU s (median of $RUNS) | peak MB |"
echo "|---|---|---|---|"
for q in "${QUESTIONS[@]}"; do
  read -r game pos <<<"$q"
  cpus=() mems=() value="?"
  for _ in $(seq "$RUNS"); do
    out=$(mktemp)
    if timeout "$TIMEOUT" /usr/bin/time -f "%U %S %M" -o "$out.time" \
      "$grundy" analyze "$game" "$pos" --moves value --json >"$out" 2>/dev/null; then
      value=$({ grep -o '"grundy":[0-9]*' "$out" || true; } | awk -F: 'NR == 1 { print $2 }')
      read -r u s m <"$out.time"
      cpus+=("$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.2f", u + s }')")
      mems+=("$((m / 1024))")
    else
      value="> $TIMEOUT s"
      rm -f "$out" "$out.time"
      break
    fi
    rm -f "$out" "$out.time"
  done
  if [ ${#cpus[@]} -eq "$RUNS" ]; then
    cpu=$(printf '%s\n' "${cpus[@]}" | median)
    mem=$(printf '%s\n' "${mems[@]}" | median)
    echo "| $game $pos | $value | $cpu | $mem |"
  else
    echo "| $game $pos | $value | | |"
  fi
done
