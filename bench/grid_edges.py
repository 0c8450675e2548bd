#!/usr/bin/env python3
"""Prints the R x C grid graph as an edge list in grundy's graph notation, numbered row by row.

    bench/grid_edges.py COLS [ROWS]            (ROWS: default 3)

The second path of docs/results.md's Node Kayles 3 x n rows: `grundy analyze node-kayles
"$(bench/grid_edges.py 40)" --moves value --json --force` is the 3 x 40 grid with no lattice
shape (`120:0-1,0-40,1-2,1-41,…`), so the engine keys its components as a graph's, not by the
lattice's shapes. Vertex `r * COLS + c` is row r, column c; each edge is written once, the
one to the right before the one below.
"""
import sys


def main():
    cols = int(sys.argv[1])
    rows = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    if cols < 1 or rows < 1:
        sys.exit("grid_edges.py: COLS and ROWS must be at least 1")
    edges = []
    for r in range(rows):
        for c in range(cols):
            v = r * cols + c
            if c + 1 < cols:
                edges.append(f"{v}-{v + 1}")
            if r + 1 < rows:
                edges.append(f"{v}-{v + cols}")
    print(f"{rows * cols}:" + ",".join(edges))


if __name__ == "__main__":
    main()
