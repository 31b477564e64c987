"""The notebooks as stored: what every chapter must do whatever the machine it runs on."""

from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).parent.parent / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_every_notebook_draws_inline_whatever_the_backend_and_says_how_to_run_it(path):
    nb = nbformat.read(path, as_version=4)
    first_code = next(c for c in nb.cells if c.cell_type == "code")
    assert first_code.source.startswith("%matplotlib inline")
    assert "Run All Cells" in nb.cells[0].source
    assert (
        "widgets" not in nb.metadata
    )  # stored without widget state: a diff shows only real changes


def images(nb) -> int:
    return sum(
        "image/png" in o.get("data", {})
        for c in nb.cells
        if c.cell_type == "code"
        for o in c.outputs
    )


def test_figures_show_with_mplbackend_agg_in_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("MPLBACKEND", "Agg")  # common on servers and CI
    nb = nbformat.read(
        Path(__file__).parent.parent / "notebooks" / "00_hex_basics.ipynb", as_version=4
    )
    stored = images(nb)
    NotebookClient(nb, timeout=120, resources={"metadata": {"path": str(tmp_path)}}).execute()
    assert images(nb) == stored == 2  # the map itself, and the line drawn with pyplot
