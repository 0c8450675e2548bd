"""Games written as Python functions, solved by the library's memoised solver."""

from __future__ import annotations

from typing import Any, Callable, Hashable, Iterable, List, Optional, Union

import numpy as np

from . import _grundy
from ._results import GameAnalysis, Infinite, value_of

__all__ = ["Game", "Sum"]

#: A disjunctive sum of positions: ``Sum(a, b)`` is a move to two independent positions,
#: valued as the XOR of their values. Nested sums are flattened.
Sum = _grundy.Sum


class Game:
    """An impartial game defined by Python callables.

    ``moves(position)`` returns every position reachable in one move; positions are any
    hashable Python values, and a move may lead to ``grundy.Sum(p, q, …)``, a sum of
    independent positions. Optional: ``split(position)`` returns the independent parts of
    a position (or ``None``), ``canon(position)`` one canonical representative of its
    symmetry class (positions are remembered by it), ``show(position)`` the text of a
    position in moves (default ``repr``).

    Values are memoised in Rust: ``moves`` is called once per distinct position (see
    ``moves_calls``). A game whose positions can repeat (a loopy game) declares nothing: when
    the search meets a cycle, the positions reachable from the one asked about are explored
    (within ``max_positions``) and labelled with Smith's generalized values, so a value is an
    int or :class:`grundy.Infinite` (``∞(K)``) and an outcome may be ``"D"``, a draw (misère
    play of a loopy game raises :class:`grundy.CycleError`). A game with more than
    ``max_positions`` distinct positions raises :class:`grundy.InputError`; an exception
    raised by a callable is raised by the call that triggered it.

    >>> kayles = grundy.Game(moves=lambda n: [grundy.Sum(a, n - k - a)
    ...                                       for k in (1, 2) for a in range((n - k) // 2 + 1)])
    >>> kayles.grundy(10), kayles.outcome(12)
    (2, 'N')
    """

    def __init__(
        self,
        moves: Callable[[Any], Iterable[Hashable]],
        *,
        split: Optional[Callable[[Any], Optional[Iterable[Hashable]]]] = None,
        canon: Optional[Callable[[Any], Hashable]] = None,
        show: Optional[Callable[[Any], str]] = None,
        name: Optional[str] = None,
        max_positions: int = 10_000_000,
    ):
        self._solver = _grundy.GameSolver(moves, split, canon, max_positions)
        self._show = show
        #: A name for ``repr``.
        self.name = name

    def __repr__(self) -> str:
        return f"grundy.Game({self.name or 'moves=…'})"

    def grundy(self, position: Hashable) -> Union[int, Infinite]:
        """The Sprague–Grundy value of ``position`` (Smith's in a loopy game: an int, or
        :class:`grundy.Infinite`)."""
        return value_of(self._solver.grundy(position))

    def outcome(self, position: Hashable, misere: bool = False) -> str:
        """``"N"`` if the player to move wins, ``"P"`` if not, ``"D"`` for a draw (a loopy
        game; misère: the last mover loses)."""
        return self._solver.analyze(position, misere)[1]

    def winning_moves(self, position: Hashable, misere: bool = False) -> List[Any]:
        """The positions that every winning move leads to (empty in a P-position)."""
        return self._solver.analyze(position, misere)[2]

    def analyze(self, position: Hashable, misere: bool = False) -> GameAnalysis:
        """Value (normal play), outcome and every winning move, each as ``to`` (the position)
        and ``text`` (shown with ``show``)."""
        g, outcome, moves, drawing, remoteness = self._solver.analyze(position, misere)
        data: dict = {}
        if misere:
            data["play"] = "misere"
        else:
            data["grundy"] = {"infinite": sorted(g)} if isinstance(g, frozenset) else g
        data["outcome"] = outcome
        if remoteness is not None:
            data["remoteness"] = remoteness
        data["winning_moves"] = [{"to": m, "text": self.show(m)} for m in moves]
        if drawing:
            data["drawing_moves"] = [{"to": m, "text": self.show(m)} for m in drawing]
        return GameAnalysis(data)

    def values(self, positions: Iterable[Hashable]) -> np.ndarray:
        """The values of ``positions`` (e.g. ``range(500)``) as a numpy array of uint32 (a
        position of infinite value raises :class:`grundy.InputError`)."""
        return self._solver.values(positions)

    def options(self, position: Hashable) -> List[Any]:
        """Every position reachable in one move (after ``canon``), each once."""
        return self._solver.options(position)

    def show(self, position: Any) -> str:
        """The text of a position: ``show(position)``, a sum's parts joined by ``+``."""
        if isinstance(position, Sum):
            return " + ".join(self.show(p) for p in position.parts) or "0"
        return self._show(position) if self._show else repr(position)

    @property
    def moves_calls(self) -> int:
        """How many times ``moves`` was called: once per distinct position."""
        return self._solver.moves_calls

    @property
    def positions(self) -> int:
        """Distinct positions seen so far (sums included)."""
        return self._solver.positions

    def clear(self) -> None:
        """Forgets the memoised values."""
        self._solver.clear()
