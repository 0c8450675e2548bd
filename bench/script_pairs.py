#!/usr/bin/env python3
"""The script path against its floor, interleaved: runs a script and its floor one after the
other N times (so that drift of the machine hits both alike) and prints the median of the
per-pair CPU ratios and the ratio of the medians.

    bench/script_pairs.py BINARY [N]
"""
import resource, statistics, subprocess, sys

bin_, n = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 41
pairs = [
    ("kayles / floor", ["examples/games/kayles.lua", "--upto", "2000", "--json"],
     ["bench/scripts/kayles-floor.lua", "--upto", "2000", "--json"]),
    ("loopy / loopfree (10^5)", ["bench/scripts/ring-loopy.lua", "--upto", "99999", "--json"],
     ["bench/scripts/ring-loopfree.lua", "--upto", "99999", "--json"]),
]


def cpu(args):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([bin_, "script", *args], check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


for name, a, b in pairs:
    xs, ys = [], []
    for _ in range(n):
        xs.append(cpu(a))
        ys.append(cpu(b))
    ratios = sorted(x / y for x, y in zip(xs, ys))
    q = lambda p: ratios[int(p * (len(ratios) - 1))]
    print(f"{name}: median of {n} pair ratios {statistics.median(ratios):.2f}x "
          f"(quartiles {q(0.25):.2f}-{q(0.75):.2f}); medians {statistics.median(xs):.3f} / "
          f"{statistics.median(ys):.3f} s = {statistics.median(xs) / statistics.median(ys):.2f}x")
