"""Misère play of heap games: quotients, genus and canonical forms (``grundy misere``).

``quotient(rule, upto)`` is the misère quotient (Plambeck–Siegel) of a heap rule for heaps
``0..=upto``, proven exactly: with it the misère outcome of a sum of any number of heaps is a
product in a finite monoid (``q.outcome([5, 7, 9])``). ``genus(rule, upto)`` is Conway's genus
of each heap in CGSuite's notation; ``form(game)`` a game's misère canonical form in CGSuite's
notation (``form("*[[2],0]").text == "*[2#0]"``), with sums (``form("*2+*2")``) and differences
(``form(g, minus=h)``: the X with X + h = g).
"""

from __future__ import annotations

import json as _json
from dataclasses import dataclass
from typing import Any, List, Optional, Union

from . import _grundy, _pictures

__all__ = ["Quotient", "Genus", "Form", "quotient", "genus", "form"]

_Count = Union[int, str]


class Quotient:
    """A misère quotient; the fields of ``grundy misere quotient --json``.

    ``order`` |Q|, ``p_size`` |P|, ``presentation`` (MisereSolver's notation), ``p_portion``
    and ``phi`` (Φ(h) for every heap, as normal forms), ``changes_at`` (the heap where the
    presentation last changed), ``period`` (``{"preperiod", "period"}`` of Φ or None), ``tame``
    and ``name`` (``"T_k"`` when tame), ``elements``, ``generators``, ``relations``,
    ``structure`` (idempotents and maximal subgroups); ``outcome(heaps)`` gives a sum's misère
    outcome, ``winning_moves(heaps)`` its winning moves, ``table()`` the multiplication table.
    """

    def __init__(self, native: Any) -> None:
        self._native = native
        d = _json.loads(native.json())
        self.rule: str = d["rule"]
        self.upto: int = d["upto"]
        self.order: int = d["order"]
        self.p_size: int = d["p_size"]
        self.presentation: str = d["presentation"]
        self.generators: List[dict[str, Any]] = d["generators"]
        self.relations: List[dict[str, Any]] = d["relations"]
        self.elements: List[str] = d["elements"]
        self.p_portion: List[str] = d["p_portion"]
        self.phi: List[str] = d["phi"]
        self.changes_at: int = d["changes_at"]
        self.period: Optional[dict[str, int]] = d["period"]
        self.tame: bool = d["tame"]
        self.name: Optional[str] = d["name"]
        self.structure: dict[str, Any] = d["structure"]
        self._json = d

    def outcome(self, heaps: List[_Count]) -> str:
        """The misère outcome of the sum of ``heaps``: ``"N"`` or ``"P"``."""
        return self._native.outcome(list(heaps))

    def winning_moves(self, heaps: List[_Count]) -> List[dict[str, Any]]:
        """Every winning move of the sum, the library's one move shape (``{"text", "short",
        "to", "outcome", "at"}``, ``at`` holding ``heap``, ``from``, ``removed``, ``leaves``)."""
        return _json.loads(self._native.winning_moves(list(heaps)))

    def element(self, heaps: List[_Count]) -> str:
        """The element of Q that the sum of ``heaps`` is, as a normal form."""
        return self.elements[self._native.element(list(heaps))]

    def table(self) -> List[List[int]]:
        """``table()[x][y]``: the product of elements x and y (indices into ``elements``)."""
        return self._native.table()

    def to_json(self) -> dict[str, Any]:
        """The object ``grundy misere quotient --structure --json`` prints."""
        return dict(self._json)

    def _repr_html_(self) -> str:
        """The presentation, the P-portion, Φ of the first heaps and the multiplication
        table (elements by their normal forms, ``1`` the identity)."""
        e = _pictures._e
        head = (f"<div><b>misère quotient of {e(self.rule)}</b> (heaps 0..={e(self.upto)}): "
                f"|Q| = {e(self.order)}, |P| = {e(self.p_size)}"
                + (f", {e(self.name)}" if self.name else "") + "</div>"
                f"<div>presentation <code>{e(self.presentation or 'trivial')}</code></div>"
                f"<div>P-portion {{{e(', '.join(self.p_portion))}}}</div>"
                f"<div>Φ(0..) = {e(' '.join(self.phi[:30]))}{' …' if len(self.phi) > 30 else ''}</div>")
        names = [x or "1" for x in self.elements]
        rows = [[names[k] for k in row] for row in self.table()]
        body = _pictures.table(rows, header=names, row_names=names, caption="multiplication table")
        return _pictures.fit(f"<div style='{_pictures._STYLE}'>{head}{body}</div>")

    def __repr__(self) -> str:
        name = f" {self.name}" if self.name else ""
        return (f"Quotient({self.rule!r}, upto={self.upto}: |Q| = {self.order}, "
                f"|P| = {self.p_size}{name}, {self.presentation or 'trivial'})")


@dataclass(frozen=True)
class Genus:
    """Conway's genus of one game: ``g`` normal value, ``gamma`` misère values of G + i·*2,
    ``text`` CGSuite's notation (``"4^146"``)."""

    g: int
    gamma: List[int]
    text: str

    def _repr_html_(self) -> str:
        """The genus in CGSuite's notation, with its superscript."""
        return f"<span>genus <code>{_pictures._e(self.text)}</code></span>"


@dataclass(frozen=True)
class Form:
    """A misère canonical form (``grundy misere form --json``)."""

    text: str
    canonical: str
    birthday: int
    misere_grundy: int
    grundy: int
    outcome: str
    mate: str
    mate_text: str
    genus: Genus
    cls: str

    @property
    def tame(self) -> bool:
        """True when the form is tame (it plays like a Nim heap sum under misère play)."""
        return self.cls == "tame"

    def _repr_html_(self) -> str:
        """Every field as a small table."""
        rows = [[k, getattr(self, k)] for k in self.__dataclass_fields__]
        rows = [[k, v.text if isinstance(v, Genus) else v] for k, v in rows]
        return _pictures.fit(_pictures.table(rows, caption="misère canonical form"))


def quotient(rule: str, upto: _Count, max_order: Optional[int] = None) -> Quotient:
    """The misère quotient of ``rule`` for heaps ``0..=upto`` (see :class:`Quotient`).

    Raises ``InputError`` for a bad rule, and when the quotient grows past ``max_order``
    elements (it may be infinite: "did not converge").
    """
    return Quotient(_grundy.misere_quotient(rule, upto, max_order))


def genus(rule: str, upto: _Count = 20) -> List[Genus]:
    """Conway's genus of heaps ``0..=upto`` of ``rule``."""
    return [Genus(**g) for g in _json.loads(_grundy.misere_genus(rule, upto))]


def form(game: str, minus: Optional[str] = None) -> Form:
    """The misère canonical form of ``game`` (CGSuite's entry notation; ``+`` adds), or with
    ``minus`` the X with X + minus = game (``InputError`` when there is none)."""
    d = _json.loads(_grundy.misere_form(game, minus))
    d["genus"] = Genus(**d["genus"])
    d["cls"] = d.pop("class")
    return Form(**d)
