#!/usr/bin/env python3
"""`grundy cram R C --moves value` beside igsolve's `br-asp-set` (and, with --edb DIR, the same
with its end database cached in DIR), at the door: CPU seconds (user + sys, by wait4) of each
command, runs interleaved, median; then peak memory (GNU time's %M), median (issue 39).

    bench/cram_door.py [--runs 7] [--grundy A=PATH ...] [--igsolve PATH] [--edb DIR] 4x9 5x7 5x8

Each --grundy names a build (label=path; default target/release/grundy), so a before and an
after run in the same sitting. Not a test: paste the figures into docs/benchmarks.md.
"""

import argparse
import os
import statistics
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cpu(cmd, cwd=None):
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=cwd)
    _, _, ru = os.wait4(p.pid, 0)
    return ru.ru_utime + ru.ru_stime


def peak_mb(cmd, cwd=None):
    fd, f = tempfile.mkstemp()
    os.close(fd)
    subprocess.run(["/usr/bin/time", "-f", "%M", "-o", f, *cmd], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, cwd=cwd)
    kb = int(Path(f).read_text().split()[-1])
    os.unlink(f)
    return kb / 1000


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--grundy", action="append", default=[])
    ap.add_argument("--igsolve", default=str(ROOT / "target/peers/bin/igsolve"))
    ap.add_argument("--edb", help="directory where igsolve's end databases are (or get) built")
    ap.add_argument("boards", nargs="+")
    a = ap.parse_args()
    builds = [g.split("=", 1) for g in a.grundy] or [["grundy", str(ROOT / "target/release/grundy")]]
    for b in a.boards:
        r, c = b.lower().split("x")
        cases = [(label, [path, "cram", r, c, "--moves", "value"], None) for label, path in builds]
        ig = [a.igsolve, "-m", "br-asp-set", "cram", "-r", r, "-c", c]
        cases.append(("br-asp-set", ig, None))
        if a.edb:
            edb = [a.igsolve, "--edb_segments", "1", *ig[1:]]
            Path(a.edb).mkdir(parents=True, exist_ok=True)
            subprocess.run(edb, cwd=a.edb, stdout=subprocess.DEVNULL)  # builds it once
            cases.append(("br-asp-set+edb", edb, a.edb))
        times = {label: [] for label, _, _ in cases}
        for _ in range(a.runs):
            for label, cmd, cwd in cases:
                times[label].append(cpu(cmd, cwd))
        peaks = {label: statistics.median(peak_mb(cmd, cwd) for _ in range(a.runs))
                 for label, cmd, cwd in cases}
        peer = statistics.median(times["br-asp-set"])
        for label, _, _ in cases:
            t = statistics.median(times[label])
            print(f"{b} {label:16} CPU {t:.3f} s  (br-asp-set / it {peer / t:.2f}x)  "
                  f"peak {peaks[label]:.2f} MB")


if __name__ == "__main__":
    main()
