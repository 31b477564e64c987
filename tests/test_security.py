"""A reader is a guest: every door a stranger can open (a link, a posted picture, a swapped data
file, a typed value, the app itself) tried as an attacker would, each a test that makes the same
attempt as issue 27's findings and fails without the fix.

- the server's files: never named, read or written from the app, a link or a picture;
- script: an edge case sets only what its panel declares, and outside text reaches HTML only
  escaped;
- limits before work: map size, units, text length, nesting, unpacked size, picture size;
- saves are atomic, and a failed one is one line.

Who may come in (the token, the Host check, the cap on kernels) is tested against the app
itself at the end of this module; a script in the app's page is tried in Chromium in
tests/test_app.py.
"""

import base64
import datetime
import html
import re
import zlib
from dataclasses import replace

import ipywidgets as widgets
import pytest

from wbk.datafile import DEEPEST, LONGEST_FILE, parse_toml, read_text
from wbk.errors import WbkError
from wbk.maps import LARGEST_MAP, HexMap, example_map
from wbk.widgets import (
    PANELS_ENV,
    TracePanel,
    load_edge_case,
)
from wbk.widgets import panel as panel_module
from wbk.widgets.app import LONGEST_LINK, case_from_query, case_query, linked_situation

M = example_map("ss_panzer_errata_9_4")
#: Script that runs wherever it reaches a page as HTML.
PAYLOAD = "<img src=x onerror=alert(1)>"


def all_widgets(widget: widgets.Widget):
    """A widget and every widget under it."""
    yield widget
    for child in getattr(widget, "children", ()):
        yield from all_widgets(child)


def html_on_the_page(panel) -> list[str]:
    """The HTML a live panel shows: HTML panes and message lines, labels written as HTML."""
    shown = []
    for w in all_widgets(panel.widget):
        if isinstance(w, (widgets.HTML, widgets.HTMLMath)):
            shown.append(w.value)
        if getattr(w, "description_allow_html", False):
            shown.append(w.description)
    return shown


def html_shown(panel) -> list[str]:
    """Every piece of HTML a panel shows: ``html_on_the_page`` and its static snapshot."""
    return [*html_on_the_page(panel), panel.static_html()]


def link(toml: str) -> str:
    return case_query(toml)


def refused(toml: str) -> str:
    """The one line a page shows for a link carrying ``toml`` (as its reader reads it: the
    HTML's escapes undone; it holds no tag but its own)."""
    shown = linked_situation(link(toml))
    assert len(shown) == 1, "the link opened a panel"
    text = shown[0].value
    assert text.startswith("<p><b>This link shows nothing:</b> ") and text.endswith("</p>")
    assert "\n" not in text and "<" not in text[len("<p><b>This link shows nothing:</b> ") : -4]
    return html.unescape(text)


def trace_case(**sections: str) -> str:
    """A trace panel's edge case as "Save edge case" writes it, with ``sections`` put in."""
    text = TracePanel(M, "1712", "2014").edge_case()
    for head, body in sections.items():
        text = text.replace(f"[{head}]\n", f"[{head}]\n{body}\n", 1)
    return text


# --- the server's files ------------------------------------------------------------------------


@pytest.fixture
def app_mode(monkeypatch, tmp_path):
    """The panels as the app makes them, the server's home a folder the test watches."""
    monkeypatch.setenv(PANELS_ENV, "app")
    home = tmp_path / "server-home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    return home


def upload(control: widgets.FileUpload, name: str, data: bytes) -> None:
    """What a browser sends when its reader picks a file (ipywidgets 8's FileUpload value)."""
    control.value = (
        {
            "name": name,
            "type": "",
            "size": len(data),
            "content": memoryview(data),
            "last_modified": datetime.datetime.now(datetime.UTC),
        },
    )


def test_a_data_file_names_only_files_in_its_own_folder(tmp_path):
    secret = tmp_path / "secret.toml"
    secret.write_text(M.to_toml())
    folder = tmp_path / "shared"
    folder.mkdir()
    (folder / "link.toml").symlink_to(secret)
    quiz = 'game = "ss_panzer"\ntitle = "q"\n[[question]]\nid = "q"\nkind = "sees"\n'
    quiz += 'rule = "SS Panzer errata 9.4"\nask = "?"\n'
    quiz += 'map = "../secret.toml"\nfirer = "1712"\ntarget = "2014"\nanswer = true\n'
    from wbk import quiz as quizzes

    with pytest.raises(WbkError, match="in the same folder"):
        quizzes.from_toml(quiz, folder=folder)


def test_a_device_a_pipe_or_a_folder_is_not_read_as_a_data_file(tmp_path):
    import os

    os.mkfifo(tmp_path / "pipe.toml")
    for path in ("/dev/zero", tmp_path / "pipe.toml", tmp_path):
        with pytest.raises(WbkError, match=r"not a plain file .*: cannot read the map"):
            HexMap.load(path)


# --- script: a case sets only what its panel declares; outside text is escaped ----------------


def test_a_case_sets_only_the_settings_its_panel_declares():
    for setting in ("pane", "message", "picture_path", "ghost_outlines", "map", "canvas"):
        text = refused(trace_case(settings=f'{setting} = "{PAYLOAD}"'))
        assert f"[settings] {setting}: the panel has no such setting" in text
    # a declared setting takes only what its control takes
    bad = trace_case().replace("ghost = false", 'ghost = "yes"')
    assert "ghost: 'yes' is not true or false" in refused(bad)


@pytest.mark.parametrize(
    "kind",
    ["os.system", "wbk.app.serve", "wbk.Panel", "wbk.MapPanel", "wbk.__class__", "nogame.Panel"],
)
def test_a_case_names_only_a_registered_kind_of_panel(kind):
    case = trace_case()
    named = re.search(r'^panel = "(.*)"$', case, re.M)
    assert named, case
    assert "is not one of wbk's panels with edge cases" in refused(
        case.replace(named.group(0), f"panel = {kind!r}")
    )


def hostile_map() -> HexMap:
    first = next(iter(M))
    return replace(
        M,
        name=PAYLOAD,
        terrain_hexes={**M.terrain_hexes, PAYLOAD: frozenset([first])},
        marker_hexes={**M.marker_hexes, "star": frozenset([first])},
    )


def hostile_panels():
    """Every kind of panel, its data full of script where a stranger's file may put text."""
    m = hostile_map()
    made = {
        "trace": TracePanel(m, "1712", "2014"),
    }
    return made


def shows_only_escaped(panels: dict) -> None:
    """A stranger's text (``PAYLOAD``, from a file or a link) reaches the HTML of each of
    ``panels`` (by name) only escaped."""
    for name, panel in panels.items():
        shown = html_shown(panel)
        assert not any(PAYLOAD in h for h in shown), name
        assert not any("<img src=x" in h for h in shown), name


def answers_long_pastes_in_one_line(panels: dict) -> None:
    """Every text box of each of ``panels`` (by name), given 300,000 characters, answers or
    says what is wrong in one line; a stranger's text typed in it shows only escaped."""
    for name, panel in panels.items():
        for box in [w for w in all_widgets(panel.widget) if isinstance(w, widgets.Text)]:
            box.value = "1, " * 100_000
            for shown in html_on_the_page(panel):
                assert len(shown) < 20_000, (name, box.description)
            box.value = PAYLOAD
            assert not any(PAYLOAD in h for h in html_shown(panel)), (name, box.description)


def test_text_from_a_strangers_file_reaches_html_only_escaped():
    shows_only_escaped(hostile_panels())


def test_a_quiz_file_reaches_html_only_escaped():
    from wbk import quiz as quizzes
    from wbk.widgets.quiz import QuizPanel

    text = (
        f'game = "ss_panzer"\ntitle = "{PAYLOAD}"\n[[question]]\nid = "q"\nkind = "sees"\n'
        f'rule = "{PAYLOAD}"\nask = "{PAYLOAD}"\nfirer = "1712"\ntarget = "2014"\nanswer = false\n'
    )
    panel = QuizPanel(quizzes.from_toml(text))
    for w in all_widgets(panel.widget):
        if isinstance(w, widgets.HTML):
            assert PAYLOAD not in w.value
    assert PAYLOAD not in panel.static_html()


# --- limits before work -------------------------------------------------------------------------


def test_a_link_to_a_map_of_a_million_hexes_is_refused_before_it_is_built():
    case = trace_case().replace("columns = [12, 24]", "columns = [0, 999]", 1)
    case = case.replace("rows = [8, 18]", "rows = [0, 999]", 1)
    assert len(link(case)) < 2_000
    assert "1,000 x 1,000 hexes is larger than wbk takes (5,000 hexes at most" in refused(case)
    with pytest.raises(WbkError, match="larger than wbk takes"):
        HexMap("vast", (1, 80), (1, 63))
    assert len(HexMap("largest", (1, 100), (1, 50))) == LARGEST_MAP


def test_deep_nesting_is_refused_in_one_line():
    deep = "x = " + "[" * 1000 + "]" * 1000
    assert f"nested deeper than wbk reads ({DEEPEST} levels at most)" in refused(
        trace_case(settings=deep)
    )
    dotted = "x" + ".x" * 3000 + " = 1"
    assert "nested deeper" in refused(trace_case(settings=dotted))
    with pytest.raises(WbkError, match="nested deeper"):
        parse_toml("a = " + "[" * 9 + "]" * 9, "nine")
    assert parse_toml("a = " + "[" * 7 + "]" * 7, "seven")


def test_a_number_of_a_million_digits_is_one_line():
    """Issue 38: a 900,000-digit integer in a link's case reached the page as Python's own
    ValueError ("unexpected ValueError: Exceeds the limit (4300 digits)...")."""
    case = trace_case(settings="x = " + "9" * 900_000)
    assert len(link(case)) < LONGEST_LINK  # as short as a link wbk makes
    assert "the link: a number longer than wbk reads (4,300 digits at most)</p>" in refused(case)


def test_a_link_longer_than_any_wbk_makes_is_refused_unread():
    with pytest.raises(WbkError, match="longer than any link wbk makes"):
        case_from_query("case=" + "A" * 60_000)
    # a short link that unpacks to megabytes: refused once it passes the limit
    bomb = base64.urlsafe_b64encode(zlib.compress(b"#" * 10_000_000, 9)).decode().rstrip("=")
    assert len(bomb) < LONGEST_LINK
    with pytest.raises(WbkError, match="unpacks to more than wbk reads"):
        case_from_query(f"case={bomb}")


@pytest.mark.parametrize(
    "handed, said",
    [
        ("case=" + "A" * 1_000_000, "the link is 1,000,005 characters long"),
        ("case=<script>alert(1)</script>", "This link shows nothing"),
    ],
    ids=["huge", "markup"],
)
def test_what_a_page_hands_a_pool_kernel_is_read_as_any_link(handed, said, monkeypatch):
    """A pool kernel learns its reader's link from the page (link_slot's hidden box), which a
    stranger's script can fill with anything: a huge value is refused unread, markup shown as
    text, in one line."""
    from voila.utils import ENV_VARIABLE

    import wbk.widgets
    from wbk.widgets import app as app_page

    made: list = []
    read = app_page.linked_situation
    monkeypatch.setattr(app_page, "linked_situation", lambda q: made.extend(read(q)) or made)
    # open_link paints every live canvas ahead (tests/test_app.py); here those are the panels
    # the module's other tests left alive: 20 s a case, for a test of the hidden box
    monkeypatch.setattr(wbk.widgets, "paint_ahead", lambda: None)
    monkeypatch.setenv(ENV_VARIABLE.VOILA_PREHEAT, "True")
    app_page.link_slot()
    app_page.open_link()
    app_page._query_box.value = handed
    (line,) = made
    assert len(app_page._slot.outputs) == 1 and said in html.unescape(line.value)
    assert "<script>" not in line.value and "\n" not in line.value


def test_a_data_file_too_large_is_refused_before_it_is_parsed(tmp_path):
    big = tmp_path / "big.toml"
    big.write_text("#" * (LONGEST_FILE + 1))
    with pytest.raises(WbkError, match=r"larger than wbk reads \(1,000,000 bytes at most\)"):
        read_text(big, "map")
    with pytest.raises(WbkError, match="more than wbk reads"):
        parse_toml("#" * (LONGEST_FILE + 1), "text")


def test_a_huge_picture_gives_its_edge_case_without_a_pixel_decoded(tmp_path, monkeypatch):
    from PIL import Image, PngImagePlugin

    from wbk.draw.pictures import EDGE_CASE_KEY, LARGEST_PICTURE, read_edge_case

    info = PngImagePlugin.PngInfo()
    info.add_text(EDGE_CASE_KEY, trace_case())
    picture = tmp_path / "huge.png"
    Image.new("1", (10_000, 10_000)).save(picture, pnginfo=info, optimize=True)
    assert picture.stat().st_size < 100_000

    def no_decoding(*args, **kwargs):
        raise AssertionError("a pixel was decoded")

    monkeypatch.setattr(Image, "open", no_decoding)
    assert load_edge_case(picture).boxes["from"].value == "1712"
    big = tmp_path / "big.png"
    big.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * LARGEST_PICTURE)
    with pytest.raises(WbkError, match="larger than wbk reads"):
        read_edge_case(big)


def test_names_a_stranger_writes_are_short():
    with pytest.raises(WbkError, match=r"map name .* characters long: wbk takes 80 at most"):
        replace(M, name="x " * 1000)
    from wbk.draw.view import fit_title

    lines, _ = fit_title("word " * 100_000, 432)  # a title's cost does not grow with its text
    assert len(lines) == 2 and lines[1].endswith(" …")


def test_a_case_whose_hexes_are_not_the_panels_is_one_line():
    case = trace_case().replace('to = "2014"\n', "")
    assert "[hexes]: from (the panel takes 2 hexes)" in refused(case)
    case = trace_case().replace('to = "2014"', 'to = "' + "9" * 25_000 + '"')
    assert "characters is longer than a box takes" in refused(case)


def test_the_typed_boxes_answer_a_long_paste_in_one_line(monkeypatch):
    """Every text box of the shared panels, given 300,000 characters: an answer or one line
    (each game's panels in its own test module)."""
    # the snapshots' words are what is looked at here; their pictures are drawn (a long text
    # must not break a drawing) at a tenth of the pixels: 180 dpi cost a third of this test
    monkeypatch.setattr(panel_module, "STATIC_DPI", 18)
    answers_long_pastes_in_one_line(hostile_panels())


def test_a_map_of_many_kinds_a_crt_of_many_columns_a_crowd_of_units_are_refused_unread():
    """The attacker's review (issue 27): short links whose data cost seconds to draw."""
    kinds = "".join(f'k{i} = ["1712"]\n' for i in range(1000))
    case = trace_case().replace("[terrain]\n", f"[terrain]\n{kinds}", 1)
    assert "[terrain]: 1,003 kinds is more than wbk takes (24)" in refused(case)


def test_a_table_of_many_corners_or_pieces_is_refused_unread():
    import math

    from wbk.table import MOST_POINTS, Table

    ring = [[24 + 10 * math.cos(a / 100), 24 + 10 * math.sin(a / 100)] for a in range(628)]
    text = f'name = "t"\nsize = [48, 48]\n[[terrain]]\nkind = "obstacle"\npoints = {ring}\n'
    with pytest.raises(WbkError, match=f"628 points is more than wbk takes .*{MOST_POINTS}"):
        Table.from_toml(text)
    crumbs = "".join(
        f'[[terrain]]\nkind = "rough"\npoints = [[{x}, 1], [{x + 0.1}, 1], [{x}, 1.1]]\n'
        for x in range(1, 46)
        for _ in range(5)
    )
    with pytest.raises(WbkError, match="terrain: 225 pieces is more than wbk takes"):
        Table.from_toml(f'name = "t"\nsize = [48, 48]\n{crumbs}')


def test_a_name_set_as_maths_is_refused_and_any_error_is_one_line():
    case = trace_case().replace("[terrain]\n", '[terrain]\n"$\\\\x$" = ["1712"]\n', 1)
    assert "a name holds no $ (a picture would set it as maths)" in refused(case)
    panel = TracePanel(M, "1712", "2014")
    panel.show_message("unexpected ValueError: \\x\n^\nParseFatalException: Unknown symbol")
    assert "\n" not in panel.message.value and "\\x ^ ParseFatalException" in panel.message.value


def test_a_nul_in_a_file_name_is_one_line(tmp_path):
    with pytest.raises(WbkError, match="holds a NUL"):
        load_edge_case(tmp_path / "a\0b.png")


# --- saves --------------------------------------------------------------------------------------


def test_a_save_that_fails_leaves_the_old_file_whole_and_says_so_in_one_line(tmp_path, monkeypatch):
    import os

    panel = TracePanel(M, "1712", "2014")
    picture, case = tmp_path / "p.png", tmp_path / "p.toml"
    panel.save_picture(str(picture))
    panel.save_edge_case(str(picture))
    before = picture.read_bytes(), case.read_bytes()

    def full_disk(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full_disk)
    panel.boxes["to"].value = "2113"
    panel.save_picture(str(picture))
    assert "cannot save the picture (No space left on device); nothing was written" in (
        panel.save_line.value
    )
    panel.save_edge_case(str(picture))
    assert "cannot save the edge case (No space left on device)" in panel.save_line.value
    assert (picture.read_bytes(), case.read_bytes()) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.png", "p.toml"]


# --- who may come in: the app itself ------------------------------------------------------------

TOKEN = "class-password"


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    """The app on 127.0.0.1 with a token and room for one kernel, no pools; always stopped."""
    import os
    import signal
    import subprocess
    import time

    from browser_support import free_port

    from wbk.appsettings import AppSettings, Door
    from wbk.games import chapters
    from wbk.publish import app_command

    port = free_port()
    command, env = app_command(
        chapters(),
        port=port,
        work=tmp_path_factory.mktemp("app"),
        settings=AppSettings(pool=0, max_kernels=1),
        door=Door(token=TOKEN),
    )
    assert TOKEN not in " ".join(command)  # a command line is every user's to read
    env["HOME"] = str(tmp_path_factory.mktemp("home"))
    server = subprocess.Popen(
        command,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                fetch(port, "/")
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    pytest.fail("the app did not start within 120 s", pytrace=False)
                time.sleep(0.5)
        yield port
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)


def fetch(port: int, path: str, **headers: str) -> tuple[int, dict, str]:
    """A GET of ``path`` from the app: its status, its headers, its page."""
    import http.client

    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    try:
        connection.request("GET", path, headers=headers)
        reply = connection.getresponse()
        headers = dict(reply.getheaders())
        headers["Set-Cookie"] = "; ".join(reply.msg.get_all("Set-Cookie") or [])
        return reply.status, headers, reply.read().decode(errors="replace")
    finally:
        connection.close()


pytestmark_app = pytest.mark.notebook  # a chapter runs in a kernel of the app's


@pytestmark_app
def test_the_app_answers_only_to_its_own_names(app):
    for host in ("attacker.example", f"attacker.example:{app}", "192.168.1.5", "[::2]"):
        status, _, page = fetch(app, f"/?token={TOKEN}", Host=host)
        assert status == 403 and "This server answers only to its own addresses" in page, host
    assert fetch(app, "/voila/static/voila.js", Host="attacker.example")[0] == 403
    for host in (f"127.0.0.1:{app}", f"localhost:{app}", f"[::1]:{app}"):
        assert fetch(app, f"/?token={TOKEN}", Host=host)[0] == 200, host


@pytestmark_app
def test_the_app_asks_every_reader_for_the_class_password(app):
    for path in ("/", "/voila/render/00_hex_basics.ipynb", "/?token=wrong"):
        status, headers, _ = fetch(app, path)
        assert status == 302 and headers["Location"].startswith("/login?next="), path
    status, headers, page = fetch(app, f"/?token={TOKEN}")
    assert status == 200 and 'class="wbk-chapters"' in page
    cookie = re.search(r"username-[\w-]+=[^;]+", headers["Set-Cookie"]).group(0)
    assert fetch(app, "/", Cookie=cookie)[0] == 200  # a browser that gave it once keeps a cookie


@pytestmark_app
def test_past_its_kernels_the_app_says_the_class_is_full(app):
    status, _, page = fetch(app, f"/voila/render/00_hex_basics.ipynb?token={TOKEN}")
    assert status == 200 and "Hex" in page
    status, headers, page = fetch(
        app, f"/voila/render/01_reading_distributions.ipynb?token={TOKEN}"
    )
    assert status == 503 and "The class is full: try again in " in page
    assert int(headers["Retry-After"]) > 0  # when a place may come free
    assert "Traceback" not in page


def test_a_cap_below_the_pools_and_a_class_link_are_said_in_one_line(capsys):
    from wbk.appsettings import Door
    from wbk.cli import main

    with pytest.raises(SystemExit):
        main(["app", "--max-kernels", "3", "--pool", "1"])
    assert "--max-kernels 3: the pools alone hold 6 kernels" in capsys.readouterr().err
    link = Door(ip="0.0.0.0", token="abc").link(8866)
    assert re.fullmatch(r"http://[^/:]+:8866/\?token=abc", link) and "0.0.0.0" not in link
    assert Door().link(8866) == "http://127.0.0.1:8866/"
