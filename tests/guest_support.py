"""Shared parts of the tests that attack the app as a stranger would (tests/test_appserver.py,
tests/test_appkernel.py): the app on a loopback address with its server's log kept, HTTP
requests and raw sockets from a chosen loopback address, and a raw kernel websocket speaking
Jupyter's JSON protocol, as a script that read the source would.

Every server is stopped by its process group's id; every socket has a timeout, and every
flood a fixed count.
"""

import contextlib
import http.client
import json
import os
import re
import select
import signal
import socket
import subprocess
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest
import websocket
from browser_support import free_port

from wbk.appsettings import AppSettings, Door
from wbk.games import chapters
from wbk.publish import app_command

TOKEN = "class-password"
#: The app's door in these tests: 127.0.0.1, a class password.
DOOR = Door(token=TOKEN)
#: Seconds a step may take on a shared, busy machine before a test gives up (never a target).
PATIENCE = 300
#: The chapter the attacks open (a map panel: a canvas, boxes, a slider, buttons).
CHAPTER = "00_hex_basics.ipynb"


@dataclass
class App:
    port: int
    server: subprocess.Popen
    log: Path

    def logged(self) -> str:
        """What the server has logged so far (its kernels' log included)."""
        return self.log.read_text(errors="replace")


@contextlib.contextmanager
def running_app(tmp_path_factory, settings: AppSettings, door: Door = DOOR, **popen):
    """The app on 127.0.0.1 with ``settings`` and ``door``, its log in a file; yields an
    ``App``. Always stopped, with its kernels."""
    port = free_port()
    work = tmp_path_factory.mktemp("app")
    command, env = app_command(chapters(), port=port, work=work, settings=settings, door=door)
    env["HOME"] = str(tmp_path_factory.mktemp("home"))
    log = work / "server.log"
    with log.open("wb") as out:
        server = subprocess.Popen(
            command, env=env, stdout=out, stderr=out, start_new_session=True, **popen
        )
    try:
        deadline = time.monotonic() + PATIENCE
        while True:
            try:
                fetch(port, "/login")
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    pytest.fail(f"the app did not start within {PATIENCE} s", pytrace=False)
                time.sleep(0.5)
        yield App(port, server, log)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=60)
        except subprocess.TimeoutExpired:  # a server past helping: its whole group stopped
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=60)


def fetch(
    port: int,
    path: str,
    *,
    source: str = "127.0.0.1",
    method: str = "GET",
    body=None,
    **headers: str,
) -> tuple[int, dict, str]:
    """A request to the app from the loopback address ``source``: its status, its headers (all
    of them, "Set-Cookie" joined), its page."""
    connection = http.client.HTTPConnection(
        "127.0.0.1", port, timeout=PATIENCE, source_address=(source, 0)
    )
    try:
        connection.request(method, path, body=body, headers=headers)
        reply = connection.getresponse()
        got = dict(reply.getheaders())
        got["Set-Cookie"] = "; ".join(reply.msg.get_all("Set-Cookie") or [])
        return reply.status, got, reply.read().decode(errors="replace")
    finally:
        connection.close()


def kernel_of(port: int, chapter: str = CHAPTER, *, source: str = "127.0.0.1") -> str:
    """The kernel a reader's page of ``chapter`` was handed (its id, as the page knows it)."""
    status, _, page = fetch(port, f"/voila/render/{chapter}?token={TOKEN}", source=source)
    assert status == 200, (status, page[:500])
    return re.search(r'"kernelId": "([0-9a-f-]+)"', page).group(1)


def kernel_pid(kernel_id: str) -> int | None:
    """The process of a kernel of the app (found by its connection file's name), or None."""
    for cmdline in Path("/proc").glob("[0-9]*/cmdline"):
        with contextlib.suppress(OSError):
            if f"kernel-{kernel_id}.json".encode() in cmdline.read_bytes():
                return int(cmdline.parent.name)
    return None


def kernels_of(server: subprocess.Popen) -> set[int]:
    """The process ids of a server's kernels (its child processes)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError):
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == server.pid:
                found.add(int(stat.parent.name))
    return found


def gone(pid: int) -> bool:
    """Wait for process ``pid`` to end (not a child of ours: its pidfd says when); whether it
    ended within ``PATIENCE``."""
    try:
        handle = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        return bool(select.select([handle], [], [], PATIENCE)[0])
    finally:
        os.close(handle)


def resident_mb(pid: int) -> float:
    status = Path(f"/proc/{pid}/status").read_text()
    return int(status.split("VmRSS:")[1].split()[0]) / 1024


class KernelSocket:
    """A raw websocket to a kernel of the app, as a script would open it (Jupyter's JSON
    protocol, the class password in the query)."""

    def __init__(self, port: int, kernel_id: str, *, token: str = TOKEN, **options):
        self.socket = websocket.create_connection(
            f"ws://127.0.0.1:{port}/api/kernels/{kernel_id}/channels?session_id=s&token={token}",
            timeout=PATIENCE,
            **options,
        )

    def send(self, msg_type: str, content: dict, *, channel: str = "shell", **metadata) -> str:
        """Send a message; its id."""
        msg_id = uuid.uuid4().hex
        self.socket.send(
            json.dumps(
                {
                    "header": {
                        "msg_id": msg_id,
                        "msg_type": msg_type,
                        "username": "stranger",
                        "session": "s",
                        "version": "5.3",
                        "date": "",
                    },
                    "parent_header": {},
                    "metadata": metadata,
                    "content": content,
                    "channel": channel,
                    "buffers": [],
                }
            )
        )
        return msg_id

    def receive(self) -> dict:
        return json.loads(self.socket.recv())

    def until_idle(self, msg_id: str) -> list[dict]:
        """Every message the kernel sends until it is idle after ``msg_id`` (the kernel's
        messages on iopub come in order: all a request caused come before that)."""
        seen = []
        while True:
            message = self.receive()
            seen.append(message)
            if (
                message["msg_type"] == "status"
                and message["parent_header"].get("msg_id") == msg_id
                and message["content"]["execution_state"] == "idle"
            ):
                return seen

    def reply_to(self, msg_id: str) -> dict:
        while True:
            message = self.receive()
            if message["parent_header"].get("msg_id") == msg_id and message["msg_type"].endswith(
                "_reply"
            ):
                return message

    def widget_states(self) -> dict:
        """Every widget's state, as a page asks for them (the control comm)."""
        self.send(
            "comm_open",
            {"comm_id": "control", "target_name": "jupyter.widget.control", "data": {}},
            version="1.0.0",
        )
        self.send("comm_msg", {"comm_id": "control", "data": {"method": "request_states"}})
        while True:
            message = self.receive()
            data = message["content"].get("data", {})
            if message["msg_type"] == "comm_msg" and data.get("method") == "update_states":
                return data["states"]

    def custom(self, model_id: str, content: dict) -> str:
        """A widget's own message (ipympl's canvas: resize, draw...), as its view sends it."""
        return self.send(
            "comm_msg", {"comm_id": model_id, "data": {"method": "custom", "content": content}}
        )

    def close(self) -> None:
        self.socket.close()


def models(states: dict, model_name: str) -> list[str]:
    return [model for model, state in states.items() if state["model_name"] == model_name]


def held_open(port: int, count: int, *, source: str, send: bytes = b"") -> list[socket.socket]:
    """``count`` connections to the app from ``source``, each having sent ``send``; those the
    app refused at once are closed and left out."""
    held = []
    for _ in range(count):
        connection = socket.socket()
        connection.settimeout(PATIENCE)
        connection.bind((source, 0))
        connection.connect(("127.0.0.1", port))
        if send:
            with contextlib.suppress(OSError):
                connection.sendall(send)
        held.append(connection)
    return held
