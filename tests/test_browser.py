"""The workbook as a user meets it: JupyterLab in headless Chromium, notebooks run, widgets clicked
(the fixtures and helpers are in browser_support.py). The tour runs whole; the other tests run
the panels they click as their chapter makes them, in a notebook of their own (the chapters run
whole in the site build, whose run tests/test_publish.py compares with their stored outputs)."""

import time
from pathlib import Path

from browser_support import canvas_point, chapter_cells, click_canvas, errors_shown, put_notebook

from wbk.maps import example_map

#: Pictures of the panels as a user sees them, kept as test artifacts.
SCREENSHOTS = Path(__file__).parent.parent / "build" / "screenshots"


def test_tour_runs_and_its_panel_answers_clicks(run_all):
    page = run_all("00_hex_basics.ipynb")
    assert errors_shown(page) == []
    canvas = page.locator(".jupyter-matplotlib-canvas-div canvas").last
    click_canvas(canvas, lambda box: canvas_point(example_map("ss_panzer_errata_9_4"), "1712", box))
    from_box = page.locator(".widget-text:has-text('from') input")
    page.wait_for_function("el => el.value === '1712'", arg=from_box.element_handle())
    page.wait_for_selector("li:has-text('crosses hexside 1712/1713')")
    from_box.fill("19x3")
    from_box.press("Enter")
    message = page.locator(".widget-html:has-text('is not a hex label')")
    message.wait_for()
    assert message.inner_text().strip().startswith("from: '19x3' is not a hex label")
    assert errors_shown(page) == []


def test_distributions_panel_shows_a_table(run_all, lab):
    put_notebook(
        lab, "hits_panel.ipynb", *chapter_cells("01_reading_distributions.ipynb", "ChartPanel(")
    )
    page = run_all("hits_panel.ipynb")
    assert errors_shown(page) == []
    panel_table = page.locator(".widget-html table.wbk-dist")
    panel_table.wait_for()
    assert panel_table.locator("tr").count() == 22  # the header and 0 to 20 hits


def settled_picture(page, canvas, *, unlike: bytes | None = None, timeout: float = 300) -> bytes:
    """The canvas's picture once it has stopped changing (and, given ``unlike``, differs from
    that picture): the kernel sends a new image a moment after the text pane changes."""
    deadline = time.monotonic() + timeout
    last = canvas.screenshot()
    while time.monotonic() < deadline:
        page.wait_for_timeout(250)
        now = canvas.screenshot()
        if now == last and (unlike is None or now != unlike):
            return now
        last = now
    raise AssertionError("the picture did not settle" + (" on a new image" if unlike else ""))


def test_ss_panzer_panels_answer_on_the_picture(run_all, lab):
    cells = chapter_cells("ss_panzer.ipynb", "LosPanel(", "MovementPanel(", "fire_panel(")
    put_notebook(lab, "ss_panzer_panels.ipynb", *cells)
    page = run_all("ss_panzer_panels.ipynb")
    assert errors_shown(page) == []
    m = example_map("ss_panzer_errata_9_4")

    def panel(box: str):
        """The panel with a box of that name (panels are found by what they hold, not by order)."""
        return page.locator(f".jp-OutputArea-output:has(.widget-label:text-is('{box}'))").first

    los = panel("firer")
    los.scroll_into_view_if_needed()
    canvas = los.locator(".jupyter-matplotlib-canvas-div canvas").first
    # controls, and the map with the verdict in its title and the legend, fit on one screen
    # (the worked examples share a row with "compare with"); the explanation follows below
    panel_top, map_box = los.bounding_box()["y"], canvas.bounding_box()
    assert map_box["y"] + map_box["height"] - panel_top < 1000
    firer = los.locator(".widget-text:has-text('firer') input")
    target = los.locator(".widget-text:has-text('target') input")
    # clicks alternate: the first sets the firer, the next the target
    click_canvas(canvas, lambda box: canvas_point(m, "1712", box))
    page.wait_for_function("el => el.value === '1712'", arg=firer.element_handle())
    los.locator(".wbk-steps li:has-text('from 1712 to 1716')").wait_for(state="attached")
    before = settled_picture(page, canvas)
    click_canvas(canvas, lambda box: canvas_point(m, "2014", box))
    page.wait_for_function("el => el.value === '2014'", arg=target.element_handle())
    los.locator(
        ".widget-html b:has-text('line of sight blocked by slope hexside 1813/1913')"
    ).wait_for()
    assert firer.input_value() == "1712"
    settled_picture(page, canvas, unlike=before)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    canvas.screenshot(path=SCREENSHOTS / "ss_panzer_los_map.png")

    movement = panel("goal")
    movement.scroll_into_view_if_needed()
    goal = movement.locator(".widget-text:has-text('goal') input")
    move_canvas = movement.locator(".jupyter-matplotlib-canvas-div canvas").first
    goal.fill("2014")
    goal.press("Enter")
    movement.locator(".widget-html:has-text('Cheapest path to 2014')").wait_for()
    to_2014 = settled_picture(page, move_canvas)
    goal.fill("1208")
    goal.press("Enter")
    movement.locator(".widget-html:has-text('Cheapest path to 1208')").wait_for()
    settled_picture(page, move_canvas, unlike=to_2014)  # the route is drawn on the map
    move_canvas.screenshot(path=SCREENSHOTS / "ss_panzer_movement_map.png")

    start = movement.locator(".widget-text:has-text('start') input")
    start.fill("1999")
    start.press("Enter")
    movement.locator(".widget-html:has-text('hex 1999 is off the map')").wait_for()
    movement.locator(".widget-html:has-text('Out of date')").wait_for()

    # the blocking terrain is a row of checkboxes, woods and towns ticked: untick the woods
    woods = los.locator(".widget-checkbox:has-text('woods') input")
    assert woods.is_checked()
    woods.uncheck()
    target.fill("1414")
    target.press("Enter")
    firer.fill("1913")
    firer.press("Enter")
    los.locator(".widget-html b:has-text('line of sight clear')").wait_for()
    woods.check()
    los.locator(".widget-html b:has-text('blocked by woods in 1614')").wait_for()
    # a reading whose other value changes nothing here says so, beside its control (issue 40:
    # in one row with it, never on a line of its own)
    notes = los.locator(".widget-html i:has-text('makes no difference here')")
    beside = los.locator(
        ".widget-hbox:has(> .widget-dropdown):has(> .widget-html i:has-text('makes no difference'))"
    )
    assert notes.count() >= 1 and beside.count() == notes.count()
    # hovering over a 9.4 reading's label shows the rule it reads (a title on the page)
    assert los.locator(".widget-label span[title^='SS Panzer errata 9.4']").count() == 3

    # the fire panel: conditions ticked (no ctrl-click), the reading's words whole
    fire = panel("hit number")
    fire.scroll_into_view_if_needed()
    for condition in ("kill zone", "entering ZOC"):
        fire.locator(f".widget-checkbox:has-text('{condition}') input").check()
    fire.locator(".widget-html b:text-is('4 dice')").wait_for()
    labels = fire.locator(".widget-radio-box label")
    assert labels.all_inner_texts() == [
        "the largest number of dice only (unofficial errata 9.5)",
        "each condition a separate fire (official ZOC fire rule)",
    ]
    cut = labels.evaluate_all(
        "els => els.filter(el => el.scrollWidth > el.clientWidth + 1).map(el => el.innerText)"
    )
    assert cut == []
    fire.locator(".widget-radio-box label:has-text('each condition')").click()
    fire.locator(".widget-html b:text-is('4 dice and 3 dice')").wait_for()
    fire.screenshot(path=SCREENSHOTS / "ss_panzer_fire_panel.png")
    assert errors_shown(page) == []
