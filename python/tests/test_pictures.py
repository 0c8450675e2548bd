"""Every result draws itself in a notebook: `_repr_html_` renders, escapes the text it shows
and stays within the size bound (`grundy._pictures.MAX_HTML`); loopy values are
`grundy.Infinite`; `grundy.graph` reads graph files through the registry; `dir(grundy)` and
every module's `__all__` name only public things."""

import html
import importlib
import pathlib
import re

import pytest

import grundy
from grundy import _pictures, misere, penney

ROOT = pathlib.Path(__file__).resolve().parents[2]
GRAPHS = ROOT / "examples" / "graphs"
BOUND = _pictures.MAX_HTML


def check(page):
    """A rendered page: text, within the bound, tags balanced enough to be HTML (every
    `<svg` closed), no raw JSON object."""
    assert isinstance(page, str) and page
    assert len(page) <= BOUND, len(page)
    assert page.count("<svg") == page.count("</svg>")
    assert page.count("<table") == page.count("</table>")
    assert '{"' not in page, page[:300]
    return page


def test_every_result_renders():
    pages = [
        grundy.nim([3, 4, 5])._repr_html_(),
        grundy.heap("kayles").sequence(100)._repr_html_(),
        grundy.heap("kayles").analyze([5, 7, 9])._repr_html_(),
        grundy.values("wythoff", 10)._repr_html_(),
        grundy.values("kayles", 50)._repr_html_(),
        grundy.analyze("cram", "3x4", moves="value")._repr_html_(),
        grundy.analyze("node-kayles", "grid:3x4")._repr_html_(),
        grundy.analyze("arc-kayles", "cycle:6", moves="all")._repr_html_(),
        grundy.analyze("digraph", "a b; b c; @ a")._repr_html_(),
        grundy.analyze("loopy-digraph", "a b; b a; a c; c d; @ a")._repr_html_(),
        grundy.play("node-kayles", "path:5")._repr_html_(),
        grundy.games()[0]._repr_html_(),
        misere.quotient("0.75", 20)._repr_html_(),
        misere.form("*2+*2")._repr_html_(),
        misere.genus("0.75", 5)[3]._repr_html_(),
        penney.race(["HHT", "THH"])._repr_html_(),
        penney.table(3)._repr_html_(),
        penney.cycle(3)._repr_html_(),
        penney.best_reply("HHT")._repr_html_(),
        penney.best_first(3)._repr_html_(),
        grundy.Infinite(k=frozenset({0, 2}))._repr_html_(),
    ]
    for page in pages:
        check(page)


def test_pictures_show_the_position():
    page = grundy.analyze("node-kayles", "grid:3x4")._repr_html_()
    # One circle a vertex, labelled with the numbers the moves use (0..11).
    assert page.count("<circle") == 12
    assert all(f">{v}</text>" in page for v in range(12))
    assert page.count("<line") == 17  # a 3x4 grid has 17 edges
    cram = grundy.analyze("cram", "2x3")._repr_html_()
    assert cram.count("<rect") == 6
    # A board of stones is drawn as stones: black for x, white for o, a square off the board.
    clob = grundy.analyze("clobber", "xo.|o#x")._repr_html_()
    assert clob.count("class='stone-x'") == 2 and clob.count("class='stone-o'") == 2
    assert "fill='#4b5563'" in clob and ">x</text>" not in clob
    assert clob.count("<line") == 4  # (0,0)-(0,1), (0,1)-(0,2), (0,0)-(1,0), (0,2)-(1,2)
    dig = grundy.analyze("digraph", "a b; b c; @ a a")._repr_html_()
    assert "grundy-arrow" in dig and "×2" in dig
    seq = grundy.heap("kayles").until_proven()._repr_html_()
    assert "<svg" in seq and "period 12" in seq and "proven" in seq
    q = misere.quotient("0.75", 20)
    qp = q._repr_html_()
    assert f"|Q| = {q.order}" in qp and qp.count("<tr>") == q.order + 1
    t = penney.table(2)._repr_html_()
    assert "3/4" in t and t.count("<tr>") == 5


def test_text_is_escaped():
    # A graph file whose vertex names hold markup: drawn as text, never as markup.
    r = grundy.graph("<b>x</b> y&z\ny&z <i>", tokens=["<b>x</b>"])
    page = check(r._repr_html_())
    assert "<b>x</b>" not in page.replace("<b>" + html.escape(r.game) + "</b>", "")
    assert "&lt;b&gt;" in page and "y&amp;z" in page
    # The generic table escapes too.
    res = grundy.Result({"text": "<script>alert(1)</script>"})
    assert "<script>" not in res._repr_html_()
    assert "&lt;script&gt;" in res._repr_html_()


def test_large_results_stay_small():
    check(grundy.heap("0.137").sequence(100_000)._repr_html_())
    check(grundy.values("wythoff", 200)._repr_html_())
    check(penney.table(5)._repr_html_())  # 32 patterns: cut at the table's bound
    chain = "; ".join(f"v{i} v{i + 1}" for i in range(300)) + "; @ v0"
    big = grundy.analyze("digraph", chain, moves="value")  # past the drawing's 200 vertices
    check(big._repr_html_())
    check(grundy.analyze("node-kayles", "grid:8x16", moves="value")._repr_html_())
    assert _pictures.fit("x" * (BOUND + 1)) != "x" * (BOUND + 1)


def test_loopy_values_are_infinite():
    r = grundy.analyze("loopy-digraph", "a b; b a; @ a")
    assert isinstance(r.grundy, grundy.Infinite)
    assert r.outcome == "D" and r.grundy == grundy.Infinite(k=frozenset())
    r = grundy.graph(GRAPHS / "draw-sum.txt", tokens=["a"])
    assert r.grundy == grundy.Infinite(k=frozenset({0}))
    assert all(
        isinstance(m.grundy, (int, grundy.Infinite)) for m in r.winning_moves
    )
    assert "∞(0)" in r._repr_html_()


def test_graph_files_go_through_the_registry(cli):
    r = grundy.graph(str(ROOT / "examples" / "game.txt"), tokens=["a", "c"])
    assert r.game == "digraph" and r.grundy == 3 and r.outcome == "N"
    expect = cli("graph", ROOT / "examples" / "game.txt", "--token", "a", "c")
    assert expect["grundy"] == 3
    loopy = grundy.graph(GRAPHS / "draw-sum.txt", tokens=["a", "c"])
    assert loopy.game == "loopy-digraph" and loopy.outcome == "D"
    assert grundy.graph("a b\nb c\n", tokens=["a"]).grundy == 0
    nk = grundy.graph("0-1,1-2,2-3", game="node-kayles")
    assert nk.to_dict() == grundy.analyze("node-kayles", "0-1,1-2,2-3").to_dict()
    with pytest.raises(grundy.GrundyError, match="cycle"):
        grundy.graph(GRAPHS / "draw-sum.txt", tokens=["a"], misere=True)
    with pytest.raises(grundy.InputError):
        grundy.graph("0-1", tokens=["a"], game="node-kayles")
    with pytest.raises(grundy.InputError):
        grundy.graph("# only a comment\n")


def test_all_in_every_module():
    public = [n for n in dir(grundy) if not n.startswith("_")]
    assert set(public) <= set(grundy.__all__)
    for name in ("Any", "List", "Optional", "Union", "Callable", "Iterable", "annotations", "operator"):
        assert name not in dir(grundy)
    for name in grundy.__all__:
        assert hasattr(grundy, name), name
    for mod in ("grundy.misere", "grundy.nimber", "grundy.penney", "grundy.survey",
                "grundy._results", "grundy._pictures", "grundy._game", "grundy._script",
                "grundy._errors"):
        m = importlib.import_module(mod)
        assert isinstance(m.__all__, list), mod
        for name in m.__all__:
            assert hasattr(m, name), (mod, name)
