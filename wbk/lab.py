"""The workbook in JupyterLab: every chapter copied into a reader's folder, and JupyterLab opened
there with wbk's configuration (``wbk lab FOLDER``, ``make lab``).

The chapters live in wbk's package, each beside its rule set (``wbk.games.chapters``); a
reader works on copies, which are theirs to edit. The first time, every chapter is copied in.
Later, a copy the reader has not changed since it was copied is brought up to date with wbk's
(a run saved as stored is not a change: ``jupyter_config/`` keeps cells the reader left alone
as stored), a copy the reader has changed is never overwritten (one line says so), and a new
chapter is copied in. What was copied is remembered, by content, in ``.wbk-chapters.json`` in
the folder.

wbk's Jupyter configuration (``wbk/jupyter_config/``, put on ``JUPYTER_CONFIG_PATH``) asks
nothing of the internet (no news prompt over the panels, no update check) and saves a chapter
without what changes on every run: running one and saving it (or letting JupyterLab autosave
it) would otherwise write new execution counts, new widget ids and the widgets' state into it,
and a print the kernel sent in pieces as one output (JupyterLab joins them). Before a notebook
is saved (``keep_stored_cells``, Jupyter's pre-save hook), each cell that is the same as the
stored one but for those (its source, its outputs and its other metadata unchanged) is kept
exactly as stored, and the widgets' state is dropped; a cell the reader edited, or whose
outputs differ, is saved as it is. A chapter run and saved without edits is written byte for
byte as it was.
"""

from __future__ import annotations

import copy
import hashlib
import json
import os
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import nbformat

from wbk.errors import WbkError
from wbk.games import chapters

#: Where a folder remembers what was copied into it: each chapter's name and its content's hash.
COPIED = ".wbk-chapters.json"
#: wbk's Jupyter configuration: the clean-save hook (a chapter only run stays as stored), the
#: news prompt off.
JUPYTER_CONFIG = Path(__file__).parent / "jupyter_config"


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


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def fill_workbook(folder: Path, sources: Sequence[Path] | None = None) -> list[str]:
    """Copy the chapters (``sources``, by default every one) into ``folder`` (made if need be),
    never over a copy the reader changed; returns what was done, a line a chapter."""
    folder = Path(folder).expanduser()
    if folder.exists() and not folder.is_dir():
        raise WbkError(f"{folder} is a file, not a folder for the workbook")
    folder.mkdir(parents=True, exist_ok=True)
    record = folder / COPIED
    try:
        copied: dict[str, str] = json.loads(record.read_text()) if record.exists() else {}
    except (OSError, ValueError):
        copied = {}
    said = []
    for source in chapters() if sources is None else sources:
        copy = folder / source.name
        wanted = _digest(source)
        if copy.exists():
            have = _digest(copy)
            if have == wanted:
                copied[source.name] = wanted
                continue
            if copied.get(source.name) != have:
                said.append(f"kept your edited {source.name} (wbk's own is {source})")
                continue
            said.append(f"brought {source.name} up to date")
        else:
            said.append(f"copied {source.name}")
        shutil.copyfile(source, copy)
        copied[source.name] = wanted
    record.write_text(json.dumps(copied, indent=1, sort_keys=True) + "\n")
    return said


def lab_command(folder: Path, *options: str) -> tuple[list[str], dict[str, str]]:
    """The command (and environment) that opens JupyterLab on ``folder`` with wbk's Jupyter
    configuration, and JupyterLab's own ``options`` ("--port=8890", "--no-browser"); as root
    (containers often run as root), with the flag Jupyter asks for."""
    env = dict(os.environ)
    env["JUPYTER_CONFIG_PATH"] = os.pathsep.join(
        filter(None, [str(JUPYTER_CONFIG), env.get("JUPYTER_CONFIG_PATH")])
    )
    # JupyterLab's own defaults for its settings: no "get notified about Jupyter news?" over the
    # panels (a setting of the page, which the server's news_url does not reach)
    settings = f"--LabApp.app_settings_dir={JUPYTER_CONFIG / 'lab_settings'}"
    command = [sys.executable, "-m", "jupyterlab", str(folder), settings, *options]
    if hasattr(os, "getuid") and os.getuid() == 0:
        command.append("--allow-root")
    return command, env
