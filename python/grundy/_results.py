"""Result objects: each wraps the library's result, exactly the CLI's ``--json`` object.

Attributes are the JSON fields (``from`` is spelled ``from_``), with exact types for Python:
integers that JSON carries as strings (beyond 2^53) become ``int``, exact probabilities
(``"7/8"``) become :class:`fractions.Fraction`, nested objects become result objects.
``to_dict()`` gives the JSON object itself.
"""

from __future__ import annotations

import copy
import html
import json
from fractions import Fraction
from typing import Any, Dict, FrozenSet, Iterable, List, Optional

import numpy as np

from . import _pictures

__all__ = [
    "Infinite",
    "Result",
    "Move",
    "Period",
    "Sequence",
    "NimAnalysis",
    "HeapPosition",
    "MiserePosition",
    "FibAnalysis",
    "WythoffAnalysis",
    "WythoffPosition",
    "Calculation",
    "Race",
    "BestReply",
    "BestFirst",
    "PairTable",
    "Cycle",
    "GameAnalysis",
    "GameInfo",
    "Report",
    "Turn",
    "Values",
]

# Fields whose text values are whole numbers (too large for a JSON number, or big integers).
_INTS = frozenset(
    """grundy nim_sum pile limit take next_limit representation to x y p_index take_first
    take_second index position operands result heaps heap from leaves upto removed left""".split()
)
# Fields whose text values are exact fractions "p/q" (Penney's game).
_FRACTIONS = frozenset(
    """win waiting_time expected_given_win weighted prob_b_first prob by_pattern expected_tosses
    variance letter_probabilities guaranteed table beats_previous""".split()
)
# Fields that list moves.
_MOVES = frozenset(["winning_moves", "winning_move"])


def _ints(value: Any) -> Any:
    if isinstance(value, str) and value.isdigit():
        return int(value)
    if isinstance(value, list):
        return [_ints(v) for v in value]
    return value


def _fractions(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return Fraction(value)
        except ValueError:
            return value
    if isinstance(value, list):
        return [_fractions(v) for v in value]
    if isinstance(value, dict):
        return {k: _fractions(v) for k, v in value.items()}
    return value


def _convert(key: str, value: Any) -> Any:
    """A JSON field as Python: exact numbers, result objects for nested objects, a loopy
    value ``{"infinite": [...]}`` as :class:`Infinite`."""
    if key == "grundy" and isinstance(value, dict) and "infinite" in value:
        return Infinite(k=value["infinite"])
    if key in _MOVES:
        if isinstance(value, list):
            return [Move(v) if isinstance(v, dict) else v for v in value]
        return Move(value) if isinstance(value, dict) else value
    if key in _FRACTIONS:
        return _fractions(value)
    if key in _INTS and not isinstance(value, dict):
        return _ints(value)
    if isinstance(value, dict):
        return Result(value)
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        return [Result(v) for v in value]
    return value


class Result:
    """A library result. Its attributes are the fields of the CLI's ``--json`` object."""

    __slots__ = ("_data",)
    #: Fields shown by ``repr`` (all when empty).
    _brief: tuple = ()

    def __init__(self, data: Dict[str, Any]):
        self._data = data

    def to_dict(self) -> Dict[str, Any]:
        """The CLI's ``--json`` object for this result (a fresh copy)."""
        return copy.deepcopy(self._data)

    def to_json(self) -> str:
        """The ``--json`` text (compact, as the CLI prints it)."""
        return json.dumps(self.to_dict(), separators=(",", ":"), ensure_ascii=False)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        data = object.__getattribute__(self, "_data")
        key = name[:-1] if name.endswith("_") and name[:-1] in data else name
        if key not in data:
            raise AttributeError(f"{type(self).__name__} has no field {name!r}")
        return _convert(key, data[key])

    def __getitem__(self, key: str) -> Any:
        return _convert(key, self._data[key])

    def keys(self) -> List[str]:
        """The field names, as in the JSON object."""
        return list(self._data)

    def __dir__(self) -> List[str]:
        names = [k + "_" if k in ("from", "in", "is") else k for k in self._data]
        return sorted(set(names) | set(object.__dir__(self)))

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.to_dict() == self.to_dict()  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        keys = [k for k in (self._brief or tuple(self._data)) if k in self._data]
        parts = []
        for k in keys:
            v = getattr(self, k + "_" if k in ("from", "in", "is") else k)
            parts.append(f"{k + '_' if k in ('from', 'in', 'is') else k}={_short(v)}")
        return f"{type(self).__name__}({', '.join(parts)})"

    def _repr_html_(self) -> str:
        """The fields as a small HTML table (each value cut to 400 characters, escaped)."""
        rows = [
            [k, _short(getattr(self, k + "_" if k in ("from", "in", "is") else k), 400)]
            for k in self._data
        ]
        return _pictures.fit(_pictures.table(rows, caption=type(self).__name__))


def _short(v: Any, limit: int = 120) -> str:
    """``repr`` of a field, cut to ``limit`` characters."""
    if isinstance(v, np.ndarray):
        text = np.array2string(v, threshold=20, edgeitems=5)
    elif isinstance(v, Fraction):
        text = f"Fraction({v.numerator}, {v.denominator})"
    else:
        text = repr(v)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class Move(Result):
    """One move, the library's one move shape: ``text`` (the move in words), ``short`` (at
    most 30 columns), ``to`` (the tagged position after it: ``to.text`` is what to send back),
    ``outcome`` and ``grundy`` of that position, and ``at``, the family's own coordinates
    (``{"take": 3}`` in Fibonacci Nim, ``{"cell": [1, 2]}`` for a bite). A key of ``at`` is
    also an attribute: ``move.take`` is ``move.at.take``."""

    __slots__ = ()

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        data = object.__getattribute__(self, "_data")
        at = data.get("at")
        key = name[:-1] if name.endswith("_") else name
        if name not in data and key not in data and isinstance(at, dict) and key in at:
            return _convert(key, at[key])
        return Result.__getattr__(self, name)

    def __str__(self) -> str:
        return str(self._data.get("text", repr(self)))

    def __repr__(self) -> str:
        keys = [k for k in self._data if k != "text"]
        parts = [f"{k + '_' if k == 'from' else k}={_short(_convert(k, self._data[k]))}" for k in keys]
        return f"Move({', '.join(parts)})"


class Period(Result):
    """A period found in a sequence: ``period``, ``preperiod``, ``saltus``, and ``status``
    (``"proven"`` by a theorem, or ``"observed"``)."""

    __slots__ = ()
    _brief = ("preperiod", "period", "saltus")

    @property
    def proven(self) -> bool:
        """True when a theorem proves the period (Guy–Smith, or a finite subtraction set)."""
        return self._data.get("status") == "proven"

    def __repr__(self) -> str:
        d = self._data
        saltus = f", saltus={d['saltus']}" if d.get("saltus") else ""
        return f"Period(preperiod={d['preperiod']}, period={d['period']}{saltus}, proven={self.proven})"


class Sequence(Result):
    """G(0), …, G(upto) of a heap rule (``grundy heap RULE --upto N --json``).

    ``values`` is a numpy array of ``uint32`` that owns the library's buffer (no copy);
    ``period`` is a :class:`Period` or ``None``; also ``rule``, ``code``, ``shift``, ``upto``,
    ``engine``.
    """

    __slots__ = ("values",)
    _brief = ("rule", "upto", "period", "engine")

    def __init__(self, data: Dict[str, Any], values: np.ndarray):
        super().__init__(data)
        #: G(0..=upto), dtype uint32.
        self.values: np.ndarray = values

    @property
    def period(self) -> Optional[Period]:  # type: ignore[override]
        """The smallest period found, or ``None``."""
        p = self._data["period"]
        return None if p.get("status") == "none" else Period(p)

    def to_dict(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {}
        for k, v in self._data.items():
            out[k] = copy.deepcopy(v)
            if k == "upto":
                out["values"] = self.values.tolist()
        return out

    def __len__(self) -> int:
        return len(self.values)

    def __getitem__(self, n: Any) -> Any:  # type: ignore[override]
        return self.values[n]

    def __iter__(self):
        return iter(self.values)

    def _repr_html_(self) -> str:
        """The values plotted by the library (``grundy::plot``, the first 1000), the period
        and the first values as text."""
        d = self._data
        shown = self.values[:1000].tolist()
        cells = [(int(g), "P" if g == 0 else "N") for g in shown]
        period = self.period
        words = (
            f"period {period.period}, preperiod {period.preperiod}"
            + (f", saltus {period.saltus}" if period._data.get("saltus") else "")
            + (" (proven)" if period.proven else " (observed)")
            if period is not None
            else "no period found"
        )
        first = " ".join(str(v) for v in shown[:60]) + (" …" if len(shown) > 60 else "")
        page = (
            f"<div style='{_pictures._STYLE}'><div><b>{html.escape(str(d['rule']))}</b>: "
            f"G(0..={html.escape(str(d['upto']))}), {html.escape(words)}"
            f"{', the first 1000 plotted' if len(self.values) > 1000 else ''}</div>"
            f"<div><code>{html.escape(first)}</code></div>"
            + _pictures.plot_svg(str(d["rule"]), False, None, cells)
            + "</div>"
        )
        return _pictures.fit(page)

    def __repr__(self) -> str:
        d = self._data
        return (
            f"Sequence(rule={d['rule']!r}, upto={d['upto']}, values={_short(self.values)}, "
            f"period={self.period!r}, engine={d['engine']!r})"
        )


class Calculation(Result):
    """A nimber calculation (``grundy nimber --json``): ``op``, ``operands``, ``result``."""

    __slots__ = ()


class Race(Result):
    """A pattern race (``grundy penney P1 P2 … --json``): exact ``Fraction``s throughout."""

    __slots__ = ()
    _brief = ("alphabet", "win", "expected_tosses", "variance")

    @property
    def win(self) -> List[Fraction]:
        """P(pattern i appears first), for each pattern in order."""
        return [Fraction(p["win"]) for p in self._data["patterns"]]

    @property
    def expected_length(self) -> Fraction:
        """Expected number of tosses until the race ends (``expected_tosses``)."""
        return Fraction(self._data["expected_tosses"])

    def __repr__(self) -> str:
        names = [p["pattern"] for p in self._data["patterns"]]
        return (
            f"Race(patterns={names}, win={[_short(w) for w in self.win]}, "
            f"expected_length={_short(self.expected_length)})"
        ).replace("'Fraction", "Fraction").replace(")'", ")")


    def _repr_html_(self) -> str:
        """Each pattern's chance to appear first (exact and decimal), the expected length."""
        rows = [
            [p["pattern"], p["win"], f"{float(Fraction(p['win'])):.4f}", p.get("waiting_time")]
            for p in self._data["patterns"]
        ]
        return _pictures.fit(_pictures.table(
            rows,
            header=["pattern", "P(first)", "≈", "waiting time alone"],
            caption=f"Race: expected length {self._data['expected_tosses']}",
        ))


class BestReply(Result):
    """The best reply to a pattern (``grundy penney --best-reply P --json``)."""

    __slots__ = ()
    _brief = ("pattern", "best_reply", "win")


class BestFirst(Result):
    """The first player's best pattern (``grundy penney --best-first N --json``)."""

    __slots__ = ()
    _brief = ("length", "pattern", "guaranteed", "best_reply")


class PairTable(Result):
    """P(column beats row) for all pairs (``grundy penney --table N --json``)."""

    __slots__ = ()
    _brief = ("length", "patterns")


    def _repr_html_(self) -> str:
        """The matrix: row pattern against column pattern, P(column first) exactly."""
        pats = self._data["patterns"]
        rows = [["—" if x is None else x for x in row] for row in self._data["table"]]
        return _pictures.fit(_pictures.table(
            rows, header=pats, row_names=pats,
            caption=f"P(column pattern appears before row pattern), length {self._data['length']}",
        ))


class Cycle(Result):
    """A non-transitive cycle of patterns (``grundy penney --cycle N --json``)."""

    __slots__ = ()

    def _repr_html_(self) -> str:
        """The cycle, each pattern with its chance against the previous one."""
        rows = [[c["pattern"], c["beats_previous"]] for c in self._data["cycle"]]
        return _pictures.fit(_pictures.table(
            rows, header=["pattern", "beats the previous with"],
            caption=f"A non-transitive cycle of length-{self._data['length']} patterns",
        ))


class Infinite:
    """Smith's infinite value ``∞(K)`` of a position of a loopy game: play from it may never
    end; ``k`` is the frozenset of the finite values among its options. Its ``outcome`` is
    ``"N"`` when 0 is in K (move to the option of value 0), else ``"D"``, a draw.

    >>> v = grundy.Infinite(k=frozenset({0, 2}))
    >>> str(v), v.outcome
    ('∞(0,2)', 'N')
    >>> grundy.Infinite(k=frozenset({1})).outcome
    'D'
    """

    __slots__ = ("k",)

    def __init__(self, k: Iterable[int] = frozenset()):
        #: The finite values of the options.
        self.k: FrozenSet[int] = frozenset(int(x) for x in k)

    @property
    def outcome(self) -> str:
        """``"N"`` if 0 is in K, else ``"D"`` (a draw)."""
        return "N" if 0 in self.k else "D"

    def to_json(self) -> Dict[str, Any]:
        """The JSON form, ``{"infinite": [sorted K]}``."""
        return {"infinite": sorted(self.k)}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Infinite) and other.k == self.k

    def __hash__(self) -> int:
        return hash(("Infinite", self.k))

    def __str__(self) -> str:
        return "∞" if not self.k else "∞(" + ",".join(str(x) for x in sorted(self.k)) + ")"

    def __repr__(self) -> str:
        return f"grundy.Infinite(k=frozenset({set(sorted(self.k)) or '{}'}))" if self.k \
            else "grundy.Infinite(k=frozenset())"

    def _repr_html_(self) -> str:
        """``∞(K)`` and its outcome."""
        return f"<span>{html.escape(str(self))} ({html.escape(self.outcome)})</span>"


def value_of(v: Any) -> Any:
    """A value from JSON (an int, or ``{"infinite": [...]}``) or from the extension (an int,
    or the frozenset K): an int, or :class:`Infinite`."""
    if isinstance(v, dict) and "infinite" in v:
        return Infinite(k=v["infinite"])
    if isinstance(v, frozenset):
        return Infinite(k=v)
    return v


class GameAnalysis(Result):
    """A position of a Python-defined game: ``grundy`` (normal play; absent under misère
    play: an int, or :class:`Infinite` in a loopy game), ``outcome`` (``"D"`` for a draw),
    ``winning_moves`` (each ``{"to": position, "text": shown}``), in a draw
    ``drawing_moves`` (the moves that keep it, likewise), and ``remoteness`` for a position
    valued by the loopy solver. Positions are the game's own Python values, never
    converted."""

    __slots__ = ()
    _brief = ("play", "grundy", "outcome", "winning_moves")

    def __getattr__(self, name: str) -> Any:
        data = object.__getattribute__(self, "_data")
        if name not in data:
            raise AttributeError(f"GameAnalysis has no field {name!r}")
        if name in ("winning_moves", "drawing_moves"):
            return [GameMove(m) for m in data[name]]
        if name == "grundy":
            return value_of(data[name])
        return data[name]


class GameMove(Result):
    """A move of a Python-defined game: ``to`` (the position) and ``text``."""

    __slots__ = ()

    def __getattr__(self, name: str) -> Any:
        data = object.__getattribute__(self, "_data")
        if name not in data:
            raise AttributeError(f"GameMove has no field {name!r}")
        return data[name]

    def __repr__(self) -> str:
        return f"GameMove(to={self._data['to']!r}, text={self._data['text']!r})"


class GameInfo(Result):
    """One game of the catalogue (``grundy games --json``): ``name``, ``summary``,
    ``example``, ``position`` (the grammar), ``kind``, ``family``, ``misere``, ``loopy``,
    ``scoring``."""

    _brief = ("name", "summary", "example")


class Report(Result):
    """The analysis of a position of any catalogue game (``grundy analyze --json``):
    ``outcome`` ("N", "P", "D"), ``grundy`` (an int, or ``{"infinite": [...]}``),
    ``winning_moves`` (each with ``text``, ``short`` and ``to``), ``explanation``."""

    _brief = ("game", "outcome", "grundy", "winning_moves")

    def _repr_html_(self) -> str:
        """The position drawn as the web page draws it (a graph at the library's vertex
        places, a board, heaps), its outcome and value, the winning moves, the explanation."""
        return _pictures.report_html(self._data)


class Values(Result):
    """The value and outcome of every position of a game (``grundy analyze GAME --upto N
    --json``): ``values`` (each with ``position``, ``outcome``, ``grundy``), and for a game of
    two heaps ``side``, the grid's rows and columns (row-major ``values``)."""

    _brief = ("game", "misere", "side")

    def _repr_html_(self) -> str:
        """The library's plot of the table (as :func:`grundy.plot` draws it)."""
        d = self._data
        cells = [
            (v["grundy"] if isinstance(v["grundy"], int) else None, v["outcome"])
            for v in d["values"]
        ]
        side = d.get("side")
        total = len(cells)
        # A picture stays small: a line of at most 1000 positions, a grid of at most 32 x 32.
        if side:
            shown = min(side, 32)
            cells = [cells[r * side + c] for r in range(shown) for c in range(shown)]
            side, note = shown, (f", the first {shown} x {shown} shown" if shown < d["side"] else "")
        else:
            note = f", the first 1000 shown" if total > 1000 else ""
            cells = cells[:1000]
        return _pictures.fit(
            f"<div style='{_pictures._STYLE}'><div><b>{html.escape(str(d['game']))}</b>"
            f"{' (misère)' if d.get('misere') else ''}: {total} positions{note}</div>"
            + _pictures.plot_svg(str(d["game"]), bool(d.get("misere")), side, cells)
            + "</div>"
        )

    def grid(self) -> List[List[Any]]:
        """The values as rows (a line of positions is one row)."""
        vals = [v.grundy for v in self.values]
        side = self._data.get("side") or len(vals) or 1
        return [vals[i : i + side] for i in range(0, len(vals), side)]


class HeapPosition(Report):
    """A sum of heaps of a heap rule (``grundy.heap(RULE).analyze(heaps)``): the registry's
    :class:`Report` (``grundy heap RULE --position H… --json``, the same as ``grundy RULE H…
    --json``), with the heap engine's fields of its ``details`` (``rule``, ``heaps``,
    ``heap_values``, ``unlisted_heaps``, ``unchecked_heaps``) also read as attributes, as
    this class had them before it became the report."""

    _brief = ("game", "outcome", "grundy", "winning_moves")

    def __getattr__(self, name: str) -> Any:
        try:
            return Report.__getattr__(self, name)
        except AttributeError:
            details = object.__getattribute__(self, "_data").get("details")
            if name.startswith("__") or not isinstance(details, dict) or name not in details:
                raise
            return _convert(name, details[name])


class MiserePosition(HeapPosition):
    """A sum of heaps under misère play (``analyze(heaps, misere=True)``): the registry's
    :class:`Report`, whose ``grundy`` is ``None`` (misère values do not add);
    ``positions_searched``, ``method``, ``quotient_order`` and the heap fields of its
    ``details`` also read as attributes."""

    _brief = ("game", "outcome", "winning_moves")


# The results of Nim, Fibonacci Nim and Wythoff's game are the catalogue's one `Report`
# (grundy.nim, grundy.fib, grundy.wythoff, grundy.wythoff_nth are aliases of grundy.analyze);
# their old names stay as aliases of it.
NimAnalysis = Report
FibAnalysis = Report
WythoffAnalysis = Report
WythoffPosition = Report


class Turn(Result):
    """A position in play (``GET /api/play``): every move, the hint, why, the engine's
    reply."""

    _brief = ("game", "outcome", "hint")

    def _repr_html_(self) -> str:
        """The position drawn, its outcome and value, the hint."""
        d = dict(self._data)
        d.pop("winning_moves", None)
        d["explanation"] = ["hint: " + str(d.get("hint", ""))]
        return _pictures.report_html(d)
