"""Loopy games from Python: a `grundy.Game` whose positions can repeat is valued by the loopy
solver (Smith's generalized values, draws, remoteness), and so is a Lua script that loops.
Reference values: the headers of examples/games/clock.lua and take-or-give.lua (Smith's
definition, worked by hand; the same rules are checked in crates/loopy/tests/games.rs)."""

import os

import pytest

import grundy

EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "games")


def clock_moves(h):
    """Clock: turn the hand back 2 or 5 hours; stuck at 0 (windup:12:2,5)."""
    return [] if h == 0 else [(h - 2) % 12, (h - 5) % 12]


def take_or_give_moves(n, full=6):
    out = [n - t for t in (1, 2) if t <= n]
    if 1 <= n < full:
        out.append(n + 1)
    return out


INF = grundy.Infinite(k=frozenset())
INF0 = grundy.Infinite(k=frozenset({0}))
CLOCK = {0: 0, 7: 0, 2: INF0, 5: INF0, 9: INF0}


def test_infinite_values_and_their_outcomes():
    v = grundy.Infinite(k=frozenset({0, 2}))
    assert v.outcome == "N"
    assert str(v) == "∞(0,2)"
    assert v.to_json() == {"infinite": [0, 2]}
    d = grundy.Infinite(k=frozenset({1, 3}))
    assert d.outcome == "D"
    assert str(INF) == "∞" and INF.outcome == "D"
    assert grundy.Infinite(k=[2, 0]) == v and hash(grundy.Infinite(k=[2, 0])) == hash(v)


def test_a_python_game_that_loops_is_valued_by_the_loopy_solver():
    g = grundy.Game(moves=clock_moves, name="clock")
    for h in range(12):
        assert g.grundy(h) == CLOCK.get(h, INF), h
    a = g.analyze(9)
    assert a.outcome == "N" and a.grundy == INF0
    assert [m.to for m in a.winning_moves] == [7]
    assert a.remoteness == 3
    d = g.analyze(1)
    assert d.outcome == "D" and d.grundy == INF
    assert sorted(m.to for m in d.drawing_moves) == [8, 11]
    assert "remoteness" not in d.to_dict()
    assert d.to_dict()["grundy"] == {"infinite": []}
    assert g.outcome(7) == "P"
    # Each distinct position's moves were asked at most twice (once by the ordinary search
    # that met the cycle, once by the exploration).
    assert g.moves_calls <= 2 * 12
    # Finite values still come as a numpy array; an infinite one is refused there.
    with pytest.raises(grundy.InputError, match="infinite"):
        g.values(range(12))
    # Misère play of a loopy game is refused with the cycle named.
    with pytest.raises(grundy.CycleError):
        g.outcome(1, misere=True)


def test_take_or_give_draws():
    g = grundy.Game(moves=take_or_give_moves)
    assert [g.grundy(n) for n in range(7)] == [0, INF0, INF0, INF, INF, INF, INF]
    assert [g.outcome(n) for n in range(7)] == ["P", "N", "N", "D", "D", "D", "D"]
    assert sorted(m.to for m in g.analyze(4).drawing_moves) == [3, 5]


def test_a_loopfree_game_is_unchanged():
    g = grundy.Game(moves=lambda n: [n - k for k in (1, 3, 4) if k <= n])
    assert [g.grundy(n) for n in range(8)] == [0, 1, 0, 1, 2, 3, 2, 0]
    a = g.analyze(4)
    assert a.grundy == 2 and "drawing_moves" not in a.to_dict()
    assert "remoteness" not in a.to_dict()


def test_loopy_lua_scripts():
    clock = grundy.script(os.path.join(EXAMPLES, "clock.lua"))
    seq = clock.sequence(11)
    assert seq.values == [CLOCK.get(h, INF) for h in range(12)]
    assert seq.to_dict()["values"][2] == {"infinite": [0]}
    a = clock.analyze(1)
    assert a.outcome == "D" and a.grundy == INF
    assert len(a.drawing_moves) == 2
    assert clock.grundy(9) == INF0
    e = clock.explain(4)
    assert e.outcome == "D"
    assert "keeps the draw" in e.why
