"""The examples of the READMEs run as written and print what they say."""

import contextlib
import io
import pathlib
import re

import grundy  # noqa: F401  (the examples import it themselves)

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_root_readme_python_example():
    text = (ROOT / "README.md").read_text()
    section = text.split("## Use from Python", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    want = re.search(r"```text\n(.*?)```", section, re.S).group(1)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(code, "README.md", "exec"), {})
    assert out.getvalue() == want


def test_tutorial_examples():
    """The tutorial's claims, checked (python/README.md)."""
    from fractions import Fraction

    a = grundy.nim([3, 4, 5])
    assert (a.grundy, a.outcome) == (2, "N")
    assert grundy.fib(10**30).winning_moves[0].take == 1
    assert grundy.wythoff(10, 20).winning_moves[0].to.text == "10 6"
    k = grundy.heap("kayles")
    assert k.analyze([7, 9, 12]).winning_moves[0].text == \
        "heap 0: from the heap of 7, remove 1 and split the rest into 3 + 3"
    assert k.analyze([4, 5], misere=True).outcome == "P"
    assert k.grundy(10**15) == 1
    kayles = grundy.Game(moves=lambda n: [grundy.Sum(a, n - k - a)
                                          for k in (1, 2) for a in range((n - k) // 2 + 1)])
    assert (kayles.grundy(10), kayles.outcome(10)) == (2, "N")
    assert kayles.winning_moves(10) == [grundy.Sum(1, 8), grundy.Sum(2, 7), grundy.Sum(3, 6), grundy.Sum(4, 4)]
    assert kayles.analyze(grundy.Sum(4, 5), misere=True).outcome == "P"
    assert grundy.penney.race(["HHT", "THH"]).win == [Fraction(1, 4), Fraction(3, 4)]
    assert grundy.penney.best_reply("HHTH").best_reply == "HHHT"
