#!/usr/bin/env bash
# Regenerates crates/cli/symbol-order.txt: the functions that short `grundy` questions run, in
# the order first met, for the linker to lay out side by side (crates/cli/build.rs says why:
# the resident size of a short question is the 64 KiB stretches of code it touches).
#
#     bench/symbol-order.sh [path/to/grundy]     # default target/release/grundy
#
# Runs each command under callgrind (valgrind on PATH) with names left mangled, keeps the
# functions of the executable itself (not libc's), and writes their symbol names. Run it after
# a change that renames many functions or bumps dependencies (names the linker does not find
# are skipped, so a stale list only lays out less), then rebuild and compare
# `/usr/bin/time -f %M grundy cram 4 9 --moves value` before and after.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$root/target/release/grundy}
out=$root/crates/cli/symbol-order.txt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
nm -S "$bin" | awk 'NF == 4 { print $4 }' > "$tmp/syms"
i=0
while read -r cmd; do
    i=$((i + 1))
    # shellcheck disable=SC2086
    valgrind --tool=callgrind --demangle=no --callgrind-out-file="$tmp/cg.$i" \
        "$bin" $cmd > /dev/null 2> "$tmp/err.$i"
done <<'CMDS'
--version
cram 4 9 --moves value
cram 3 4
cram 4x9 --json --moves value
analyze cram 3x4 --moves all
node-kayles grid:3x8 --moves value
CMDS
python3 - "$tmp" "$i" "$out" <<'PY'
import re, sys
tmp, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
syms = set(l.strip() for l in open(f"{tmp}/syms"))
seen, order = set(), []
for k in range(1, n + 1):
    names, ids = {}, []
    for line in open(f"{tmp}/cg.{k}"):
        m = re.match(r"^(fn|cfn)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
        if not m:
            continue
        i = int(m.group(2))
        if m.group(3):
            names[i] = m.group(3).split("'")[0]
        if m.group(1) == "fn":
            ids.append(i)
    for i in ids:
        s = names.get(i)
        if s in syms and s not in seen:
            seen.add(s)
            order.append(s)
open(out, "w").write("\n".join(order) + "\n")
print(f"{len(order)} functions written to {out}")
PY
