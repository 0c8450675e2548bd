"""Surveys of whole families of heap games into SQLite, locally or on a Dask cluster.

``run(family, upto=N, db=PATH, client=None)`` solves every game of ``family`` (``"octal:3"``,
``"hex:2"``, ``"sub:8"``, ``"allbut:4"``, ``"file:rules.txt"``) not yet finished in the database
``db`` and returns the database's report (the JSON of ``grundy survey --report --json``). With
a ``dask.distributed.Client`` each game is one task on the cluster; this process (the driver)
is the only one that writes the database, one transaction per finished game, so killing the
driver loses at most the games in flight, and a worker that dies mid-task has its game run
again elsewhere (Dask reschedules it; ``retries`` covers errors raised by a task). The rows are
the same as a local run's (only the ``seconds`` column differs).

From a shell::

    python -m grundy.survey octal:3 --db survey.sqlite --upto 2^20 --scheduler tcp://HOST:8786

Dask is optional: ``pip install ./python[dask]``.
"""

from __future__ import annotations

import argparse
import json as _json
import sys
from typing import Any, Callable, Optional

from . import _grundy

__all__ = ["run", "solve", "expand", "report", "main"]


def expand(family: str) -> list[dict[str, Any]]:
    """The games of ``family`` in order: ``{"rule", "equals", "shift", "why"}`` each."""
    return _json.loads(_grundy.survey_expand(family))


def solve(rule: str, upto: int | str, budget: Optional[float] = None,
          save_sequences: Optional[str] = None, threads: int = 1) -> dict[str, Any]:
    """One game's row (the ``games`` table's columns), as ``grundy::survey::solve`` gives it."""
    return _json.loads(_grundy.survey_solve(rule, upto, budget, save_sequences, threads))


def report(db: str) -> dict[str, Any]:
    """The report of the database ``db``: ``{"families", "total", "games"}``."""
    return _json.loads(_grundy.survey_report(str(db)))


def _task(rule: str, upto: int, budget: Optional[float], save: Optional[str]) -> str:
    """What a Dask worker runs: one game, its row as JSON (small, picklable)."""
    return _grundy.survey_solve(rule, upto, budget, save, 1)


def run(family: str, *, upto: int | str, db: str, client: Any = None,
        budget: Optional[float] = None, save_sequences: Optional[str] = None,
        retries: int = 3, on_row: Optional[Callable[[dict[str, Any]], None]] = None
        ) -> dict[str, Any]:
    """Surveys ``family`` into ``db`` (see the module documentation); returns the report.

    ``on_row(row)`` is called after each row is committed. ``save_sequences`` must be a
    directory every worker can reach (a shared file system) to be of use on a cluster.
    """
    db = str(db)
    plan = _json.loads(_grundy.survey_plan(db, family, upto))
    todo, upto_n, name = plan["todo"], plan["upto"], plan["family"]

    def write(row_json: str) -> None:
        row = _json.loads(row_json)
        row["family"] = name
        _grundy.survey_write(db, _json.dumps([row]))
        if on_row is not None:
            on_row(row)

    if client is None:
        for rule in todo:
            write(_grundy.survey_solve(rule, upto_n, budget, save_sequences, 0))
        return report(db)

    from dask.distributed import as_completed

    futures = [
        client.submit(_task, rule, upto_n, budget, save_sequences,
                      key=f"grundy-survey-{rule}-{upto_n}", pure=False, retries=retries)
        for rule in todo
    ]
    try:
        for fut in as_completed(futures):
            write(fut.result())
    finally:
        for fut in futures:
            fut.release()
    return report(db)


def main(argv: Optional[list[str]] = None) -> int:
    """``python -m grundy.survey FAMILY --db FILE --upto N [--scheduler tcp://HOST:8786]``."""
    p = argparse.ArgumentParser(prog="python -m grundy.survey", description=__doc__.split("\n")[0])
    p.add_argument("family", nargs="?", help="octal:D, hex:D, sub:M, allbut:M or file:PATH")
    p.add_argument("--db", required=True, help="the SQLite database (created if needed)")
    p.add_argument("--upto", default="2^16", help="compute each game at most to G(0..=N)")
    p.add_argument("--budget", type=float, help="seconds per game")
    p.add_argument("--save-sequences", help="directory for the sequences of unknown games")
    p.add_argument("--scheduler", help="a Dask scheduler address (tcp://HOST:8786); "
                   "without it the survey runs in this process")
    p.add_argument("--report", action="store_true", help="print the database's report")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    args = p.parse_args(argv)
    from ._errors import GrundyError
    try:
        if args.report or args.family is None:
            rep = report(args.db)
        else:
            client = None
            if args.scheduler:
                from dask.distributed import Client
                client = Client(args.scheduler)
            done = [0]

            def tick(row: dict[str, Any]) -> None:
                done[0] += 1
                if sys.stderr.isatty():
                    print(f"\r{done[0]} games done ({row['rule']}: {row['status']})",
                          end="", file=sys.stderr, flush=True)

            rep = run(args.family, upto=args.upto, db=args.db, client=client,
                      budget=args.budget, save_sequences=args.save_sequences, on_row=tick)
            if sys.stderr.isatty():
                print(file=sys.stderr)
            if client is not None:
                client.close()
    except GrundyError as e:
        print(f"grundy.survey: error: {e}", file=sys.stderr)
        return 2
    if args.json:
        print(_json.dumps(rep))
    else:
        t = rep["total"]
        for c in rep["families"] + [t]:
            print(f"{c['family']:<12} games {c['games']:>6}  solved {c['solved']:>5}  "
                  f"observed {c['observed']:>4}  unknown {c['unknown']:>5}  "
                  f"equivalent {c['equivalent']:>5}  error {c['error']:>3}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
