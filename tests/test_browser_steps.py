"""Stepping through an answer with the keyboard in JupyterLab (Chromium), issue 19: on chapter
00's trace panel (1913 -> 1716, nine steps) and on the SS Panzer LOS panel (1712 -> 2014, four
steps), the arrow keys move the step and the picture follows; clicking a step's line jumps there
(fixtures and helpers in browser_support.py: one JupyterLab, started once). Each panel is run in
a notebook of its own: the chapters run whole in test_browser.py.

The waits are for what the page shows, with the page's patient default timeout (minutes, for a
loaded CI machine), never a fixed pause."""

from browser_support import LOS_PANEL, TRACE_PANEL, errors_shown, put_notebook

#: The canvas's picture has stopped changing (the same for four polls in a row) and, given
#: ``before``, is another one: the kernel may send a picture or two after the page's words
#: change, and a step's picture must not be taken for the one before it.
SETTLED = """([c, before]) => {
    const now = c.toDataURL();
    if (c.wbkLast !== now) { c.wbkLast = now; c.wbkSame = 0; return false; }
    c.wbkSame += 1;
    return c.wbkSame >= 4 && now !== before;
}"""


def settled_picture(page, canvas, before: str | None = None) -> str:
    """The canvas's picture once it has settled (unlike ``before``, a data URL, if given)."""
    canvas.evaluate("c => { c.wbkLast = null; c.wbkSame = 0; }")
    page.wait_for_function(SETTLED, arg=[canvas.element_handle(), before], polling=500)
    return canvas.evaluate("c => c.toDataURL()")


def picture_changes(page, canvas, before: str) -> str:
    """Wait until the canvas shows a picture other than ``before`` (a data URL); return it."""
    page.wait_for_function(
        "([c, before]) => c.toDataURL() !== before", arg=[canvas.element_handle(), before]
    )
    return canvas.evaluate("c => c.toDataURL()")


def test_the_arrow_keys_step_the_trace_panel_and_the_picture_follows(run_all, lab):
    put_notebook(lab, "steps_trace.ipynb", TRACE_PANEL)
    page = run_all("steps_trace.ipynb")
    panel = page.locator(".wbk-step-keys").last
    label = panel.locator(".wbk-steps .widget-html").first
    canvas = panel.locator(".jupyter-matplotlib-canvas-div canvas").first
    label.scroll_into_view_if_needed()
    page.locator(".wbk-steps .widget-html:has-text('step 9 of 9')").last.wait_for()
    answer = canvas.evaluate("c => c.toDataURL()")
    label.click()  # focus inside the panel, on no box that takes the arrow keys itself
    page.keyboard.press("ArrowLeft")
    page.locator(".wbk-steps .widget-html:has-text('step 8 of 9')").last.wait_for()
    eight = picture_changes(page, canvas, answer)
    page.keyboard.press("ArrowLeft")
    page.locator(".wbk-steps .widget-html:has-text('step 7 of 9')").last.wait_for()
    picture_changes(page, canvas, eight)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")  # back at the verdict: the whole answer
    page.locator(".wbk-steps .widget-html:has-text('step 9 of 9')").last.wait_for()
    assert errors_shown(page) == []


def test_the_arrow_keys_step_the_los_panel_and_a_click_on_a_step_jumps_there(run_all, lab):
    """Issue 19's "done when": an LOS panel stepped with the keyboard, the picture changing."""
    put_notebook(lab, "steps_los.ipynb", LOS_PANEL)
    page = run_all("steps_los.ipynb")
    panel = page.locator(".wbk-step-keys:has(.widget-label:text-is('firer'))").first
    steps = panel.locator(".wbk-steps")
    label = steps.locator(".widget-html").first
    canvas = panel.locator(".jupyter-matplotlib-canvas-div canvas").first
    panel.scroll_into_view_if_needed()
    for box, hex_label in (("firer", "1712"), ("target", "2014")):
        typed = panel.locator(f".widget-text:has-text('{box}') input")
        typed.fill(hex_label)
        typed.press("Enter")
    panel.locator(
        ".widget-html b:has-text('line of sight blocked by slope hexside 1813/1913')"
    ).wait_for()
    steps.locator(".widget-html:has-text('step 4 of 4')").wait_for()
    verdict = settled_picture(page, canvas)
    label.click()  # focus inside the panel, on no box that takes the arrow keys itself
    page.keyboard.press("ArrowLeft")
    steps.locator(".widget-html:has-text('step 3 of 4')").wait_for()
    three = settled_picture(page, canvas, verdict)
    page.keyboard.press("ArrowRight")  # back at the verdict: the whole answer
    steps.locator(".widget-html:has-text('step 4 of 4 (the answer)')").wait_for()
    settled_picture(page, canvas, three)
    # every step's line whole, wrapped within the panel (issue 40: cut at the right edge)
    lines = steps.locator("ol.wbk-step-list li")
    assert lines.count() == 4
    assert lines.evaluate_all("items => items.every(li => li.scrollWidth <= li.clientWidth)")
    # a click on the first step's line jumps there
    lines.filter(has_text="from 1712 to 2014").click()
    steps.locator(".widget-html:has-text('step 1 of 4')").wait_for()
    one = settled_picture(page, canvas, verdict)
    # issue 30: after a click on a step, the arrow keys step there too, and JupyterLab's cell
    # selection (its arrow keys in command mode) stays where it was
    active = ACTIVE_CELL
    cell = page.evaluate(active)
    page.keyboard.press("ArrowDown")
    steps.locator(".widget-html:has-text('step 2 of 4')").wait_for()
    two = settled_picture(page, canvas, one)
    page.keyboard.press("ArrowRight")
    steps.locator(".widget-html:has-text('step 3 of 4')").wait_for()
    page.keyboard.press("ArrowUp")
    steps.locator(".widget-html:has-text('step 2 of 4')").wait_for()
    settled_picture(page, canvas, one)
    assert page.evaluate(active) == cell and two != verdict
    assert errors_shown(page) == []


#: The index of JupyterLab's active cell in the notebook on show.
ACTIVE_CELL = """() => [...document.querySelectorAll('.jp-Notebook .jp-Cell')]
    .findIndex(c => c.classList.contains('jp-mod-active'))"""
