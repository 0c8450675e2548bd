"""The package against reference data that nobody on this project computed (testdata/)."""

from fractions import Fraction

import numpy as np
import pytest

import grundy

DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _periodic_rows(testdata):
    rows = []
    for line in (testdata / "octal" / "periodic_trivial.txt").read_text().splitlines():
        if line.startswith("#") or "|" not in line:
            continue
        game, prefix, period, nimbers = [c.strip() for c in line.split("|")]
        if not prefix.isdigit():
            continue
        code = "0" + game if game.startswith(".") else (game if "." in game else game + ".0")
        head, rest = nimbers.split("(")
        cycle = rest.rstrip(")")
        rows.append((code, int(prefix), int(period), [DIGITS.index(c) for c in head],
                     [DIGITS.index(c) for c in cycle]))
    return rows


def test_periodic_octal_games(testdata):
    """82 octal games (tczajka/octal-games): values, preperiod and period, proven."""
    rows = _periodic_rows(testdata)
    assert len(rows) == 82
    for code, prefix, period, head, cycle in rows:
        n = prefix + 3 * period
        s = grundy.heap(code).sequence(n)
        want = [head[i] if i < prefix else cycle[(i - prefix) % period] for i in range(n + 1)]
        assert s.values.tolist() == want, code
        p = grundy.heap(code).until_proven()
        assert (p.period.preperiod, p.period.period, p.period.proven) == (prefix, period, True), code


def _oeis(testdata, anum):
    pairs = [line.split() for line in (testdata / "oeis" / f"{anum}.txt").read_text().splitlines()
             if line and not line.startswith("#")]
    return {int(n): int(v) for n, v in pairs}


@pytest.mark.parametrize(
    "anum,rule,shift",
    [("A002186", "0.77", 0), ("A002187", "0.137", 0), ("A002188", "4!.0", 0),
     ("A002187", "0.07", 1), ("A002186", "kayles", 0), ("A071430", "0.16", 0)])
def test_oeis(testdata, anum, rule, shift):
    """G_rule(n) = a(n - shift), from the OEIS entries' data lines."""
    a = _oeis(testdata, anum)
    top = max(a) + shift
    values = grundy.heap(rule).sequence(top).values
    for n, v in a.items():
        assert values[n + shift] == v, (rule, n)


def test_cgsuite_sequences(testdata):
    """G(1..20) of CGSuite's own rulesets and their periods (GameHeapTest.scala)."""
    code = None
    checked = 0
    for line in (testdata / "cgsuite" / "heap_sequences.txt").read_text().splitlines():
        if line.startswith("code: "):
            code = line.split(": ", 1)[1]
        elif line.startswith("nim[1..20]: "):
            want = [int(x) for x in line.split(": ", 1)[1].split(",")]
            assert grundy.heap(code).sequence(20).values[1:].tolist() == want, code
            checked += 1
        elif line.startswith("period: Periodicity"):
            fields = dict(f.split(" => ") for f in line[len("period: Periodicity("):-1].split(", "))
            p = grundy.heap(code).until_proven().period
            assert (p.period, p.preperiod, p.saltus) == (
                int(fields["Period"]), int(fields["Preperiod"]), int(fields["Saltus"])), code
        elif line.startswith("misere[0..20]: ") and code:
            # heap + *m is a misère P-position exactly for m = the misère value
            want = [int(x) for x in line.split(": ", 1)[1].split(",")]
            # a lone heap n is a misère P-position exactly when its misère value is 0
            for n in range(1, 13):
                o = grundy.heap(code).analyze([n], misere=True).outcome
                assert o == ("P" if want[n] == 0 else "N"), (code, n)
    assert checked >= 7


def test_penney_pairs(testdata):
    """P(B before A) and the expected length for every pair of length-3 patterns."""
    rows = [l.split() for l in (testdata / "penney" / "penney3.txt").read_text().splitlines()
            if l and not l.startswith("#")]
    assert len(rows) >= 50
    for a, b, p, _odds, expected, *_ in rows:
        r = grundy.penney.race([a, b])
        assert r.win[1] == Fraction(p), (a, b)
        assert r.expected_length == Fraction(expected), (a, b)


def test_penney_waiting_times(testdata):
    rows = [l.split() for l in (testdata / "penney" / "waiting_times_binary.txt").read_text().splitlines()
            if l and not l.startswith("#")]
    for pattern, waiting, *_ in rows[:60]:
        assert grundy.penney.race([pattern]).expected_length == Fraction(waiting), pattern


def test_graphs_past_128_vertices(testdata):
    """Node Kayles on a path is Dawson's Chess (A002187) and on the n x n queens graph the
    non-attacking queens game (A344227): past the engine's 128 vertices the registry expands
    the first moves, through the same call."""
    a = _oeis(testdata, "A002187")
    for n in (129, 131):
        r = grundy.analyze("node-kayles", f"path:{n}", moves="value")
        assert r.grundy == a[n], n
        assert r.to_dict()["details"]["leaves"] > 0
    # A path of 400 falls apart into pieces, each keyed by its length: Dawson's Chess past
    # the b-file by its period 34 (from n = 52 on), which the b-file's own terms show.
    assert all(a[i] == a[i - 34] for i in range(86, 132))
    r = grundy.analyze("node-kayles", "path:400", moves="value")
    assert r.grundy == a[52 + (400 - 52) % 34]
    q = _oeis(testdata, "A344227")
    r = grundy.analyze("node-kayles", "queens:12", moves="value")
    assert r.grundy == q[12] and r.to_dict()["position"]["vertices"] == 144
    with pytest.raises(grundy.InputError):
        grundy.analyze("node-kayles", "queens:14", misere=True)
    with pytest.raises(grundy.InputError):
        grundy.analyze("node-kayles", "queens:33")
