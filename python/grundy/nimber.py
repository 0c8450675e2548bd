"""The field of nimbers on integers below 2^128 (``grundy nimber``).

>>> from grundy import nimber
>>> nimber.mul(21508, 42689)
35202
>>> nimber.inv(8)
10
"""

from __future__ import annotations

import json
import operator
from typing import Union

from . import _grundy
from ._results import Calculation

__all__ = ["calculate", "add", "mul", "div", "inv", "sqrt", "pow"]

Int = Union[int, str]


def _text(x: Int) -> str:
    return x if isinstance(x, str) else str(operator.index(x))


def calculate(op: str, *operands: Int) -> Calculation:
    """One calculation as ``grundy nimber --json OP A [B]``: ``op`` is ``add``, ``mul``,
    ``div``, ``inv``, ``sqrt`` or ``pow``."""
    return Calculation(json.loads(_grundy.nimber(op, [_text(x) for x in operands])))


def add(a: Int, b: Int) -> int:
    """The nim-sum a ⊕ b (XOR)."""
    return int(calculate("add", a, b).result)


def mul(a: Int, b: Int) -> int:
    """The nim product a ⊗ b."""
    return int(calculate("mul", a, b).result)


def div(a: Int, b: Int) -> int:
    """The nim quotient a ⊘ b (``InputError`` when b is 0)."""
    return int(calculate("div", a, b).result)


def inv(a: Int) -> int:
    """The nim inverse of a (``InputError`` when a is 0)."""
    return int(calculate("inv", a).result)


def sqrt(a: Int) -> int:
    """The nim square root of a (every nimber has exactly one)."""
    return int(calculate("sqrt", a).result)


def pow(a: Int, e: Int) -> int:  # noqa: A001 - the operation's name
    """a to the ordinary integer power e, by nim products."""
    return int(calculate("pow", a, e).result)
