"""Publishing: the static site (`make site`) works offline from file://, finds rule and hex
numbers, lists the rule sections, opens pictures full size and passes an automated WCAG 2.1
A/AA audit (axe-core); seen in headless Chromium. The app (`make app`) is tests/test_app.py."""

import json
import re
import time
from pathlib import Path

import axe_playwright_python
import nbformat
import pytest

from wbk.publish import ROOT, build_site, cited_rules, publishable, site_wording

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
SCREENSHOTS = ROOT / "build" / "screenshots"


def test_a_published_notebook_has_no_nbval_markers_and_no_stored_outputs():
    nb = publishable(nbformat.read(ROOT / "notebooks" / "ss_panzer.ipynb", as_version=4))
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert not any("NBVAL" in c.source for c in code)
    assert not any(c.outputs for c in code)
    assert any(c.source.startswith("panels.LosPanel") for c in code)
    text = " ".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert "run the whole notebook" not in text
    assert "The panels at the end are live in JupyterLab (make lab) and in the app" in text


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_no_page_asks_its_reader_to_run_the_notebook(notebook):
    nb = publishable(nbformat.read(notebook, as_version=4))
    text = " ".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert "run the whole notebook" not in text


def test_a_static_page_says_its_one_panel_is_a_snapshot():
    said = site_wording(
        "*The panel at the end is live: run the whole notebook (Run ▸ Run All Cells) to use it.*"
    )
    assert said == (
        "*The panel at the end is live in JupyterLab (make lab) and in the app (make app); "
        "this page shows it as a snapshot.*"
    )


def test_step_citations_name_their_rule_sections():
    assert cited_rules("1312: no [Streets of Stalingrad 9.87; 6.0, wbk assumption]") == [
        ("Streets of Stalingrad", "9.87"),
        ("Streets of Stalingrad", "6.0"),
    ]
    assert cited_rules("(Blitz Combat, Leader Saving Throws) and (Pz 8 is small)") == [
        ("Blitz Combat", "Leader Saving Throws")
    ]


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    work = tmp_path_factory.mktemp("site")
    started = time.monotonic()
    index = build_site(ROOT / "notebooks", work / "site", work=work)
    print(f"site built in {time.monotonic() - started:.0f} s")
    return index


#: What differs run to run in a stored output: an object's address.
ADDRESS = re.compile(r"\b0x[0-9a-fA-F]{8,}\b")
#: Outputs drawn, not said (pictures), and widget ids: not compared.
NOT_COMPARED = {
    "image/png",
    "image/jpeg",
    "image/svg+xml",
    "application/vnd.jupyter.widget-view+json",
}


def said(outputs) -> list:
    """What a cell's outputs say, as stored outputs are compared (nbval's way): streams joined by
    name, each result's data but pictures and widget ids, errors by name and value."""
    words: list = []
    for output in outputs:
        if output.output_type == "stream":
            if words and words[-1][0] == output.name:
                words[-1] = (output.name, words[-1][1] + output.text)
            else:
                words.append((output.name, output.text))
        elif output.output_type == "error":
            words.append(("error", f"{output.ename}: {output.evalue}"))
        else:
            words.append(
                (
                    output.output_type,
                    {k: v for k, v in output.data.items() if k not in NOT_COMPARED},
                )
            )
    return [
        (kind, ADDRESS.sub("0xADDRESS", json.dumps(value, sort_keys=True))) for kind, value in words
    ]


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_each_chapter_run_whole_says_what_it_stores(site, notebook):
    """The site build's run of each chapter is the suite's run of it, top to bottom in a fresh
    kernel: every code cell says what the stored notebook says it says, but the cells marked
    NBVAL_IGNORE_OUTPUT (the panels, whose stored form is a live widget)."""
    stored = [c for c in nbformat.read(notebook, as_version=4).cells if c.cell_type == "code"]
    ran_path = site.parent.parent / "site-src" / notebook.name
    ran = [c for c in nbformat.read(ran_path, as_version=4).cells if c.cell_type == "code"]
    assert len(ran) == len(stored)
    differ = [
        f"code cell {i} ({cell.source.splitlines()[0]}): stored {said(cell.outputs)}, "
        f"ran {said(run.outputs)}"
        for i, (cell, run) in enumerate(zip(stored, ran, strict=True))
        if "NBVAL_IGNORE_OUTPUT" not in cell.source and said(cell.outputs) != said(run.outputs)
    ]
    assert differ == []


def test_the_site_names_no_folder_of_the_machine_that_built_it(site):
    """Issue 27: widget state that a run keeps (a box's placeholder names the builder's home) and
    copies of the run notebooks stay out of the site."""
    out = site.parent
    home = str(Path.home())
    for page in out.rglob("*"):
        if page.suffix in (".html", ".js", ".json", ".ipynb", ".txt"):
            text = page.read_text(encoding="utf-8", errors="replace")
            assert home not in text and "application/vnd.jupyter.widget-state" not in text, page
    assert not list(out.glob("_sources/*"))  # no copies of the run notebooks
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    assert size < 30_000_000, f"the site is {size / 1e6:.0f} MB"


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
            "# NBVAL_IGNORE_OUTPUT" in c.source
            and "panel" in c.source.lower()
            and "QuizPanel" not in c.source  # a quiz's snapshot is checked by the quiz test
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


@pytest.mark.parametrize(
    ("number", "where"),
    [
        ("9.4", "ss_panzer.html#line-of-sight-over-slope-hexsides"),
        ("8.3", "ss_panzer.html#movement-costs"),
        ("9.67", "streets_of_stalingrad.html#the-close-assault-bonus-the-supplement-s-example"),
        ("9.87", "streets_of_stalingrad.html#retreat-after-combat-in-a-clear-hex"),
        ("1913", "ss_panzer.html#line-of-sight-over-slope-hexsides"),
        ("2113", "ss_panzer.html#line-of-sight-over-slope-hexsides"),
    ],
)
def test_the_search_box_finds_rule_and_hex_numbers(browser, site, number, where):
    page, failed, errors = offline_page(browser)
    page.goto(site.as_uri())
    page.locator("button.search-button-field").first.click()
    box = page.locator("#pst-search-dialog input[name='q']")
    box.fill(number)
    box.press("Enter")
    results = page.locator("#wbk-number-results a")
    results.first.wait_for(timeout=20_000)
    hrefs = results.evaluate_all("links => links.map(a => a.getAttribute('href'))")
    assert hrefs[0].endswith(where)  # the section that says it most, first
    results.first.click()
    # where the link leads; the chapter's page need not finish loading (the offline test and
    # the audit load every page whole)
    page.wait_for_url(f"**/{where}", wait_until="commit")
    assert failed == [] and errors == []
    page.close()


def test_the_rule_index_links_each_rule_to_where_it_is_taught_and_computed(browser, site):
    page, failed, errors = offline_page(browser)
    page.goto((site.parent / "reference" / "rules.html").as_uri())
    row = page.locator("table.wbk-rule-index tr:has(th:text-is('9.4'))")
    taught, computed = row.locator("td").nth(0), row.locator("td").nth(1)
    assert taught.locator("a").first.inner_text() == "9.4 Line of sight over slope hexsides"
    assert computed.locator("a").count() >= 1
    rules = page.locator("table.wbk-rule-index th[scope='row']").all_inner_texts()
    assert {"9.4", "8.3", "9.5", "9.67", "9.87", "9.88", "9.89"} <= set(rules)
    assert "Leader Saving Throws" in rules and "Shooting" in rules
    # every link lands on a section of its page
    for href in page.locator("table.wbk-rule-index a").evaluate_all(
        "links => [...new Set(links.map(a => a.href))]"
    ):
        path, anchor = href.split("#")
        text = Path(path.removeprefix("file://")).read_text(encoding="utf-8")
        assert f'id="{anchor}"' in text, href
    assert failed == [] and errors == []
    page.close()


@pytest.mark.parametrize("chapter", ["ss_panzer", "blitz_combat", "streets_of_stalingrad", "pz8"])
def test_each_game_chapter_ends_with_its_quiz_answers_folded(browser, site, chapter):
    page, failed, errors = offline_page(browser)
    page.goto((site.parent / f"{chapter}.html").as_uri())
    quizzes = page.locator("main details.wbk-quiz")
    assert quizzes.count() >= 8, chapter
    assert quizzes.evaluate_all("ds => ds.filter(d => d.open).length") == 0  # answers hidden
    first = quizzes.first
    answer = first.locator(":scope > :not(summary)").first
    assert not answer.is_visible()
    first.locator("summary").click()
    assert answer.is_visible()
    quiz_row = page.locator("main h2", has_text="Quiz")
    assert quiz_row.count() == 1, chapter
    assert failed == [] and errors == []
    page.close()


def test_a_picture_says_its_answer_and_opens_full_size(browser, site):
    page, failed, errors = offline_page(browser)
    page.goto((site.parent / "ss_panzer.html").as_uri())
    alts = page.locator("main .cell_output img").evaluate_all("imgs => imgs.map(i => i.alt)")
    assert alts and not any(alt.startswith("_images/") or not alt for alt in alts)
    assert any("1913" in alt for alt in alts)
    picture = page.locator("main .cell_output img").first
    shown = picture.bounding_box()["width"]
    picture.click()
    big = page.locator(".wbk-zoom img")
    big.wait_for()
    assert big.evaluate("img => img.naturalWidth") > shown  # drawn at twice the size shown
    assert big.bounding_box()["width"] > shown
    page.keyboard.press("Escape")
    assert page.locator(".wbk-zoom").count() == 0
    assert failed == [] and errors == []
    page.close()


AXE = Path(axe_playwright_python.__file__).parent / "axe.min.js"
WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def test_every_page_passes_an_automated_wcag_audit(browser, site):
    """axe-core (from the axe-playwright-python package, no CDN) on every page: no serious or
    critical violation of WCAG 2.1 A/AA, label-in-name (2.5.3, axe's experimental rule) too."""
    page, failed, errors = offline_page(browser)
    found = {}
    pages = sorted(site.parent.glob("*.html")) + sorted(site.parent.glob("reference/*.html"))
    for path in pages:
        page.goto(path.as_uri())
        page.wait_for_load_state("load")
        page.add_script_tag(path=str(AXE))
        violations = page.evaluate(
            """async tags => (await axe.run(document, {
                preload: false,  // no fetching of stylesheets, which file:// refuses
                runOnly: {type: 'tag', values: tags},
                rules: {'label-content-name-mismatch': {enabled: true}},
                // every violation with all its nodes, the passes without theirs (a quarter less
                // time on the longest chapters)
                resultTypes: ['violations'],
            })).violations.filter(v => ['serious', 'critical'].includes(v.impact))
              .map(v => `${v.id}: ${v.nodes.length}, e.g. ${v.nodes[0].html.slice(0, 120)}`)""",
            WCAG,
        )
        if violations:
            found[path.name] = violations
    assert len(pages) >= len(NOTEBOOKS) + 3
    assert found == {}
    assert failed == [] and errors == []
    page.close()
