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

Voila's pool hands a reader a kernel that ran the chapter before the reader came, maybe hours
ago: by its last activity it has been idle all that time, and until the reader's page connects
it has no connection either, so a cull sweep in those first seconds (many on a busy machine)
would shut it down under the reader. Here a kernel's idle time counts from the first sweep that
sees it out of its pool (Voila's own manager never lets a sweep reach a pooled kernel).

Run as ``python -m wbk.appserver`` with Voila's options (``wbk.publish.app_command`` builds it).
"""

from __future__ import annotations

import asyncio
import ipaddress
import os
import re
import socket

from jupyter_server._tz import utcnow
from jupyter_server.base.handlers import JupyterHandler
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado import web
from traitlets import Int, List, Unicode, default
from voila.app import Voila
from voila.utils import ENV_VARIABLE

from wbk.publish import TOKEN_ENV

CLASS_FULL = "The class is full: try again in a minute"


class ReaderKernelManager(AsyncMappingKernelManager):
    """Jupyter's kernel manager, whose cull spares a kernel the first time it sees it, and which
    starts no kernel past ``max_kernels``."""

    max_kernels = Int(
        0, config=True, help="The most kernels at once, the pools' included (0: no limit)."
    )

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._seen: set[str] = set()
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

    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        if kernel_id not in self._seen:
            self._seen = {k for k in self._seen if k in self._kernels} | {kernel_id}
            kernel = self._kernels.get(kernel_id)
            if kernel is not None:
                kernel.last_activity = utcnow()
            return
        await super().cull_kernel_if_idle(kernel_id)


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
        return settings

    def init_handlers(self) -> list:
        return [
            (pattern, type(handler.__name__, (_HostChecked, handler), {}), *rest)
            for pattern, handler, *rest in super().init_handlers()
        ]


if __name__ == "__main__":
    WbkVoila.launch_instance()
