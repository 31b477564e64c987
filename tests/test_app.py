"""The app (`make app`): Voila serving the chapters from pools of kernels that ran them already,
under an index of chapter titles; saving downloads to the reader; a link carries a situation;
kernels of readers who left are shut down. Seen in headless Chromium.

How fast a chapter opens, how readers' kernels are culled and how a crowd of eight is served are
measured by ``make bench`` (tests/bench_app.py), never in a pass/fail test: the machine is shared.
"""

import asyncio
import base64
import contextlib
import datetime
import json
import os
import re
import signal
import subprocess
import time
import types
import urllib.request
from importlib import import_module
from pathlib import Path

import nbformat
import pytest
from browser_support import free_port
from jupyter_server._tz import utcnow
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager

from wbk.appserver import ReaderKernelManager
from wbk.appsettings import AppSettings
from wbk.cli import main
from wbk.draw import edge_case_in_png
from wbk.games import chapters, games
from wbk.maps import HexMap, example_map
from wbk.publish import app_command, chapter_of, for_the_app
from wbk.widgets import TracePanel, paint_ahead
from wbk.widgets.app import case_from_query, case_query, file_name, linked_situation, serve

ROOT = Path(__file__).parent.parent

NOTEBOOKS = chapters()
FIGURES = ROOT / "build" / "app-figures.json"
LONGEST = "ss_panzer.ipynb"  # the chapter with the most panels and the longest run
TOUR, SECOND = "00_hex_basics.ipynb", "01_reading_distributions.ipynb"
#: The app with a kernel ready for each page these tests open (four of the tour) and no
#: refills while they run: the other chapters are served as Voila serves a chapter with no pool.
#: How fast chapters open from their pools, refills, culling and a class of eight at once are
#: measured by ``make bench`` (tests/bench_app.py), never in a pass/fail test.
#: Every page comes from 127.0.0.1 here: one address's share of kernels is tried in
#: tests/test_appserver.py.
SETTINGS = AppSettings(pool=0, pools={TOUR: 4}, refill_after=3600, kernels_per_address=0)
POOLED = 4
#: Every ipympl canvas of the page painted (some pixel not transparent): its panels are drawn.
#: Each canvas is looked at shrunk to 16 x 16 pixels: reading a whole canvas's pixels on every
#: poll costs the browser more than the page it measures, when eight pages are polled at once.
PANELS_DRAWN = """() => {
  const canvases = [
    ...document.querySelectorAll('.jupyter-matplotlib-canvas-div canvas:first-child')
  ];
  const probe = document.createElement('canvas');
  probe.width = probe.height = 16;
  const small = probe.getContext('2d', {willReadFrequently: true});
  const painted = canvases.filter(c => {
    if (!c.width || !c.height) return false;
    small.clearRect(0, 0, 16, 16);
    small.drawImage(c, 0, 0, 16, 16);
    const pixels = small.getImageData(0, 0, 16, 16).data;
    for (let i = 3; i < pixels.length; i += 4) if (pixels[i]) return true;
    return false;
  });
  return canvases.length > 0 && painted.length === canvases.length
    && document.querySelector('#rendered_cells')?.style.display !== 'none';
}"""


def record(key: str, value) -> None:
    """Keep a measured figure in build/app-figures.json, with the machine's load."""
    figures = json.loads(FIGURES.read_text()) if FIGURES.exists() else {}
    figures[key] = {"value": value, "load": os.getloadavg()[0], "at": time.strftime("%H:%M")}
    FIGURES.parent.mkdir(parents=True, exist_ok=True)
    FIGURES.write_text(json.dumps(figures, indent=1))


# --- without a browser ------------------------------------------------------------------------


def test_the_index_names_each_chapter_by_its_title_and_first_sentence():
    chapters = {p.name: chapter_of(p, nbformat.read(p, as_version=4)) for p in NOTEBOOKS}
    ss = chapters["ss_panzer.ipynb"]
    assert ss.title == "SS Panzer: slope line of sight, movement costs, fire dice and victory"
    assert ss.summary.startswith("SS Panzer (Command Magazine #36) is a game")
    assert all(c.summary.endswith((".", "?", "!")) for c in chapters.values())


def test_a_chapter_in_the_app_links_its_neighbours_and_has_a_place_for_a_link():
    paths = {p.name: p for p in NOTEBOOKS}
    before, _, after = (
        chapter_of(paths[n], nbformat.read(paths[n], as_version=4))
        for n in ("pz8.ipynb", "ss_panzer.ipynb", "streets_of_stalingrad.ipynb")
    )
    nb = for_the_app(nbformat.read(paths["ss_panzer.ipynb"], as_version=4), before, after)
    assert nb.cells[0].source == (
        f"[← {before.title}](pz8.ipynb) · [All chapters](../../) · "
        f"[{after.title} →](streets_of_stalingrad.ipynb)"
    )
    assert "link_slot()" in nb.cells[1].source and "open_link()" in nb.cells[-1].source
    text = " ".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert "run the whole notebook" not in text and "The panels at the end are live." in text


def test_an_edge_case_travels_in_a_query_string_and_back():
    panel = TracePanel(example_map("ss_panzer_errata_9_4"), "1913", "1716")
    query = case_query(panel.edge_case())
    assert query.startswith("case=") and len(query) < 2000
    assert case_from_query(query + "&theme=light") == panel.edge_case()
    with pytest.raises(Exception, match="not a situation wbk wrote"):
        case_from_query(query[:-7])


def test_ahead_of_its_reader_a_panel_canvas_holds_its_picture_as_an_image():
    panel = TracePanel(example_map("ss_panzer_errata_9_4"), "1913", "1716")
    canvas = panel.figure.canvas
    paint_ahead()
    head, png = canvas._data_url.split(",", 1)
    assert head == "data:image/png;base64"
    width, height = canvas._size
    assert width > 300 and height > 300
    png = base64.b64decode(png)
    assert png.startswith(b"\x89PNG")
    assert int.from_bytes(png[16:20], "big") == width  # the PNG's own size, in pixels
    assert int.from_bytes(png[20:24], "big") == height


def test_a_link_shows_its_situation_and_a_bad_link_says_why_in_one_line():
    panel = TracePanel(example_map("ss_panzer_errata_9_4"), "1913", "1716")
    heading, shown = linked_situation(case_query(panel.edge_case()))
    assert heading.value == "<h2>The situation from your link</h2>"
    assert shown.edge_case() == panel.edge_case()
    [why] = linked_situation("case=abc")
    assert "shows nothing:</b> the link&#x27;s case= is not a situation wbk wrote" in why.value
    assert linked_situation("theme=light") == []


def test_a_pooled_kernel_shows_the_link_its_page_hands_over_once_and_a_started_one_at_once(
    monkeypatch,
):
    """A kernel from a pool ran its chapter before its reader came: the page hands it the link's
    case= through link_slot's hidden box, and it shows that link's situation (once: the box is
    the page's to send again). A kernel started for its reader knows the link as it starts."""
    from voila.utils import ENV_VARIABLE

    from wbk.widgets import app as app_page

    def shown_models() -> list[str]:
        return [
            o["data"]["application/vnd.jupyter.widget-view+json"]["model_id"]
            for o in app_page._slot.outputs
        ]

    made: list = []  # the parts each link made, as linked_situation returns them
    read = app_page.linked_situation
    monkeypatch.setattr(app_page, "linked_situation", lambda q: made.extend(read(q)) or made[-2:])
    situation = TracePanel(example_map("ss_panzer_errata_9_4"), "1712", "2014").edge_case()
    case = case_query(situation)
    monkeypatch.setenv(ENV_VARIABLE.VOILA_PREHEAT, "True")
    monkeypatch.delenv(ENV_VARIABLE.QUERY_STRING, raising=False)
    app_page.link_slot()
    assert app_page.QUERY_CLASS in app_page._query_box._dom_classes
    app_page.open_link()
    assert shown_models() == []  # no reader yet: nothing waits, nothing shows
    app_page._query_box.value = case
    heading, panel = made
    assert shown_models() == [heading.model_id, panel.widget.model_id]
    assert heading.value == "<h2>The situation from your link</h2>"
    assert panel.edge_case() == situation
    app_page._query_box.value = "case=abc"  # sent again, or by someone else: not read
    assert len(shown_models()) == 2

    monkeypatch.setenv(ENV_VARIABLE.VOILA_PREHEAT, "False")
    monkeypatch.setenv(ENV_VARIABLE.QUERY_STRING, f"token=x&{case}")
    app_page.link_slot()
    app_page.open_link()
    assert shown_models() == [made[2].model_id, made[3].widget.model_id]
    assert made[3].edge_case() == situation


def test_in_the_app_a_panel_saves_to_the_readers_browser_not_the_server(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    panel = TracePanel(example_map("ss_panzer_errata_9_4"), "1913", "1716")
    serve(panel)
    assert panel.picture_path.layout.display == "none"
    panel.save_picture()
    link = panel.app_links.value
    assert 'class="wbk-download" download="trace-1913-1716.png"' in link
    png = base64.b64decode(link.split("base64,", 1)[1].split('"', 1)[0])
    assert png.startswith(b"\x89PNG")
    assert edge_case_in_png(png, "the download") == panel.edge_case()  # as Save picture writes it
    panel.save_edge_case()
    toml = base64.b64decode(panel.app_links.value.split("base64,", 1)[1].split('"', 1)[0])
    assert toml.decode() == panel.edge_case()
    assert file_name(panel, ".toml") == "trace-1913-1716.toml"
    assert list(tmp_path.iterdir()) == []  # nothing written on the server
    copy = [b for b in panel.picture_row.children if getattr(b, "description", "") == "Copy link"]
    copy[0].click()
    href = panel.app_links.value.split('href="?', 1)[1].split('"', 1)[0]
    assert case_from_query(href) == panel.edge_case()


def test_a_pool_for_a_chapter_that_is_not_there_is_refused_in_one_line(capsys):
    with pytest.raises(SystemExit):
        main(["app", "--pool-of", "ss_panzr.ipynb=8"])
    assert "--pool-of 'ss_panzr.ipynb=8': expected CHAPTER=N" in capsys.readouterr().err
    settings = AppSettings(pool=2, pools={LONGEST: 8}).voila_config()
    pools = settings["VoilaKernelManager"]["kernel_pools_config"]
    assert pools == {"default": {"pool_size": 2}, LONGEST: {"pool_size": 8}}
    assert AppSettings(refill_after=120).voila_config()["VoilaKernelManager"]["fill_delay"] == 120
    # a cell's last messages waited for on a busy machine, not dropped after Voila's 4 s
    assert AppSettings().voila_config()["VoilaExecutor"]["iopub_timeout"] >= 60


def test_a_reader_is_served_from_the_pool_only_by_a_kernel_ready_in_it():
    """Voila counts a refill still waiting out its delay as a kernel in the pool; the app serves
    a reader from the pool only when a kernel in it has run the chapter (issue 31: a reader who
    found the pool empty waited 101 s for the refill timer)."""

    async def check():
        manager = ReaderKernelManager()
        refilled: list[str] = []
        manager.fill_if_needed = lambda notebook_name: refilled.append(notebook_name)
        waiting = asyncio.get_running_loop().create_future()  # a refill, its delay still running
        ready = asyncio.get_running_loop().create_future()
        ready.set_result({"kernel_id": "k1"})
        failed = asyncio.get_running_loop().create_future()
        failed.set_exception(TimeoutError("Kernel never reached an 'alive' state."))
        manager._pools = {TOUR: [waiting], SECOND: [failed, waiting, ready]}
        assert manager.ready_kernel(TOUR) is None  # a kernel is started for the reader
        assert manager.ready_kernel(SECOND) == "k1"
        assert manager._pools[SECOND] == [ready, waiting]  # the ready one first: Voila's pick
        assert refilled == [SECOND]  # the failed refill left the pool, and is made again
        assert manager.ready_kernel(LONGEST) is None
        waiting.cancel()

    asyncio.run(check())


def test_a_readers_kernel_is_spared_until_their_page_has_connected_for_a_minute(monkeypatch):
    """On a busy machine a page takes many seconds to connect to the kernel it was handed; a
    cull meanwhile left the reader with a chapter that never showed its link (issue 31). A
    page that never connects (a script's fetch) holds its kernel a minute, not ten (issue 38);
    a kernel still running its chapter for the page is spared however long that takes."""
    culled, shut = [], []

    async def cull(self, kernel_id):
        culled.append(kernel_id)

    async def shut_down(self, kernel_id, *args, **kwargs):
        shut.append(kernel_id)

    monkeypatch.setattr(AsyncMappingKernelManager, "cull_kernel_if_idle", cull)
    monkeypatch.setattr(ReaderKernelManager, "shutdown_kernel", shut_down, raising=False)
    manager = ReaderKernelManager(connect_within=60)
    long_ago = utcnow() - datetime.timedelta(hours=3)  # it ran its chapter in a pool, hours ago
    manager._kernels = {
        k: types.SimpleNamespace(last_activity=long_ago, execution_state="idle") for k in "kjbw"
    }
    manager._kernel_connections = dict.fromkeys("kjbw", 0)
    for kernel_id in "kjbw":
        manager.hand(kernel_id, "127.0.0.1")
    for kernel_id in "kjbw":
        asyncio.run(manager.cull_kernel_if_idle(kernel_id))
    assert culled == shut == []  # just handed: every one spared
    manager.notify_connect("j")  # the page came: from now on its idle time counts
    assert manager._kernels["j"].last_activity > long_ago
    manager._kernels["b"].execution_state = "busy"  # running its chapter for its reader
    manager._kernels["w"].last_activity = utcnow()  # it sent its page a cell's outputs just now
    for kernel_id in "kjbw":
        manager._handed_at[kernel_id] -= 61  # a minute on
        asyncio.run(manager.cull_kernel_if_idle(kernel_id))
    assert shut == ["k"] and culled == ["j"]


# --- the app in a browser ---------------------------------------------------------------------


#: Each started app's log (its standard output and error), by the server's process id.
LOGS: dict[int, Path] = {}


@contextlib.contextmanager
def app_server(tmp_path_factory, settings: AppSettings):
    """The app on 127.0.0.1 with ``settings``, its HOME a temporary folder; yields its URL and
    its process. Always stopped with all its kernels."""
    port = free_port()
    work = tmp_path_factory.mktemp("app")
    command, env = app_command(NOTEBOOKS, port=port, work=work, settings=settings)
    env["HOME"] = str(tmp_path_factory.mktemp("home"))
    log = (work / "app.log").open("wb")
    server = subprocess.Popen(
        command,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    LOGS[server.pid] = work / "app.log"
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(url, timeout=2)
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    pytest.fail("the app did not start within 60 s", pytrace=False)
                time.sleep(0.5)
        yield url, server
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
        log.close()


def kernels(server) -> list[int]:
    """The process ids of the app's kernels (its child processes)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == server.pid:
            found.append(int(stat.parent.name))
    return found


def memory_mb(pids: list[int]) -> list[float]:
    sizes = []
    for pid in pids:
        with contextlib.suppress(OSError):
            status = Path(f"/proc/{pid}/status").read_text()
            sizes.append(int(status.split("VmRSS:")[1].split()[0]) / 1024)
    return sizes


#: Seconds beyond a pool's refill timer for the refill's kernel to appear on a loaded machine.
REFILL_LATE = 5


def wait_for_pools(url: str, server, pools: int, *, refills_within: float = 0) -> None:
    """Until the app holds just its pools (the kernels of readers gone are culled), each having
    run its chapter: Voila says nothing we can read, so wait for the kernels' processes to be
    quiet (each chapter run to its end). Where readers have just taken kernels, a pool's refill
    starts only ``refills_within`` seconds later (the app's ``refill_after``): until then a pool
    short of its refill beside a reader's kernel not yet culled counts as many, so the count
    must also hold that long."""
    deadline = time.monotonic() + PATIENCE / 1000
    hold = refills_within + REFILL_LATE if refills_within else 0
    held_since, quiet = None, 0
    while time.monotonic() < deadline:
        if len(kernels(server)) != pools:
            held_since, quiet = None, 0
            time.sleep(1)
            continue
        held_since = held_since or time.monotonic()
        busy = sum(_cpu_ticks(pid) for pid in kernels(server))
        time.sleep(1)
        quiet = quiet + 1 if sum(_cpu_ticks(pid) for pid in kernels(server)) - busy < 5 else 0
        if quiet >= 3 and time.monotonic() - held_since >= hold:
            return
    pytest.fail(
        f"waited {PATIENCE // 1000} s (load {os.getloadavg()[0]:.1f}) for the app to hold "
        f"just its {pools} pooled kernels, each having run its chapter, for {hold:.0f} s: "
        f"it holds {len(kernels(server))}, {'quiet' if quiet else 'still busy'}",
        pytrace=False,
    )


def _cpu_ticks(pid: int) -> int:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int(fields[11]) + int(fields[12])


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    with app_server(tmp_path_factory, SETTINGS) as (url, server):
        wait_for_pools(url, server, POOLED)
        yield url, server


#: How long a step may take on this shared machine before the test gives up (not a target: the
#: times are measured and printed; a machine at load 30 needs minutes).
PATIENCE = 300_000
_contexts: list = []


@pytest.fixture(autouse=True)
def _close_pages():
    """Every reader's tab closed after each test, passed or failed, so that its kernel goes."""
    yield
    while _contexts:
        with contextlib.suppress(Exception):
            _contexts.pop().close()


def local_page(browser, *, watched: bool = True, **options):
    """A reader's page in a browser context of its own, and the list of the addresses outside
    127.0.0.1 it asked for (refused). Unless ``watched``, its requests go straight to the
    server, none through the test: a crowd's pages are timed as readers' browsers load them
    (each request stopped and let go by the test costs the machine more than the server)."""
    context = browser.new_context(viewport={"width": 1300, "height": 1000}, **options)
    _contexts.append(context)
    page = context.new_page()
    # every step may take minutes on a busy machine (a page's first byte: a chapter's whole run)
    page.set_default_navigation_timeout(PATIENCE)
    page.set_default_timeout(PATIENCE)
    outside: list[str] = []
    if not watched:
        return page, outside

    def only_local(route):
        if route.request.url.startswith("http://127.0.0.1"):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    page.route("**/*", only_local)
    return page, outside


def seen(locator, what: str):
    """``locator``, once it is on show; if it does not come within ``PATIENCE``, the test fails
    saying what it waited for (and the machine's load)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        locator.first.wait_for(timeout=PATIENCE)
    except PlaywrightTimeout:
        pytest.fail(_never(what), pytrace=False)
    return locator.first


def _never(what: str) -> str:
    return f"waited {PATIENCE // 1000} s (load {os.getloadavg()[0]:.1f}) for {what}: never came"


def drawn(page, what: str) -> None:
    """Wait until every panel of ``page`` is drawn (``PANELS_DRAWN``), or fail saying so."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    try:
        page.wait_for_function(PANELS_DRAWN, timeout=PATIENCE, polling=250)
    except PlaywrightTimeout:
        pytest.fail(_never(f"every panel of {what} drawn"), pytrace=False)


def open_chapter(page, url: str, name: str, query: str = "") -> float:
    """Open a chapter; the seconds until all its panels are drawn."""
    started = time.monotonic()
    page.goto(f"{url}/voila/render/{name}{query}", wait_until="commit")
    drawn(page, name)
    return time.monotonic() - started


def test_the_index_lists_chapter_titles_and_chapters_link_to_each_other(browser, app):
    url, _ = app
    page, outside = local_page(browser)
    page.goto(url)
    titles = {p.name: chapter_of(p, nbformat.read(p, as_version=4)) for p in NOTEBOOKS}
    for chapter in titles.values():
        link = page.get_by_role("link", name=chapter.title, exact=True)
        assert link.get_attribute("href") == f"/voila/render/{chapter.name}"
        assert page.get_by_text(chapter.summary, exact=True).count() == 1
    assert page.get_by_text(".ipynb").count() == 0
    page.get_by_role("link", name=titles[TOUR].title).click()
    page.wait_for_url(f"**/voila/render/{TOUR}", wait_until="commit")
    following = seen(
        page.get_by_role("link", name=f"{titles[SECOND].title} →"), "the link to the next chapter"
    )
    # where the link leads, as the browser resolves it (opening it would run one more chapter)
    assert following.evaluate("a => a.href") == f"{url}/voila/render/{SECOND}"
    page.get_by_role("link", name="All chapters").first.click(timeout=PATIENCE)
    page.wait_for_url(f"{url}/", wait_until="commit")
    assert outside == []
    page.context.close()


def test_the_apps_log_has_no_noise_for_a_teacher_to_read(browser, app):
    """Issue 40: a traitlets DeprecationWarning at the start, "Notebook ... is not trusted" for
    every chapter a page or a pool opened, "Kernel is running over TCP without encryption" for
    every kernel."""
    url, server = app
    page, _ = local_page(browser)
    open_chapter(page, url, SECOND)  # a chapter with no pool: opened for its page
    page.context.close()
    log = LOGS[server.pid].read_text("utf-8", errors="replace")
    assert "Kernel started" in log  # the log is the app's own
    for noise in ("DeprecationWarning", "is not trusted", "without encryption"):
        assert noise not in log


#: Words a panel shows once for each of several things: the Pz 8 duel's two tanks each have a
#: gun and a crew ("first tank", "its gun", "its crew"; "second tank", "its gun", "its crew").
SHOWN_FOR_EACH = {"label “its gun”": 2, "label “its crew”": 2}
#: For every panel of the page (a cell's output of widgets), each control's words it shows on
#: screen more often than ``allowed`` (once, unless named there): a description or a
#: checkbox's label, or a button's.
CONTROLS_TWICE = """(allowed) => {
  const twice = [];
  document.querySelectorAll('.jp-OutputArea-output').forEach((panel, i) => {
    const seen = new Map();
    const shown = '.widget-label, .widget-label-basic, button.jupyter-button';
    for (const control of panel.querySelectorAll(shown)) {
      const words = control.textContent.replace(/\u200b/g, '').trim();  // a spacer has none
      if (!words || !control.offsetParent) continue;  // no words, or not on show
      const key = `${control.tagName === 'BUTTON' ? 'button' : 'label'} “${words}”`;
      seen.set(key, (seen.get(key) || 0) + 1);
    }
    for (const [key, n] of seen) {
      if (n > (allowed[key] || 1)) twice.push(`output ${i}: ${key} ${n} times`);
    }
  });
  return twice;
}"""


def test_every_panel_of_every_chapter_shows_each_control_once(browser, app):
    """Issue 40: Blitz's fire calculator and hits-rolled panel showed every control twice, both
    live; a chapter's page in the app, every panel drawn, shows each control's words once."""
    url, _ = app
    page, _ = local_page(browser)
    for chapter in NOTEBOOKS:
        seconds = open_chapter(page, url, chapter.name)
        record(f"controls once: {chapter.name}", round(seconds, 1))
        assert page.evaluate(CONTROLS_TWICE, SHOWN_FOR_EACH) == [], chapter.name
    page.context.close()


def test_saving_in_the_app_downloads_and_a_copied_link_opens_the_same_situation(browser, app):
    url, _ = app
    page, outside = local_page(browser, permissions=["clipboard-read", "clipboard-write"])
    open_chapter(page, url, TOUR)
    panel = page.locator(".widget-vbox:has(button:has-text('Copy link'))").first
    boxes = panel.locator("input[type='text']")
    boxes.nth(0).fill("1712")
    boxes.nth(0).press("Enter")
    boxes.nth(1).fill("2014")
    boxes.nth(1).press("Enter")
    seen(panel.locator(".widget-html b, .widget-html", has_text="2014"), "the trace to 2014")
    with page.expect_download(timeout=PATIENCE) as download:
        panel.locator("button:has-text('Save picture')").click()
    assert download.value.suggested_filename.endswith(".png")
    assert Path(download.value.path()).read_bytes().startswith(b"\x89PNG")
    with page.expect_download(timeout=PATIENCE) as download:
        panel.locator("button:has-text('Save edge case')").click()
    saved = Path(download.value.path()).read_text()
    assert '"1712"' in saved and '"2014"' in saved
    panel.locator("button:has-text('Copy link')").click()
    seen(panel.get_by_text("(copied)"), 'the link said "(copied)"')
    link = page.evaluate("navigator.clipboard.readText()")
    assert link.startswith(f"{url}/voila/render/{TOUR}?case=")
    assert case_from_query(link.split("?", 1)[1]) == saved
    # the link, opened: the chapter with the situation at the top
    other, _ = local_page(browser)
    other.goto(link, wait_until="commit")
    seen(other.get_by_text("The situation from your link"), "the situation from the copied link")
    linked = other.locator(".widget-output .widget-vbox:has(button:has-text('Copy link'))").first
    values = linked.locator("input[type='text']").evaluate_all("boxes => boxes.map(b => b.value)")
    assert values[:2] == ["1712", "2014"]
    assert outside == []
    for p in (page, other):
        p.context.close()


def test_a_link_to_a_chapter_without_a_pool_opens_its_situation(browser, app):
    """A kernel started for its reader (no pool for the chapter) knows the page's link as it
    starts; one from a pool is handed it by the page (the test above). Either way the link's
    situation shows, with the chapter's own panels under it."""
    url, _ = app
    page, outside = local_page(browser)
    case = TracePanel(example_map("ss_panzer_errata_9_4"), "1208", "1818").edge_case()
    page.goto(f"{url}/voila/render/{SECOND}?{case_query(case)}", wait_until="commit")
    seen(
        page.get_by_text("The situation from your link"),
        f"the situation a link to {SECOND} carries",
    )
    linked = page.locator(".widget-output .widget-vbox:has(button:has-text('Copy link'))").first
    values = linked.locator("input[type='text']").evaluate_all("boxes => boxes.map(b => b.value)")
    assert values[:2] == ["1208", "1818"]
    drawn(page, f"{SECOND} under its link")
    assert outside == []
    page.context.close()


def test_a_link_carrying_script_shows_it_as_text_and_runs_nothing(browser, app):
    """Issue 27's attempt: script in a link's situation, where the page repeats what was wrong
    with it. The reader reads the script as text; no element of it is made, nothing runs."""
    url, _ = app
    page, outside = local_page(browser)
    dialogs: list[str] = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    script = "<img src=x onerror=alert(1)>"
    case = TracePanel(example_map("ss_panzer_errata_9_4"), "1712", "2014").edge_case()
    case = case.replace("ghost = false", f'ghost = "{script}"')
    page.goto(f"{url}/voila/render/{TOUR}?{case_query(case)}", wait_until="commit")
    said = seen(page.get_by_text("This link shows nothing:"), "the line saying why a link fails")
    assert f"ghost: '{script}' is not true or false" in said.locator("..").inner_text()
    drawn(page, f"{TOUR} under a bad link")
    assert page.locator('img[src="x"]').count() == 0 and dialogs == [] and outside == []
    page.context.close()


def test_in_the_app_a_reader_loads_a_crt_from_their_own_computer(browser, app, tmp_path):
    url, _ = app
    mine = tmp_path / "my_crt.toml"
    shipped = next(ROOT.glob("wbk/games/*/crts/illustrative_2d6.toml")).read_text()
    mine.write_text(
        re.sub(r'^name = ".*"$', 'name = "The CRT from my own copy"', shipped, flags=re.M)
    )
    page, outside = local_page(browser)
    open_chapter(page, url, "streets_of_stalingrad.ipynb")
    explorer = page.locator(".widget-vbox:has(.widget-upload)").first
    assert explorer.locator("input[type='text'][placeholder*='path']").count() == 0
    # a dropdown's options keep their spaces unbroken
    choice = "my CRT file".replace(" ", "\xa0")
    explorer.locator("select", has_text=choice).first.select_option(label=choice)
    seen(explorer.get_by_text("no CRT loaded"), 'the CRT explorer saying "no CRT loaded"')
    with page.expect_file_chooser(timeout=PATIENCE) as chooser:
        explorer.locator(".widget-upload", has_text="Load CRT").first.click()
    chooser.value.set_files(str(mine))
    seen(explorer.get_by_text("The CRT from my own copy"), "the uploaded CRT's name")
    # the button keeps its plain label, never ipywidgets' count of files ("Load CRT (0)")
    upload = explorer.locator(".widget-upload").first
    page.wait_for_function("b => b.textContent === 'Load CRT'", arg=upload.element_handle())
    assert outside == []
    page.context.close()


def test_in_the_app_a_teacher_uploads_a_quiz_of_their_own(browser, app, tmp_path):
    """Issue 40: the app's quiz panel could not take the teacher's quiz file. A file with a
    wrong answer is refused in the panel's one line; a right one replaces the questions."""
    url, _ = app
    key, found = next((k, g) for k, g in games().items() if g.shipped_quiz is not None)
    chapter = next(Path(import_module(found.package).__file__).parent.glob("*.ipynb")).name
    first_question = found.shipped_quiz.read_text().split("[[question]]")[1]
    mine = tmp_path / "my_evening.toml"
    mine.write_text(f'game = "{key}"\ntitle = "Our club evening"\n\n[[question]]{first_question}')
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(re.sub(r"^answer = .*$", "answer = 12345", mine.read_text(), flags=re.M))
    page, outside = local_page(browser)
    open_chapter(page, url, chapter)
    quiz = page.locator(".widget-vbox:has(> .widget-hbox .widget-upload:has-text('Load quiz'))")
    upload = seen(quiz.locator(".widget-upload", has_text="Load quiz"), "the quiz's upload")
    for file in (wrong, mine):
        with page.expect_file_chooser(timeout=PATIENCE) as chooser:
            upload.click()
        chooser.value.set_files(str(file))
        if file is wrong:
            said = seen(quiz.get_by_text("wrong.toml: question"), "the wrong quiz refused")
            assert "\n" not in said.inner_text()
    seen(quiz.get_by_text("Our club evening"), "the uploaded quiz's title")
    assert quiz.get_by_text("wrong.toml").count() == 0  # the refusal gave way to the quiz
    assert outside == []
    page.context.close()


def test_in_the_app_the_map_panels_answer_on_the_teachers_uploaded_map(browser, app, tmp_path):
    """Issue 40: the map editor loaded a teacher's map that the line of sight panel never saw.
    Uploaded, handed to the panels with a button, and asked about by typing two hexes."""
    url, _ = app
    mine = tmp_path / "club_map.toml"
    plain = HexMap("Club evening map", (10, 14), (1, 6))
    mine.write_text(plain.with_terrain(plain.hex("1203"), {"woods"}).to_toml())
    page, outside = local_page(browser)
    open_chapter(page, url, LONGEST)
    editor = page.locator(
        ".widget-vbox:has(> .widget-hbox .widget-button:has-text('Use this map'))"
    )
    with page.expect_file_chooser(timeout=PATIENCE) as chooser:
        seen(editor.locator(".widget-upload", has_text="Load map"), "the editor's upload").click()
    chooser.value.set_files(str(mine))
    seen(editor.get_by_text("loaded 'Club evening map'"), "the uploaded map loaded")
    editor.locator(".widget-button", has_text="Use this map in the panels").click()
    seen(editor.get_by_text("'Club evening map' is now the map of the chapter's"), "the handover")
    los = page.locator(
        ".widget-vbox:has(.widget-text:has-text('firer')):has(.widget-text:has-text('target'))"
    ).first
    for box, hexes in (("firer", "1202"), ("target", "1204")):
        typed = los.locator(f".widget-text:has-text('{box}') input")
        typed.fill(hexes)
        typed.press("Enter")
    seen(los.locator(".widget-html b:has-text('blocked by woods in 1203')"), "the verdict")
    assert outside == []
    page.context.close()
