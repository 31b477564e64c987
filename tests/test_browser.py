"""The workbook as a user meets it: JupyterLab in headless Chromium, notebooks run, widgets clicked.

Needs Debian's chromium (CI installs it). Where it is missing the tests skip, unless
WBK_REQUIRE_BROWSER is set (CI sets it), when they fail.
"""

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

from wbk.maps import example_map
from wbk.plot import MapView, center, figure_size, map_axes

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
NOTEBOOKS = Path(__file__).parent.parent / "notebooks"
TOKEN = "wbk-test"

if not Path(CHROMIUM).exists():
    if os.environ.get("WBK_REQUIRE_BROWSER"):
        pytest.fail(f"{CHROMIUM} is missing and WBK_REQUIRE_BROWSER is set", pytrace=False)
    pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium)", allow_module_level=True)

sync_playwright = pytest.importorskip("playwright.sync_api").sync_playwright


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    """A JupyterLab on 127.0.0.1 serving a copy of the notebooks (runs must not rewrite ours)."""
    root = tmp_path_factory.mktemp("notebooks")
    workspaces = tmp_path_factory.mktemp("workspaces")
    for nb in NOTEBOOKS.glob("*.ipynb"):
        shutil.copy(nb, root)
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root", "--ip=127.0.0.1",
         f"--port={port}", f"--ServerApp.token={TOKEN}", f"--ServerApp.root_dir={root}",
         "--LabApp.news_url=", f"--LabApp.workspaces_dir={workspaces}", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"{url}/api/status?token={TOKEN}", timeout=2)
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    pytest.fail("JupyterLab did not start within 60 s", pytrace=False)
                time.sleep(0.5)
        yield url
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


@pytest.fixture(scope="module")
def browser():
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


def test_tour_runs_and_its_panel_answers_clicks(browser, lab):
    page = run_all(browser, lab, "00_hex_basics.ipynb")
    assert errors_shown(page) == []
    canvas = page.locator(".jupyter-matplotlib-canvas-div canvas").last
    canvas.scroll_into_view_if_needed()
    box = canvas.bounding_box()
    x, y = canvas_point(example_map("ss_panzer_errata_9_4"), "1712", box)
    page.mouse.click(x, y)
    from_box = page.locator(".widget-text:has-text('from') input")
    page.wait_for_function("el => el.value === '1712'", arg=from_box.element_handle(), timeout=10_000)
    page.wait_for_selector("li:has-text('crosses hexside 1712/1713')", timeout=10_000)
    from_box.fill("19x3")
    from_box.press("Enter")
    message = page.locator(".widget-html:has-text('is not a hex label')")
    message.wait_for(timeout=10_000)
    assert message.inner_text().strip().startswith("'19x3' is not a hex label")
    assert errors_shown(page) == []
    page.close()


def test_distributions_notebook_runs_and_its_panel_shows_a_table(browser, lab):
    page = run_all(browser, lab, "01_reading_distributions.ipynb")
    assert errors_shown(page) == []
    panel_table = page.locator(".widget-html table.wbk-dist")
    panel_table.wait_for(timeout=10_000)
    assert panel_table.locator("tr").count() == 22  # the header and 0 to 20 hits
    page.close()


def test_blitz_calculator_answers_typing_and_bad_input(browser, lab):
    page = run_all(browser, lab, "blitz_combat.ipynb")
    assert errors_shown(page) == []
    strengths = page.locator(".widget-text:has-text('strengths') input").first
    strengths.fill("5, x")
    strengths.press("Enter")
    page.locator(".widget-html:has-text(\"'x' in strengths is not a whole number\")").wait_for(timeout=10_000)
    strengths.fill("4, 4")
    strengths.press("Enter")
    page.locator(".widget-html b:has-text('8 dice')").wait_for(timeout=10_000)
    assert page.locator(".widget-html:has-text('is not a whole number')").count() == 0
    assert errors_shown(page) == []
    page.close()


def test_ss_panzer_los_panel_answers_a_click(browser, lab):
    page = run_all(browser, lab, "ss_panzer.ipynb")
    assert errors_shown(page) == []
    canvas = page.locator(".jupyter-matplotlib-canvas-div canvas").first  # the line-of-sight panel
    canvas.scroll_into_view_if_needed()
    x, y = canvas_point(example_map("ss_panzer_errata_9_4"), "1712", canvas.bounding_box())
    page.mouse.click(x, y)
    page.locator(".widget-html li:has-text('from 1712 to 1716')").wait_for(timeout=10_000)
    firer = page.locator(".widget-text:has-text('firer') input").first
    assert firer.input_value() == "1712"
    start = page.locator(".widget-text:has-text('start') input").first
    start.fill("1999")
    start.press("Enter")
    page.locator(".widget-html:has-text('hex 1999 is off the map')").wait_for(timeout=10_000)
    assert errors_shown(page) == []
    page.close()
