#!/usr/bin/env bash
# One run of docs/results.md, timed: the command given after the arguments below, run under
# `nice -n 10` and GNU time, its output kept in LOGDIR/NAME.out and one summary line appended
# to LOGDIR/runs.tsv: name, date (UTC), user+sys CPU seconds, peak resident MB, exit status,
# the command.
#
#   bench/results.sh NAME COMMAND...        (LOGDIR: default target/results-runs)
#
# The engine path is the release `grundy` at its door (`grundy analyze GAME POSITION --moves
# value --json`, whose JSON "details" holds the search nodes); the second paths are named in
# docs/results.md (the `stones` example with --plane or --plain-keys, the edge-list graph, the
# checkers in crates/board/tests). A run given `--table FILE` (door) or `--table FILE`
# (example) resumes from FILE when it exists, so a stopped run is continued by running the
# same line again.
set -uo pipefail
cd "$(dirname "$0")/.."
name=$1
shift
logdir=${LOGDIR:-target/results-runs}
mkdir -p "$logdir"
command -v /usr/bin/time >/dev/null || { echo "needs GNU time (/usr/bin/time)" >&2; exit 2; }
start=$(date -u +%Y-%m-%dT%H:%M:%SZ)
nice -n 10 /usr/bin/time -f "%U %S %M" -o "$logdir/$name.time" "$@" >"$logdir/$name.out" 2>"$logdir/$name.err"
rc=$?
# GNU time writes "Command exited with non-zero status N" above its line when the run fails.
read -r u s m < <(tail -n 1 "$logdir/$name.time") || true
cpu=$(awk -v u="${u:-0}" -v s="${s:-0}" 'BEGIN { printf "%.2f", u + s }')
printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$start" "$cpu" "$(( ${m:-0} / 1024 ))" "$rc" "$*" >>"$logdir/runs.tsv"
printf '%s\t%s s\t%s MB\trc %s\n' "$name" "$cpu" "$(( ${m:-0} / 1024 ))" "$rc"
cat "$logdir/$name.out"
