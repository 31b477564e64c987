"""The workbook's Jupyter config (wbk.lab): running a chapter and saving it leaves the file as
stored, and JupyterLab asks nothing of the internet; the reader's folder of chapters is filled
without overwriting their edits."""

import copy
import json
from pathlib import Path

import nbformat
import pytest
from jupyter_core.paths import jupyter_config_path
from traitlets.config.loader import JSONFileConfigLoader

from wbk import lab
from wbk.errors import WbkError
from wbk.games import chapters

ROOT = Path(__file__).parent.parent
CHAPTER = next(path for path in chapters() if path.name == "00_hex_basics.ipynb")


def config(name: str):
    """The configuration wbk's Jupyter config folder gives the app called ``name``."""
    return JSONFileConfigLoader(
        f"jupyter_{name}_config.json", str(lab.JUPYTER_CONFIG)
    ).load_config()


def run_churn(notebook: dict, run: int) -> dict:
    """What a run in JupyterLab changes, as JupyterLab sends the notebook to be saved."""
    churned = copy.deepcopy(notebook)
    churned["metadata"]["widgets"] = {"application/vnd.jupyter.widget-state+json": {"state": {}}}
    for cell in churned["cells"]:
        if cell["cell_type"] != "code":
            continue
        cell["execution_count"] = (cell["execution_count"] or 0) + 10 * run
        cell["metadata"]["execution"] = {"iopub.status.idle": f"2030-01-0{run}T00:00:00Z"}
        for output in cell["outputs"]:
            if "execution_count" in output:
                output["execution_count"] = cell["execution_count"]
            view = output.get("data", {}).get("application/vnd.jupyter.widget-view+json")
            if view:
                view["model_id"] = f"{run:032x}"
    return churned


def save(model_content: dict, root: Path) -> bytes:
    """Save as Jupyter's file contents manager does, the pre-save hook first."""
    model = {"type": "notebook", "content": model_content}
    lab.keep_stored_cells(
        model=model, path=CHAPTER.name, contents_manager=type("CM", (), {"root_dir": root})
    )
    nb = nbformat.from_dict(model["content"])
    (root / CHAPTER.name).write_text(nbformat.writes(nb) + "\n", encoding="utf-8")
    return (root / CHAPTER.name).read_bytes()


def test_the_config_sets_the_hook_and_asks_nothing_of_the_internet(monkeypatch):
    assert config("server").FileContentsManager.pre_save_hook == "wbk.lab.keep_stored_cells"
    assert config("lab").LabApp.news_url is None
    assert config("lab").LabApp.check_for_updates_class == "jupyterlab.NeverCheckForUpdate"
    command, env = lab.lab_command(Path("somewhere"))
    monkeypatch.setenv("JUPYTER_CONFIG_PATH", env["JUPYTER_CONFIG_PATH"])
    assert str(lab.JUPYTER_CONFIG) in jupyter_config_path()
    assert command[1:4] == ["-m", "jupyterlab", "somewhere"]
    makefile = (ROOT / "Makefile").read_text()
    assert "wbk lab" in makefile[makefile.index("\nlab:") :].split("\n\n")[0]


def test_a_chapter_run_and_saved_twice_is_stored_byte_for_byte(tmp_path):
    stored = CHAPTER.read_bytes()
    (tmp_path / CHAPTER.name).write_bytes(stored)
    notebook = json.loads(stored)
    assert save(run_churn(notebook, 1), tmp_path) == stored
    assert save(run_churn(notebook, 2), tmp_path) == stored


def test_a_readers_edit_is_saved_and_the_rest_stays_as_stored(tmp_path):
    stored = CHAPTER.read_bytes()
    (tmp_path / CHAPTER.name).write_bytes(stored)
    edited = run_churn(json.loads(stored), 1)
    code = [i for i, cell in enumerate(edited["cells"]) if cell["cell_type"] == "code"]
    edited["cells"][code[2]]["source"] = "print('my own question')"
    saved = json.loads(save(edited, tmp_path))
    original = json.loads(stored)
    assert saved["cells"][code[2]]["source"] == ["print('my own question')"]
    assert "widgets" not in saved["metadata"]
    for i in code[:2] + code[3:]:  # the cells the reader left alone, exactly as stored
        assert saved["cells"][i] == original["cells"][i]


def test_the_workbook_is_filled_once_and_a_readers_edit_is_never_overwritten(tmp_path):
    first, second = tmp_path / "a.ipynb", tmp_path / "b.ipynb"
    first.write_text("first, as wbk ships it")
    second.write_text("second, as wbk ships it")
    folder = tmp_path / "workbook"
    assert lab.fill_workbook(folder, [first, second]) == ["copied a.ipynb", "copied b.ipynb"]
    assert lab.fill_workbook(folder, [first, second]) == []
    (folder / "a.ipynb").write_text("first, with the reader's own notes")
    first.write_text("first, as a newer wbk ships it")
    second.write_text("second, as a newer wbk ships it")
    third = tmp_path / "c.ipynb"
    third.write_text("a new chapter")
    said = lab.fill_workbook(folder, [first, second, third])
    assert said == [
        f"kept your edited a.ipynb (wbk's own is {first})",
        "brought b.ipynb up to date",
        "copied c.ipynb",
    ]
    assert (folder / "a.ipynb").read_text() == "first, with the reader's own notes"
    assert (folder / "b.ipynb").read_text() == "second, as a newer wbk ships it"
    (folder / "b.ipynb").unlink()  # a chapter the reader deleted comes back
    assert lab.fill_workbook(folder, [second]) == ["copied b.ipynb"]
    with pytest.raises(WbkError, match="is a file, not a folder"):
        lab.fill_workbook(first, [second])
