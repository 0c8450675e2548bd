"""Lua game scripts (grundy.script) against `grundy script … --json` and the native engines."""

import pathlib
import textwrap

import numpy as np
import pytest

import grundy

GAMES = pathlib.Path(__file__).resolve().parents[2] / "examples" / "games"


@pytest.mark.parametrize(
    "file,positions,misere",
    [("kayles.lua", [7, 9, 12], False), ("kayles.lua", [4, 5], True),
     ("wythoff.lua", [[3, 5]], False), ("wythoff.lua", [[10, 20]], False),
     ("chomp.lua", [[3, 3, 2]], False), ("dawsons-kayles.lua", [9], True)])
def test_analyze_matches_cli(cli, file, positions, misere):
    path = GAMES / file
    g = grundy.script(str(path))
    a = g.analyze(*positions, misere=misere)
    literals = [str(p).replace("[", "{").replace("]", "}").replace(" ", "") for p in positions]
    want = cli("script", path, *literals, *(["--misere"] if misere else []))
    assert a.to_dict() == want
    assert a.outcome == want["outcome"]


def test_sequence_table_explain_match_cli(cli):
    k = grundy.script(str(GAMES / "kayles.lua"))
    s = k.sequence(200)
    assert s.to_dict() == cli("script", GAMES / "kayles.lua", "--upto", 200)
    assert np.array_equal(s.values, grundy.heap("kayles").sequence(200).values)
    assert s.period.period == 12 and s.period.status == "observed"
    w = grundy.script(str(GAMES / "wythoff.lua"))
    assert w.table(8, 8).to_dict() == cli("script", GAMES / "wythoff.lua", "--table", 8, 8)
    assert w.explain([3, 4]).to_dict() == cli("script", GAMES / "wythoff.lua", "--explain", "{3,4}")


def test_script_moves_are_the_one_move():
    k = grundy.script(str(GAMES / "kayles.lua"))
    a = k.analyze(7, 9, 12)
    m = next(m for m in a.winning_moves if m.text == "in part 3: 12 → 0 + 11")
    assert isinstance(m, grundy.Move)
    # The old fields, now under ``at``, are still attributes, as the script has them.
    assert (m.component, m.from_, m.leaves) == (2, 12, {"sum": [0, 11]})
    assert m.to_dict()["at"] == {"component": 2, "from": 12, "leaves": {"sum": [0, 11]}}
    # ``to`` is the whole sum after the move, tagged as the script's catalogue entry reads it.
    assert (m.to.kind, m.to.text) == ("script", "sum(0, 7, 9, 11)")
    assert m.outcome == "P" and m.grundy == 0
    assert k.winning_moves(5) == [{"sum": [2, 2]}]
    clock = grundy.script(str(GAMES / "clock.lua"))
    d = clock.analyze(1)
    assert sorted(m.leaves for m in d.drawing_moves) == [8, 11]
    assert all(m.outcome == "D" and m.grundy == grundy.Infinite(k=frozenset())
               for m in d.drawing_moves)


def test_script_as_a_game():
    k = grundy.script(str(GAMES / "kayles.lua"))
    native = grundy.heap("kayles").sequence(100).values
    assert k.grundy(10) == native[10]
    assert np.array_equal(k.values(range(101)), native)
    assert k.outcome(grundy.Sum(4, 5), misere=True) == "P"
    assert k.title == "Kayles"


def test_source_text_and_errors():
    src = textwrap.dedent("""
        name = "Take 1 or 2"
        function moves(n)
          local out = {}
          for k = 1, 2 do if k <= n then out[#out + 1] = n - k end end
          return out
        end""")
    g = grundy.script(src)
    assert [g.grundy(n) for n in range(7)] == [n % 3 for n in range(7)]
    with pytest.raises(grundy.InputError, match=r"<source>:\d+:\d+: syntax error"):
        grundy.script("function moves(n) return {n - } end")
    loop = grundy.script("function moves(n) while true do end end", max_steps=10**5)
    with pytest.raises(grundy.InputError, match="steps"):
        loop.grundy(1)
    cyc = grundy.script("function moves(n) return {(n + 1) % 3} end")
    # A loopy script is valued (Smith's ∞: a ring with no exit is a draw); misère play of it
    # is refused with the cycle named.
    assert cyc.grundy(0) == grundy.Infinite(k=frozenset())
    with pytest.raises(grundy.InputError, match="cycle"):
        cyc.outcome(0, misere=True)
    with pytest.raises(TypeError):
        g.grundy(1.5)
