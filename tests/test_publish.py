"""Publishing: the static site (`make site`) works offline from file://, finds rule and hex
numbers, lists the rule sections, opens pictures full size and passes an automated WCAG 2.1
A/AA audit (axe-core); seen in headless Chromium. The app (`make app`) is tests/test_app.py."""

import time
from pathlib import Path

import axe_playwright_python
import nbformat
import pytest
from nbclient.exceptions import CellExecutionError

from wbk.games import chapters, games
from wbk.publish import (
    Section,
    build_site,
    cited_rules,
    publishable,
    rule_sections,
    search_index,
    site_wording,
)

ROOT = Path(__file__).parent.parent

NOTEBOOKS = chapters()
CHAPTERS = {path.name: path for path in NOTEBOOKS}
SCREENSHOTS = ROOT / "build" / "screenshots"


def test_a_published_notebook_has_no_nbval_markers_and_no_stored_outputs():
    nb = publishable(nbformat.read(CHAPTERS["ss_panzer.ipynb"], as_version=4))
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


def section(page, id, title, level, prose="", outputs="", bold=""):
    return Section(page, id, title, level, prose=[prose, bold], outputs=[outputs], bold=[bold])


BLITZ = "Blitz Combat"


def test_the_rule_index_takes_the_rules_a_chapter_opens_with_and_splits_joint_citations():
    """Issue 30: 8.2, named in the SS Panzer chapter's opening list only, was left out (a
    number in the opening's plain prose, "1.5 MP", is no rule); a step citing
    "(Blitz Combat, Leader Saving Throws and Damage)" computes both sections, while Pz 8's
    "Penetration and Damage" is one section."""
    sections = [
        section("ss.html", "ss", "SS Panzer: movement", 1, "a 1.5 MP cost", bold="8.2 and 8.3"),
        section("ss.html", "m", "8.3 Movement costs", 2, outputs="2 MP [SS Panzer errata 8.3]"),
        section("b.html", "b", "Blitz Combat: saves", 1),
        section("b.html", "s", "Saves", 2, outputs="(Blitz Combat, Leader Saving Throws)"),
        section("b.html", "d", "Damage", 2, outputs="(Blitz Combat, Damage, reading 'x')"),
        section("b.html", "j", "Both", 2, outputs=f"({BLITZ}, Leader Saving Throws and Damage)"),
        section("p.html", "p", "Pz 8: tanks", 1),
        section("p.html", "g", "Guns", 2, outputs="(Pz 8, Penetration and Damage)"),
    ]
    rules = {(r.game, r.rule): r for r in rule_sections(sections)}
    assert set(rules) == {
        ("SS Panzer", "8.2"),
        ("SS Panzer", "8.3"),
        ("Blitz Combat", "Leader Saving Throws"),
        ("Blitz Combat", "Damage"),
        ("Pz 8", "Penetration and Damage"),
    }
    assert [s.id for s in rules[("SS Panzer", "8.2")].taught] == ["ss"]  # the opening
    assert [s.id for s in rules[("SS Panzer", "8.3")].taught] == ["m"]
    assert [s.id for s in rules[("Blitz Combat", "Damage")].computed] == ["d", "j"]
    assert [s.id for s in rules[("Blitz Combat", "Leader Saving Throws")].computed] == ["s", "j"]


def test_the_search_index_has_every_section_with_its_words_and_numbers():
    sections = [
        section("ss.html", "ss", "SS Panzer", 1, "Slopes and  movement"),
        section("ss.html", "los", "9.4 Line of sight", 2, "1913 sees 1915", "1913: clear"),
        section("ss.html", "quiz", "Quiz", 2, "9.4 again"),
        section("reference/maps.html", "maps", "Map files", 1, "a hexside 1913/1914"),
    ]
    index = search_index(sections)
    assert [p[:5] for p in index["places"]] == [
        ["ss.html", "ss", "SS Panzer", "SS Panzer", False],
        ["ss.html", "los", "9.4 Line of sight", "SS Panzer", False],
        ["ss.html", "quiz", "Quiz", "SS Panzer", True],
        ["reference/maps.html", "maps", "Map files", "Map files", True],  # after the chapters
    ]
    assert index["places"][0][5] == "Slopes and movement"
    assert index["tokens"]["1913"] == [[1, 2], [3, 1]]
    assert index["tokens"]["9.4"] == [[1, 1], [2, 1]]


def test_a_sites_picture_is_kept_in_fewer_bytes_and_one_with_see_through_pixels_as_it_is(
    tmp_path,
):
    from matplotlib.figure import Figure
    from PIL import Image

    from wbk.publish import _smaller_png

    figure = Figure(figsize=(4, 3), dpi=150)
    ax = figure.add_subplot()
    ax.plot([0, 1, 2], [0, 2, 1], marker="*", markersize=14)
    ax.set_title("1913 sees 1915")
    opaque, clear = tmp_path / "opaque.png", tmp_path / "clear.png"
    figure.savefig(opaque)
    figure.savefig(clear, transparent=True)
    sizes = {p: p.stat().st_size for p in (opaque, clear)}
    _smaller_png(opaque)
    _smaller_png(clear)
    assert opaque.stat().st_size < sizes[opaque] * 0.7
    assert clear.stat().st_size == sizes[clear]
    with Image.open(opaque) as picture:
        assert picture.size == (600, 450)


def test_a_chapter_whose_cell_fails_stops_the_build_with_its_error(tmp_path):
    """The chapters run side by side: the error of one still reaches the build, named."""
    chapters = tmp_path / "notebooks"
    chapters.mkdir()
    for name, source in (("a_good.ipynb", "print(6 * 7)"), ("b_bad.ipynb", "1 / 0")):
        notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source)])
        nbformat.write(notebook, chapters / name)
    with pytest.raises(CellExecutionError, match="ZeroDivisionError"):
        build_site(sorted(chapters.glob("*.ipynb")), tmp_path / "site", work=tmp_path)
    assert not (tmp_path / "site").exists()


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    work = tmp_path_factory.mktemp("site")
    started = time.monotonic()
    index = build_site(NOTEBOOKS, work / "site", work=work)
    print(f"site built in {time.monotonic() - started:.0f} s")
    return index


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
            for c in nbformat.read(CHAPTERS[f"{stem}.ipynb"], as_version=4).cells
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
    page.locator("#wbk-search-results li").first.wait_for(timeout=20_000)
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
    results = page.locator("#wbk-search-results li > a")
    results.first.wait_for(timeout=20_000)
    hrefs = results.evaluate_all("links => links.map(a => a.getAttribute('href'))")
    assert hrefs[0].endswith(where)  # the section that says it most, first
    results.first.click()
    # where the link leads; the chapter's page need not finish loading (the offline test and
    # the audit load every page whole)
    page.wait_for_url(f"**/{where}", wait_until="commit")
    assert failed == [] and errors == []
    page.close()


@pytest.mark.parametrize(
    ("words", "where", "said"),
    [
        ("retreat", "streets_of_stalingrad.html#", "retreat"),
        ("Tiger", "pz8.html#", "Tiger"),
        ("9.4", "ss_panzer.html#line-of-sight-over-slope-hexsides", "9.4"),
    ],
)
def test_a_search_lists_the_sections_that_say_it_with_their_lines(
    browser, site, words, where, said
):
    """Issue 30: "retreat" and "Tiger" found page titles only, and "9.4" listed its sections
    and then said that the search did not match any documents. Each result is a section, with
    the line that says the words, marked; nothing says that nothing matched."""
    page, failed, errors = offline_page(browser)
    page.goto((site.parent / "search.html").as_uri() + f"?q={words}")
    results = page.locator("#wbk-search-results li")
    results.first.wait_for(timeout=20_000)
    assert results.count() >= 3
    first = results.first
    assert "#" in first.locator("a").get_attribute("href")  # a section, not a page
    assert first.locator("a").get_attribute("href").split("/")[-1].startswith(where)
    marked = first.locator(".wbk-excerpt mark").all_inner_texts()
    assert marked and all(m.lower() == said.lower() for m in marked)
    page.wait_for_timeout(500)  # Sphinx's own search has finished by now
    assert "did not match" not in page.locator("main").inner_text()
    assert failed == [] and errors == []
    page.close()


@pytest.mark.parametrize(
    ("words", "where"),
    [
        ("hexside", "reference/maps.html#"),
        ("CRT", "reference/stalingrad-data.html#"),
        ("QuizKind", "reference/adding-a-rule-set.html#"),
        ("entry point", "reference/adding-a-rule-set.html#"),
    ],
)
def test_the_search_finds_the_reference_pages(browser, site, words, where):
    """Issue 42: the reference moved from the README to the site, and its search finds it."""
    page, failed, errors = offline_page(browser)
    page.goto((site.parent / "search.html").as_uri() + f"?q={words}")
    links = page.locator("#wbk-search-results li > a")
    links.first.wait_for(timeout=20_000)
    found = [href.split("?")[0] for href in links.evaluate_all("as => as.map(a => a.href)")]
    assert any(f"/{where}" in href for href in found), found
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
    # 8.2: named by the chapter's opening (issue 30); Blitz and Pz 8 by their named sections
    assert {"8.2", "9.4", "8.3", "9.5", "9.67", "9.87", "9.88", "9.89"} <= set(rules)
    assert {"Leader Saving Throws", "Damage", "Shooting", "Penetration and Damage"} <= set(rules)
    assert not [r for r in rules if "reading" in r or r == "Leader Saving Throws and Damage"]
    for game in ("blitz-combat", "pz-8"):
        table = page.locator(f"h2#{game} + table.wbk-rule-index")
        assert table.locator("td a").count() >= 8, game  # taught and computed somewhere
    # every link lands on a section of its page
    for href in page.locator("table.wbk-rule-index a").evaluate_all(
        "links => [...new Set(links.map(a => a.href))]"
    ):
        path, anchor = href.split("#")
        text = Path(path.removeprefix("file://")).read_text(encoding="utf-8")
        assert f'id="{anchor}"' in text, href
    assert failed == [] and errors == []
    page.close()


@pytest.mark.parametrize(
    "chapter", [path.stem for rules in games().values() for path in rules.chapters]
)
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
    # a quiz's picture (a snapshot's, drawn at the size the page shows it) opens twice as large
    quiz = page.locator("main .wbk-quiz-snapshot img").first
    quiz.scroll_into_view_if_needed()
    shown = quiz.bounding_box()["width"]
    quiz.click()
    big.wait_for()
    page.wait_for_function("() => document.querySelector('.wbk-zoom img').complete")
    assert big.bounding_box()["width"] >= 1.9 * shown
    page.keyboard.press("Escape")
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


#: What of a page's article is cut off or runs past its right edge: an element wider than the
#: article, or one that hides or scrolls what it cannot hold.
OVERFLOWING = """() => {
    const article = document.querySelector('article') || document.body;
    const edge = article.getBoundingClientRect().right + 1;
    const found = [];
    for (const el of article.querySelectorAll('*')) {
        const box = el.getBoundingClientRect();
        if (!box.width) continue;
        const style = getComputedStyle(el);
        const named = el.tagName + (el.className ? '.' + el.className.toString() : '');
        if (box.right > edge && style.position !== 'fixed')
            found.push(`${named} runs past the edge`);
        else if (el.scrollWidth > el.clientWidth + 1 && style.overflowX !== 'visible')
            found.push(`${named} cuts ${el.scrollWidth - el.clientWidth} px off`);
    }
    return [...new Set(found)].slice(0, 5);
}"""


@pytest.mark.parametrize("width", [390, 1280], ids=["phone", "laptop"])
def test_nothing_on_a_page_is_cut_or_wider_than_its_column(browser, site, width):
    """Issue 40: printed steps ran past the right of the page and were cut; a distribution's
    table ran its columns together. At a phone's width and a laptop's, every page of the site
    holds its code, printed output, tables and pictures within its column."""
    page = browser.new_page(viewport={"width": width, "height": 900})
    found = {}
    for path in sorted(site.parent.glob("*.html")) + sorted(site.parent.glob("reference/*.html")):
        page.goto(path.as_uri())
        page.wait_for_load_state("load")
        if overflowing := page.evaluate(OVERFLOWING):
            found[path.name] = overflowing
        padding = page.evaluate(
            """() => [...document.querySelectorAll('table.wbk-dist td')].slice(0, 2)
                .map(td => parseFloat(getComputedStyle(td).paddingLeft))"""
        )
        assert all(p > 0 for p in padding), f"{path.name}: a distribution's cells touch"
    assert found == {}
    page.close()
