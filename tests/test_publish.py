"""Publishing: the static site (`make site`) works offline from file://, and the app (`make app`)
serves every chapter with live panels; both seen in headless Chromium."""

import statistics
import time
from pathlib import Path

import matplotlib.pyplot as plt
import nbformat
import pytest
from browser_support import canvas_point, free_port, serving

from wbk.maps import example_map
from wbk.publish import ROOT, app_command, build_site, publishable

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
SCREENSHOTS = ROOT / "build" / "screenshots"


def test_a_published_notebook_has_no_nbval_markers_and_no_stored_outputs():
    nb = publishable(nbformat.read(ROOT / "notebooks" / "ss_panzer.ipynb", as_version=4))
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert not any("NBVAL" in c.source for c in code)
    assert not any(c.outputs for c in code)
    assert any(c.source.startswith("panels.LosPanel") for c in code)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    work = tmp_path_factory.mktemp("site")
    started = time.monotonic()
    index = build_site(ROOT / "notebooks", work / "site", work=work)
    print(f"site built in {time.monotonic() - started:.0f} s")
    return index


def offline_page(browser):
    """A page that may load file:// only, recording what failed and what the console said."""
    page = browser.new_page(viewport={"width": 1300, "height": 1000})
    failed, errors = [], []
    page.route(
        "**/*",
        lambda route: (
            route.continue_() if route.request.url.startswith("file://") else route.abort()
        ),
    )
    page.on("requestfailed", lambda request: failed.append(f"{request.url} ({request.failure})"))
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.on("pageerror", lambda error: errors.append(str(error)))
    return page, failed, errors


def test_the_site_shows_every_chapter_offline(browser, site):
    page, failed, errors = offline_page(browser)
    page.goto(site.as_uri())
    chapters = [nb.stem for nb in NOTEBOOKS]
    for stem in chapters:
        assert page.locator(f"nav a[href='{stem}.html']").count() >= 1, stem
    for stem in chapters:
        page.goto((site.parent / f"{stem}.html").as_uri())
        page.wait_for_load_state("load")
        assert "NBVAL" not in page.locator("main").inner_text(), stem
        assert page.locator("main .output.traceback, main .output.stderr").count() == 0, stem
        figures = page.locator("main img").evaluate_all(
            "imgs => imgs.filter(i => i.naturalWidth > 0).length"
        )
        assert figures >= 1, stem
        panels = sum(
            "# NBVAL_IGNORE_OUTPUT" in c.source and "panel" in c.source.lower()
            for c in nbformat.read(ROOT / "notebooks" / f"{stem}.ipynb", as_version=4).cells
        )
        assert page.locator(".wbk-panel-snapshot").count() >= panels, stem
    page.goto((site.parent / "ss_panzer.html").as_uri())
    snapshot = page.locator(".wbk-panel-snapshot").first
    assert (
        "firer: 1913" in snapshot.inner_text() and "line of sight blocked" in snapshot.inner_text()
    )
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    snapshot.screenshot(path=SCREENSHOTS / "site_ss_panzer_snapshot.png")
    page.goto((site.parent / "search.html").as_uri() + "?q=slope")
    page.locator("#search-results li").first.wait_for(timeout=20_000)
    assert failed == [] and errors == []
    page.close()


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    port = free_port()
    command, env = app_command(ROOT / "notebooks", port=port)
    home = tmp_path_factory.mktemp("home")  # what the panels save goes here, not into notebooks/
    url = f"http://127.0.0.1:{port}"
    with serving(command, {**env, "HOME": str(home)}, ready=url, what="the app"):
        yield url


def local_page(browser):
    page = browser.new_page(viewport={"width": 1300, "height": 1000})
    outside = []

    def only_local(route):
        if route.request.url.startswith("http://127.0.0.1"):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    page.route("**/*", only_local)
    return page, outside


def click_to_picture(page, canvas, m, label: str) -> float:
    """Click hex ``label`` on a map panel's canvas; the seconds until the canvas shows a new
    picture (watched every animation frame)."""
    handle = canvas.element_handle()
    page.evaluate("c => { window.wbkBefore = c.toDataURL(); }", handle)
    clicked = time.monotonic()
    page.mouse.click(*canvas_point(m, label, canvas.bounding_box()))
    page.wait_for_function(
        "c => c.toDataURL() !== window.wbkBefore", arg=handle, polling="raf", timeout=15_000
    )
    return time.monotonic() - clicked


def test_the_app_lists_the_chapters_and_its_panels_answer_a_click(browser, app):
    page, outside = local_page(browser)
    page.goto(app, wait_until="commit")
    for nb in NOTEBOOKS:
        page.get_by_text(nb.name, exact=True).first.wait_for(timeout=30_000)
    started = time.monotonic()
    page.goto(f"{app}/voila/render/ss_panzer.ipynb", wait_until="commit")
    canvas = page.locator(".jupyter-matplotlib-canvas-div canvas").first
    canvas.wait_for(timeout=180_000)
    print(f"the SS Panzer chapter opened in {time.monotonic() - started:.1f} s")
    assert page.locator(".jp-InputArea-editor").count() == 0  # the panels, not the code
    los = page.locator(".widget-vbox:has(.jupyter-matplotlib-canvas-div)").first
    los.locator(".widget-html b:has-text('line of sight')").first.wait_for(timeout=30_000)
    before = los.locator(".widget-html b").first.inner_text()
    canvas.scroll_into_view_if_needed()
    picture = canvas.screenshot()
    m = example_map("ss_panzer_errata_9_4")
    for label in ("1712", "2014"):  # firer, then target: each click redraws the picture
        click_to_picture(page, canvas, m, label)
    los.locator(
        ".widget-html b:has-text('line of sight blocked by slope hexside 1813/1913')"
    ).wait_for(timeout=15_000)
    assert los.locator(".widget-html b").first.inner_text() != before
    deadline = time.monotonic() + 10
    while canvas.screenshot() == picture and time.monotonic() < deadline:
        page.wait_for_timeout(200)
    assert canvas.screenshot() != picture
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENSHOTS / "app_ss_panzer.png")
    # a picture worth posting: saved from the panel, it opens, and it is not blank
    los.locator("button:has-text('Save picture')").click()
    saved = los.locator(".widget-html:has-text('saved the picture to')")
    saved.wait_for(timeout=15_000)
    path = Path(saved.inner_text().split("saved the picture to", 1)[1].strip())
    assert path.parent.name == "wbk-pictures" and ROOT not in path.parents
    viewer = browser.new_page()
    viewer.goto(path.as_uri())
    size = viewer.locator("img").evaluate("img => [img.naturalWidth, img.naturalHeight]")
    assert size[0] > 500 and size[1] > 500
    pixels = plt.imread(path)
    assert pixels.std() > 0.05  # a map, not an empty canvas
    viewer.close()
    # the time from a click to a new picture, over a round of targets
    times = [
        click_to_picture(page, canvas, m, label)
        for label in ("1915", "1716", "2113", "1816", "2216", "1209")
    ]
    print(
        f"click to picture in the app: median {statistics.median(times) * 1000:.0f} ms "
        f"({', '.join(f'{t * 1000:.0f}' for t in times)} ms)"
    )
    assert outside == []
    page.close()


@pytest.mark.parametrize("notebook", [nb.name for nb in NOTEBOOKS if nb.name != "ss_panzer.ipynb"])
def test_every_chapter_opens_in_the_app_with_its_panels_drawn(browser, app, notebook):
    page, outside = local_page(browser)
    page.goto(f"{app}/voila/render/{notebook}", wait_until="commit")
    page.locator(".jupyter-matplotlib-canvas-div canvas").first.wait_for(timeout=180_000)
    page.wait_for_load_state("load")
    errors = page.locator(
        ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr'], "
        ".jp-RenderedText[data-mime-type='application/vnd.jupyter.error']"
    )
    assert errors.count() == 0
    assert outside == []
    page.close()
