"""The package under test is the wheel a user installs, in an environment without a Rust
toolchain: scripts/test-python builds the wheel (scripts/wheel), installs it into a fresh
virtual environment with no cargo or rustc on PATH, and names that environment in
$GRUNDY_TEST_WHEEL. Run any other way (pytest on a source install), these tests skip."""

import os
import pathlib
import shutil
import sys
from importlib.metadata import distribution

import pytest

import grundy

VENV = os.environ.get("GRUNDY_TEST_WHEEL")
pytestmark = pytest.mark.skipif(not VENV, reason="run by scripts/test-python, on the wheel")


def test_no_rust_toolchain_on_path():
    assert shutil.which("cargo") is None
    assert shutil.which("rustc") is None


def test_grundy_is_the_installed_wheel():
    venv = pathlib.Path(VENV).resolve()
    assert pathlib.Path(sys.prefix).resolve() == venv
    package = pathlib.Path(grundy.__file__).resolve()
    extension = pathlib.Path(grundy._grundy.__file__).resolve()
    for path in (package, extension):
        assert venv in path.parents and "site-packages" in path.parts, path
    # One extension for every CPython >= 3.9 (the stable ABI), installed from a wheel.
    assert extension.name.endswith(".abi3.so"), extension.name
    wheel = distribution("grundy").read_text("WHEEL")
    assert "Tag: cp39-abi3-" in wheel, wheel
