"""A reader's kernel (``wbk.appkernel``) attacked over its websocket, as issue 38 found it: a
real app on 127.0.0.1, a real chapter's kernel, a raw websocket with the class password (what
any reader holds) sending what a page never sends. Each attack holds: a page builds no widget
and sends no message past what a panel needs, a kernel past its memory stops alone and its page
says so in one line, and nothing of the server (a traceback, a path, a version) reaches the
socket.
"""

import contextlib
import logging
import re
import sys
from pathlib import Path

import pytest
import websocket
from guest_support import (
    PATIENCE,
    TOKEN,
    KernelSocket,
    fetch,
    kernel_of,
    kernel_pid,
    models,
    resident_mb,
    running_app,
)

from wbk.appkernel import OnceAWhile
from wbk.appserver import LARGEST_MESSAGE
from wbk.appsettings import KERNEL_MEMORY, AppSettings

#: Room for the kernels the module's tests open at once, no pools; every page comes from
#: 127.0.0.1 (one address's share of kernels is tried in tests/test_appserver.py).
SETTINGS = AppSettings(pool=0, max_kernels=6, kernels_per_address=0)
ROOT_PATH = str(__import__("wbk").__file__).rsplit("/wbk/", 1)[0]


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    with running_app(tmp_path_factory, SETTINGS) as running:
        yield running


def textarea(comm_id: str, text: str) -> dict:
    """A comm_open that asks ipywidgets to build a Textarea holding ``text``."""
    state = {
        "_model_module": "@jupyter-widgets/controls",
        "_model_module_version": "2.0.0",
        "_model_name": "TextareaModel",
        "_view_module": "@jupyter-widgets/controls",
        "_view_module_version": "2.0.0",
        "_view_name": "TextareaView",
        "value": text,
    }
    return {"comm_id": comm_id, "target_name": "jupyter.widget", "data": {"state": state}}


def closed_by_the_server(kernel: KernelSocket) -> bool:
    """Whether the server has closed the socket (it closes one whose message is too big as it
    reads the message's length, and resets it: the sender may be told either way)."""
    try:
        while True:
            opcode, _ = kernel.socket.recv_data(control_frame=True)
            if opcode == websocket.ABNF.OPCODE_CLOSE:
                return True
    except (OSError, websocket.WebSocketConnectionClosedException):
        return True


@pytest.mark.notebook
def test_a_page_builds_no_widget_and_sends_nothing_larger_than_a_panel_needs(app):
    """Issue 38, attack 1: 100 comm_opens to jupyter.widget, each a Textarea of 9 MB, grew a
    kernel from 144 MB to 1,216 MB. A Textarea of 1 MB is built no more; one of 9 MB closes
    the socket, as Jupyter Server closes one past 10 MiB."""
    kernel_id = kernel_of(app.port)
    pid = kernel_pid(kernel_id)
    kernel = KernelSocket(app.port, kernel_id)
    before = resident_mb(pid)
    megabyte = "x" * 2**20
    for i in range(100):
        last = kernel.send("comm_open", textarea(f"textarea-{i}", megabyte), version="2.1.0")
    kernel.until_idle(last)
    grown = resident_mb(pid) - before
    assert grown < 30, f"the kernel grew {grown:.0f} MB"
    assert models(kernel.widget_states(), "TextareaModel") == []
    assert "refused a page's comm_open to 'jupyter.widget'" in app.logged()
    with contextlib.suppress(OSError, websocket.WebSocketConnectionClosedException):
        kernel.send("comm_open", textarea("huge", "x" * 9 * 2**20), version="2.1.0")
    assert closed_by_the_server(kernel)
    assert LARGEST_MESSAGE < 2 * 2**20
    assert kernel_pid(kernel_id) == pid  # the kernel is whole


@pytest.mark.notebook
def test_nothing_of_the_server_reaches_a_raw_websocket(app):
    """Issue 38, attack 7: a comm_open to the control comm with a wrong version, or a
    comm_msg to a comm that is not there, sent a traceback naming .../site-packages/... on
    iopub. Those and other errors a page can cause stay in the server's log; the kernel's
    description of itself names no version."""
    kernel_id = kernel_of(app.port)
    kernel = KernelSocket(app.port, kernel_id)
    states = kernel.widget_states()
    box = models(states, "TextModel")[0]
    canvas = models(states, "MPLCanvasModel")[0]
    attempts = [
        ("comm_open", {"comm_id": "c", "target_name": "jupyter.widget.control", "data": {}}),
        ("comm_open", {"comm_id": "d", "target_name": "no.such.target", "data": {}}),
        ("comm_msg", {"comm_id": "no-such-comm", "data": {"method": "update", "state": {}}}),
        ("comm_msg", {"comm_id": box, "data": {"method": "update", "state": {"value": 5}}}),
        ("comm_msg", {"comm_id": box, "data": {"method": "nonsense"}}),
        ("comm_msg", {"comm_id": canvas, "data": {"method": "custom", "content": {}}}),
        ("comm_close", {"comm_id": "no-such-comm", "data": {}}),
    ]
    said = []
    for msg_type, content in attempts:
        said += kernel.until_idle(kernel.send(msg_type, content, version="9.9.9"))
    info = kernel.reply_to(kernel.send("kernel_info_request", {}))["content"]
    text = repr(said) + repr(info)
    python = ".".join(map(str, sys.version_info[:3]))
    for leak in ("Traceback", "site-packages", ROOT_PATH, python, "ipykernel", 'File "'):
        assert leak not in text, leak
    assert info["protocol_version"] and info["implementation_version"] == ""
    logged = app.logged()
    assert "Incompatible widget control protocol versions" in logged  # kept in the server's log
    assert "No such comm: no-such-comm" in logged


@pytest.mark.notebook
def test_a_kernel_past_its_memory_stops_alone_and_its_page_says_so(app, browser):
    """A kernel's memory is bounded by the operating system (RLIMIT_DATA, 500 MB by default:
    twice what the kernel cap counts a kernel at). ipympl resizes its canvas to whatever a page
    asks and draws it: 20,000 x 20,000 pixels is a picture of 1.6 GB. The kernel stops at its
    limit, its page says so in one line, and the server and another reader's kernel go on."""
    page = browser.new_page()
    try:
        page.goto(f"http://127.0.0.1:{app.port}/voila/render/00_hex_basics.ipynb?token={TOKEN}")
        page.locator(".jupyter-matplotlib-canvas-div canvas").first.wait_for(
            timeout=PATIENCE * 1000
        )
        kernel_id = re.search(r'"kernelId": "([0-9a-f-]+)"', page.content()).group(1)
        pid = kernel_pid(kernel_id)
        limits = Path(f"/proc/{pid}/limits").read_text()
        assert re.search(rf"Max data size\s+{2 * KERNEL_MEMORY}\s+{2 * KERNEL_MEMORY}", limits)
        other = KernelSocket(app.port, kernel_of(app.port))
        kernel = KernelSocket(app.port, kernel_id)
        canvas = models(kernel.widget_states(), "MPLCanvasModel")[0]
        kernel.custom(canvas, {"type": "resize", "width": 20_000, "height": 20_000})
        kernel.custom(canvas, {"type": "draw"})
        line = page.locator(".wbk-kernel-stopped")
        line.wait_for(timeout=PATIENCE * 1000)
        assert line.inner_text() == (
            "This page's kernel ran out of its memory (500 MB) and stopped: reload the page "
            "to start again."
        )
        assert kernel_pid(kernel_id) is None
        assert other.reply_to(other.send("kernel_info_request", {}))["content"]["status"] == "ok"
        assert fetch(app.port, "/login")[0] == 200
        assert f"a reader's kernel (pid {pid}) ran out of its memory" in app.logged()
    finally:
        page.close()


def test_a_flood_of_the_same_log_line_is_one_line_a_while(caplog):
    """What a stranger can make a kernel log again and again (a refused comm, say) costs the
    server's log a few lines a minute, then one line saying how many were left out."""
    log = logging.getLogger("test_appkernel.flood")
    throttle = OnceAWhile(seconds=3600, burst=5)
    log.addFilter(throttle)
    try:
        with caplog.at_level(logging.WARNING, logger=log.name):
            for i in range(10_000):
                log.warning("refused a page's comm_open to %r", f"target-{i}")
        assert len(caplog.records) == 5
        throttle._seen[(log.name, "refused a page's comm_open to %r")][0] -= 3600  # an hour on
        with caplog.at_level(logging.WARNING, logger=log.name):
            log.warning("refused a page's comm_open to %r", "again")
        assert caplog.records[-1].getMessage() == (
            "refused a page's comm_open to 'again' (and 9,995 more like it before)"
        )
    finally:
        log.removeFilter(throttle)
