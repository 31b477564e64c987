"""The workbook as a user meets it: JupyterLab in headless Chromium, notebooks run, widgets clicked
(the fixtures and helpers are in browser_support.py)."""

from browser_support import canvas_point, errors_shown, run_all

from wbk.maps import example_map


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
