"""The quiz panel as a learner meets it in JupyterLab (headless Chromium): one question answered
wrong by choosing, one answered right by clicking hexes on the map, each revealed with its
working (fixtures and helpers in browser_support.py)."""

from pathlib import Path

from browser_support import canvas_point, click_canvas, errors_shown, put_notebook

from wbk.maps import example_map

SCREENSHOTS = Path(__file__).parent.parent / "build" / "screenshots"
#: Milliseconds a click may take to show its answer: generous, for a machine with every core
#: busy (only a stuck kernel waits this long).
WAIT = 120_000
#: The cell a chapter adds for its quiz.
QUIZ_CELL = 'from wbk.widgets.quiz import QuizPanel\nQuizPanel.for_game("ss_panzer")'


def test_a_wrong_answer_then_a_right_one_by_clicking_the_map(run_all, lab):
    put_notebook(lab, "quiz_check.ipynb", QUIZ_CELL)
    page = run_all("quiz_check.ipynb")
    assert errors_shown(page) == []
    header = page.locator(".widget-html:has-text('question 1 of 15')")
    header.wait_for(timeout=WAIT)
    assert "score 0 of 0" in header.inner_text()

    # question 1 (errata 9.4, example 1): answered wrong by choosing "no"
    page.locator(".widget-toggle-button:text-is('no')").click()
    page.locator("button:text-is('Check')").click()
    reveal = page.locator(".widget-html:has-text('you said no; the answer is')")
    reveal.wait_for(timeout=WAIT)
    text = reveal.inner_text()
    assert text.startswith("Wrong") and "yes: clear" in text
    assert "crosses slope hexside 1813/1913, a side of the firer's hex" in text
    page.locator(".widget-html:has-text('score 0 of 1')").wait_for(timeout=WAIT)

    # on to the one-hex rule (question 12): the reach is answered by clicking six hexes
    for number in range(2, 13):
        page.locator("button:text-is('Next')").click()
        page.locator(f".widget-html:has-text('question {number} of 15')").wait_for(timeout=WAIT)
    page.locator(".widget-html:has-text('Click the hexes on the map')").wait_for(timeout=WAIT)
    canvas = page.locator(".jupyter-matplotlib-canvas-div canvas").first
    box = page.locator(".widget-text:has(.widget-label:text-is('your hexes')) input").last
    m = example_map("ss_panzer_errata_9_4")
    picked = []
    for label in ("1509", "1510", "1609", "1611", "1709", "1710"):
        click_canvas(canvas, lambda box, label=label: canvas_point(m, label, box))
        picked.append(label)
        page.wait_for_function(
            "([el, want]) => el.value === want",
            arg=[box.element_handle(), ", ".join(sorted(picked))],
            timeout=WAIT,
        )
    page.locator("button:text-is('Check')").click()
    reveal = page.locator(".widget-html:has-text('you said 1509, 1510, 1609, 1611, 1709, 1710')")
    reveal.wait_for(timeout=WAIT)
    text = reveal.inner_text()
    assert text.startswith("Right") and "6 hexes" in text
    assert "1609: 4 MP: more than its MP, only as the one hex of a Move action" in text
    page.locator(".widget-html:has-text('score 1 of 2')").wait_for(timeout=WAIT)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator(".jp-OutputArea-output").first.screenshot(path=SCREENSHOTS / "quiz_reveal.png")
    assert errors_shown(page) == []
