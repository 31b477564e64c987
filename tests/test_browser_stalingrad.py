"""The Streets of Stalingrad retreat planner as a user meets it: run in JupyterLab in headless
Chromium as the chapter makes it (in a notebook of its own: the chapter runs whole in the site
build), and clicked (the fixtures and helpers are in browser_support.py)."""

import os
from pathlib import Path

from browser_support import canvas_point, chapter_cells, click_canvas, errors_shown, put_notebook

from wbk.games.stalingrad import example_situation

MAP = example_situation("retreat_clear_hex").map
SCREENSHOT = os.environ.get("WBK_SCREENSHOT")  # a path: where to keep a picture of the page


def in_view(canvas):
    """The planner's map scrolled to the middle of the window (it is taller than the part of the
    notebook on show), once it is drawn: JupyterLab may still be laying out the last cell when
    the kernel is idle again."""
    # imported here: the module loads (and its test skips) where playwright is missing
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    for _ in range(20):
        canvas.evaluate("el => el.scrollIntoView({block: 'center'})")
        try:
            canvas.wait_for(state="visible", timeout=3_000)
        except PlaywrightTimeout:
            continue
        if canvas.evaluate("el => el.width > 0 && el.getBoundingClientRect().height > 0"):
            return canvas
    raise AssertionError("the planner's map is not drawn")


def sky_blue_pixels(png: bytes) -> int:
    """How many pixels of a screenshot are the retreat arrow's sky blue (#56B4E9)."""
    import io

    import numpy as np
    from matplotlib import image

    rgb = (image.imread(io.BytesIO(png), format="png")[..., :3] * 255).round()
    return int(np.all(np.abs(rgb - (0x56, 0xB4, 0xE9)) <= 6, axis=-1).sum())


def wait_for_picture(page, canvas, shows, what: str) -> None:
    """Until the planner's map ``shows(screenshot)``: its new picture arrives with the pane's
    text or after it (5 minutes at most, for a machine with every core busy)."""
    for _ in range(1500):
        if shows(in_view(canvas).screenshot()):
            return
        page.wait_for_timeout(200)
    raise AssertionError(what)


def click_hex(page, canvas, label: str) -> None:
    """Click a hex of the planner's map."""
    click_canvas(in_view(canvas), lambda box: canvas_point(MAP, label, box))


def test_retreat_planner_answers_clicks(run_all, lab):
    cells = chapter_cells("streets_of_stalingrad.ipynb", "panels.RetreatPlanner(")
    put_notebook(lab, "retreat_planner.ipynb", *cells)
    page = run_all("retreat_planner.ipynb")
    assert errors_shown(page) == []
    pane = page.locator(".widget-html:has-text('open for the retreat')").last
    pane.wait_for()
    assert "1 hex open for the retreat: 1414." in pane.inner_text()
    canvas = (
        page.locator(".jp-OutputArea-output:has-text('open for the retreat')")
        .last.locator(".jupyter-matplotlib-canvas-div canvas")
        .first
    )  # the planner's map (the chapter's quiz, after it, has a canvas too)
    before = in_view(canvas).screenshot()

    # mark 1414, the one hex open, as attacked: nobody can retreat now
    page.locator(".widget-toggle-buttons button:text-is('attacked')").click()
    click_hex(page, canvas, "1414")
    page.locator(".widget-html:has-text('0 hexes open for the retreat: none.')").wait_for()
    page.locator(".widget-html li:has-text('1414: being attacked: no')").wait_for()
    wait_for_picture(
        page, canvas, lambda png: png != before, "the planner's map did not change after the click"
    )

    # the German tank's hex as the defenders': the Soviet units around it close hexes
    page.locator(".widget-toggle-buttons button:text-is('defending hex')").click()
    click_hex(page, canvas, "1412")
    target = page.locator(".widget-text:has-text('defending hex') input")
    page.wait_for_function("el => el.value === '1412'", arg=target.element_handle())
    page.locator(
        ".widget-html li:has-text('against the German units in 1412 (Pz III/24)')"
    ).wait_for()

    wait_for_picture(
        page, canvas, lambda png: sky_blue_pixels(png) > 0, "the retreat's arrow is not drawn"
    )

    # bad input is a one-line message, never a traceback; the retreat drawn goes with it
    target.fill("13x3")
    target.press("Enter")
    page.locator(".widget-html:has-text(\"'13x3' is not a hex label\")").wait_for()
    wait_for_picture(
        page,
        canvas,
        lambda png: sky_blue_pixels(png) == 0,
        "the out-of-date retreat's arrow stayed on the map",
    )
    path = page.locator(".widget-text:has-text('situation file') input")
    path.fill("/nonexistent/mine.toml")
    page.locator(".widget-button:text-is('Load')").click()
    page.locator(
        ".widget-html:has-text('/nonexistent/mine.toml: cannot read the situation')"
    ).wait_for()
    assert errors_shown(page) == []
    assert page.locator(".jp-RenderedText:has-text('Traceback')").count() == 0
    canvas.evaluate("el => el.scrollIntoView({block: 'end'})")
    if SCREENSHOT:
        page.screenshot(path=SCREENSHOT)


def test_the_stalingrad_crt_has_a_header_cell_per_column(run_all, lab):
    """Issue 30: in the quiz's CRT each column has its own header cell, none squeezed."""
    put_notebook(
        lab,
        "quiz_crt.ipynb",
        'from wbk.widgets.quiz import QuizPanel\nQuizPanel.for_game("stalingrad")',
    )
    page = run_all("quiz_crt.ipynb")
    table = page.locator(".widget-html table").first
    table.wait_for(timeout=120_000)
    screenshots = Path(__file__).parent.parent / "build" / "screenshots"
    screenshots.mkdir(parents=True, exist_ok=True)
    table.screenshot(path=screenshots / "quiz_crt.png")
    heads = table.locator("thead th")
    widths = [heads.nth(i).bounding_box()["width"] for i in range(heads.count())]
    assert len(widths) == 9  # "roll" and the eight columns, 1 to 30+
    assert min(widths) >= 24  # "1" as wide as a cell one can read, not squeezed to its digit
    assert errors_shown(page) == []
