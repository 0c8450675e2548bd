"""The catalogue from Python: every game the registry lists is analysed by
``grundy.analyze`` with exactly the CLI's ``grundy analyze --json`` object and played by
``grundy.play``; the native stubs name every function of the extension."""

import ast
import json
import os
import pathlib

import pytest

import grundy
from grundy import _grundy

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_every_registry_game_is_in_python(cli):
    listed = cli("games")["games"]
    names = [g.name for g in grundy.games()]
    assert names == [g["name"] for g in listed]
    rows = []
    for g in grundy.games():
        game = g.to_dict().get("example_game") or g.name
        report = grundy.analyze(game, g.example)
        want = cli("analyze", game, g.example)
        same = report.to_dict() == want
        turn = grundy.play(game, g.example)
        played = isinstance(turn.moves, list) and turn.to_dict()["position"]["kind"] == g.kind
        rows.append((g.name, same, played))
    table = "\n".join(f"| {n} | {'yes' if a else 'NO'} | {'yes' if b else 'NO'} |" for n, a, b in rows)
    print("| game | analyze == CLI --json | play |\n|---|---|---|\n" + table)
    assert all(a and b for _, a, b in rows), table
    print(front_end_table({n: a and b for n, a, b in rows}))


def front_end_table(python):
    """The registry test's table (crates/cli/tests/cli_catalogue.rs, run before this one by
    scripts/test) with a Python column: one table, every game × every front end. Fails when
    the two list different games or any cell is NO; says so when the Rust test has not run."""
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    path = target / "tmp" / "front-ends.json"
    if not path.exists():
        return f"(no {path}: run `cargo test -p grundy-cli --test cli_catalogue` for the whole table)"
    data = json.loads(path.read_text())
    columns = data["columns"] + ["Python"]
    rust = {r["game"]: r["front_ends"] for r in data["rows"]}
    assert sorted(rust) == sorted(python), "the registry test and Python list different games"
    lines = ["| game | " + " | ".join(columns) + " |", "|---" * (len(columns) + 1) + "|"]
    for game, cells in rust.items():
        cells = cells + [python[game]]
        lines.append(f"| {game} | " + " | ".join("yes" if c else "NO" for c in cells) + " |")
        assert all(cells), lines[-1]
    return "\n".join(lines)


def test_reports_have_python_types():
    r = grundy.analyze("node-kayles", "grid:3x4")
    assert (r.outcome, r.grundy) == ("P", 0)
    r = grundy.analyze("kayles", "5 7 9")
    assert r.grundy == 2 and r.winning_moves and len(r.winning_moves[0].short) <= 30
    d = grundy.analyze("loopy-digraph", "a b; b a; @ a")
    assert d.outcome == "D" and d.to_dict()["grundy"] == {"infinite": []}


def test_bad_input_raises_input_error():
    with pytest.raises(grundy.InputError):
        grundy.analyze("no-such-game", "1")
    with pytest.raises(grundy.InputError):
        grundy.analyze("node-kayles", "grid:5x5", max_positions=100)


def test_stubs_name_every_native_function():
    stub = ast.parse((ROOT / "python" / "grundy" / "_grundy.pyi").read_text())
    stubbed = {n.name for n in ast.walk(stub) if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    native = {n for n in dir(_grundy) if not n.startswith("_")}
    missing = sorted(native - stubbed)
    assert not missing, f"missing from _grundy.pyi: {missing}"

