#!/usr/bin/env bash
# CPU seconds (user + system, the whole process) of `grundy-full script` as a user runs it,
# median of $REPS runs (default 5), for the script targets of docs/benchmarks.md:
#   kayles.lua --upto 2000 --json        against its floor, bench/scripts/kayles-floor.lua
#                                        (the same 2·10^6 options built and read, none handed
#                                        to the engine)
#   ring-loopy.lua --upto 99999 --json   a loopy game of 10^5 positions, against its loopfree
#                                        twin ring-loopfree.lua
# Usage: bench/script-cpu.sh [path/to/grundy-full]   (default: a release build, made here)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${1:-}
if [ -z "$BIN" ]; then
  cargo build --release -q -p grundy-cli --bin grundy-full
  BIN=target/release/grundy-full
fi
REPS=${REPS:-5} python3 - "$BIN" <<'PY'
import os, resource, statistics, subprocess, sys
bin_ = sys.argv[1]
reps = int(os.environ["REPS"])
def cpu(args):
    times = []
    for _ in range(reps):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([bin_, "script", *args], check=True, stdout=subprocess.DEVNULL)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        times.append((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
    return statistics.median(times), min(times), max(times)
rows = [
    ("kayles", ["examples/games/kayles.lua", "--upto", "2000", "--json"]),
    ("kayles floor", ["bench/scripts/kayles-floor.lua", "--upto", "2000", "--json"]),
    ("ring loopy 10^5", ["bench/scripts/ring-loopy.lua", "--upto", "99999", "--json"]),
    ("ring loopfree 10^5", ["bench/scripts/ring-loopfree.lua", "--upto", "99999", "--json"]),
]
res = {}
print(f"load average {os.getloadavg()[0]:.1f}; CPU s, median of {reps} (min-max)")
for name, args in rows:
    m, lo, hi = cpu(args)
    res[name] = m
    print(f"{name:20s} {m:7.3f}  ({lo:.3f}-{hi:.3f})")
print(f"kayles / floor           {res['kayles'] / res['kayles floor']:.2f}x")
print(f"loopy / loopfree (10^5)  {res['ring loopy 10^5'] / res['ring loopfree 10^5']:.2f}x")
PY
