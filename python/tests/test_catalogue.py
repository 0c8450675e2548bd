"""The catalogue from Python: every game the registry lists is analysed by
``grundy.analyze`` with exactly the CLI's ``grundy analyze --json`` object and played by
``grundy.play``; the native stubs name every function of the extension."""

import ast
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

