"""grundy: combinatorial games solved exactly, from Python.

Every call is one call of the Rust library ``grundy`` (the engine behind the ``grundy``
command): the same numbers, the same words, and ``to_dict()`` on every result gives exactly
the CLI's ``--json`` object.

>>> import grundy
>>> a = grundy.nim([3, 4, 5])
>>> a.grundy, a.outcome, a.winning_moves[0].to.heaps
(2, 'N', [1, 4, 5])
>>> s = grundy.heap("kayles").until_proven()
>>> s.period
Period(preperiod=71, period=12, proven=True)
>>> grundy.nimber.mul(21508, 42689)
35202

Long calls release the GIL (two threads compute in parallel), accept ``progress=callable``
(called with ``(done, total)`` a few times a second; returning ``False`` stops) and stop on
Ctrl-C (``KeyboardInterrupt``) within a fraction of a second.
"""

from __future__ import annotations

import operator
from typing import Any, Callable, Iterable, List, Optional, Sequence as _Seq, Union

from . import _grundy
from ._errors import CycleError, GrundyError, InputError, RuleError, StoppedError
from ._game import Game, Sum
from ._script import Script, ScriptAnalysis, ScriptSequence, script
from ._results import (
    BestFirst,
    BestReply,
    Calculation,
    Cycle,
    FibAnalysis,
    GameAnalysis,
    GameInfo,
    HeapPosition,
    Infinite,
    MiserePosition,
    Move,
    NimAnalysis,
    PairTable,
    Period,
    Race,
    Report,
    Result,
    Sequence,
    WythoffAnalysis,
    WythoffPosition,
    Turn,
    Values,
)
from . import _results, misere, nimber, penney

import json as _json

__version__: str = _grundy.__version__

__all__ = [
    "games",
    "analyze",
    "graph",
    "values",
    "plot",
    "play",
    "nim",
    "heap",
    "Heap",
    "fib",
    "wythoff",
    "wythoff_nth",
    "Game",
    "Sum",
    "script",
    "Script",
    "ScriptAnalysis",
    "ScriptSequence",
    "nimber",
    "penney",
    "misere",
    "GrundyError",
    "InputError",
    "RuleError",
    "CycleError",
    "StoppedError",
    "Count",
    "Progress",
]
# Every result type, named once in _results.
__all__ += _results.__all__


def __dir__() -> List[str]:
    """What ``dir(grundy)`` lists: the public names (``__all__``), not the helpers this
    module imports for its own use (``typing``'s names, ``operator``)."""
    return sorted(set(__all__) | {"__version__", "__doc__", "__name__", "__file__"})

#: A count: a non-negative int, or text as the CLI takes it ("2^22", "1e6", "1_000_000").
Count = Union[int, str]
#: ``progress(done, total)``; returning ``False`` stops the call with :class:`StoppedError`.
Progress = Optional[Callable[[int, int], Any]]


def _big(x: Union[int, str]) -> str:
    """An integer of any size as decimal text for the library (which checks it)."""
    if isinstance(x, str):
        return x
    return str(operator.index(x))


def nim(heaps: Iterable[Count], misere: bool = False, moves: str = "winning") -> Report:
    """Nim (or misère Nim with ``misere=True``): nim-sum, outcome and every winning move. An
    alias of ``analyze("nim", "3 4 5", misere=…, moves=…)`` (sizes in the one grammar of counts:
    ``2**70`` or ``"2^70"``).

    >>> grundy.nim([3, 4, 5]).winning_moves
    [Move(short='heap 0: 3 → 1', to=Result(kind='heaps', text='1 4 5', heaps=[1, 4, 5]), outcome='P', grundy=0, at=Result(from_=3, heap=0, left=1, removed=2))]
    """
    text = " ".join(_big(h) for h in heaps)
    if not text:
        raise InputError("no heaps given")
    return analyze("nim", text, misere=misere, moves=moves)


class Heap:
    """A one-heap rule: a take-and-break code (``"0.137"``, ``"4!.0"``), a subtraction set
    (``"sub:1,3,4"``) or a named game (``"kayles"``), anything ``grundy heap`` accepts.

    Attributes: ``rule`` (as the CLI writes it), ``code`` (its take-and-break code, or
    ``None``), ``description`` (one line in words).
    """

    def __init__(self, rule: str):
        self._text = rule
        self.rule, self.code, self.description = _grundy.heap_parse(rule)

    def __repr__(self) -> str:
        return f"grundy.heap({self.rule!r})"

    def sequence(
        self,
        n: Count,
        *,
        engine: str = "auto",
        threads: int = 0,
        progress: Progress = None,
    ) -> Sequence:
        """G(0..=n) as a numpy array, with the period found in it
        (``grundy heap RULE --upto N --json``).

        ``engine`` is ``"auto"`` (the record engine for splitting codes from 4096 heaps on),
        ``"reference"`` or ``"sparse"``; ``threads`` are the record engine's (0: every core).
        """
        data, values = _grundy.heap_sequence(self._text, n, engine, threads, progress)
        return Sequence(_json.loads(data), values)

    def until_proven(
        self,
        limit: Optional[Count] = None,
        *,
        start: Optional[Count] = None,
        engine: str = "auto",
        threads: int = 0,
        progress: Progress = None,
    ) -> Sequence:
        """Computes until a theorem proves the period.

        Without arguments, as ``grundy heap RULE --period``: up to 2^22 heaps for a rule a
        theorem covers, else 10000 heaps and an observed period. With ``limit`` (and
        ``start``, default 100), as ``--upto START --prove-upto LIMIT``: doubling from
        ``start`` up to ``limit``.
        """
        data, values = _grundy.heap_until_proven(
            self._text, start, limit, engine, threads, progress
        )
        return Sequence(_json.loads(data), values)

    def analyze(
        self,
        heaps: Iterable[Count],
        *,
        misere: bool = False,
        max_positions: Optional[Count] = None,
        moves: str = "winning",
        engine: str = "auto",
        threads: int = 0,
        progress: Progress = None,
    ) -> Union[HeapPosition, MiserePosition]:
        """The sum of heaps of these sizes: the registry's report, as ``analyze(RULE, "H1 H2
        …")`` (``grundy heap RULE --position H… --json``, ``grundy RULE H… --json``): outcome,
        value and every winning move, with the heap engine's object as ``details`` (its
        ``heap_values``, ``rule``, ``heaps`` also read as attributes). With ``misere=True``,
        misère play (the rule's misère quotient, or a search over whole positions of at most
        ``max_positions``). ``moves`` is as for :func:`analyze`; ``threads`` are the record
        engine's (0: one per core). A position's engine is the library's choice: ``engine``
        takes ``"auto"`` alone."""
        if engine != "auto":
            raise InputError(
                "engine chooses a sequence's engine; a position's is the library's choice"
            )
        text = " ".join(_big(h) for h in heaps)
        if not text:
            raise InputError("no heaps given")
        # `threads` as the CLI's `--threads` gives it (the heap entries' param), only when set.
        params = {"threads": threads} if threads else {}
        r = analyze(self._text, text, misere=misere, max_positions=max_positions,
                    moves=moves, progress=progress, **params)
        return (MiserePosition if misere else HeapPosition)(r._data)

    def grundy(self, n: Count) -> int:
        """G(n) of one heap (through the proven period for huge heaps)."""
        return int(self.analyze([n], moves="value").grundy)


def heap(rule: str) -> Heap:
    """The heap rule ``rule`` (see :class:`Heap`); raises :class:`RuleError` if it does not
    parse."""
    return Heap(rule)


def fib(pile: Count, limit: Optional[Count] = None, k: Count = 2, moves: str = "winning") -> Report:
    """Fibonacci Nim (``k=2``) or the k-multiplier game on a pile of any size: an alias of
    ``analyze("fib", "PILE [LIMIT]", k=K)`` (``grundy fib PILE [LIMIT] --json``), the registry's
    report (``details`` holds ``k``, ``pile``, ``limit``, ``representation``).

    >>> grundy.fib(10**30).winning_moves[0].at.take
    '1'
    """
    position = _big(pile) if limit is None else f"{_big(pile)} {_big(limit)}"
    # The multiplier as the CLI's `--k` gives it (the entry's param), so that both doors
    # check it alike and say the same of a bad one.
    if _big(k) == "2":
        return analyze("fib", position, moves=moves)
    return analyze("fib", position, moves=moves, k=k)


def wythoff(x: Count, y: Count, moves: str = "winning") -> Report:
    """Wythoff's game at heaps ``(x, y)`` of any size: an alias of ``analyze("wythoff", "X
    Y")`` (``grundy wythoff X Y --json``), the registry's report."""
    return analyze("wythoff", f"{_big(x)} {_big(y)}", moves=moves)


def wythoff_nth(j: Count) -> Report:
    """The ``j``-th P-position of Wythoff's game: an alias of ``analyze("wythoff", "p:J")``
    (``grundy wythoff p:J --json``); the report's ``position`` is (⌊jφ⌋, ⌊jφ²⌋)."""
    return analyze("wythoff", f"p:{_big(j)}")


def games() -> List[GameInfo]:
    """Every game of the catalogue, as ``grundy games --json`` lists them.

    >>> any(g.name == "node-kayles" for g in games())
    True
    """
    return [GameInfo(g) for g in _json.loads(_grundy.catalogue_games())["games"]]


def _settings(params: dict) -> list:
    """A game's own options as the library takes them: names and texts."""
    return [
        (
            k,
            ("true" if v else "false")
            if isinstance(v, bool)
            else _big(v)
            if isinstance(v, int)
            else str(v),
        )
        for k, v in params.items()
    ]


def analyze(
    game: str,
    position: str,
    misere: bool = False,
    max_positions: Optional[Count] = None,
    moves: str = "winning",
    progress: Progress = None,
    **params: Any,
) -> Report:
    """A position of any catalogue game analysed; ``to_dict()`` is ``grundy analyze GAME
    POSITION --json`` (``grundy GAME POSITION --json``). ``moves`` says how much of the moves to
    compute: ``"value"`` (the outcome and value only), ``"winning"`` (the default) or ``"all"``
    (every move with its value). ``max_positions`` caps a search (the memory this process may
    use always caps it); ``progress(done, total)`` is called as a search goes on (returning
    ``False`` stops it) and Ctrl-C stops it (``KeyboardInterrupt``). Keyword arguments are the
    game's own options as ``grundy.games()`` lists them (``threads=2``, ``no_mirror=True``).

    >>> r = analyze("node-kayles", "grid:3x4")
    >>> r.outcome, r.grundy
    ('P', 0)
    """
    return Report(
        _json.loads(
            _grundy.catalogue_analyze(
                game,
                str(position),
                misere,
                max_positions,
                moves,
                _settings(params),
                progress,
            )
        )
    )


def values(
    game: str,
    upto: Count,
    misere: bool = False,
    max_positions: Optional[Count] = None,
    progress: Progress = None,
    **params: Any,
) -> Values:
    """The value and outcome of every position ``0..=upto`` of a game whose positions are
    numbers (a heap rule, ``fib``, ``windup:N:S``), or for a game of two heaps (``wythoff``) its
    grid of positions ``(x, y)``, ``0 <= x, y <= upto`` (``side`` is then set): ``grundy analyze
    GAME --upto N --json``. :func:`plot` draws it.

    >>> values("wythoff", 2).values[5].grundy
    2
    """
    return Values(
        _json.loads(
            _grundy.catalogue_values(
                game, upto, misere, max_positions, _settings(params), progress
            )
        )
    )


def plot(table: Values, format: str = "svg") -> bytes:
    """The picture of a table of values (:func:`values`), as ``grundy analyze GAME --upto N
    --plot FILE`` draws it: SVG text (``format="svg"``, as UTF-8 bytes) or PNG bytes. In a
    notebook, ``IPython.display.SVG(plot(t))`` or ``IPython.display.Image(plot(t, "png"))``.

    >>> plot(values("wythoff", 9))[:4]
    b'<svg'
    """
    data = table.to_dict()
    cells = [
        (v["grundy"] if isinstance(v["grundy"], int) else None, v["outcome"])
        for v in data["values"]
    ]
    return _grundy.plot_values(data["game"], data["misere"], data.get("side"), cells, format)


def play(game: str, position: str) -> Turn:
    """A position in play: every legal move, the hint, why, the engine's reply (what the
    terminal game and the web playground show)."""
    return Turn(_json.loads(_grundy.play_turn(game, str(position))))


def graph(
    source: Union[str, "os.PathLike[str]"],
    tokens: Iterable[str] = (),
    *,
    game: Optional[str] = None,
    misere: bool = False,
    max_positions: Optional[Count] = None,
    moves: str = "winning",
    progress: Progress = None,
) -> Report:
    """A game on a graph read from a file (or given as text), analysed through the registry.

    Without ``game``, ``source`` is a directed graph in the format of ``grundy graph FILE``
    (one edge ``FROM TO`` a line, a lone name declares a vertex, ``#`` starts a comment) and
    ``tokens`` the vertices holding a token (repeat a name for several): the registry's
    ``digraph`` entry analyses it, or, when the graph has a cycle (normal play),
    ``loopy-digraph`` with Smith's values (``report.grundy`` may be :class:`Infinite`; the
    outcome ``"D"`` a draw), as ``grundy graph FILE --token …`` does. With ``game`` (for
    example ``"node-kayles"``, ``"arc-kayles"``), ``source`` is that game's position, a file
    holding it (an edge list ``0-1,1-2``) or the text itself, and ``tokens`` must be empty.

    >>> r = graph("a b\\nb c", tokens=["a"])
    >>> r.game, r.grundy
    ('digraph', 0)
    """
    text = _read_source(source)
    tokens = [str(t) for t in tokens]
    if game is not None:
        if tokens:
            raise InputError(f"tokens are for a directed graph; {game} takes none")
        return analyze(game, text.strip(), misere=misere, max_positions=max_positions,
                       moves=moves, progress=progress)
    # The file's lines as the entry's notation: comments dropped, one edge or vertex a part.
    parts = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        if ";" in line or "@" in line:
            raise InputError(f"a graph file line may not hold ';' or '@': {line!r}")
        parts.append(line)
    if not parts:
        raise InputError("the graph has no vertex")
    position = "; ".join(parts) + "; @ " + " ".join(tokens)
    kw = dict(misere=misere, max_positions=max_positions, moves=moves, progress=progress)
    try:
        return analyze("digraph", position, **kw)
    except (CycleError, InputError) as e:
        # The digraph entry refuses a cycle ("the graph has a cycle: a -> b -> a"); misère
        # play of a loopy graph is refused, as by `grundy graph --misere`.
        if misere or not (isinstance(e, CycleError) or "has a cycle" in str(e)):
            raise
    return analyze("loopy-digraph", position, **kw)


def _read_source(source: Any) -> str:
    """A graph's text: the file ``source`` names when it is a path (or a file name that
    exists), else ``source`` itself."""
    import os

    if isinstance(source, os.PathLike):
        with open(source, encoding="utf-8") as f:
            return f.read()
    if not isinstance(source, str):
        raise InputError(f"a graph is a file name or its text, not {type(source).__name__}")
    if "\n" not in source and len(source) < 4096 and os.path.isfile(source):
        with open(source, encoding="utf-8") as f:
            return f.read()
    return source
