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


def images_in(cell) -> int:
    return sum("image/png" in output.get("data", {}) for output in cell.outputs)


@pytest.mark.notebook
def test_figures_show_with_mplbackend_agg_in_the_environment(monkeypatch, tmp_path):
    """The chapter's code up to its second picture, run with ``MPLBACKEND=Agg`` (common on
    servers and CI): both pictures still show. The panel at the end is left out: the site build
    runs every notebook whole once (tests/test_publish.py), and this test is about the backend."""
    monkeypatch.setenv("MPLBACKEND", "Agg")
    nb = nbformat.read(
        Path(__file__).parent.parent / "notebooks" / "00_hex_basics.ipynb", as_version=4
    )
    code = [c for c in nb.cells if c.cell_type == "code"]
    stored = [images_in(c) for c in code]
    last_picture = max(i for i, n in enumerate(stored) if n)
    nb.cells = code[: last_picture + 1]
    NotebookClient(nb, timeout=120, resources={"metadata": {"path": str(tmp_path)}}).execute()
    assert sum(stored) == 2  # the map itself, and the line drawn on it
    assert [images_in(c) for c in nb.cells] == stored[: last_picture + 1]
