"""JupyterLab's settings for ``make lab`` (which puts this folder on ``JUPYTER_CONFIG_PATH``):
saving a chapter keeps out what changes on every run.

The chapters in notebooks/ are stored executed (the tests compare every stored output). Running
one in JupyterLab and saving it (or letting JupyterLab autosave it) would otherwise write new
execution counts, new widget ids and the widgets' state into it, and a print the kernel sent in
pieces as one output (JupyterLab joins them), so that ``git status`` shows a change nobody made.
Before a notebook is saved, each cell that is the same as the stored one but for those (its
source, its outputs and its other metadata unchanged) is kept exactly as stored,
and the widgets' state is dropped; a cell the reader edited, or whose outputs differ, is saved as
it is. A notebook run and saved without edits is written byte for byte as it was.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import nbformat

#: What a run changes without a reader doing anything: a cell's run number and timing, and the id
#: a widget's output names (new for every kernel).
RUN_ONLY_CELL_METADATA = ("execution",)
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def _text(text: str | list[str]) -> str:
    return "".join(text) if isinstance(text, list) else text


def _essence(cell: dict[str, Any]) -> dict[str, Any]:
    """A cell without what changes on every run."""
    kept = copy.deepcopy(dict(cell))
    kept.pop("execution_count", None)
    metadata = kept.get("metadata", {})
    for key in RUN_ONLY_CELL_METADATA:
        metadata.pop(key, None)
    joined: list[dict[str, Any]] = []  # a print the kernel sent in pieces, as one
    for output in kept.get("outputs", []):
        last = joined[-1] if joined else None
        if (
            output.get("output_type") == "stream"
            and last is not None
            and last.get("output_type") == "stream"
            and last.get("name") == output.get("name")
        ):
            last["text"] = _text(last.get("text", "")) + _text(output.get("text", ""))
        else:
            joined.append(output)
    kept["outputs"] = joined
    for output in joined:
        output.pop("execution_count", None)
        if "text" in output:
            output["text"] = _text(output["text"])
        view = output.get("data", {}).get(WIDGET_VIEW)
        if isinstance(view, dict):
            view.pop("model_id", None)
    return kept


def without_run_churn(saved: dict[str, Any], stored: dict[str, Any] | None) -> Any:
    """The notebook ``saved`` with every cell that differs from its stored cell only by what a
    run changes replaced by the stored cell, and without widget state; ``stored`` itself when
    nothing else changed (``stored``: the notebook on disk, or None for a new one)."""
    notebook = nbformat.reads(json.dumps(saved), as_version=4)  # sources as text, as read
    notebook.metadata.pop("widgets", None)
    if stored is None:
        return notebook
    stored_cells = {cell.get("id"): cell for cell in stored["cells"]}
    same = len(notebook.cells) == len(stored["cells"])
    for i, cell in enumerate(notebook.cells):
        old = stored_cells.get(cell.get("id"))
        if old is not None and _essence(cell) == _essence(old):
            notebook.cells[i] = copy.deepcopy(old)
            same = same and stored["cells"][i] is old
        else:
            same = False
    if same and notebook.metadata == stored["metadata"]:
        return copy.deepcopy(stored)
    return notebook


def keep_stored_cells(model: dict[str, Any], path: str, contents_manager: Any, **_: Any) -> None:
    """Jupyter's pre-save hook: ``without_run_churn`` on a notebook about to be saved."""
    if model.get("type") != "notebook" or not isinstance(model.get("content"), dict):
        return
    on_disk = Path(contents_manager.root_dir) / path.lstrip("/")
    try:
        stored = nbformat.read(on_disk, as_version=4)
    except (OSError, ValueError):
        stored = None  # a new notebook, or one that is not one yet
    model["content"] = without_run_churn(model["content"], stored)


c = get_config()  # type: ignore[name-defined]  # noqa: F821 (Jupyter's config files are given it)
c.FileContentsManager.pre_save_hook = keep_stored_cells
