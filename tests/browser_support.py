"""Shared parts of the browser tests: JupyterLab on 127.0.0.1 serving a copy of the notebooks,
Debian's headless Chromium driven by Playwright, and helpers to run a notebook and click a map.

Where chromium is missing the browser tests skip, unless WBK_REQUIRE_BROWSER is set (CI sets
it), when they fail.
"""

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from wbk.plot import MapView, center, figure_size, map_axes

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
NOTEBOOKS = Path(__file__).parent.parent / "notebooks"
TOKEN = "wbk-test"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def lab(tmp_path_factory):
    """A JupyterLab on 127.0.0.1 serving a copy of the notebooks (runs must not rewrite ours)."""
    root = tmp_path_factory.mktemp("notebooks")
    workspaces = tmp_path_factory.mktemp("workspaces")
    # no "get notified about Jupyter news?" pop-up over the panels (and no request for news)
    settings = tmp_path_factory.mktemp("settings")
    (settings / "@jupyterlab" / "apputils-extension").mkdir(parents=True)
    (
        settings / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings"
    ).write_text('{"fetchNews": "false"}')
    for nb in NOTEBOOKS.glob("*.ipynb"):
        shutil.copy(nb, root)
    port = free_port()
    command = [
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
    ]
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "JUPYTERLAB_SETTINGS_DIR": str(settings)}
    with serving(command, env, ready=f"{url}/api/status?token={TOKEN}", what="JupyterLab"):
        yield url


@contextlib.contextmanager
def serving(command: list[str], env: dict[str, str], *, ready: str, what: str):
    """A server on 127.0.0.1 run for the tests: started, waited for until ``ready`` answers
    (60 s at most), and always stopped with all its children."""
    server = subprocess.Popen(
        command,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(ready, timeout=2)
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    pytest.fail(f"{what} did not start within 60 s", pytrace=False)
                time.sleep(0.5)
        yield
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


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


def run_all(browser, lab, notebook: str):
    """Open a notebook, run every cell and wait until the kernel is idle again."""
    page = browser.new_page(viewport={"width": 1300, "height": 1000})
    # a workspace of its own, so that no notebook opened earlier is restored beside this one
    workspace = notebook.removesuffix(".ipynb").replace("_", "-")
    page.goto(f"{lab}/lab/workspaces/{workspace}/tree/{notebook}?token={TOKEN}")
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=60_000)
    page.wait_for_selector("text=Python 3 (ipykernel) | Idle", timeout=60_000)
    page.click("li.lm-MenuBar-item:has-text('Run')")
    page.click("li.lm-Menu-item:has-text('Run All Cells')")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.jp-InputArea-prompt')].every(p => !p.textContent.includes('*'))"
        " && document.body.innerText.includes('| Idle')",
        timeout=120_000,
    )
    return page


def errors_shown(page) -> list[str]:
    return page.locator(
        ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr'], .jp-RenderedText:has-text('Traceback')"
    ).all_inner_texts()


def canvas_point(m, label: str, box) -> tuple[float, float]:
    """Where hex ``label`` is drawn inside a map panel's canvas, found by drawing the same
    figure here with Agg and scaling to the canvas's size in the page (map panels have a fixed
    layout, so the overlays on show do not matter)."""
    figure = Figure(figsize=figure_size(m, 6.0))
    FigureCanvasAgg(figure)
    view = MapView(m, map_axes(figure))
    figure.canvas.draw()
    x, y = view.ax.transData.transform(center(m.hex(label)))
    width, height = figure.bbox.width, figure.bbox.height
    return box["x"] + box["width"] * x / width, box["y"] + box["height"] * (1 - y / height)
