"""Shared fixtures: the `grundy` CLI binary (whose --json output the package must reproduce)
and the repository's reference data."""

import json
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
TESTDATA = ROOT / "testdata"


def _cli_path() -> pathlib.Path:
    """The CLI binary: $GRUNDY_CLI, else built once with cargo (the test profile, which
    `cargo test --workspace` has usually built already)."""
    env = os.environ.get("GRUNDY_CLI")
    if env:
        return pathlib.Path(env)
    subprocess.run(
        ["cargo", "build", "--quiet", "--profile", "test", "-p", "grundy-cli"],
        cwd=ROOT,
        check=True,
    )
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    return target / "debug" / "grundy"


@pytest.fixture(scope="session")
def cli():
    """cli(*args) -> the parsed --json object of `grundy ARGS --json`."""
    path = _cli_path()
    # The CLI keeps proven misère quotients on disk between runs (Python keeps them in memory
    # only): a quotient another run proved further would change `quotient_order` and `upto`,
    # not the answer. The two doors are compared on the same computation: no disk cache.
    env = dict(os.environ, GRUNDY_CACHE_DIR="")

    def run(*args):
        out = subprocess.run(
            [str(path), *map(str, args), "--json"], capture_output=True, text=True, env=env
        )
        assert out.returncode == 0, out.stderr
        return json.loads(out.stdout)

    def error(*args):
        out = subprocess.run([str(path), *map(str, args)], capture_output=True, text=True, env=env)
        assert out.returncode == 2, (out.returncode, out.stdout, out.stderr)
        return out.stderr.strip()

    run.error = error
    return run


@pytest.fixture(scope="session")
def testdata():
    return TESTDATA
