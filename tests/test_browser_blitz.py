"""The Blitz Combat fire calculator as a user meets it: JupyterLab in headless Chromium runs it
as the chapter makes it (in a notebook of its own: the chapter runs whole in the site build), and
it answers what is typed, a bad strength in one line (the fixtures and helpers are in
browser_support.py)."""

from browser_support import chapter_cells, errors_shown, put_notebook


def test_the_calculator_answers_typing_and_bad_input(run_all, lab):
    put_notebook(
        lab, "blitz_calculator.ipynb", *chapter_cells("blitz_combat.ipynb", "fire_calculator(")
    )
    page = run_all("blitz_calculator.ipynb")
    assert errors_shown(page) == []
    strengths = page.locator(".widget-text:has-text('strengths') input").first
    strengths.fill("5, x")
    strengths.press("Enter")
    page.locator(".widget-html:has-text(\"'x' in strengths is not a whole number\")").wait_for()
    strengths.fill("4, 4")
    strengths.press("Enter")
    # the message goes once the kernel has read the new strengths; until then the answer shown
    # may already say 8 dice (the one from before the bad input)
    page.locator(".widget-html:has-text('is not a whole number')").wait_for(state="detached")
    page.locator(".widget-html b:has-text('8 dice')").wait_for()
    assert errors_shown(page) == []
