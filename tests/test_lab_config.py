"""``make lab``'s Jupyter config: running a chapter and saving it leaves the file as stored."""

import copy
import json
import runpy
from pathlib import Path

import nbformat
from traitlets.config import Config

ROOT = Path(__file__).parent.parent
CONFIG = ROOT / "jupyter_config" / "jupyter_server_config.py"
CHAPTER = ROOT / "notebooks" / "00_hex_basics.ipynb"


def config() -> tuple[Config, dict]:
    c = Config()
    return c, runpy.run_path(str(CONFIG), init_globals={"get_config": lambda: c})


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
    c, _ = config()
    model = {"type": "notebook", "content": model_content}
    c.FileContentsManager.pre_save_hook(
        model=model, path=CHAPTER.name, contents_manager=type("CM", (), {"root_dir": root})
    )
    nb = nbformat.from_dict(model["content"])
    (root / CHAPTER.name).write_text(nbformat.writes(nb) + "\n", encoding="utf-8")
    return (root / CHAPTER.name).read_bytes()


def test_make_lab_uses_the_config_and_the_config_sets_the_hook():
    c, names = config()
    assert c.FileContentsManager.pre_save_hook is names["keep_stored_cells"]
    makefile = (ROOT / "Makefile").read_text()
    lab = makefile[makefile.index("\nlab:") :].split("\n\n")[0]
    assert "JUPYTER_CONFIG_PATH" in lab and "jupyter_config" in lab


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
