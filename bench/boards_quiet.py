#!/usr/bin/env python3
"""Cram on empty boards, grundy-board against igsolve 0.1.2, on prebuilt binaries only (for a
quiet machine where nothing can be built or installed): each board REPS times per program,
median wall and user seconds, peak memory (ru_maxrss of the child), the value found.

    bench/boards_quiet.py [--reps 3] [--threads 1,2] BOARD...

Binaries: target/release/examples/cram (`cargo build --release -p grundy-board --example
cram`) and target/peers/bin/igsolve (bench/boards.sh installs it). Prints a markdown table.
"""
import os, re, statistics, subprocess, sys, time

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ours = os.path.join(root, "target/release/examples/cram")
igsolve = os.path.join(root, "target/peers/bin/igsolve")

def hwm(pid):
    """The process's peak resident memory so far in KiB (VmHWM of its own address space)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def run(cmd, pattern):
    """Wall s, user s, peak MB and the value (last number after `pattern`) of one run. Peak
    memory is the program's VmHWM polled every 5 ms (ru_maxrss would count this Python too:
    the child inherits its high-water mark across exec)."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    chunks, peak = [], 0
    os.set_blocking(p.stdout.fileno(), False)
    while True:
        peak = max(peak, hwm(p.pid))
        try:
            c = p.stdout.read()
            if c:
                chunks.append(c)
        except BlockingIOError:
            pass
        pid, status, ru = os.wait4(p.pid, os.WNOHANG)
        if pid:
            break
        time.sleep(0.005)
    wall = time.perf_counter() - t0
    os.set_blocking(p.stdout.fileno(), True)
    chunks.append(p.stdout.read() or b"")
    p.returncode = status
    out = b"".join(chunks).decode(errors="replace")
    m = re.findall(pattern + r" *([0-9]+)", out)
    return wall, ru.ru_utime, peak / 1024, (m[-1] if m else "?")

def main(argv):
    reps, threads, boards = 3, [1], []
    i = 0
    while i < len(argv):
        if argv[i] == "--reps": reps = int(argv[i + 1]); i += 2
        elif argv[i] == "--threads": threads = [int(x) for x in argv[i + 1].split(",")]; i += 2
        else: boards.append(argv[i]); i += 1
    print(f"Cram, empty boards, median of {reps}; {os.cpu_count()} cores; load {open('/proc/loadavg').read().split()[:3]}")
    print()
    progs = [(f"grundy-board{'' if t == 1 else f' ({t} threads)'}", lambda b, t=t: [ours, b, "--max-memory", "64M", "--threads", str(t)], "grundy")
             for t in threads]
    progs += [(f"igsolve {m}", lambda b, m=m: [igsolve, "-m", m, "cram", "-r", b.split("x")[0], "-c", b.split("x")[1]], "initial position:")
              for m in ["br-asp-set", "lvb"]]
    print("| board | program | value | wall s | user s | MB |")
    print("|---|---|---|---|---|---|")
    for b in boards:
        for name, cmd, pat in progs:
            runs = [run(cmd(b), pat) for _ in range(reps)]
            med = lambda k: statistics.median(x[k] for x in runs)
            print(f"| {b} | {name} | {runs[-1][3]} | {med(0):.2f} | {med(1):.2f} | {med(2):.1f} |", flush=True)

main(sys.argv[1:])
