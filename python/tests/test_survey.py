"""grundy.survey: a local survey gives the CLI's table; on a Dask LocalCluster (2 worker
processes on 127.0.0.1) a worker killed with SIGKILL mid-survey has its game run elsewhere and
the database equals a single-process run's."""

import os
import signal
import sqlite3

import pytest

import grundy.survey as survey


def rows(db):
    """Every row of the games table but the wall time, by rule."""
    con = sqlite3.connect(db)
    try:
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        cur = con.execute("SELECT * FROM games ORDER BY rule")
        names = [d[0] for d in cur.description]
        out = []
        for r in cur.fetchall():
            d = dict(zip(names, r))
            d.pop("seconds")
            out.append(d)
        return out
    finally:
        con.close()


def test_local_survey_equals_the_cli(tmp_path, cli):
    rep = survey.run("octal:2", upto="2^10", db=tmp_path / "py.sqlite")
    assert rep["total"]["games"] == 63
    assert rep["total"]["equivalent"] == 22
    cli("survey", "octal:2", "--db", tmp_path / "cli.sqlite", "--upto", "2^10", "--jobs", "1")
    assert rows(tmp_path / "py.sqlite") == rows(tmp_path / "cli.sqlite")
    # The report the package returns is the CLI's.
    assert survey.report(tmp_path / "py.sqlite")["total"] == cli(
        "survey", "--db", tmp_path / "cli.sqlite", "--report")["total"]
    # One game alone; an equivalent pair in the expansion.
    row = survey.solve("0.77", 4096)
    assert (row["status"], row["preperiod"], row["period"], row["proven"]) == ("periodic", 71, 12, 1)
    seven = next(e for e in survey.expand("octal:2") if e["rule"] == "0.07")
    assert (seven["equals"], seven["shift"]) == ("0.4", 1)


def test_bad_input():
    from grundy import InputError

    with pytest.raises(InputError, match="fib"):
        survey.expand("fib:3")
    with pytest.raises(InputError):
        survey.report("/nonexistent-dir/none.sqlite")


def test_dask_worker_killed_mid_survey(tmp_path):
    if os.environ.get("GRUNDY_REQUIRE_DASK") != "1":
        pytest.importorskip("distributed")
    from dask.distributed import Client, LocalCluster

    family, upto = "octal:2", "2^15"
    killed = {}
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address=None) as cluster, Client(cluster) as client:
        def on_row(row):
            if killed:
                return
            busy = [w for w, keys in client.processing().items() if keys]
            if not busy:
                return
            pid = client.run(os.getpid, workers=[busy[0]])[busy[0]]
            killed["worker"], killed["pid"] = busy[0], pid
            killed["tasks"] = list(client.processing()[busy[0]])
            os.kill(pid, signal.SIGKILL)

        rep = survey.run(family, upto=upto, db=tmp_path / "dask.sqlite", client=client,
                         on_row=on_row)
    assert killed, "no worker was busy to kill"
    assert killed["tasks"], killed
    assert rep["total"]["games"] == 63
    survey.run(family, upto=upto, db=tmp_path / "local.sqlite")
    assert rows(tmp_path / "dask.sqlite") == rows(tmp_path / "local.sqlite")
