"""Shared parts of the browser tests: JupyterLab on 127.0.0.1 serving a copy of the notebooks,
Debian's headless Chromium driven by Playwright, and helpers to run a notebook and click a map.

Where chromium is missing the browser tests skip, unless WBK_REQUIRE_BROWSER is set (CI sets
it), when they fail.
"""

import contextlib
import fcntl
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

import nbformat
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from wbk.draw.maps import MapView, center, figure_size, map_axes
from wbk.games import chapters
from wbk.publish import NBVAL_MARKER

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: every chapter, by its file name (wbk.games.chapters)
NOTEBOOKS = {path.name: path for path in chapters()}
TOKEN = "wbk-test"
#: Seconds a server may take to start, and a notebook to run: generous, so that a machine with
#: every core busy passes too; only a stuck server or kernel waits this long.
STARTUP = 300
RUN_ALL = 600
#: Milliseconds between two looks at a page for a state that takes seconds to come (Playwright's
#: default looks on every frame, sixty times a second).
POLL = 250


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def without_outputs(notebook: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The notebook as if never run: a test sees only what its own run shows, and knows the run
    is over when every code cell has its number."""
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    return notebook


@pytest.fixture(scope="session")
def lab(tmp_path_factory):
    """One JupyterLab on 127.0.0.1 for every test worker, serving a copy of the notebooks (runs
    must not rewrite ours): starting one costs 4 s of CPU (``shared_server``)."""
    with shared_server(tmp_path_factory, "lab", serving_lab) as url:
        yield url


def lab_command(port: int, root: Path, workspaces: Path) -> list[str]:
    """JupyterLab on 127.0.0.1:``port`` serving ``root``, asking nothing of the internet."""
    return [
        sys.executable,
        "-m",
        "jupyterlab",
        "--no-browser",
        "--allow-root",
        "--ip=127.0.0.1",
        f"--port={port}",
        f"--ServerApp.token={TOKEN}",
        f"--ServerApp.root_dir={root}",
        "--LabApp.news_url=",
        f"--LabApp.workspaces_dir={workspaces}",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        # window.jupyterapp: a test opens and closes its notebook in a page already loaded
        "--LabApp.expose_app_in_browser=True",
    ]


@contextlib.contextmanager
def serving_lab(folder: Path):
    """A JupyterLab serving a copy of the notebooks from ``folder``; yields its address."""
    root, workspaces, settings = (folder / name for name in ("notebooks", "workspaces", "settings"))
    # no "get notified about Jupyter news?" pop-up over the panels (and no request for news)
    (settings / "@jupyterlab" / "apputils-extension").mkdir(parents=True, exist_ok=True)
    (
        settings / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings"
    ).write_text('{"fetchNews": "false"}')
    # every cell laid out, on screen or not: a map's place in the page is where it is drawn
    (settings / "@jupyterlab" / "notebook-extension").mkdir(parents=True, exist_ok=True)
    (settings / "@jupyterlab" / "notebook-extension" / "tracker.jupyterlab-settings").write_text(
        '{"windowingMode": "none"}'
    )
    root.mkdir(exist_ok=True)
    workspaces.mkdir(exist_ok=True)
    for path in NOTEBOOKS.values():
        nbformat.write(without_outputs(nbformat.read(path, as_version=4)), root / path.name)
    port = free_port()
    command = lab_command(port, root, workspaces)
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "JUPYTERLAB_SETTINGS_DIR": str(settings)}
    with serving(command, env, ready=f"{url}/api/status?token={TOKEN}", what="JupyterLab"):
        yield url


@contextlib.contextmanager
def shared_server(tmp_path_factory, name: str, serve):
    """A server that the test workers (pytest-xdist) share: the first to need it starts it with
    ``serve(folder)`` (a context manager yielding its address), the others use it, and the
    first stops it once every other user has finished with it (or after ``RUN_ALL`` seconds of
    waiting, if one never says so). Yields the address."""
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # the run's folder, which holds each worker's
    lock, state = shared / f"{name}.lock", shared / f"{name}.json"
    started = contextlib.ExitStack()
    with started, locked(lock):
        owner = not state.exists()
        if owner:
            (shared / name).mkdir(exist_ok=True)
            users = {"address": started.enter_context(serve(shared / name)), "count": 0}
        else:
            users = json.loads(state.read_text())
        users["count"] += 1
        state.write_text(json.dumps(users))
        if owner:
            started = started.pop_all()  # stopped below, not when the lock is let go
    try:
        yield users["address"]
    finally:
        deadline = time.monotonic() + RUN_ALL
        while True:
            with locked(lock):
                users = json.loads(state.read_text())
                if not owner or users["count"] == 1 or time.monotonic() > deadline:
                    users["count"] -= 1
                    if owner:
                        state.unlink()  # a worker that needs it later starts another
                    else:
                        state.write_text(json.dumps(users))
                    break
            time.sleep(1)
        started.close()


@contextlib.contextmanager
def locked(path: Path):
    """Hold the file lock at ``path`` (workers are processes)."""
    with path.open("w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


@contextlib.contextmanager
def serving(command: list[str], env: dict[str, str], *, ready: str, what: str):
    """A server on 127.0.0.1 run for the tests: started, waited for until ``ready`` answers
    (``STARTUP`` seconds at most: a loaded machine may be slow, a stuck one is not waited for
    forever), and always stopped with all its children (``stop``). Yields the server's process.
    """
    server = subprocess.Popen(
        command,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + STARTUP
        while True:
            try:
                urllib.request.urlopen(ready, timeout=2)
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    pytest.fail(f"{what} did not start within {STARTUP} s", pytrace=False)
                time.sleep(0.5)
        yield server
    finally:
        stop(server)


def stop(server: subprocess.Popen) -> None:
    """Stop a server and its children: asked first, and killed if a busy machine keeps it from
    shutting down within a minute."""
    os.killpg(server.pid, signal.SIGTERM)
    try:
        server.wait(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        if os.environ.get("WBK_REQUIRE_BROWSER"):
            pytest.fail(f"{CHROMIUM} is missing and WBK_REQUIRE_BROWSER is set", pytrace=False)
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)")
    sync_playwright = pytest.importorskip("playwright.sync_api").sync_playwright
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield b
        b.close()


#: Counts the pictures drawn on each canvas: ipympl draws every image the kernel sends with
#: drawImage, so a canvas with none has not had its first picture yet.
COUNT_PICTURES = """
const draw = CanvasRenderingContext2D.prototype.drawImage;
CanvasRenderingContext2D.prototype.drawImage = function (...args) {
    this.canvas.wbkPictures = (this.canvas.wbkPictures || 0) + 1;
    return draw.apply(this, args);
};
"""

#: The run is over and the kernel idle again: every code cell has run (the copies are served
#: without outputs or numbers), or a cell failed and stopped the run (the test then says which).
#: The kernel's state is read from the status bar's text items, not the page's innerText: that
#: lays the whole page out again on every poll.
ALL_RUN = """() => {
    const prompts = [...document.querySelectorAll('.jp-CodeCell .jp-InputArea-prompt')];
    const ran = prompts.length > 0 && prompts.every(p => /\\[\\d+\\]/.test(p.textContent));
    const failed = document.querySelector("[data-mime-type='application/vnd.jupyter.error']")
        !== null && prompts.every(p => !p.textContent.includes('*'));
    const idle = [...document.querySelectorAll('.jp-StatusBar-TextItem')]
        .some(item => item.textContent.includes('| Idle'));
    return (ran || failed) && idle;
}"""

#: Every figure's canvas shows its first picture.
ALL_DRAWN = """() => [
    ...document.querySelectorAll('.jupyter-matplotlib-canvas-div canvas:first-child')
].every(c => c.wbkPictures > 0)"""


#: Chapter 00's trace panel and the SS Panzer chapter's LOS panel, each for a notebook of its own.
TRACE_PANEL = """%matplotlib inline
from wbk.maps import example_map
from wbk.widgets import TracePanel

TracePanel(example_map("ss_panzer_errata_9_4"), "1913", "1716")"""
LOS_PANEL = """%matplotlib inline
from wbk.maps import example_map
from wbk.games.ss_panzer import panels

panels.LosPanel(example_map("ss_panzer_errata_9_4"), "1913", "1716")"""


def chapter_cells(chapter: str, *panels: str) -> list[str]:
    """The code a chapter makes some of its panels with: its first code cell (imports and data)
    and each cell that holds one of ``panels`` (its NBVAL markers left out). A test of a few
    panels runs them as the chapter makes them, in a notebook of its own (``put_notebook``)."""
    code = [
        NBVAL_MARKER.sub("", cell.source)
        for cell in nbformat.read(NOTEBOOKS[chapter], as_version=4).cells
        if cell.cell_type == "code"
    ]
    found = [next((c for c in code if panel in c), None) for panel in panels]
    missing = [panel for panel, cell in zip(panels, found, strict=True) if cell is None]
    assert not missing, f"{chapter} has no cell with {missing}"
    return [code[0], *found]


def put_notebook(lab: str, name: str, *sources: str) -> None:
    """A notebook of the code cells ``sources`` saved into the lab's folder through Jupyter's
    contents API: a test that needs one panel runs it alone, not its whole chapter."""
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources])
    notebook.metadata["kernelspec"] = {
        "name": "python3",
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
    }
    lab_api(
        lab,
        f"contents/{name}",
        method="PUT",
        body={"type": "notebook", "format": "json", "content": notebook},
    )


@pytest.fixture(scope="session")
def lab_page(browser, lab):
    """The worker's one JupyterLab page: loading JupyterLab costs Chromium about 7 s of CPU, so
    it loads once and each test opens its notebook in it (``run_all``)."""
    page = browser.new_page(viewport={"width": 1300, "height": 1000})
    # a busy machine may take minutes to load JupyterLab or answer a click: a test's own
    # timeouts say otherwise where it waits for something in particular
    page.set_default_timeout(STARTUP * 1000)
    page.add_init_script(COUNT_PICTURES)
    # a workspace of its own (the lab serves every worker), emptied, so that no notebook opened
    # elsewhere is restored in it
    workspace = f"wbk-tests-{os.environ.get('PYTEST_XDIST_WORKER', 'alone')}"
    page.goto(f"{lab}/lab/workspaces/{workspace}?reset&token={TOKEN}")
    page.wait_for_function(
        "() => window.jupyterapp !== undefined", timeout=STARTUP * 1000, polling=500
    )
    page.evaluate("() => window.jupyterapp.restored")
    yield page
    page.close()


@pytest.fixture
def run_all(lab_page, lab):
    """Open a notebook in the worker's JupyterLab page, run every cell, and wait until the kernel
    is idle again and every figure shows its first picture (a map is clicked where it is drawn);
    returns the page. After the test the notebook is closed and its kernel shut down, so the
    next test finds the page as JupyterLab opens it."""

    opened = []

    def run(notebook: str):
        opened.append(notebook)
        lab_page.evaluate(
            "path => window.jupyterapp.commands.execute('docmanager:open', {path})", notebook
        )
        lab_page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=STARTUP * 1000)
        lab_page.wait_for_selector("text=Python 3 (ipykernel) | Idle", timeout=STARTUP * 1000)
        lab_page.click("li.lm-MenuBar-item:has-text('Run')")
        lab_page.click("li.lm-Menu-item:has-text('Run All Cells')")
        # the page's renderer shares the machine with the kernel it waits on: it looks every POLL
        lab_page.wait_for_function(ALL_RUN, timeout=RUN_ALL * 1000, polling=POLL)
        if not errors_shown(lab_page):
            lab_page.wait_for_function(ALL_DRAWN, timeout=RUN_ALL * 1000, polling=POLL)
        return lab_page

    yield run
    # closed without asking to save what the run changed (a notebook of the lab's own copy)
    lab_page.evaluate(
        "() => { for (const w of [...window.jupyterapp.shell.widgets('main')]) w.dispose(); }"
    )
    for session in lab_api(lab, "sessions"):
        if session["path"] in opened:  # the other workers' kernels are theirs
            lab_api(lab, f"sessions/{session['id']}", method="DELETE")


def lab_api(lab: str, path: str, *, method: str = "GET", body: dict | None = None):
    """A call to the lab's REST API (Jupyter's contents and sessions); its answer read as JSON,
    or None where it has none."""
    request = urllib.request.Request(
        f"{lab}/api/{path}?token={TOKEN}",
        data=None if body is None else json.dumps(body).encode(),
        method=method,
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as answer:
        text = answer.read()
    return json.loads(text) if text else None


#: What ipykernel writes to stderr when the machine is too busy to flush its output in time:
#: about the machine, not the notebook.
BUSY_MACHINE = "IOStream.flush timed out"


def errors_shown(page) -> list[str]:
    """The error and stderr outputs on the page, but ipykernel's notes that the machine is busy."""
    shown = page.locator(
        ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr'], "
        ".jp-RenderedText:has-text('Traceback')"
    ).all_inner_texts()
    return [
        text
        for text in shown
        if not text.strip()
        or any(line.strip() not in ("", BUSY_MACHINE) for line in text.splitlines())
    ]


def click_canvas(canvas, point: Callable[[dict], tuple[float, float]]) -> None:
    """Click a figure's canvas at ``point(box)``, a point worked out from a box as
    ``bounding_box()`` gives it (``canvas_point``), once the canvas stands still. A click at page
    coordinates read a moment before lands elsewhere when JupyterLab is still laying out or
    scrolling; Playwright's click waits until the canvas's box is the same two frames running
    and the point would reach it."""
    holder, position = spot_on_canvas(canvas, point)
    holder.click(position=position)


def spot_on_canvas(canvas, point: Callable[[dict], tuple[float, float]]):
    """Where ``point(box)`` is as Playwright clicks or hovers it: ipympl's canvas box, whose top
    canvas takes the mouse, and the point's place inside it (which no scrolling changes)."""
    dx, dy, width, height = canvas.evaluate(
        """c => {
            const own = c.getBoundingClientRect(), box = c.parentElement.getBoundingClientRect();
            return [own.x - box.x, own.y - box.y, own.width, own.height];
        }"""
    )
    x, y = point({"x": dx, "y": dy, "width": width, "height": height})
    return canvas.locator("xpath=.."), {"x": x, "y": y}


def canvas_point(m, label: str, box) -> tuple[float, float]:
    """Where hex ``label`` is drawn inside a map panel's canvas, found by drawing the same
    figure here with Agg and scaling to the canvas's size in the page (map panels have a fixed
    layout, so the overlays on show do not matter)."""
    figure = Figure(figsize=figure_size(m, 6.0))
    FigureCanvasAgg(figure)
    view = MapView(m, map_axes(figure))
    figure.draw_without_rendering()
    x, y = view.ax.transData.transform(center(m.hex(label)))
    width, height = figure.bbox.width, figure.bbox.height
    return box["x"] + box["width"] * x / width, box["y"] + box["height"] * (1 - y / height)
