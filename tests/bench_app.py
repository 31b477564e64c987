"""The app for a class, measured (``make bench``, not ``make test``): how fast each chapter's
panels are drawn from its pool, that kernels of readers who left are culled, and eight readers
opening the longest chapter at once. Figures go to build/app-figures.json for
benchmarks/RESULTS.md, each with the machine's load.

    .venv/bin/python -m pytest tests/bench_app.py -s -q
"""

import os
import statistics
import time

import pytest
from test_app import (
    LONGEST,
    NOTEBOOKS,
    PANELS_DRAWN,
    PATIENCE,
    _close_pages,  # noqa: F401 (every reader's tab closed after each test)
    app_server,
    kernels,
    local_page,
    memory_mb,
    open_chapter,
    record,
    wait_for_pools,
)

from wbk.publish import AppSettings

#: The app as make app starts it, but a reader's kernel culled after 20 idle seconds (3 minutes
#: in make app).
SETTINGS = AppSettings(pool=1, cull_after=20, cull_every=5)
POOLED = len(NOTEBOOKS)
#: The app as a class of eight uses it (``--pool-of ss_panzer.ipynb=8 --refill-after 120``): one
#: kernel per reader for the chapter the class opens, refilled once the class has come in.
CLASS = AppSettings(pool=1, pools={LONGEST: 8}, refill_after=120)
CLASS_POOLED = len(NOTEBOOKS) - 1 + 8


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    with app_server(tmp_path_factory, SETTINGS) as (url, server):
        wait_for_pools(url, server, POOLED)
        yield url, server


#: Each page notes the moment its panels are drawn (the machine's clock, in ms), looking every
#: 250 ms: a page asked from here answers only once its busy browser gets to it, so eight pages
#: asked one after another would all seem drawn when the last answers.
NOTE_WHEN_DRAWN = f"""setInterval(() => {{
  if (!window.wbkDrawnAt && ({PANELS_DRAWN})()) window.wbkDrawnAt = Date.now();
}}, 250);"""


@pytest.fixture
def class_app(tmp_path_factory):
    """A server of its own for each crowd: the one before leaves its readers' kernels and its
    refills to come, which the count of kernels cannot tell from full pools."""
    with app_server(tmp_path_factory, CLASS) as (url, server):
        wait_for_pools(url, server, CLASS_POOLED)
        yield url, server


def test_every_chapter_opens_at_once_from_its_pool(browser, app):
    url, server = app
    page, outside = local_page(browser)
    open_chapter(page, url, LONGEST)  # the browser's cache and the server warmed up
    page.context.close()
    wait_for_pools(url, server, POOLED)
    times = {}
    for nb in NOTEBOOKS:
        wait_for_pools(url, server, POOLED)  # the last reader's pool refilled: a quiet server
        page, outside = local_page(browser)
        times[nb.name] = open_chapter(page, url, nb.name)
        errors = page.locator(
            ".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr'], "
            ".jp-RenderedText[data-mime-type='application/vnd.jupyter.error']"
        )
        assert errors.count() == 0, nb.name
        assert outside == []
        page.context.close()
    median = statistics.median(times.values())
    print(
        f"panels drawn after opening (load {os.getloadavg()[0]:.1f}): median {median:.1f} s, "
        + ", ".join(f"{n} {t:.1f} s" for n, t in times.items())
    )
    record("open", {"median": median, "worst": max(times.values()), "chapters": times})
    sizes = memory_mb(kernels(server))
    record("kernel_mb", {"median": statistics.median(sizes), "most": max(sizes)})


def test_kernels_of_readers_who_left_are_shut_down(browser, app):
    url, server = app
    wait_for_pools(url, server, POOLED)
    pool = set(kernels(server))
    assert len(pool) == POOLED
    pages = [local_page(browser)[0] for _ in range(3)]
    for page, nb in zip(pages, NOTEBOOKS, strict=False):
        open_chapter(page, url, nb.name)
    deadline = time.monotonic() + PATIENCE / 1000  # each pool refilled behind its reader
    while len(kernels(server)) < POOLED + 3 and time.monotonic() < deadline:
        time.sleep(1)
    assert len(kernels(server)) == POOLED + 3
    for page in pages:
        page.context.close()
    deadline = time.monotonic() + 180  # culled after 20 idle seconds, looked for every 5
    while len(kernels(server)) > POOLED and time.monotonic() < deadline:
        time.sleep(1)
    left = set(kernels(server))
    assert len(left) == POOLED  # the pools, full, and no reader's kernel
    assert len(pool - left) == 3  # the kernels the three readers had are gone


@pytest.mark.parametrize("browsers", ["each their own browser", "tabs of one browser"])
def test_eight_readers_opening_the_longest_chapter_at_once_all_get_its_panels(
    browser, class_app, browsers
):
    """Eight readers at once, their browsers on this machine too. Each reader's own browser
    (a context of its own: nothing cached) costs this machine's cores about 4.7 s of Chromium
    for the longest chapter, against 0.3 s of the server and 0.2 s of the reader's kernel; in a
    class each browser runs on the reader's own device. Eight tabs of one browser share its
    cache: nearer to what the server alone must do. The pages' requests are not watched by the
    test (test_app checks that a page fetches nothing from elsewhere): stopping and letting go
    each of a page's 113 requests cost more than serving them, 19-41 s against 16-22 s."""
    url, server = class_app
    pages = [local_page(browser, watched=False)[0]]
    shared = pages[0].context if browsers == "tabs of one browser" else None
    pages += [
        shared.new_page() if shared else local_page(browser, watched=False)[0] for _ in range(7)
    ]
    for page in pages:
        page.set_default_navigation_timeout(PATIENCE)
        page.add_init_script(NOTE_WHEN_DRAWN)
    started = time.time()
    for page in pages:  # each returns once its page starts to arrive: all eight at once
        page.goto(f"{url}/voila/render/{LONGEST}", wait_until="commit")
    times: list[float] = []
    pending = list(pages)
    while pending and time.time() - started < PATIENCE / 1000:
        for page in list(pending):
            drawn_at = page.evaluate("window.wbkDrawnAt || 0")
            if drawn_at:
                times.append(drawn_at / 1000 - started)
                pending.remove(page)
        time.sleep(0.5)
    sizes = memory_mb(kernels(server))
    print(
        f"eight readers of {LONGEST} at once, {browsers} (load {os.getloadavg()[0]:.1f}): "
        + "panels after "
        + ", ".join(f"{t:.1f}" for t in sorted(times))
        + f" s; {len(sizes)} kernels, {sum(sizes):.0f} MB"
    )
    key = "crowd" if shared is None else "crowd_tabs"
    record(key, {"chapter": LONGEST, "seconds": sorted(times)})
    record(f"{key}_kernels", {"count": len(sizes), "total_mb": sum(sizes)})
    assert len(times) == 8  # every reader got the panels
