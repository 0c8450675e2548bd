"""Every call of the package gives exactly the CLI's --json object (to_dict), and its
attributes are the same numbers in Python types."""

from fractions import Fraction

import numpy as np
import pytest

import grundy


@pytest.mark.parametrize(
    "heaps,misere",
    [([3, 4, 5], False), ([1, 1, 2], True), ([10, 12, 5], False), ([7, 7], False),
     ([1, 1, 1], True), ([2**64 - 1, 3, 2**60], False), ([0], True)],
)
def test_nim(cli, heaps, misere):
    a = grundy.nim(heaps, misere=misere)
    args = ["nim", *heaps] + (["--misere"] if misere else [])
    want = cli(*args)
    assert a.to_dict() == want
    assert a.outcome == want["outcome"]
    # misère play has no Grundy value in the report (null), as every door says
    assert a.grundy == (None if want["grundy"] is None else int(want["grundy"]))
    for m, w in zip(a.winning_moves, want["winning_moves"]):
        # integers past 2^53 are strings in JSON, ints in Python
        at = w["at"]
        assert (m.heap, m.from_, m.left, m.text) == (at["heap"], int(at["from"]), int(at["left"]), w["text"])
        assert m.to.heaps == [int(t) for t in w["to"]["heaps"]]
        assert m.to.text == w["to"]["text"]


def test_nim_readme_example():
    a = grundy.nim([3, 4, 5])
    assert (a.grundy, a.outcome) == (2, "N")
    (m,) = a.winning_moves
    assert (m.heap, m.from_, m.left) == (0, 3, 1)


@pytest.mark.parametrize(
    "op,args",
    [("mul", [21508, 42689]), ("add", [5, 3]), ("div", [11, 16]), ("inv", [8]),
     ("sqrt", [27670116110564327424]), ("pow", [2**127 + 5, 1000]),
     ("mul", [2**128 - 1, 2**127 + 12345])],
)
def test_nimber(cli, op, args):
    want = cli("nimber", op, *args)
    c = grundy.nimber.calculate(op, *args)
    assert c.to_dict() == want
    assert getattr(grundy.nimber, op)(*args) == int(want["result"])


def test_nimber_examples():
    assert grundy.nimber.mul(21508, 42689) == 35202
    assert grundy.nimber.inv(8) == 10
    a, b = 2**100 + 7, 2**90 + 3
    assert grundy.nimber.div(grundy.nimber.mul(a, b), b) == a
    s = grundy.nimber.sqrt(a)
    assert grundy.nimber.mul(s, s) == a


@pytest.mark.parametrize(
    "rule,n",
    [("sub:1,3,4", 50), ("kayles", 300), ("0.137", 1000), ("4!.0", 5000), ("0.16", 10_000),
     ("dawsons-kayles", 200), ("sub:odd", 100), ("treblecross", 100), ("0.3F", 300)],
)
def test_sequence(cli, rule, n):
    s = grundy.heap(rule).sequence(n)
    want = cli("heap", rule, "--upto", n)
    assert s.to_dict() == want
    assert s.values.dtype == np.uint32
    assert s.values.tolist() == want["values"]
    assert s.upto == n and len(s) == n + 1
    p = want["period"]
    if p["status"] == "none":
        assert s.period is None
    else:
        assert (s.period.period, s.period.preperiod, s.period.proven) == (
            p["period"], p["preperiod"], p["status"] == "proven")


def test_sequence_engines_and_counts(cli):
    h = grundy.heap("0.77")
    ref = h.sequence("2^12", engine="reference")
    sparse = h.sequence(4096, engine="sparse", threads=2)
    assert ref.engine == "reference" and sparse.engine == "sparse"
    assert np.array_equal(ref.values, sparse.values)
    assert sparse.to_dict() == cli("heap", "0.77", "--upto", "4096", "--engine", "sparse")


@pytest.mark.parametrize("rule", ["kayles", "0.137", "sub:2,3,7", "0.16", "4!.0", "sub:odd"])
def test_until_proven(cli, rule):
    assert grundy.heap(rule).until_proven().to_dict() == cli("heap", rule, "--period")


def test_until_proven_limit(cli):
    s = grundy.heap("0.137").until_proven(1000, start=50)
    assert s.to_dict() == cli("heap", "0.137", "--upto", 50, "--prove-upto", 1000)
    assert s.period.proven and (s.period.preperiod, s.period.period) == (52, 34)


@pytest.mark.parametrize(
    "rule,heaps", [("kayles", [7, 9, 12]), ("0.137", [5, 17, 40]), ("4!.0", [10**6, 3]),
                   ("kayles", [10**12, 7]), ("sub:1,3,4", [9, 9])])
def test_position(cli, rule, heaps):
    p = grundy.heap(rule).analyze(heaps)
    # One door (issue 39): the CLI's `heap --position` and Python's `Heap.analyze` both ask the
    # registry, whose report is `grundy RULE H…` and `grundy.analyze(RULE, "H…")`.
    want = cli("heap", rule, "--position", *heaps)
    assert p.to_dict() == want == cli(rule, *heaps)
    assert p == grundy.heap(rule).analyze(heaps, threads=1)
    assert p.to_dict() == grundy.analyze(rule, " ".join(map(str, heaps))).to_dict()
    assert isinstance(p, grundy.Report) and isinstance(p, grundy.HeapPosition)
    # the old object's fields, read from the report's details
    d = want["details"]
    assert (p.rule, p.heaps, p.heap_values) == (d["rule"], heaps, d["heap_values"])
    assert p.grundy == want["grundy"] == d["grundy"]
    assert [m.to.to_dict() for m in p.winning_moves] == [m["to"] for m in want["winning_moves"]]


@pytest.mark.parametrize("rule,heaps", [("kayles", [4, 5]), ("kayles", [3, 5, 8]), ("0.07", [6, 9])])
def test_position_misere(cli, rule, heaps):
    p = grundy.heap(rule).analyze(heaps, misere=True)
    want = cli("heap", rule, "--position", *heaps, "--misere")
    assert p.to_dict() == want == cli(rule, *heaps, "--misere")
    assert isinstance(p, grundy.Report) and isinstance(p, grundy.MiserePosition)
    assert p.positions_searched == want["details"]["positions_searched"]
    assert p.heaps == heaps and p.rule == want["details"]["rule"]
    assert p.grundy is None  # misère values do not add (the old object had no field)


def test_position_engine_is_the_librarys_choice(cli):
    # a position's engine is not chosen: the one word the CLI says of --engine
    with pytest.raises(grundy.InputError, match="engine"):
        grundy.heap("kayles").analyze([7, 9], engine="reference")
    assert "engine" in cli.error("heap", "kayles", "--position", 7, 9, "--engine", "reference")


def test_heap_grundy_of_one_heap():
    k = grundy.heap("kayles")
    v = k.sequence(200).values
    assert [k.grundy(n) for n in (0, 5, 71, 200)] == [int(v[n]) for n in (0, 5, 71, 200)]
    # far past any sequence, through the proven period
    assert k.grundy(10**15) == int(v[71 + (10**15 - 71) % 12])


@pytest.mark.parametrize(
    "args,kw", [(["1000000000000000000000000000000"], {}), (["100"], {"k": 3}),
                (["100"], {"limit": 3}), (["89"], {}), (["1000000"], {"k": 5, "limit": 7})])
def test_fib(cli, args, kw):
    a = grundy.fib(int(args[0]), **kw)
    flags = [x for k, v in kw.items() for x in (f"--{k}", v)]
    want = cli("fib", *args, *flags)
    assert a.to_dict() == want
    assert a.position.pile == int(want["position"]["pile"])
    assert a.details.pile == a.position.pile
    m = a.winning_moves[0] if a.winning_moves else None
    if m is not None:
        assert m.take == int(want["winning_moves"][0]["at"]["take"])
        assert m.to.text == want["winning_moves"][0]["to"]["text"]
    # an alias of the registry's call
    assert a.to_dict() == grundy.analyze("fib", args[0], **kw).to_dict()


@pytest.mark.parametrize(
    "x,y", [(10**20, 161803398874989484820), (10, 20), (1000000, 1618034), (0, 0), (3, 5)])
def test_wythoff(cli, x, y):
    a = grundy.wythoff(x, y)
    want = cli("wythoff", x, y)
    assert a.to_dict() == want
    for m, w in zip(a.winning_moves, want["winning_moves"]):
        assert m.to.text == w["to"]["text"]
        assert (m.to.x, m.to.y) == (int(w["to"]["x"]), int(w["to"]["y"]))
        assert m.take_second == int(w["at"]["take_second"])


def test_wythoff_nth(cli):
    p = grundy.wythoff_nth(10**12)
    want = cli("wythoff", f"p:{10**12}")
    assert p.to_dict() == want
    assert (p.position.x, p.position.y) == (int(want["position"]["x"]), int(want["position"]["y"]))
    assert p.outcome == "P" and p.details.p_index == 10**12


def test_values_and_plots(cli):
    t = grundy.values("wythoff", 9)
    assert t.to_dict() == cli("wythoff", "--upto", 9)
    assert t.side == 10 and t.grid()[1][2] == 0
    assert grundy.plot(t)[:4] == b"<svg"
    assert grundy.plot(t, "png")[1:4] == b"PNG"
    k = grundy.values("kayles", 20)
    assert [v.grundy for v in k.values][:6] == [0, 1, 2, 3, 1, 4]
    with pytest.raises(grundy.InputError):
        grundy.plot(t, "gif")


@pytest.mark.parametrize(
    "patterns,kw,flags",
    [(["HTH", "THH"], {}, []),
     (["HHH", "HTH", "TTH"], {"distribution": 10}, ["--distribution", 10]),
     (["HHH", "THH"], {"prob": {"H": Fraction(2, 3), "T": Fraction(1, 3)}}, ["--prob", "H=2/3,T=1/3"]),
     (["666", "123"], {"alphabet": "123456"}, ["--alphabet", "123456"]),
     (["HTH", "THH"], {"simulate": 2000, "seed": 7}, ["--simulate", 2000, "--seed", 7]),
     (["HHTH"], {}, [])])
def test_penney_race(cli, patterns, kw, flags):
    r = grundy.penney.race(patterns, **kw)
    want = cli("penney", *patterns, *flags)
    assert r.to_dict() == want
    assert r.win == [Fraction(p["win"]) for p in want["patterns"]]
    assert r.expected_length == Fraction(want["expected_tosses"])
    assert all(isinstance(w, Fraction) for w in r.win)


def test_penney_reports(cli):
    assert grundy.penney.best_reply("HHTH").to_dict() == cli("penney", "--best-reply", "HHTH")
    b = grundy.penney.best_reply("HHTH")
    assert b.win == Fraction(2, 3) and b.best_reply == "HHHT"
    assert grundy.penney.best_first(3).to_dict() == cli("penney", "--best-first", 3)
    t = grundy.penney.table(3)
    assert t.to_dict() == cli("penney", "--table", 3)
    assert t.table[0][1] == Fraction(cli("penney", "--table", 3)["table"][0][1])
    assert grundy.penney.cycle(3).to_dict() == cli("penney", "--cycle", 3)
    assert grundy.penney.cycle(4, alphabet="HT").to_dict() == cli("penney", "--cycle", 4, "--alphabet", "HT")


@pytest.mark.parametrize(
    "call,cli_args,exc",
    [(lambda: grundy.heap("0.8x"), ["heap", "0.8x"], grundy.RuleError),
     (lambda: grundy.nimber.div(5, 0), ["nimber", "div", 5, 0], grundy.InputError),
     (lambda: grundy.fib(10, k=0), ["fib", 10, "--k", 0], grundy.InputError),
     (lambda: grundy.penney.race(["HXH"]), ["penney", "HXH"], grundy.InputError),
     (lambda: grundy.heap("kayles").analyze([]), None, grundy.InputError)])
def test_errors(cli, call, cli_args, exc):
    with pytest.raises(exc) as info:
        call()
    assert isinstance(info.value, ValueError) and isinstance(info.value, grundy.GrundyError)
    if cli_args:
        # the CLI prints `grundy: error: <the library's message>` (sometimes after a flag name)
        assert str(info.value) in cli.error(*cli_args)


def test_results_are_readable():
    s = grundy.heap("kayles").until_proven()
    assert repr(s.period) == "Period(preperiod=71, period=12, proven=True)"
    assert "kayles" in repr(s) and "<svg" in s._repr_html_()  # the plot (test_pictures.py)
    a = grundy.nim([3, 4, 5])
    assert repr(a.winning_moves[0]) == (
        "Move(short='heap 0: 3 → 1', to=Result(kind='heaps', text='1 4 5', heaps=[1, 4, 5]), outcome='P', grundy=0, at=Result(from_=3, heap=0, left=1, removed=2))"
    )
    assert str(a.winning_moves[0]) == "heap 0: take 2 from the heap of 3, leaving 1"
