"""Stepping through an answer with the keyboard in JupyterLab (Chromium), on chapter 00's trace
panel (1913 -> 1716, nine steps): the arrow keys move the step and the picture follows (issue 19;
fixtures and helpers in browser_support.py)."""

from browser_support import errors_shown, run_all


def test_the_arrow_keys_step_the_trace_panel_and_the_picture_follows(browser, lab):
    page = run_all(browser, lab, "00_hex_basics.ipynb")
    panel = page.locator(".wbk-step-keys").last
    label = panel.locator(".wbk-steps .widget-html").first
    canvas = panel.locator(".jupyter-matplotlib-canvas-div canvas").first
    label.scroll_into_view_if_needed()
    page.locator(".wbk-steps .widget-html:has-text('step 9 of 9')").last.wait_for(timeout=10_000)

    def picture() -> str:
        return canvas.evaluate("c => c.toDataURL()")

    answer = picture()
    label.click()  # focus inside the panel, on no box that takes the arrow keys itself
    page.keyboard.press("ArrowLeft")
    page.locator(".wbk-steps .widget-html:has-text('step 8 of 9')").last.wait_for(timeout=10_000)
    page.wait_for_function(
        "([c, before]) => c.toDataURL() !== before",
        arg=[canvas.element_handle(), answer],
        timeout=10_000,
    )
    eight = picture()
    page.keyboard.press("ArrowLeft")
    page.locator(".wbk-steps .widget-html:has-text('step 7 of 9')").last.wait_for(timeout=10_000)
    page.wait_for_function(
        "([c, before]) => c.toDataURL() !== before",
        arg=[canvas.element_handle(), eight],
        timeout=10_000,
    )
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")  # back at the verdict: the whole answer
    page.locator(".wbk-steps .widget-html:has-text('step 9 of 9')").last.wait_for(timeout=10_000)
    assert errors_shown(page) == []
    page.close()
