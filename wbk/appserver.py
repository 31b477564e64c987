"""The app's server (``make app``, ``python -m wbk.publish app``): Voila, with the checks a
server open to a class needs, on the model of Jupyter Server's own.

- **Who may come in.** With a token (the class password, handed out as a link), every page and
  every kernel asks for it, as Jupyter Server does; a browser that gave it once keeps a cookie.
- **Which address it answers to** (the Host header): a page fetched from a name the server does
  not know is refused, so that a stranger's web page cannot reach a server on 127.0.0.1 or a
  classroom network by pointing its own name at it (DNS rebinding). The server answers to its IP
  addresses as typed, to localhost, to the machine's own names and to those the teacher allows.
- **How many kernels.** At most ``max_kernels`` kernels at once, the pools' included: past it a
  reader is told that the class is full (a page, 503), a pool's refill waits for room, and a
  server is never brought down by a crowd or by someone asking for page after page.

- **A reader's kernel lives until its page has come.** Voila's pool hands a reader a kernel
  that ran the chapter before the reader came, maybe hours ago: by its last activity it has been
  idle all that time, and until the reader's page connects it has no connection either. On a
  busy machine a page takes tens of seconds to load and connect, and a cull sweep meanwhile
  would shut the kernel down under the reader (the page then shows the chapter and nothing of
  its link: issue 31). So a kernel no page has connected to yet is spared for
  ``connect_within`` seconds (10 minutes) from the first sweep that sees it out of its pool
  (Voila's own manager never lets a sweep reach a pooled kernel); once a page has connected,
  the usual idle time counts.
- **A reader who finds the pool empty is not kept waiting for its refill.** Voila counts a
  pool's refill, still waiting out ``fill_delay``, as a kernel in the pool and hands it to the
  next reader, who waits for the delay, the start and the chapter's run. Here a chapter is
  served from its pool only when a kernel in it is ready; otherwise a kernel is started for the
  reader at once, as Voila does without a pool.

Run as ``python -m wbk.appserver`` with Voila's options (``wbk.publish.app_command`` builds it).
"""

from __future__ import annotations

import asyncio
import ipaddress
import os
import re
import socket
import time

from jupyter_server._tz import utcnow
from jupyter_server.base.handlers import JupyterHandler
from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado import web
from tornado.ioloop import IOLoop
from tornado.websocket import WebSocketHandler
from traitlets import Float, Int, List, Unicode, default
from voila.app import Voila
from voila.handler import VoilaHandler
from voila.utils import ENV_VARIABLE

from wbk.appguests import GuestHTTPServer, raise_open_file_limit
from wbk.appkernel import OUT_OF_MEMORY
from wbk.appsettings import TOKEN_ENV
from wbk.datafile import LONGEST_FILE

CLASS_FULL = "The class is full: try again in a minute"
#: The largest message a page may send its kernel: an upload of the largest file wbk reads, as
#: base64 text (the kernel protocol's JSON form), and room for the message around it. Jupyter
#: Server takes 10 MiB; a panel's other messages are a few hundred bytes.
LARGEST_MESSAGE = LONGEST_FILE * 4 // 3 + 2**16
#: The close code of a kernel's websocket whose kernel has stopped (one of the codes 4000-4999
#: a server may give its own meaning); the reason is the line the page shows.
KERNEL_STOPPED = 4000


class ReaderKernelManager(AsyncMappingKernelManager):
    """Jupyter's kernel manager, whose cull spares a reader's kernel until its page connects,
    which starts no kernel past ``max_kernels``, and which says whether a chapter's pool holds a
    kernel ready for a reader (``has_ready_kernel``)."""

    max_kernels = Int(
        0, config=True, help="The most kernels at once, the pools' included (0: no limit)."
    )
    kernel_memory = Int(0, config=True, help="The bytes of memory a reader's kernel may hold.")
    connect_within = Int(
        600,
        config=True,
        help="Seconds a reader's page has to connect to the kernel it was handed before that "
        "kernel may be culled.",
    )

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._handed_at: dict[str, float] = {}  # kernel -> when a sweep first saw it a reader's
        self._connected: set[str] = set()  # kernels a page has connected to
        self._starting = 0

    def is_full(self) -> bool:
        """Whether another kernel would pass ``max_kernels``."""
        return 0 < self.max_kernels <= len(self._kernels) + self._starting

    async def start_kernel(self, *args, **kwargs):  # type: ignore[override]
        """Start a kernel if there is room: a reader's page is refused (503, "the class is
        full"), a pool's refill waits until a kernel has gone."""
        refill = (kwargs.get("env") or {}).get(ENV_VARIABLE.VOILA_PREHEAT) == "True"
        while self.is_full():
            if not refill:
                raise web.HTTPError(503, reason=CLASS_FULL)
            await asyncio.sleep(1)
        self._starting += 1
        try:
            return await super().start_kernel(*args, **kwargs)
        finally:
            self._starting -= 1

    def _handle_kernel_died(self, kernel_id: str) -> None:
        """A kernel that stopped (never restarted: it would come back without its chapter) is
        forgotten, and its pages told why in one line (``KERNEL_STOPPED``): out of its memory
        (``wbk.appkernel.OUT_OF_MEMORY``), or stopped."""
        kernel = self._kernels.get(kernel_id)
        process = getattr(getattr(kernel, "provisioner", None), "process", None)
        if process is not None and process.returncode == OUT_OF_MEMORY:
            why = f"ran out of its memory ({self.kernel_memory // 2**20} MB) and"
        else:
            why = "has"
        line = f"This page's kernel {why} stopped: reload the page to start again."
        for connection in list(ZMQChannelsWebsocketConnection._open_sockets):
            if connection.kernel_id == kernel_id:  # after Jupyter's own "dead" to the page
                IOLoop.current().add_callback(
                    connection.websocket_handler.close, KERNEL_STOPPED, line
                )
        super()._handle_kernel_died(kernel_id)

    def notify_connect(self, kernel_id: str) -> None:
        self._connected.add(kernel_id)
        super().notify_connect(kernel_id)

    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        kernel = self._kernels.get(kernel_id)
        if kernel is not None and kernel_id not in self._connected:
            if kernel_id not in self._handed_at:  # forget the kernels gone
                self._handed_at = {k: t for k, t in self._handed_at.items() if k in self._kernels}
                self._connected &= set(self._kernels)
            handed = self._handed_at.setdefault(kernel_id, time.monotonic())
            if time.monotonic() - handed < self.connect_within:
                kernel.last_activity = utcnow()
                return
        await super().cull_kernel_if_idle(kernel_id)

    def has_ready_kernel(self, notebook: str) -> bool:
        """Whether ``notebook``'s pool holds a kernel that has run it, put first (Voila hands
        out the first). A refill that failed to start (a machine too busy) leaves the pool, and
        the pool is refilled behind it."""
        pool = getattr(self, "_pools", {}).get(notebook)  # Voila's pools, when it keeps some
        if not pool:
            return False
        failed = [t for t in pool if t.done() and (t.cancelled() or t.exception() is not None)]
        for task in failed:
            pool.remove(task)
        if failed:
            self.fill_if_needed(notebook_name=notebook)  # type: ignore[attr-defined]
        ready = next((t for t in pool if t.done()), None)
        if ready is None:
            return False
        pool.remove(ready)
        pool.insert(0, ready)
        return True


class _ReadyPoolOnly:
    """A chapter's page served from its pool only when a kernel in it is ready; otherwise from a
    kernel started for its reader at once (``ReaderKernelManager.has_ready_kernel``)."""

    def get_generator(self, path=None):
        self._wbk_notebook = getattr(self, "notebook_path", None) or path
        return super().get_generator(path)  # type: ignore[misc]

    def should_use_rendered_notebook(self, *args, **kwargs) -> bool:
        manager = self.kernel_manager  # type: ignore[attr-defined]
        ready = getattr(manager, "has_ready_kernel", None)
        if ready is None or not ready(getattr(self, "_wbk_notebook", None)):
            return False
        return super().should_use_rendered_notebook(*args, **kwargs)  # type: ignore[misc]


def host_allowed(host: str, names: list[str], *, loopback_only: bool) -> bool:
    """Whether a request's Host header (``host``, with its port) names this server: one of its
    ``names``, or an IP address typed as such (a loopback one only, on a server that listens
    on loopback only). A name pointed at the server by a stranger is none of these."""
    match = re.match(r"^\[?(?P<name>[^\[\]]*?)\]?(:\d+)?$", host.strip())
    name = (match.group("name") if match else "").lower().rstrip(".")
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return bool(name) and name in names
    return address.is_loopback or not loopback_only


class _HostChecked(web.RequestHandler):
    """A handler that refuses a request whose Host header names another server (403): Jupyter
    Server's handlers ask ``check_host`` first, the others (static files, a kernel's query
    socket) are asked here."""

    def check_host(self) -> bool:
        app = self.settings["wbk_host_check"]
        return host_allowed(self.request.host, app["names"], loopback_only=app["loopback_only"])

    def prepare(self):
        if not isinstance(self, JupyterHandler) and not self.check_host():
            raise web.HTTPError(403)
        return super().prepare()

    def write_error(self, status_code: int, **kwargs) -> None:
        """A page's error is the app's error page; any other (a websocket's, a file's) is one
        line of text: Jupyter's page for it asks for settings Voila's server has not, and
        logged a traceback a request."""
        if isinstance(self, JupyterHandler) and not isinstance(self, WebSocketHandler):
            return super().write_error(status_code, **kwargs)
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.finish(f"{status_code} {self._reason}\n")


class WbkVoila(Voila):
    """Voila with the Host check (``allow_hosts``) and the kernels' cap of
    ``ReaderKernelManager.max_kernels``."""

    token = Unicode(None, allow_none=True, config=True, help="The class password.")

    @default("token")
    def _token_from_environment(self) -> str | None:
        return os.environ.get(TOKEN_ENV) or None

    allow_hosts = List(
        Unicode(),
        config=True,
        help="More names the app answers to (besides localhost and the machine's own names).",
    )

    connections_per_address = Int(
        64, config=True, help="The most connections one client address holds open at once."
    )
    request_timeout = Float(
        20,
        config=True,
        help="Seconds an unfinished request (its headers, its body) or an idle connection waits.",
    )

    def listen(self) -> None:
        """Voila's ``listen`` (its port's retries), its server a ``GuestHTTPServer`` with its
        share of this process's open files (raised to the machine's limit): half of them for
        connections, the rest for the kernels' sockets and the server's own files."""
        open_files = raise_open_file_limit()
        app = self.app

        def listen_for_guests(port: int, address: str | None = None, **_) -> GuestHTTPServer:
            server = GuestHTTPServer(
                app,
                per_address=self.connections_per_address,
                most=open_files // 2,
                timeout=self.request_timeout,
                log=self.log,
            )
            server.listen(port, address)
            return server

        app.listen = listen_for_guests  # Voila's listen calls it
        super().listen()

    def init_settings(self) -> dict:
        settings = super().init_settings()
        listens = self.ip or "0.0.0.0"
        try:
            loopback_only = ipaddress.ip_address(listens).is_loopback
        except ValueError:
            loopback_only = listens == "localhost"
        names = {"localhost", *(n.lower() for n in self.allow_hosts)}
        if not loopback_only:  # the names a classroom knows this machine by
            names |= {socket.gethostname().lower(), socket.getfqdn().lower()}
        settings["wbk_host_check"] = {"names": sorted(names), "loopback_only": loopback_only}
        settings["websocket_max_message_size"] = LARGEST_MESSAGE
        return settings

    def init_handlers(self) -> list:
        def checked(handler: type) -> type:
            ready = (_ReadyPoolOnly,) if issubclass(handler, VoilaHandler) else ()
            return type(handler.__name__, (_HostChecked, *ready, handler), {})

        return [
            (pattern, checked(handler), *rest)
            for pattern, handler, *rest in super().init_handlers()
        ]


if __name__ == "__main__":
    WbkVoila.launch_instance()
