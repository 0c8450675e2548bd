#!/usr/bin/env python3
"""The door benchmark: each engine's headline questions asked through every door a user takes
(the engine's bench example, the game's own command, `grundy analyze`, Python's
`grundy.analyze`, the web's `/api/analyze`), beside the public peer (igsolve, ogsolve) in the
same run, with door/engine and door/peer ratios (issue 39, item 8).

    bench/doors.py [--runs N] [--only SUBSTRING] [--no-build] [--no-python | --python PY] [--no-web]

CPU seconds (user + sys) are what the table compares: the machines have 2 noisy cores, so the
wall clock says little. Each figure is the median of N runs (default 3), the runs of one case
interleaved door by door. Memory is the process's peak resident set (GNU's ru_maxrss), for the
commands; the Python and web figures are the work of the call (the process's CPU time across
the call: `time.process_time()` in Python, `/proc/PID/stat` of the server around the request).

What it builds (release): the CLI (`grundy`, `grundy-full`), the board examples `cram`,
`graph` and `queens`, the sparse example `bench`; the Python wheel (scripts/wheel) into target/bench-venv,
when Python is wanted (skipped with a note when the wheel cannot be built). Peers are looked
for on PATH, in target/peers/bin and in $PEERS/bin (igsolve 0.1.2, ogsolve 0.0.7; install them
with `cargo install igsolve --version 0.1.2 --root target/peers`, likewise ogsolve); a missing
peer is a "-" in its column. Not a test: run it by hand, paste the table into
docs/benchmarks.md with the date and the build.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REL = ROOT / "target" / "release"


def find_peer(name: str, version: str) -> str | None:
    cands = [shutil.which(name), str(ROOT / "target/peers/bin" / name)]
    if os.environ.get("PEERS"):
        cands.append(str(Path(os.environ["PEERS"]) / "bin" / name))
    for c in cands:
        if c and os.access(c, os.X_OK):
            try:
                out = subprocess.run([c, "--version"], capture_output=True, text=True).stdout
            except OSError:
                continue
            if version in out:
                return c
    return None


def run_cmd(cmd: list[str], stdin: bytes | None = None, cwd: str | None = None,
            timeout: float = 900) -> tuple[float, int, bytes, int]:
    """CPU seconds (user+sys), peak RSS in KB, stdout and exit code of one run of `cmd`.

    The peak is what `/usr/bin/time` reports of the command (GNU time's %M), where there is
    one: a peak resident set survives exec, so wait4's figure for a command forked straight
    from this Python process is Python's memory (about 23 MB), not the command's; `time` is
    small and forks the command itself. CPU is wait4's, which counts `time`'s child."""
    peak_file = None
    if os.access("/usr/bin/time", os.X_OK):
        fd, peak_file = tempfile.mkstemp(prefix="doors-peak-")
        os.close(fd)
        cmd = ["/usr/bin/time", "-f", "%M", "-o", peak_file, "--", *cmd]
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=cwd)
    start = time.monotonic()
    out = b""
    if stdin is not None:
        # Written from a thread and the output read here, so that neither pipe fills; the
        # process is reaped by wait4 below (communicate would reap it first).
        import threading

        def feed() -> None:
            try:
                p.stdin.write(stdin)
                p.stdin.close()
            except BrokenPipeError:
                pass

        writer = threading.Thread(target=feed)
        writer.start()
        out = p.stdout.read() if p.stdout else b""
        writer.join()
    else:
        out = p.stdout.read() if p.stdout else b""
    _, status, ru = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    peak = ru.ru_maxrss
    if peak_file:
        try:
            peak = int(Path(peak_file).read_text().split()[-1])
        except (OSError, ValueError, IndexError):
            pass
        os.unlink(peak_file)
    if time.monotonic() - start > timeout:
        return float("nan"), 0, out, -1
    return ru.ru_utime + ru.ru_stime, peak, out, p.returncode


class Web:
    """`grundy serve` on a free loopback port; the server's CPU time around each request.

    The server runs with the limits a researcher gives a server of their own (a 10-minute time
    budget, 10^10 positions): the defaults (5 s, 2·10^6 positions) protect a public server and
    would refuse the long questions the table asks."""

    def __init__(self) -> None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.proc = subprocess.Popen(
            [str(REL / "grundy-full"), "serve", "--addr", f"127.0.0.1:{self.port}",
             "--timeout-ms", "600000", "--max-positions", "1e10"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/api/health", timeout=1)
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("grundy serve did not start")

    def cpu(self) -> float:
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def ask(self, path: str, query: dict) -> tuple[float, int]:
        """One question: by GET, or by POST with a JSON body where the position is too long
        for a URL (as the API says: the 10^4-heap sum)."""
        url = f"http://127.0.0.1:{self.port}{path}"
        if len(query.get("position", "")) < 4000:
            req = urllib.request.Request(f"{url}?{urllib.parse.urlencode(query)}")
        else:
            body = {k: (v == "true" if k == "misere" else v) for k, v in query.items()}
            req = urllib.request.Request(url, data=json.dumps(body).encode(),
                                         headers={"Content-Type": "application/json"})
        before = self.cpu()
        try:
            with urllib.request.urlopen(req, timeout=900) as r:
                r.read()
                status = r.status
        except urllib.error.HTTPError as e:
            status = e.code
        return self.cpu() - before, status

    def close(self) -> None:
        self.proc.terminate()
        self.proc.wait()


def python_call(py: str, game: str, position: str, moves: str, extra: dict) -> float:
    code = (
        "import grundy, time, sys, json\n"
        f"kw = json.loads({json.dumps(json.dumps(extra))})\n"
        "t = time.process_time()\n"
        f"grundy.analyze({game!r}, {position!r}, moves={moves!r}, **kw)\n"
        "print(time.process_time() - t)\n"
    )
    out = subprocess.run([py, "-c", code], capture_output=True, text=True, timeout=900)
    if out.returncode != 0:
        return float("nan")
    return float(out.stdout.strip().splitlines()[-1])


def python_params(case: dict) -> dict:
    """The keyword arguments of `grundy.analyze` for a case: its params, and `misere=True` for a
    misère question (a fresh process: the quotient is computed, Python keeps no disk cache)."""
    return {**case["params"], **({"misere": True} if case.get("misere") else {})}


def cases(peers: dict) -> list[dict]:
    """The headline questions: each with its engine command, its CLI command, its registry
    question (game, position, moves, params) and its peers' commands."""
    ig = peers.get("igsolve")
    og = peers.get("ogsolve")
    out = []
    for r, c in [(4, 9), (5, 7), (5, 8)]:
        p = []
        if ig:
            p.append(("igsolve br-asp-set", [ig, "-m", "br-asp-set", "cram", "-r", str(r), "-c", str(c)], None))
            p.append(("igsolve +edb", [ig, "--edb_segments", "1", "-m", "br-asp-set", "cram", "-r", str(r), "-c", str(c)],
                      str(ROOT / "target/peers/edb")))
        out.append(dict(
            name=f"Cram {r}x{c} value",
            engine=[str(REL / "examples/cram"), f"{r}x{c}"],
            cli=["cram", str(r), str(c), "--moves", "value"],
            game="cram", position=f"{r}x{c}", moves="value", params={},
            peers=p))
    for n in [16, 18, 20, 21]:
        out.append(dict(
            name=f"Node Kayles grid:3x{n} value",
            engine=[str(REL / "examples/graph"), "node-kayles", f"grid:3x{n}"],
            cli=["node-kayles", f"grid:3x{n}", "--moves", "value"],
            game="node-kayles", position=f"grid:3x{n}", moves="value", params={},
            peers=[]))
    # Past the engine's 128 vertices: the expansion (A344227's a(12) = 0, a(13) = 1).
    # queens:13 searches 10.2 M nodes, past the default cap of the command and Python (10^7
    # positions off a terminal): raised as a user would.
    for n in [12, 13]:
        cap = ["--max-positions", "1e9"] if n == 13 else []
        out.append(dict(
            name=f"Node Kayles queens:{n} value",
            engine=[str(REL / "examples/queens"), str(n)],
            cli=["node-kayles", f"queens:{n}", "--moves", "value", *cap],
            game="node-kayles", position=f"queens:{n}", moves="value",
            params={"max_positions": 10**9} if cap else {}, analyze_extra=cap,
            peers=[]))
    # A sparse graph past 128 vertices: the expansion values its pieces (Dawson's Chess, 4).
    out.append(dict(
        name="Node Kayles path:1000 value",
        engine=[str(REL / "examples/graph"), "node-kayles", "path:1000"],
        cli=["node-kayles", "path:1000", "--moves", "value"],
        game="node-kayles", position="path:1000", moves="value", params={},
        peers=[]))
    heaps = " ".join(str(7 + (i * 37) % 90) for i in range(10_000))
    out.append(dict(
        name="Kayles, 10^4 heaps, winning moves",
        engine=None,
        cli=["kayles", "@-"], stdin=heaps.encode(),
        game="kayles", position=heaps, moves="winning", params={},
        peers=[]))
    out.append(dict(
        name="misère Kayles 65 10",
        engine=[str(REL / "grundy"), "heap", "0.77", "--position", "65", "10", "--misere"],
        cli=["kayles", "65", "10", "--misere"],
        game="kayles", position="65 10", moves="winning", params={}, misere=True,
        peers=[]))
    gp = []
    if ig:
        gp.append(("igsolve grundy", [ig, "grundy", "--position", str(1 << 22)], None))
    if og:
        out.append(dict(
            name="0.161 to 2^22 (octal, ogsolve's game)",
            engine=[str(REL / "examples/bench"), "22", "0.161", "noref"],
            cli=["heap", "0.161", "--upto", "2^22", "--summary"],
            game=None,
            peers=[("ogsolve rc2", [og, "-m", "rc2", "0.161", "-n", str(1 << 22)], None)]))
    out.append(dict(
        name="Grundy's game, the heap of 2^22",
        engine=[str(REL / "examples/bench"), "22", "4!.0", "noref"],
        cli=["grundys-game", "2^22", "--moves", "value"],
        game="grundys-game", position="4194304", moves="value", params={},
        peers=gp))
    return out


def build(no_build: bool, want_python: bool) -> str | None:
    if not no_build:
        subprocess.run(["cargo", "build", "--release", "-q", "-p", "grundy-cli"], cwd=ROOT, check=True)
        subprocess.run(["cargo", "build", "--release", "-q", "-p", "grundy-board", "--example", "cram",
                        "--example", "graph", "--example", "queens"], cwd=ROOT, check=True)
        subprocess.run(["cargo", "build", "--release", "-q", "-p", "grundy-sparse", "--example", "bench"],
                       cwd=ROOT, check=True)
    if not want_python:
        return None
    venv = ROOT / "target/bench-venv"
    py = venv / "bin/python"
    if not no_build:
        if subprocess.run(["bash", "scripts/wheel"], cwd=ROOT).returncode != 0:
            print("note: no wheel (scripts/wheel failed): Python column skipped", file=sys.stderr)
            return None
        wheels = sorted((ROOT / "target/wheels").glob("grundy-*.whl"))
        if not wheels:
            return None
        if not py.exists():
            subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        subprocess.run([str(py), "-m", "pip", "install", "-q", "--force-reinstall", str(wheels[-1])],
                       check=True)
    return str(py) if py.exists() else None


def median(xs: list[float]) -> float:
    xs = [x for x in xs if x == x]
    return statistics.median(xs) if xs else float("nan")


def fmt(x: float) -> str:
    return "-" if x != x else (f"{x:.3f}" if x < 10 else f"{x:.1f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--only", default="")
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--no-python", action="store_true")
    ap.add_argument("--no-web", action="store_true")
    ap.add_argument("--python", help="a Python with the grundy wheel installed already "
                    "(scripts/test-python's .venv/bin/python): no wheel is built")
    ap.add_argument("--no-doors", action="store_true",
                    help="only the Python column (with --python)")
    args = ap.parse_args()
    py = args.python or build(args.no_build, not args.no_python)
    if args.python:
        build(args.no_build, False)
    peers = {k: v for k, v in [("igsolve", find_peer("igsolve", "0.1.2")),
                               ("ogsolve", find_peer("ogsolve", "0.0.7"))] if v}
    web = None if args.no_web or args.no_doors else Web()
    (ROOT / "target/peers/edb").mkdir(parents=True, exist_ok=True)
    grundy = str(REL / "grundy")
    rows = []
    try:
        for case in cases(peers):
            if args.only and args.only.lower() not in case["name"].lower():
                continue
            figs: dict[str, list[float]] = {}
            rss: dict[str, list[int]] = {}

            def add(col: str, cpu: float, kb: int = 0) -> None:
                figs.setdefault(col, []).append(cpu)
                if kb:
                    rss.setdefault(col, []).append(kb)

            for (label, cmd, cwd) in case["peers"]:
                if "edb" in label:  # builds (or finds) the cached end database first
                    run_cmd(cmd, cwd=cwd)
            for _ in range(args.runs):
                if args.no_doors:
                    if py and case.get("game"):
                        add("python", python_call(py, case["game"], case["position"], case["moves"],
                                                  python_params(case)))
                    continue
                if case.get("engine"):
                    cpu, kb, _, rc = run_cmd(case["engine"])
                    add("engine", cpu if rc == 0 else float("nan"), kb)
                cpu, kb, _, rc = run_cmd([grundy, *case["cli"]], stdin=case.get("stdin"))
                add("command", cpu if rc == 0 else float("nan"), kb)
                if case.get("game"):
                    analyze = ["analyze", case["game"]]
                    if case.get("stdin"):
                        analyze.append("@-")
                    else:
                        analyze.append(case["position"])
                    analyze += ["--moves", case["moves"]] + (["--misere"] if case.get("misere") else [])
                    analyze += case.get("analyze_extra", [])
                    cpu, kb, _, rc = run_cmd([grundy, *analyze], stdin=case.get("stdin"))
                    add("analyze", cpu if rc == 0 else float("nan"), kb)
                    if py:
                        add("python", python_call(py, case["game"], case["position"], case["moves"],
                                                  python_params(case)))
                    if web:
                        q = {"game": case["game"], "position": case["position"], "moves": case["moves"]}
                        if case.get("misere"):
                            q["misere"] = "true"
                        cpu, status = web.ask("/api/analyze", q)
                        add("web", cpu if status == 200 else float("nan"))
                for (label, cmd, cwd) in case["peers"]:
                    cpu, kb, _, rc = run_cmd(cmd, cwd=cwd)
                    add(label, cpu if rc == 0 else float("nan"), kb)
            med = {k: median(v) for k, v in figs.items()}
            mem = {k: round(max(v) / 1024, 1) for k, v in rss.items()}
            rows.append((case["name"], med, mem))
            print(case["name"], json.dumps({k: round(v, 3) for k, v in med.items() if v == v}),
                  json.dumps(mem), file=sys.stderr)
    finally:
        if web:
            web.close()
    cols = ["engine", "command", "analyze", "python", "web"]
    peer_cols = sorted({k for _, m, _ in rows for k in m if k not in cols})
    print(f"Doors: CPU seconds (user+sys), median of {args.runs}; MB peak RSS in brackets; "
          f"{os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    print()
    print("| question | " + " | ".join(cols + peer_cols) + " | worst door / engine | command / best peer |")
    print("|---" * (len(cols) + len(peer_cols) + 3) + "|")
    for name, med, mem in rows:
        cells = []
        for c in cols + peer_cols:
            v = med.get(c, float("nan"))
            cells.append(fmt(v) + (f" ({mem[c]} MB)" if c in mem else ""))
        doors = [med[c] for c in ["command", "analyze", "python", "web"] if c in med and med[c] == med[c]]
        eng = med.get("engine", float("nan"))
        worst = f"{max(doors) / eng:.2f}x" if doors and eng == eng and eng > 0.005 else "-"
        ps = [med[c] for c in peer_cols if c in med and med[c] == med[c]]
        cmd = med.get("command", float("nan"))
        vs = f"{min(ps) / cmd:.2f}x" if ps and cmd == cmd and cmd > 0 else "-"
        print(f"| {name} | " + " | ".join(cells) + f" | {worst} | {vs} |")


if __name__ == "__main__":
    main()
