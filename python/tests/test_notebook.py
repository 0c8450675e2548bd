"""examples/grundy.ipynb, a researcher's start, is executed cell by cell (nbclient, in a
kernel of this Python): every cell runs without error and every picture it shows stays within
the size bound. The notebook is stored without outputs."""

import json
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "examples" / "grundy.ipynb"


def test_notebook_is_stored_without_outputs():
    nb = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            assert cell.get("outputs") == [] and cell.get("execution_count") is None


def test_notebook_runs():
    nbformat = pytest.importorskip("nbformat", reason="nbformat is not installed (scripts/test-python installs it)")
    nbclient = pytest.importorskip("nbclient", reason="nbclient is not installed (scripts/test-python installs it)")
    pytest.importorskip("ipykernel", reason="ipykernel is not installed (scripts/test-python installs it)")
    from grundy import _pictures

    nb = nbformat.read(str(NOTEBOOK), as_version=4)
    client = nbclient.NotebookClient(
        nb, timeout=300, kernel_name="python3",
        resources={"metadata": {"path": str(NOTEBOOK.parent)}},
    )
    client.execute()
    pictures = 0
    for cell in nb.cells:
        if cell.cell_type != "code":
            continue
        for out in cell.outputs:
            assert out.output_type != "error", out
            page = out.get("data", {}).get("text/html")
            if page is not None:
                pictures += 1
                assert len(page) <= _pictures.MAX_HTML
    assert pictures >= 10
