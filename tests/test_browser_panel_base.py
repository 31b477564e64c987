"""The panels' common frame as a user meets it in JupyterLab (Chromium): what only a browser
shows, on chapter 00's trace panel run alone (fixtures and helpers in browser_support.py)."""

from browser_support import TRACE_PANEL, errors_shown, put_notebook


def test_a_message_never_moves_the_map_and_names_each_bad_input(run_all, lab):
    put_notebook(lab, "panel_base.ipynb", TRACE_PANEL)
    page = run_all("panel_base.ipynb")
    canvas = page.locator(".jupyter-matplotlib-canvas-div canvas").last
    panel = page.locator(".jp-OutputArea-output:has(.jupyter-matplotlib-canvas-div)").last
    canvas.scroll_into_view_if_needed()

    def map_top() -> float:
        """The map's place in the panel (the page may scroll)."""
        return canvas.bounding_box()["y"] - panel.bounding_box()["y"]

    top = map_top()
    boxes = {
        name: page.locator(f".widget-text:has(.widget-label:text-is('{name}')) input").last
        for name in ("from", "to")
    }
    boxes["from"].fill("19x3")
    boxes["from"].press("Enter")
    page.locator(".widget-html:has-text(\"from: '19x3' is not a hex label\")").wait_for()
    assert map_top() == top  # the message line was kept for it
    boxes["to"].fill("1999")
    boxes["to"].press("Enter")
    page.locator(".widget-html:has-text('to: hex 1999 is off the map')").wait_for()
    page.locator('.widget-html:has-text(\'Out of date while "from" and "to" are bad\')').wait_for()
    boxes["from"].fill("1913")
    boxes["from"].press("Enter")
    page.locator(".widget-html:has-text('Out of date while \"to\" is bad')").wait_for()
    boxes["to"].fill("1716")
    boxes["to"].press("Enter")
    # both fixed: the answer is back (the dimmed old answer goes)
    page.locator(".widget-html:has-text('Out of date')").wait_for(state="detached")
    assert page.locator(".widget-html li:has-text('along hexside 1715/1816')").count() == 1
    assert map_top() == top
    assert errors_shown(page) == []
