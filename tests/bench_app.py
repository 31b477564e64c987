"""The app for a class, measured (``make bench``, not ``make test``): how fast each chapter's
panels are drawn from its pool, that kernels of readers who left are culled, eight readers
opening the longest chapter at once, eight readers opening eight different links at once (ten
rounds: each sees their own situation), and the second and third reader of each chapter, who
find its pool empty. Each reader comes from a loopback address of its own, as a class's computers
do, with the app's limits on each address (``Readers``, issue 38). Figures go to
build/app-figures.json for benchmarks/RESULTS.md, each with
the machine's load (run it with ``stress-ng --cpu 4`` beside it for a loaded machine).

    .venv/bin/python -m pytest tests/bench_app.py -s -q
"""

import asyncio
import itertools
import os
import statistics
import threading
import time
from dataclasses import replace

import pytest
from test_app import (
    LONGEST,
    NOTEBOOKS,
    PANELS_DRAWN,
    PATIENCE,
    TOUR,
    _close_pages,  # noqa: F401 (every reader's tab closed after each test)
    app_server,
    kernels,
    local_page,
    memory_mb,
    open_chapter,
    record,
    wait_for_pools,
)

from wbk.appsettings import AppSettings
from wbk.maps import example_map
from wbk.widgets import TracePanel
from wbk.widgets.app import case_query


class Readers:
    """Each reader's browser reaches the app from a loopback address of its own (127.0.0.10,
    127.0.0.11 and on, a new one for each reader), as a class's computers do: the app shares
    its kernels, connections and password guesses out by the client's address (issue 38), and
    is measured here with those limits on. A reader's URL is a port of a forwarder in a thread
    of this process, which passes each connection on to the app from the reader's address."""

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.addresses = (f"127.0.0.{n}" for n in itertools.cycle(range(10, 250)))
        self.servers: list[asyncio.Server] = []

    def url(self, app_url: str) -> str:
        """The app's URL as a new reader reaches it."""
        port = int(app_url.rsplit(":", 1)[1])
        listening = asyncio.run_coroutine_threadsafe(
            self._forward(port, next(self.addresses)), self.loop
        ).result(timeout=60)
        self.servers.append(listening)
        return f"http://127.0.0.1:{listening.sockets[0].getsockname()[1]}"

    async def _forward(self, port: int, source: str) -> asyncio.Server:
        async def connection(reader, writer):
            try:
                app_reader, app_writer = await asyncio.open_connection(
                    "127.0.0.1", port, local_addr=(source, 0)
                )
            except OSError:
                writer.close()
                return
            await asyncio.gather(_pipe(reader, app_writer), _pipe(app_reader, writer))

        return await asyncio.start_server(connection, "127.0.0.1", 0)

    def close(self) -> None:
        for server in self.servers:
            self.loop.call_soon_threadsafe(server.close)
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=60)


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(2**16):
            writer.write(data)
            await writer.drain()
    except OSError:
        pass
    finally:
        writer.close()


@pytest.fixture(scope="module")
def readers():
    forwarding = Readers()
    yield forwarding
    forwarding.close()


#: The app as make app starts it, but a reader's kernel culled after 20 idle seconds (3 minutes
#: in make app).
SETTINGS = AppSettings(pool=1, cull_after=20, cull_every=5)
POOLED = len(NOTEBOOKS)
#: The app as a class of eight uses it (``--pool-of ss_panzer.ipynb=8 --refill-after 120``): one
#: kernel per reader for the chapter the class opens, refilled once the class has come in.
CLASS = AppSettings(pool=1, pools={LONGEST: 8}, refill_after=120)
#: The same for eight tabs of one browser: one computer, so as a class behind one address
#: (``--kernels-per-address 0``).
ONE_ADDRESS = replace(CLASS, kernels_per_address=0)
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
def class_app(tmp_path_factory, request):
    """A server of its own for each crowd: the one before leaves its readers' kernels and its
    refills to come, which the count of kernels cannot tell from full pools."""
    tabs = request.node.callspec.params.get("browsers") == "tabs of one browser"
    with app_server(tmp_path_factory, ONE_ADDRESS if tabs else CLASS) as (url, server):
        wait_for_pools(url, server, CLASS_POOLED)
        yield url, server


def test_every_chapter_opens_at_once_from_its_pool(browser, app, readers):
    url, server = app
    page, outside = local_page(browser)
    open_chapter(page, readers.url(url), LONGEST)  # the server warmed up
    page.context.close()
    times = {}
    for nb in NOTEBOOKS:
        # the last reader's pool refilled: a quiet server
        wait_for_pools(url, server, POOLED, refills_within=SETTINGS.refill_after)
        page, outside = local_page(browser)
        times[nb.name] = open_chapter(page, readers.url(url), nb.name)
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


def test_kernels_of_readers_who_left_are_shut_down(browser, app, readers):
    url, server = app
    # the readers before gone and their pools refilled: every kernel now is a pool's
    wait_for_pools(url, server, POOLED, refills_within=SETTINGS.refill_after)
    pool = set(kernels(server))
    assert len(pool) == POOLED
    pages = [local_page(browser)[0] for _ in range(3)]
    for page, nb in zip(pages, NOTEBOOKS, strict=False):
        open_chapter(page, readers.url(url), nb.name)
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
    browser, class_app, browsers, readers
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
    urls = [url if shared else readers.url(url) for _ in pages]
    started = time.time()
    for page, reader in zip(pages, urls, strict=True):  # each returns once its page starts
        page.goto(f"{reader}/voila/render/{LONGEST}", wait_until="commit")  # to arrive
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


# --- a class opening eight links at once --------------------------------------------------------

#: The app as a class opening a teacher's links uses it: eight kernels ready for the tour chapter,
#: refilled a second after a reader takes one, a reader's kernel culled 20 s after they leave.
LINKS = AppSettings(pool=0, pools={TOUR: 8}, refill_after=1, cull_after=20, cull_every=5)
LINK_ROUNDS = 10
#: Each page notes when its link has shown: the situation's heading, or the one line saying why.
NOTE_WHEN_LINKED = """setInterval(() => {
  if (window.wbkLinkedAt) return;
  const said = [...document.querySelectorAll('.widget-output h2, .widget-output p b')]
    .map(e => e.textContent);
  if (said.some(t => t.startsWith('The situation from your link') || t.startsWith('This link')))
    window.wbkLinkedAt = Date.now();
}, 250);"""


def eight_links(shift: int) -> list[tuple[str, str]]:
    """Eight different traces of the errata's map, ``shift`` places along (each round's readers
    get other links than the round before)."""
    ends = [
        ("1913", "1716"),
        ("1712", "2014"),
        ("1208", "1818"),
        ("2410", "1509"),
        ("1611", "2117"),
        ("1310", "2208"),
        ("2016", "1412"),
        ("1814", "2311"),
    ]
    return ends[shift % 8 :] + ends[: shift % 8]


def link_crowd(browser, urls: list[str], shift: int) -> tuple[list[float], list[str]]:
    """Eight readers (the app at ``urls``, one each) open eight links to the tour chapter at
    once; the seconds until each saw their link's situation, and what went wrong for those who
    did not see their own."""
    situation = example_map("ss_panzer_errata_9_4")
    ends = eight_links(shift)
    links = [case_query(TracePanel(situation, a, b).edge_case()) for a, b in ends]
    pages = [local_page(browser, watched=False)[0] for _ in ends]
    for page in pages:
        page.add_init_script(NOTE_WHEN_LINKED)
    started = time.time()
    for page, link, url in zip(pages, links, urls, strict=True):
        page.goto(f"{url}/voila/render/{TOUR}?{link}", wait_until="commit")
    times: dict[int, float] = {}
    while len(times) < len(pages) and time.time() - started < PATIENCE / 1000:
        for i, page in enumerate(pages):
            if i not in times and (linked_at := page.evaluate("window.wbkLinkedAt || 0")):
                times[i] = linked_at / 1000 - started
        time.sleep(0.5)
    wrong = []
    for i, (page, want) in enumerate(zip(pages, ends, strict=True)):
        if i not in times:
            wrong.append(f"reader {i} saw nothing of {want} in {PATIENCE // 1000} s")
            continue
        linked = page.locator(".widget-output .widget-vbox:has(button:has-text('Copy link'))")
        boxes = linked.first.locator("input[type='text']")
        got = tuple(boxes.evaluate_all("boxes => boxes.map(b => b.value)")[:2])
        if got != want:
            wrong.append(f"reader {i} wanted {want}, saw {got}")
    for page in pages:
        page.context.close()
    return sorted(times.values()), wrong


@pytest.fixture
def links_app(tmp_path_factory):
    with app_server(tmp_path_factory, LINKS) as (url, server):
        wait_for_pools(url, server, 8)
        yield url, server


def test_eight_readers_opening_eight_links_at_once_each_see_their_own(browser, links_app, readers):
    """Ten rounds of a class following eight different links to one chapter at once, each from
    its pool (the machine loaded as it is: benchmarks/RESULTS.md says by what)."""
    url, server = links_app
    rounds, wrong = [], []
    for shift in range(LINK_ROUNDS):
        # the last round's readers gone, the pool full again
        wait_for_pools(url, server, 8, refills_within=LINKS.refill_after)
        load = os.getloadavg()[0]
        times, failed = link_crowd(browser, [readers.url(url) for _ in range(8)], shift)
        wrong += [f"round {shift + 1}: {w}" for w in failed]
        rounds.append({"load": load, "seconds": times})
        print(
            f"round {shift + 1} (load {load:.1f}): links shown after "
            + ", ".join(f"{t:.1f}" for t in times)
            + " s"
            + (f"; {len(failed)} wrong" if failed else "")
        )
    record("link_crowd", {"rounds": rounds, "wrong": wrong})
    assert wrong == [], "\n".join(wrong)


# --- readers who find a chapter's pool empty ----------------------------------------------------

#: The app as the README starts it for a class (``--pool-of streets_of_stalingrad.ipynb=8
#: --refill-after 120``): one kernel ready for each other chapter, refilled two minutes after
#: its reader took it.
README_CLASS = AppSettings(pool=1, pools={"streets_of_stalingrad.ipynb": 8}, refill_after=120)


@pytest.fixture
def readme_class_app(tmp_path_factory):
    with app_server(tmp_path_factory, README_CLASS) as (url, server):
        wait_for_pools(url, server, len(NOTEBOOKS) - 1 + 8)
        yield url, server


def test_a_reader_who_finds_the_pool_empty_is_not_kept_waiting_for_its_refill(
    browser, readme_class_app, readers
):
    """Three readers of each chapter, one after another: the first gets the pool's kernel, the
    second and third (the pool empty, its refill two minutes away) a kernel started for them at
    once, as Voila starts one without a pool. Each: the seconds to the page's first byte and
    to its panels drawn."""
    url, _ = readme_class_app
    figures = {}
    for nb in NOTEBOOKS:
        times, pages = [], []
        for _ in range(3):  # each reader's tab stays open: their kernel is theirs
            page, _ = local_page(browser, watched=False)
            pages.append(page)
            reader = readers.url(url)
            started = time.monotonic()
            page.goto(f"{reader}/voila/render/{nb.name}", wait_until="commit")
            first_byte = time.monotonic() - started
            page.wait_for_function(PANELS_DRAWN, timeout=PATIENCE, polling=250)
            times.append((first_byte, time.monotonic() - started))
        figures[nb.name] = times
        for page in pages:
            page.context.close()
        print(
            f"{nb.name} (load {os.getloadavg()[0]:.1f}): "
            + "; ".join(
                f"reader {i + 1} first byte {b:.1f} s, panels {p:.1f} s"
                for i, (b, p) in enumerate(times)
            )
        )
    record("empty_pool", figures)
    late = [
        f"{name} reader {i + 1}: first byte after {b:.0f} s"
        for name, times in figures.items()
        for i, (b, _) in enumerate(times)
        if b >= README_CLASS.refill_after
    ]
    assert late == [], "a reader waited for the pool's refill: " + "; ".join(late)
