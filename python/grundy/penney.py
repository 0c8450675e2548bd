"""Pattern races (Penney's game) with exact answers as :class:`fractions.Fraction`
(``grundy penney``).

>>> from grundy import penney
>>> r = penney.race(["HHT", "THH"])
>>> r.win
[Fraction(1, 4), Fraction(3, 4)]
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Dict, Iterable, Optional, Union

from . import _grundy
from ._results import BestFirst, BestReply, Cycle, PairTable, Race

__all__ = ["race", "best_reply", "best_first", "table", "cycle"]

#: Letter probabilities: ``{"H": Fraction(2, 3), "T": Fraction(1, 3)}`` or the CLI's text
#: ``"H=2/3,T=1/3"``.
Prob = Union[None, str, Dict[str, Union[Fraction, int, float, str]]]


def _prob(prob: Prob) -> Optional[str]:
    if prob is None or isinstance(prob, str):
        return prob
    return ",".join(f"{k}={Fraction(v) if not isinstance(v, str) else v}" for k, v in prob.items())


def race(
    patterns: Iterable[str],
    *,
    alphabet: Optional[str] = None,
    prob: Prob = None,
    distribution: int = 0,
    simulate: Optional[int] = None,
    seed: int = 1,
) -> Race:
    """Which pattern appears first, exactly: ``win`` (one Fraction per pattern),
    ``expected_length``, ``variance``, and with ``distribution=K`` P(the race ends at toss
    n) for n ≤ K; ``simulate=TRIALS`` adds a seeded simulation."""
    return Race(
        json.loads(
            _grundy.penney_race(
                list(patterns), alphabet, _prob(prob), distribution, simulate, seed
            )
        )
    )


def best_reply(pattern: str, *, alphabet: Optional[str] = None, prob: Prob = None) -> BestReply:
    """The second player's best answer to ``pattern`` among patterns of its length."""
    return BestReply(json.loads(_grundy.penney_best_reply(pattern, alphabet, _prob(prob))))


def best_first(length: int, *, alphabet: Optional[str] = None, prob: Prob = None) -> BestFirst:
    """The first player's best pattern of ``length`` and the chance it guarantees."""
    return BestFirst(json.loads(_grundy.penney_best_first(length, alphabet, _prob(prob))))


def table(length: int, *, alphabet: Optional[str] = None, prob: Prob = None) -> PairTable:
    """P(column pattern appears before row pattern) for all patterns of ``length``."""
    return PairTable(json.loads(_grundy.penney_table(length, alphabet, _prob(prob))))


def cycle(length: int, *, alphabet: Optional[str] = None, prob: Prob = None) -> Cycle:
    """A non-transitive cycle of patterns of ``length`` (each beats the previous one)."""
    return Cycle(json.loads(_grundy.penney_cycle(length, alphabet, _prob(prob))))
