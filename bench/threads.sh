#!/usr/bin/env bash
# Default threads against --threads 1 on random splitting take-and-break codes.
#
#   bench/threads.sh [CODES] [N] [REPEATS]     (defaults: 300 codes, N = 100000, 3 repeats)
#   BUSY=1 bench/threads.sh ...                 the same with one core kept busy meanwhile
#   SEED=7 ENGINE=sparse bench/threads.sh ...   another draw; force the record engine
#
# For each code, runs `grundy heap CODE --upto N --summary` with the default threads and with
# `--threads 1`, alternately, REPEATS times each, and takes the median wall time of each; prints
# one line per code (ratio = default / one thread) and then the distribution of the ratios.
# Runs longer than TIMEOUT seconds (default 20) are skipped. Builds the release binary first.
set -euo pipefail
cd "$(dirname "$0")/.."
CODES=${1:-300}
N=${2:-100000}
REPEATS=${3:-3}
cargo build --release -q -p grundy-cli
BIN=$PWD/target/release/grundy
busy_pid=""
if [[ "${BUSY:-0}" == 1 ]]; then
  ( while :; do :; done ) &
  busy_pid=$!
  trap 'kill "$busy_pid" 2>/dev/null || true' EXIT
fi
python3 - "$BIN" "$CODES" "$N" "$REPEATS" "${SEED:-19}" "${ENGINE:-auto}" "${TIMEOUT:-20}" "${BUSY:-0}" <<'PY'
import random, statistics, subprocess, sys, time
binary, codes, n, repeats, seed, engine, timeout, busy = sys.argv[1:]
codes, repeats, timeout = int(codes), int(repeats), float(timeout)
rng = random.Random(int(seed))

def random_code():
    # Octal digits 0-7 (at least one that splits: 4-7), sometimes a leading 4 (take all, split).
    while True:
        k = rng.randint(2, 4)
        digits = [rng.randint(0, 7) for _ in range(k)]
        if digits[-1] == 0 or max(digits) < 4:
            continue
        lead = "4" if rng.random() < 0.2 else "0"
        return lead + "." + "".join(map(str, digits))

class TimedOut(Exception):
    pass

def run(code, threads):
    # The limit is coreutils' `timeout`, not subprocess's: with a timeout, Python polls the
    # child with sleeps that double up to 50 ms, which rounds every wall time up to the next
    # step (31.5 ms, 63.5 ms, then every 50 ms) and made runs a few ms apart look 50 ms apart.
    cmd = ["timeout", f"{timeout:g}", binary, "heap", code, "--upto", n, "--summary",
           "--engine", engine]
    if threads is not None:
        cmd += ["--threads", str(threads)]
    start = time.perf_counter()
    done = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    if done.returncode == 124:
        raise TimedOut()
    if done.returncode != 0:
        raise subprocess.CalledProcessError(done.returncode, cmd)
    return wall

seen, ratios, skipped = set(), [], 0
print(f"| code | default s | 1 thread s | ratio |")
print(f"|---|---|---|---|")
while len(seen) < codes:
    code = random_code()
    if code in seen:
        continue
    seen.add(code)
    try:
        d, o = [], []
        for _ in range(repeats):
            d.append(run(code, None))
            o.append(run(code, 1))
    except TimedOut:
        skipped += 1
        print(f"| {code} | > {timeout:g} | | skipped |")
        continue
    except subprocess.CalledProcessError as e:
        skipped += 1
        print(f"| {code} | error {e.returncode} | | skipped |")
        continue
    md, mo = statistics.median(d), statistics.median(o)
    ratios.append((md / mo, code, md, mo))
    print(f"| {code} | {md:.3f} | {mo:.3f} | {md / mo:.2f} |", flush=True)

r = sorted(x[0] for x in ratios)
q = lambda p: r[min(len(r) - 1, int(p * len(r)))]
print()
print(f"codes: {len(r)} measured, {skipped} skipped; N = {n}, {repeats} runs each, "
      f"engine {engine}, one core kept busy: {'yes' if busy == '1' else 'no'}")
print(f"ratio default / --threads 1: min {r[0]:.2f}  p10 {q(.10):.2f}  median {q(.5):.2f}  "
      f"p90 {q(.90):.2f}  p99 {q(.99):.2f}  max {r[-1]:.2f}")
print(f"codes where the default is more than 10% slower: {sum(x > 1.10 for x in r)}")
for ratio, code, md, mo in sorted(ratios, reverse=True)[:5]:
    print(f"  slowest: {code} {md:.3f} s vs {mo:.3f} s ({ratio:.2f})")
PY
