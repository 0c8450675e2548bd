"""Python-defined games agree with the native engines, call `moves` once per position, and
fail with clear errors."""

import itertools

import numpy as np
import pytest

import grundy


def kayles_moves(n):
    """Knock down one pin or two adjacent pins from a row of n."""
    return [grundy.Sum(a, n - k - a) for k in (1, 2) for a in range((n - k) // 2 + 1) if n >= k]


def dawsons_kayles_moves(n):
    """Knock down two adjacent pins."""
    return [grundy.Sum(a, n - 2 - a) for a in range((n - 2) // 2 + 1)] if n >= 2 else []


def subtraction_moves(n, s=(1, 3, 4)):
    return [n - k for k in s if k <= n]


N = 500


@pytest.mark.parametrize(
    "moves,rule",
    [(kayles_moves, "kayles"), (dawsons_kayles_moves, "0.07"), (subtraction_moves, "sub:1,3,4")],
)
def test_agrees_with_native(moves, rule):
    calls = []

    def counted(n):
        calls.append(n)
        return moves(n)

    g = grundy.Game(moves=counted)
    values = g.values(range(N + 1))
    native = grundy.heap(rule).sequence(N, engine="reference").values
    assert values.dtype == np.uint32
    assert np.array_equal(values, native)
    # one call of moves per distinct position: every heap 0..N once
    assert sorted(calls) == list(range(N + 1))
    assert g.moves_calls == N + 1
    # asking again calls nothing
    assert [g.grundy(n) for n in range(0, N + 1, 7)] == native[::7].tolist()
    assert g.moves_calls == N + 1


def test_dawsons_kayles_named_heaps():
    # The named game counts pins: G(n) = G_0.07(n), as the CLI's `heap dawsons-kayles`.
    g = grundy.Game(moves=dawsons_kayles_moves)
    native = grundy.heap("dawsons-kayles").sequence(200).values
    ours = g.values(range(201))
    assert np.array_equal(ours, native) or np.array_equal(ours[1:], native[:-1])


def test_readme_example():
    g = grundy.Game(moves=lambda n: [grundy.Sum(a, n - 1 - a) for a in range((n - 1) // 2 + 1)]
                    + [grundy.Sum(a, n - 2 - a) for a in range((n - 2) // 2 + 1)])
    kayles = grundy.heap("kayles").sequence(500).values
    assert g.grundy(10) == kayles[10]
    assert g.outcome(10) == ("P" if kayles[10] == 0 else "N")
    assert np.array_equal(g.values(range(0, 500)), kayles[:500])


def test_winning_moves_match_native_sums():
    g = grundy.Game(moves=kayles_moves)
    k = grundy.heap("kayles")
    for heaps in [(7, 9, 12), (5, 6), (3, 3, 8), (20,), (4, 4)]:
        pos = grundy.Sum(*heaps)
        a = g.analyze(pos)
        native = k.analyze(list(heaps))
        assert a.grundy == native.grundy and a.outcome == native.outcome
        ours = sorted({tuple(sorted(x for x in m.to.parts if x > 0)) for m in a.winning_moves})
        theirs = sorted({tuple(sorted(x for x in m.to.heaps if x > 0)) for m in native.winning_moves})
        assert ours == theirs
        assert a.to_dict()["winning_moves"] == [{"to": m.to, "text": m.text} for m in a.winning_moves]


def test_misere_matches_native():
    g = grundy.Game(moves=kayles_moves)
    k = grundy.heap("kayles")
    for a, b in itertools.combinations_with_replacement(range(9), 2):
        pos = grundy.Sum(a, b)
        native = k.analyze([a, b], misere=True)
        ours = g.analyze(pos, misere=True)
        assert ours.outcome == native.outcome, (a, b)
        assert g.outcome(pos, misere=True) == native.outcome
        assert "grundy" not in ours.to_dict() and ours.to_dict()["play"] == "misere"


def test_sum_semantics():
    s = grundy.Sum(1, grundy.Sum(2, 3))
    assert s.parts == (1, 2, 3) and len(s) == 3 and list(s) == [1, 2, 3]
    assert s == grundy.Sum(1, 2, 3) and hash(s) == hash(grundy.Sum(1, 2, 3))
    assert s != (1, 2, 3) and repr(s) == "Sum(1, 2, 3)"
    g = grundy.Game(moves=subtraction_moves)
    assert g.grundy(grundy.Sum()) == 0
    assert g.grundy(grundy.Sum(5, 6, 7)) == g.grundy(5) ^ g.grundy(6) ^ g.grundy(7)


def test_canon_split_show():
    # Positions are tuples of heaps (Kayles rows); canon sorts them and drops empty rows,
    # split makes each row its own component.
    def moves(rows):
        out = []
        for i, n in enumerate(rows):
            rest = rows[:i] + rows[i + 1:]
            for k in (1, 2):
                for a in range(0, n - k + 1):
                    out.append(rest + (a, n - k - a))
        return out

    canon_calls = []

    def canon(rows):
        canon_calls.append(rows)
        return tuple(sorted(r for r in rows if r))

    g = grundy.Game(moves=moves, canon=canon, split=lambda rows: [(r,) for r in rows] if len(rows) > 1 else None,
                    show=lambda rows: "+".join(map(str, rows)) or "0")
    kayles = grundy.heap("kayles").sequence(30).values
    for heaps in [(7,), (7, 9, 12), (3, 5), (30,)]:
        assert g.grundy(heaps) == np.bitwise_xor.reduce(kayles[list(heaps)])
    a = g.analyze((7, 9, 12))
    assert all("+" in m.text or m.text.isdigit() for m in a.winning_moves)
    assert all(m.to == tuple(sorted(m.to)) for m in a.winning_moves)
    assert canon_calls


def test_a_cycle_is_valued_by_the_loopy_solver_and_refused_in_misere_play():
    # A ring with no way out: every position is a draw, value ∞ (Smith).
    g = grundy.Game(moves=lambda n: [(n + 1) % 5])
    assert g.grundy(0) == grundy.Infinite(k=frozenset())
    assert g.outcome(0) == "D"
    with pytest.raises(grundy.CycleError):
        g.outcome(0, misere=True)


def test_endless_game_is_refused():
    g = grundy.Game(moves=lambda n: [n + 1], max_positions=10_000)
    with pytest.raises(grundy.InputError, match="limit of 10000 positions"):
        g.grundy(0)


def test_exception_from_moves_is_raised_and_memo_stays_right():
    fail = {"on": True}

    def moves(n):
        if n == 5 and fail["on"]:
            raise ZeroDivisionError("boom at 5")
        return subtraction_moves(n)

    g = grundy.Game(moves=moves)
    with pytest.raises(ZeroDivisionError, match="boom at 5"):
        g.grundy(40)
    fail["on"] = False
    native = grundy.heap("sub:1,3,4").sequence(40).values
    assert np.array_equal(g.values(range(41)), native)


def test_bad_positions():
    g = grundy.Game(moves=lambda n: [[n - 1]] if n else [])
    with pytest.raises(TypeError):
        g.grundy(3)
    with pytest.raises(TypeError):
        grundy.Game(moves=lambda n: 5).grundy(1)


def test_reentrant_call_is_refused():
    holder = {}

    def moves(n):
        if n == 3:
            holder["g"].grundy(1)
        return [n - 1] if n else []

    holder["g"] = grundy.Game(moves=moves)
    with pytest.raises(RuntimeError, match="being solved already"):
        holder["g"].grundy(5)


def test_long_chain_needs_no_recursion():
    g = grundy.Game(moves=lambda n: [n - 1] if n else [])
    assert g.grundy(200_000) == 0
    assert g.grundy(200_001) == 1


def test_options_and_repr():
    g = grundy.Game(moves=subtraction_moves, name="sub 1,3,4")
    assert g.options(5) == [4, 2, 1]
    assert "sub 1,3,4" in repr(g)
    assert repr(g.analyze(2)).startswith("GameAnalysis(")
