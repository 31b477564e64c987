"""The app's server (``make app``, ``python -m wbk.publish app``): Voila, with the checks a
server open to a class needs, on the model of Jupyter Server's own.

- **Who may come in.** With a token (the class password, handed out as a link), every page,
  kernel, file and socket asks for it, as Jupyter Server's pages do, but the login page and
  what it shows; a browser that gave it once keeps a cookie. Each client address's wrong
  guesses are counted: after three, its next guess is refused unchecked (429) until a wait
  that doubles with each wrong one is over, and after ten it waits ``--password-pause``
  (``ClassPassword``, ``wbk.appguests.Guesses``).
- **Which address it answers to** (the Host header): a page fetched from a name the server does
  not know is refused, so that a stranger's web page cannot reach a server on 127.0.0.1 or a
  classroom network by pointing its own name at it (DNS rebinding). The server answers to its IP
  addresses as typed, to localhost, to the machine's own names and to those the teacher allows.
- **How many kernels, and whose.** At most ``max_kernels`` kernels at once, the pools'
  included: past it a reader is told that the class is full and when a place may come free (a
  page, 503, and its Retry-After), and a pool's refill waits for room. One client address holds
  at most ``kernels_per_address`` kernels (429 past it, saying when to come back), so that no
  reader, nor a script asking for page after page, takes every place.
- **No kernel for another site.** A chapter asked for by another site's page (the browser's
  ``Sec-Fetch-Site``, or an ``Origin`` that is not the app's) is refused (403) before a kernel
  is started: a stranger's page holding ``<img>`` tags of the app's chapters started a kernel
  for each, on a teacher's loopback app without a password too.
- **A reader's kernel lives until its page has come, and not much longer without it.**
  Voila's pool hands a reader a kernel that ran the chapter before the reader came, maybe hours
  ago: by its last activity it has been idle all that time, and until the reader's page
  connects it has no connection either. On a busy machine a page takes tens of seconds to load
  and connect, and a cull sweep meanwhile would shut the kernel down under the reader (the page
  then shows the chapter and nothing of its link: issue 31). So a kernel handed to a page is
  spared while it runs the chapter for the page and ``connect_within`` seconds (a minute) after;
  once the page has connected, the usual idle time counts; a page that never connects (a
  script's fetch) gives its kernel back when its minute is up (Voila's own manager never lets
  a sweep reach a pooled kernel).
- **A reader who finds the pool empty is not kept waiting for its refill.** Voila counts a
  pool's refill, still waiting out ``fill_delay``, as a kernel in the pool and hands it to the
  next reader, who waits for the delay, the start and the chapter's run. Here a chapter is
  served from its pool only when a kernel in it is ready; otherwise a kernel is started for the
  reader at once, as Voila does without a pool.

- **Nothing of the server reaches a client.** An error is the app's page or one line of text
  (Jupyter's own pages failed on Voila's settings, a traceback each time), the server sends
  no name or version of its software, and a traceback stays in the log, a few a minute
  (``_Guarded``).

Run as ``python -m wbk.appserver`` with Voila's options (``wbk.publish.app_command`` builds it).
"""

from __future__ import annotations

import asyncio
import collections
import hmac
import ipaddress
import logging
import math
import os
import re
import socket
import time
import urllib.parse
from collections.abc import Awaitable
from contextvars import ContextVar

from jupyter_server._tz import utcnow
from jupyter_server.auth.decorator import allow_unauthenticated
from jupyter_server.auth.logout import LogoutHandler
from jupyter_server.base.handlers import APIHandler, JupyterHandler
from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado import web
from tornado.ioloop import IOLoop
from tornado.websocket import WebSocketHandler
from traitlets import Float, Int, List, Unicode, default
from voila.app import Voila
from voila.handler import VoilaHandler
from voila.request_info_handler import RequestInfoSocketHandler
from voila.static_file_handler import TemplateStaticFileHandler
from voila.utils import ENV_VARIABLE, create_include_assets_functions
from voila.voila_identity_provider import VoilaIdentityProvider

from wbk.appguests import Guesses, GuestHTTPServer, raise_open_file_limit
from wbk.appkernel import OUT_OF_MEMORY, OnceAWhile
from wbk.appsettings import TOKEN_ENV
from wbk.datafile import LONGEST_FILE

#: The largest message a page may send its kernel: an upload of the largest file wbk reads, as
#: base64 text (the kernel protocol's JSON form), and room for the message around it. Jupyter
#: Server takes 10 MiB; a panel's other messages are a few hundred bytes.
LARGEST_MESSAGE = LONGEST_FILE * 4 // 3 + 2**16
#: The close code of a kernel's websocket whose kernel has stopped (one of the codes 4000-4999
#: a server may give its own meaning); the reason is the line the page shows.
KERNEL_STOPPED = 4000


class Refused(web.HTTPError):
    """A request the app refuses for now, in one line (``reason``); ``retry_after`` seconds
    is when to ask again (the page says it, and so does its Retry-After header)."""

    def __init__(self, status: int, reason: str, *, retry_after: float = 0):
        super().__init__(status, reason=reason)
        self.retry_after = retry_after


def _minutes(seconds: float) -> str:
    minutes = max(1, math.ceil(seconds / 60))
    return "a minute" if minutes == 1 else f"{minutes} minutes"


#: The client address of the page a kernel is being started for (set by its handler: a kernel
#: started in the handler's task knows whose it is).
_READER: ContextVar[str] = ContextVar("wbk_reader", default="")


class ReaderKernelManager(AsyncMappingKernelManager):
    """Jupyter's kernel manager, which shares the kernels out fairly: no kernel past
    ``max_kernels``, none past ``kernels_per_address`` for one client address; a kernel handed
    to a reader whose page never connects shut down after ``connect_within`` seconds (once a
    page connects, the usual idle time counts); and which says which kernel of a chapter's
    pool is ready for a reader (``ready_kernel``)."""

    max_kernels = Int(
        0, config=True, help="The most kernels at once, the pools' included (0: no limit)."
    )
    kernels_per_address = Int(
        3, config=True, help="The most kernels one client address holds at once (0: no limit)."
    )
    kernel_memory = Int(0, config=True, help="The bytes of memory a reader's kernel may hold.")
    connect_within = Int(
        60,
        config=True,
        help="Seconds a reader's page has to connect to the kernel it was handed (from when the "
        "kernel last worked on the page) before that kernel is shut down.",
    )

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._handed_at: dict[str, float] = {}  # kernel -> when it last worked for its page
        self._holders: dict[str, str] = {}  # kernel -> the address it was handed to
        self._connected: set[str] = set()  # kernels a page has connected to
        self._starting: collections.Counter[str] = collections.Counter()  # address -> starts

    def is_full(self) -> bool:
        """Whether another kernel would pass ``max_kernels``."""
        return 0 < self.max_kernels <= len(self._kernels) + self._starting.total()

    def held_by(self, client: str) -> int:
        """The kernels ``client`` holds (those being started for it included)."""
        held = sum(1 for k, c in self._holders.items() if c == client and k in self._kernels)
        return held + self._starting[client]

    def admit(self, client: str) -> None:
        """Refuse ``client`` a kernel past its share (429), saying when one of its kernels comes
        free (a kernel it no longer has a page of is shut down after the idle time)."""
        if 0 < self.kernels_per_address <= self.held_by(client):
            wait = self.cull_idle_timeout + self.cull_interval
            raise Refused(
                429,
                f"You have {self.kernels_per_address} chapters open already: close one, or try "
                f"again in {_minutes(wait)}",
                retry_after=wait,
            )

    def hand(self, kernel_id: str, client: str) -> None:
        """Note that ``kernel_id`` was handed to ``client``'s page (now)."""
        self._holders[kernel_id] = client
        self._handed_at[kernel_id] = time.monotonic()

    def seconds_until_room(self) -> float:
        """When a kernel may come free at the soonest: a page that never connected, a reader
        gone whose kernel's idle time runs out, or a reader who leaves now."""
        now, waits = time.monotonic(), []
        for kernel_id, kernel in self._kernels.items():
            if kernel_id in self._handed_at and kernel_id not in self._connected:
                waits.append(self._handed_at[kernel_id] + self.connect_within - now)
            elif self._kernel_connections.get(kernel_id):
                waits.append(self.cull_idle_timeout)
            elif kernel_id in self._holders:
                idle = (utcnow() - kernel.last_activity).total_seconds()
                waits.append(self.cull_idle_timeout - idle)
        return max(0.0, min(waits, default=self.cull_idle_timeout)) + self.cull_interval

    async def start_kernel(self, *args, **kwargs):  # type: ignore[override]
        """Start a kernel if there is room: a reader's page is refused (429 past its address's
        share, 503 past ``max_kernels``: "the class is full", saying when to come back), a
        pool's refill waits until a kernel has gone."""
        refill = (kwargs.get("env") or {}).get(ENV_VARIABLE.VOILA_PREHEAT) == "True"
        client = "" if refill else _READER.get()
        if client:
            self.admit(client)
        while self.is_full():
            if not refill:
                wait = self.seconds_until_room()
                raise Refused(
                    503, f"The class is full: try again in {_minutes(wait)}", retry_after=wait
                )
            await asyncio.sleep(1)
        self._starting[client] += 1
        try:
            kernel_id = await super().start_kernel(*args, **kwargs)
        finally:
            self._starting[client] -= 1
        if client:
            self.hand(kernel_id, client)
        return kernel_id

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

    def remove_kernel(self, kernel_id: str):
        # Voila keeps each pool kernel's reader's request (their query string) for the kernel,
        # for ever: forgotten with the kernel
        for kept in (self._handed_at, self._holders, RequestInfoSocketHandler._cache):
            kept.pop(kernel_id, None)
        self._connected.discard(kernel_id)
        return super().remove_kernel(kernel_id)

    def notify_connect(self, kernel_id: str) -> None:
        """A page connected: from now on its kernel's idle time counts (a pool's kernel last
        worked when it ran its chapter, maybe hours ago)."""
        self._connected.add(kernel_id)
        kernel = self._kernels.get(kernel_id)
        if kernel is not None:
            kernel.last_activity = utcnow()
        super().notify_connect(kernel_id)

    async def cull_kernel_if_idle(self, kernel_id: str) -> None:
        """A kernel handed to a page that has not connected is spared while it works (a chapter
        run for its reader: it is busy, or it sent a message lately) and ``connect_within``
        seconds after, then shut down: a page fetched by a script, or by a stranger's site,
        never connects. Other kernels are culled as Jupyter culls them."""
        kernel = self._kernels.get(kernel_id)
        handed = self._handed_at.get(kernel_id)
        if kernel is None or handed is None or kernel_id in self._connected:
            await super().cull_kernel_if_idle(kernel_id)
            return
        since_handed = time.monotonic() - handed
        since_worked = (utcnow() - kernel.last_activity).total_seconds()
        busy = getattr(kernel, "execution_state", None) in ("busy", "starting")
        if busy or min(since_handed, since_worked) < self.connect_within:
            return
        self.log.warning(
            "Shutting down kernel %s: no page connected within %d s of its last work for it",
            kernel_id,
            self.connect_within,
        )
        await self.shutdown_kernel(kernel_id)

    def ready_kernel(self, notebook: str) -> str | None:
        """The kernel of ``notebook``'s pool that has run it (put first: Voila hands out the
        first), or None. A refill that failed to start (a machine too busy) leaves the pool,
        and the pool is refilled behind it."""
        pool = getattr(self, "_pools", {}).get(notebook)  # Voila's pools, when it keeps some
        if not pool:
            return None
        failed = [t for t in pool if t.done() and (t.cancelled() or t.exception() is not None)]
        for task in failed:
            pool.remove(task)
        if failed:
            self.fill_if_needed(notebook_name=notebook)  # type: ignore[attr-defined]
        ready = next((t for t in pool if t.done()), None)
        if ready is None:
            return None
        pool.remove(ready)
        pool.insert(0, ready)
        return ready.result()["kernel_id"]


class _ReaderPage:
    """A chapter's page (the handler that starts or hands out a kernel): refused to a request
    from another site (a kernel started for every stranger's ``<img>``), and past the
    address's share of kernels; served from the chapter's pool only when a kernel in it is
    ready, else from a kernel started for its reader at once (``ReaderKernelManager``)."""

    def get_generator(self, path=None):
        refuse_other_sites(self.request)  # type: ignore[attr-defined]
        self._wbk_notebook = getattr(self, "notebook_path", None) or path
        self._wbk_reader = self.request.remote_ip  # type: ignore[attr-defined]
        manager = self.kernel_manager  # type: ignore[attr-defined]
        if isinstance(manager, ReaderKernelManager):
            manager.admit(self._wbk_reader)
        _READER.set(self._wbk_reader)  # for a kernel started in this request's task
        return super().get_generator(path)  # type: ignore[misc]

    def should_use_rendered_notebook(self, *args, **kwargs) -> bool:
        manager = self.kernel_manager  # type: ignore[attr-defined]
        if not isinstance(manager, ReaderKernelManager):
            return False
        kernel_id = manager.ready_kernel(self._wbk_notebook)
        if kernel_id is None or not super().should_use_rendered_notebook(*args, **kwargs):  # type: ignore[misc]
            return False
        manager.hand(kernel_id, self._wbk_reader)  # Voila hands it out next, without a pause
        return True


#: What a chapter's page says to a request from another site.
OTHER_SITE = "A page of another site asked for this chapter"


def refuse_other_sites(request) -> None:
    """Refuse a request for a chapter that came from another site (403), as the browser says
    (``Sec-Fetch-Site``; an ``Origin`` that is not the app's): a kernel is started for no
    stranger's page. A reader who followed a link from another site gets a link to the
    chapter, opened from the app's own page."""
    site = request.headers.get("Sec-Fetch-Site", "same-origin")
    origin = request.headers.get("Origin")
    if origin is not None and urllib.parse.urlsplit(origin).netloc != request.host:
        raise Refused(403, OTHER_SITE)
    if site not in ("same-origin", "none"):
        navigated = request.headers.get("Sec-Fetch-Mode") == "navigate"
        raise web.HTTPError(403, "%s", request.uri if navigated else "", reason=OTHER_SITE)


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


#: What anyone may fetch without the class password: the login page, and what it shows.
LOGIN_PAGE = (
    "login",
    "logout",
    "voila/static/favicon.ico",
    "voila/static/style/bootstrap.min.css",
    "voila/static/style/bootstrap-theme.min.css",
    "voila/static/style/index.css",
)


def _when(seconds: float) -> str:
    """``seconds`` from now, in words ("in 8 seconds", "in 2 minutes")."""
    if seconds < 60:
        whole = max(1, math.ceil(seconds))
        return "in a second" if whole == 1 else f"in {whole} seconds"
    return f"in {_minutes(seconds)}"


class ClassPassword(VoilaIdentityProvider):
    """Voila's check of the class password (the token of a link, an ``Authorization``
    header, or the login page's form), compared in constant time, with each client address's
    wrong guesses counted (``wbk.appguests.Guesses``): a guess that comes before its wait is
    over is refused unchecked (``refuse_early_guess``: 429, saying when to try again)."""

    first_wait = Float(
        1,
        config=True,
        help="Seconds a client address waits after its third wrong password (doubled after each "
        "next).",
    )
    pause = Float(
        600, config=True, help="Seconds a client address waits after its tenth wrong password."
    )

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.guesses = Guesses(first_wait=self.first_wait, pause=self.pause)
        self.guess_log = logging.getLogger("wbk.appserver.guesses")
        self.guess_log.addFilter(OnceAWhile())

    def guess_in(self, handler: web.RequestHandler) -> str:
        """The class password ``handler``'s request gives, or "" (a cookie is not a guess)."""
        given = self.get_token(handler) or ""
        if not given and handler.request.method == "POST":
            given = handler.get_body_argument("password", "")
        return given

    def refuse_early_guess(self, handler: web.RequestHandler) -> None:
        client = handler.request.remote_ip or ""
        wait = self.guesses.wait(client) if self.token and self.guess_in(handler) else 0
        if wait > 0:
            raise Refused(
                429,
                f"Too many wrong class passwords from your computer: try again {_when(wait)}",
                retry_after=wait,
            )

    def is_right(self, handler: web.RequestHandler, given: str) -> bool:
        """Whether ``given`` is the class password; counted for or against its client."""
        client = handler.request.remote_ip or ""
        if hmac.compare_digest(given.encode(), str(self.token).encode()):
            self.guesses.right(client)
            return True
        self.guesses.wrong(client)
        self.guess_log.warning("a wrong class password from %s", client)
        return False

    async def get_user_token(self, handler: web.RequestHandler):
        given = self.get_token(handler)
        if not self.token or not given or not self.is_right(handler, given):
            return None
        user = self.get_user_cookie(handler)
        if isinstance(user, Awaitable):
            user = await user
        return user or self.generate_anonymous_user(handler)

    def process_login_form(self, handler: web.RequestHandler):
        if self.token and not self.is_right(handler, self.guess_in(handler)):
            return None
        return super().process_login_form(handler)

    async def knows(self, handler: web.RequestHandler) -> bool:
        """Whether a request (of a handler Jupyter does not check) gives the class password or
        a reader's cookie, or there is no class password."""
        if not self.auth_enabled:
            return True
        given = self.get_token(handler)
        if given:
            return self.is_right(handler, given)
        user = self.get_user_cookie(handler)
        return (await user if isinstance(user, Awaitable) else user) is not None


class _Guarded(web.RequestHandler):
    """Every handler of the app, on Jupyter Server's model: a request whose Host header names
    another server is refused (403); one that gives a class password before its client's wait
    is over is refused unchecked (429); every endpoint asks for the class password as the
    pages do (403, or the login page), but the login page and what it shows (``LOGIN_PAGE``);
    and nothing of the server reaches a client: an error is the app's page or one line, the
    server's name and version are not sent, and an unexpected error's traceback goes to the
    log a few times a minute (``OnceAWhile``), not once a request."""

    errors = logging.getLogger("wbk.appserver.errors")
    errors.addFilter(OnceAWhile())

    def check_host(self) -> bool:
        app = self.settings["wbk_host_check"]
        return host_allowed(self.request.host, app["names"], loopback_only=app["loopback_only"])

    def set_default_headers(self) -> None:
        super().set_default_headers()
        self.clear_header("Server")  # tornado's name and version

    async def prepare(self):
        if not isinstance(self, JupyterHandler) and not self.check_host():
            raise web.HTTPError(403)
        password = self.settings.get("identity_provider")
        if isinstance(password, ClassPassword):
            password.refuse_early_guess(self)
        prepared = super().prepare()
        if isinstance(prepared, Awaitable):
            await prepared
        if self._finished or self.request.path.removeprefix(self.base_url) in LOGIN_PAGE:
            return  # sent to the login page already, or the login page
        if isinstance(self, JupyterHandler):
            known = self.current_user is not None
        else:
            known = not isinstance(password, ClassPassword) or await password.knows(self)
        if not known:
            raise web.HTTPError(403)

    @property
    def base_url(self) -> str:
        return self.settings.get("base_url", "/")

    def log_exception(self, typ, value, tb) -> None:
        if isinstance(value, web.HTTPError):
            super().log_exception(typ, value, tb)
        else:
            self.errors.error(
                "unexpected error in %s", self._request_summary(), exc_info=(typ, value, tb)
            )

    def write_error(self, status_code: int, **kwargs) -> None:
        """A page's error is the app's error page (``error.html``); any other (a websocket's,
        a file's, the API's) is one line of text. A refusal for now says when to come back."""
        error = kwargs.get("exc_info", (None, None, None))[1]
        if isinstance(error, Refused) and error.retry_after:
            self.set_header("Retry-After", str(math.ceil(error.retry_after)))
        if isinstance(self, JupyterHandler) and not isinstance(self, WebSocketHandler | APIHandler):
            try:
                page = self._error_page(status_code, error)
            except Exception:  # the line below instead
                self.errors.exception("the error page failed")
            else:
                self.set_header("Content-Type", "text/html; charset=utf-8")
                self.finish(page)
                return
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.finish(f"{status_code} {self._reason}\n")

    def _error_page(self, status_code: int, error: BaseException | None) -> str:
        """wbk's error page (``app/voila/templates/wbk/error.html``) for any of Jupyter's
        handlers (Jupyter's own pages ask for settings Voila's server has not)."""
        look = self.settings["wbk_pages"]
        if not hasattr(self, "_current_user"):  # refused before Jupyter asked who it is
            self.current_user = None
        message = ""
        if isinstance(error, web.HTTPError) and error.log_message:
            message = error.log_message % error.args
        namespace = {
            **self.template_namespace,  # type: ignore[attr-defined]
            **create_include_assets_functions(look["template"], self.base_url),
            "theme": look["theme"],
            "status_code": status_code,
            "status_message": self._reason,
            "message": message,
        }
        return self.settings["voila_jinja2_env"].get_template("error.html").render(**namespace)


class _NotFound(_Guarded):
    """What answers a path the app has no handler for (tornado's own sent its name and
    version): a reader is told 404, in one line."""

    async def prepare(self):
        await super().prepare()
        raise web.HTTPError(404)


class _Logout(web.RequestHandler):
    """Jupyter's logout, which forgets the reader's cookie and shows the login page (Jupyter's
    own page asks for settings Voila's server has not)."""

    @allow_unauthenticated
    def get(self) -> None:
        self.settings["identity_provider"].clear_login_cookie(self)
        self.redirect(self.settings.get("login_url", "/login"))


class _TemplateFiles(web.StaticFileHandler):
    """Voila's template files, a malformed path a 404 (Voila's handler failed on it, a
    traceback each time)."""

    def parse_url_path(self, url_path: str) -> str:
        parts = os.path.normpath(url_path).split(os.sep, 2)  # as Voila's handler reads it
        if len(parts) < 3 or parts[1] != "static":
            raise web.HTTPError(404)
        return super().parse_url_path(url_path)


class WbkVoila(Voila):
    """Voila with every handler guarded (``_Guarded``: the Host check of ``allow_hosts``, the
    class password of ``ClassPassword``, one-line errors), its connections bounded
    (``GuestHTTPServer``) and its kernels shared out (``ReaderKernelManager``)."""

    token = Unicode(None, allow_none=True, config=True, help="The class password.")

    @default("token")
    def _token_from_environment(self) -> str | None:
        return os.environ.get(TOKEN_ENV) or None

    allow_hosts = List(
        Unicode(),
        config=True,
        help="More names the app answers to (besides localhost and the machine's own names).",
    )

    @default("identity_provider_class")
    def _class_password(self) -> type:
        return ClassPassword

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
        settings["default_handler_class"] = _NotFound
        settings["wbk_pages"] = {
            "template": self.voila_configuration.template,
            "theme": self.voila_configuration.theme,
        }
        return settings

    def init_handlers(self) -> list:
        def checked(handler: type) -> type:
            own: tuple[type, ...] = ()
            if issubclass(handler, VoilaHandler):
                own = (_ReaderPage,)
            elif issubclass(handler, TemplateStaticFileHandler):
                own = (_TemplateFiles,)
            elif issubclass(handler, LogoutHandler):
                own = (_Logout,)
            return type(handler.__name__, (_Guarded, *own, handler), {})

        return [
            (pattern, checked(handler), *rest)
            for pattern, handler, *rest in super().init_handlers()
        ]


if __name__ == "__main__":
    # the module as Voila's configuration names it (wbk.appserver.ReaderKernelManager), not a
    # second copy of it as __main__: one class of each, one ContextVar
    import wbk.appserver

    wbk.appserver.WbkVoila.launch_instance()
