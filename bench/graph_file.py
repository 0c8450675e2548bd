#!/usr/bin/env python3
"""Writes a random digraph in the text format of `grundy graph` (one edge `FROM TO` a line).

    bench/graph_file.py VERTICES EDGES SEED loopy|dag > FILE

Vertices are `v0 … v{VERTICES-1}`, each declared on a line of its own first (so that every
vertex exists, in order). `loopy`: EDGES edges with uniform random heads and tails, loops and
repeats allowed, drawn by the SplitMix64 generator of `crates/loopy/examples/loopy_bench.rs`
(the same graph as that bench for the same arguments). `dag`: the same draws, each edge
written from the smaller index to the larger and a loop skipped, so the graph has no cycle.
"""
import sys

MASK = (1 << 64) - 1


def main():
    n, m, seed = (int(a) for a in sys.argv[1:4])
    kind = sys.argv[4] if len(sys.argv) > 4 else "loopy"
    state = seed

    def below(k):
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) & MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        z ^= z >> 31
        return (z * k) >> 64

    out = sys.stdout
    out.write("".join(f"v{i}\n" for i in range(n)))
    lines = []
    for _ in range(m):
        a, b = below(n), below(n)
        if kind == "dag":
            if a == b:
                continue
            a, b = min(a, b), max(a, b)
        lines.append(f"v{a} v{b}\n")
        if len(lines) >= 100000:
            out.write("".join(lines))
            lines.clear()
    out.write("".join(lines))


main()
