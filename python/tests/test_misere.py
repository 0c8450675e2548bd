"""grundy.misere: quotients, genus, canonical forms, against the CLI and known results."""

import itertools

import pytest

import grundy
from grundy import misere


def test_quotient_of_075_is_r8():
    q = misere.quotient("0.75", 12)
    assert (q.order, q.p_size) == (8, 2)
    assert q.presentation == "a^2 = 1, b^3 = b, bc = ab, c^2 = b^2"
    assert q.p_portion == ["a", "b^2"]
    assert not q.tame and q.name is None
    assert len(q.phi) == 13
    assert isinstance(q.changes_at, int)
    t = q.table()
    assert len(t) == 8 and all(len(r) == 8 for r in t)


def test_misere_nim_is_tame():
    q = misere.quotient("0.[3]", 7)
    assert q.tame and q.name == "T_3" and q.order == 10 and q.p_size == 2


def _brute(opts_of, heaps, memo={}):
    """Misère outcome by search over whole positions: P when every move leads to N."""
    key = tuple(sorted(heaps))
    if key in memo:
        return memo[key]
    moves = []
    for i, h in enumerate(key):
        for leaves in opts_of(h):
            moves.append(key[:i] + key[i + 1:] + tuple(leaves))
    # misère: no move means the player to move has won (the last mover lost)
    r = "N" if not moves else ("N" if any(_brute(opts_of, m) == "P" for m in moves) else "P")
    memo[key] = r
    return r


def test_outcome_matches_brute_force_on_kayles():
    q = misere.quotient("0.77", 8)

    def opts_of(h):
        out = []
        for take in (1, 2):
            for left in range(0, h - take + 1):
                right = h - take - left
                out.append(tuple(x for x in (left, right) if x > 0))
        return out

    for heaps in itertools.combinations_with_replacement(range(1, 9), 3):
        assert q.outcome(list(heaps)) == _brute(opts_of, list(heaps)), heaps
    for m in q.winning_moves([3, 4, 5]):
        assert "heap" in m["at"] and m["outcome"] == "P"


def test_quotient_and_form_match_cli_json(cli):
    q = misere.quotient("0.75", 10)
    assert q.to_json() == cli("misere", "quotient", "0.75", "--upto", "10", "--structure")
    want = cli("misere", "form", "*[[2],1]")
    f = misere.form("*[[2],1]")
    assert (f.text, f.cls, f.genus.text) == (want["text"], want["class"], want["genus"]["text"])


def test_quotient_errors():
    with pytest.raises(grundy.InputError):
        misere.quotient("0.W", 5)
    with pytest.raises(grundy.InputError, match="converge|limit"):
        misere.quotient("0.3122", 7, max_order=20)
    q = misere.quotient("0.75", 5)
    with pytest.raises(grundy.InputError):
        q.outcome([6])


def test_genus_and_form():
    g = misere.genus("0.77", 6)
    assert g[5].text == "4^146" and g[4].text == "1"
    f = misere.form("*[[2],0]")
    assert f.text == "*[2#0]" and f.cls == "restive" and f.mate_text == "*[2#1]"
    assert f.genus.text == "1^2" and not f.tame
    assert misere.form("*2+*2").text == "*[2[2]]"
    assert misere.form("*[[2],0]+*[[2],1]", minus="*[[2],1]").text == "*[2#0]"
    with pytest.raises(grundy.InputError, match="not subtractable"):
        misere.form("*[[[2]]]", minus="*[[4]]")
    with pytest.raises(grundy.InputError):
        misere.form("*[1,")
