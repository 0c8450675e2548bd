"""Lua game scripts (the script engine of the ``grundy script`` command) from Python."""

from __future__ import annotations

import json
import os
from typing import Any, Dict, Hashable, Iterable, List, Optional, Union

import numpy as np

from . import _grundy
from . import _pictures
from ._results import Infinite, Move, Period, Result, _short, value_of

__all__ = ["script", "Script", "ScriptAnalysis", "ScriptSequence"]


class ScriptAnalysis(Result):
    """A sum of script positions (``grundy script FILE P… --json``): ``game``,
    ``positions``, ``texts``, ``play``, ``values`` and ``grundy`` (normal play; ints, or
    :class:`grundy.Infinite` in a loopy game), ``outcome`` (``"D"``: a draw),
    ``winning_moves`` (each a :class:`ScriptMove`), in a draw ``drawing_moves`` likewise, and
    ``remoteness`` where the loopy solver valued it. Positions are as the script has them
    (ints, strings, lists), never converted."""

    __slots__ = ()
    _brief = ("game", "texts", "play", "grundy", "outcome", "winning_moves")

    def __getattr__(self, name: str) -> Any:
        data = object.__getattribute__(self, "_data")
        key = "from" if name == "from_" else name
        if key not in data:
            raise AttributeError(f"ScriptAnalysis has no field {name!r}")
        if key in ("winning_moves", "drawing_moves"):
            return [ScriptMove(m) for m in data[key]]
        if key == "grundy":
            return value_of(data[key])
        if key == "values":
            return [value_of(v) for v in data[key]]
        return data[key]


class ScriptMove(Move):
    """A move in a sum of script positions, the library's one move (:class:`grundy.Move`):
    ``text``, ``short``, ``to`` (the whole sum after it, tagged: ``to.text`` is the Lua literal
    the script's catalogue entry reads back, ``sum(0, 7, 9)``), ``outcome`` and ``grundy`` of
    that position, and ``at``: ``component`` (which part), ``from`` and ``leaves`` (that part
    before and after), each also an attribute (``from_``, ``leaves``), as the script has them,
    never converted."""

    __slots__ = ()

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        data = object.__getattribute__(self, "_data")
        key = "from" if name == "from_" else name
        at = data.get("at")
        if key not in data and isinstance(at, dict) and key in at:
            return at[key]
        if key == "grundy" and key in data:
            return value_of(data[key])
        if key not in data:
            raise AttributeError(f"ScriptMove has no field {name!r}")
        return Move.__getattr__(self, name)

    def __repr__(self) -> str:
        return f"ScriptMove({self._data.get('text')!r})"


class ScriptSequence(Result):
    """Positions 0..=upto of a script (``--upto N --json``): ``values`` (numpy uint64) and
    ``period`` (observed only: a script's rule cannot be inspected; ``repeats`` tells how
    often it repeated)."""

    __slots__ = ("values",)
    _brief = ("game", "upto", "period")

    def __init__(self, data: Dict[str, Any], values: np.ndarray):
        super().__init__(data)
        if len(values) == 0 and data.get("values"):
            # A loopy game: ints and grundy.Infinite, in a list.
            values = [value_of(v) for v in data["values"]]  # type: ignore[assignment]
        self.values: np.ndarray = values

    @property
    def period(self) -> Optional[Period]:  # type: ignore[override]
        """The period observed, or ``None``."""
        p = self._data.get("period")
        return None if p is None else Period(p)

    def to_dict(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {}
        for k, v in self._data.items():
            if k == "period":
                out["values"] = self._values_json()
            out[k] = v if not isinstance(v, (dict, list)) else json.loads(json.dumps(v))
        if "values" not in out:
            out["values"] = self._values_json()
        return out

    def _values_json(self) -> List[Any]:
        if isinstance(self.values, np.ndarray):
            return self.values.tolist()
        return [v.to_json() if isinstance(v, Infinite) else v for v in self.values]

    def _repr_html_(self) -> str:
        """The values plotted by the library (the first 1000; ``∞`` values left blank) and
        the period observed."""
        shown = list(self.values[:1000])
        cells = [
            (None, v.outcome) if isinstance(v, Infinite) else (int(v), "P" if v == 0 else "N")
            for v in shown
        ]
        p = self.period
        words = f"period {p.period}, preperiod {p.preperiod} (observed)" if p else "no period found"
        game = str(self._data["game"])
        return _pictures.fit(
            f"<div style='{_pictures._STYLE}'><div><b>{_pictures._e(game)}</b>: "
            f"{_pictures._e(words)}</div>" + _pictures.plot_svg(game, False, None, cells) + "</div>"
        )

    def __repr__(self) -> str:
        return (f"ScriptSequence(game={self._data['game']!r}, upto={self._data['upto']}, "
                f"values={_short(self.values)}, period={self.period!r})")


class Script:
    """A game written in Lua (see ``examples/games/``), solved by the library's script
    engine: sandboxed, with limits on steps, memory, positions and time.

    Positions are ints, strings, bools, lists of positions, or ``grundy.Sum(...)``.
    """

    def __init__(self, name: str, source: str, **limits: Any):
        self._s = _grundy.ScriptGame(name, source, **limits)
        #: The file name (or ``"<source>"``).
        self.name = name

    @property
    def title(self) -> str:
        """The game's ``name = "…"``, else its file name."""
        return self._s.title

    def __repr__(self) -> str:
        return f"grundy.script({self.name!r})"

    def analyze(self, *positions: Hashable, misere: bool = False) -> ScriptAnalysis:
        """The sum of ``positions``: values, outcome, every winning move, exactly as
        ``grundy script FILE P… [--misere] --json``."""
        return ScriptAnalysis(json.loads(self._s.analyze(list(positions), misere)))

    def grundy(self, position: Hashable) -> Union[int, Infinite]:
        """The Sprague–Grundy value of ``position`` (Smith's in a loopy game: an int, or
        :class:`grundy.Infinite`)."""
        g = self.analyze(position).grundy
        return g if isinstance(g, Infinite) else int(g)

    def outcome(self, position: Hashable, misere: bool = False) -> str:
        """``"N"`` if the player to move wins, ``"P"`` if not, ``"D"`` for a draw."""
        return self.analyze(position, misere=misere).outcome

    def winning_moves(self, position: Hashable, misere: bool = False) -> List[Any]:
        """The positions every winning move leads to."""
        return [m.leaves for m in self.analyze(position, misere=misere).winning_moves]

    def sequence(self, n: int) -> ScriptSequence:
        """Integer positions 0..=n as ``--upto N --json``."""
        data, values = self._s.sequence(n)
        return ScriptSequence(json.loads(data), values)

    def values(self, positions: Iterable[Hashable]) -> np.ndarray:
        """The values of ``positions`` as a numpy array (uint64)."""
        return self._s.values(positions)

    def table(self, rows: int, cols: int) -> Result:
        """Values of the positions ``[a, b]`` for a < rows, b < cols (``--table A B``)."""
        return Result(json.loads(self._s.table(rows, cols)))

    def explain(self, position: Hashable) -> Result:
        """Every option of ``position`` with its value (``--explain P``)."""
        return Result(json.loads(self._s.explain(position)))


def script(
    path_or_source: str,
    *,
    max_steps: Optional[int] = None,
    max_memory_mb: Optional[int] = None,
    max_positions: Optional[int] = None,
    time_limit: Optional[float] = None,
) -> Script:
    """A Lua game: a file name (``"kayles.lua"``) or the source text itself (anything that
    defines ``function moves``). The limits are the CLI's ``--max-steps``, ``--max-memory``
    (MB), ``--max-positions`` and ``--time-limit`` (seconds)."""
    limits = dict(max_steps=max_steps, max_memory_mb=max_memory_mb,
                  max_positions=max_positions, time_limit=time_limit)
    if "moves" in path_or_source and ("\n" in path_or_source or "function" in path_or_source) \
            and not os.path.exists(path_or_source):
        return Script("<source>", path_or_source, **limits)
    with open(path_or_source, encoding="utf-8") as f:
        source = f.read()
    return Script(os.path.basename(path_or_source), source, **limits)
