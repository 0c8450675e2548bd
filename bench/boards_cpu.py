#!/usr/bin/env python3
"""User CPU time of several builds of grundy-board's `cram` example against igsolve 0.1.2
`-m br-asp-set`, without and with its end database (`br-asp-set+edb`: `--edb_segments 1`,
cached per board under target/peers/edb by one untimed run before the rounds), in
interleaved rounds (for a busy machine, where wall time says little and
the load drifts): each round runs every build and igsolve once on each board, in turn.
Prints each program's median user seconds per board, its runs, and the median of igsolve's
faster configuration over each build's.

    bench/boards_cpu.py [--rounds 9] [--build NAME=PATH]... BOARD...

Default build: target/release/examples/cram as `head`. igsolve: target/peers/bin/igsolve
(bench/boards.sh installs it). User seconds come from the child's rusage (`os.wait4`), with
microsecond resolution; peak memory is not measured here (see bench/boards.sh).
"""
import os, statistics, subprocess, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
igsolve = os.path.join(root, "target/peers/bin/igsolve")
edb_dir = os.path.join(root, "target/peers/edb")


def user_seconds(cmd, cwd=None):
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=cwd)
    _, status, usage = os.wait4(p.pid, 0)
    if status != 0:
        sys.exit(f"failed: {' '.join(cmd)}")
    return usage.ru_utime


def main(argv):
    rounds, builds, boards = 9, {}, []
    it = iter(argv)
    for a in it:
        if a == "--rounds":
            rounds = int(next(it))
        elif a == "--build":
            name, _, path = next(it).partition("=")
            builds[name] = path
        else:
            boards.append(a)
    if not builds:
        builds["head"] = os.path.join(root, "target/release/examples/cram")
    if not boards:
        sys.exit(__doc__)
    os.makedirs(edb_dir, exist_ok=True)

    def peers(b):
        rows, cols = b.split("x")
        ig = [igsolve, "-m", "br-asp-set", "cram", "-r", rows, "-c", cols]
        return {"br-asp-set": ig, "br-asp-set+edb": [igsolve, "--edb_segments", "1", *ig[1:]]}

    for b in boards:  # builds the end databases, untimed
        user_seconds(peers(b)["br-asp-set+edb"], cwd=edb_dir)
    runs = {}
    for _ in range(rounds):
        for b in boards:
            for name, path in builds.items():
                runs.setdefault((name, b), []).append(user_seconds([path, b]))
            for name, cmd in peers(b).items():
                cwd = edb_dir if name.endswith("+edb") else None
                runs.setdefault((name, b), []).append(user_seconds(cmd, cwd=cwd))
    for b in boards:
        best, ig = min((statistics.median(runs[(n, b)]), n) for n in peers(b))
        for name in [*builds, *peers(b)]:
            xs = runs[(name, b)]
            med = statistics.median(xs)
            ratio = f"  {ig} / {name} {best / med:.2f}x" if name in builds else ""
            print(f"{b} {name}: median {med:.3f} s{ratio}  ({' '.join(f'{x:.3f}' for x in xs)})")


if __name__ == "__main__":
    main(sys.argv[1:])
