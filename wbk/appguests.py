"""Each guest of the app gets a bounded share, counted by the client's address, on the model of
JupyterHub's limits per user (``wbk.appserver`` puts these in its server):

- **Connections** (``GuestHTTPServer``): tornado's HTTP server, which holds at most
  ``per_address`` connections from one address and ``most`` in all (past either a connection
  is closed as it comes), lets an unfinished request (its headers, its body, an idle
  keep-alive) wait ``timeout`` seconds, and reads a body of ``LARGEST_BODY`` bytes at most.
  Out of open files, it refuses the connection (closed at once) instead of failing on it again
  and again: tornado logged a traceback an attempt, 290,820 of them in 20 s (issue 38).
- **Open files**: the process raises its own limit to what the machine allows
  (``raise_open_file_limit``), and counts on half of it for connections.
- **Password guesses** (``Guesses``): a growing wait between wrong guesses from one address,
  then a pause; a guess that comes early is not even checked.

A flood of the same refusal is logged a few lines, then one line a while with the count left
out (``wbk.appkernel.OnceAWhile``).
"""

from __future__ import annotations

import errno
import functools
import logging
import os
import resource
import socket
import time

from tornado.httpserver import HTTPServer
from tornado.ioloop import IOLoop
from tornado.iostream import IOStream

from wbk.appkernel import OnceAWhile

#: Bytes of a request's body the server reads at most: a login form (the class password) is the
#: only body a reader sends over HTTP (uploads go over the kernel's websocket).
LARGEST_BODY = 64 * 2**10
#: Bytes a connection's read buffer holds at most: the largest websocket message a page may send
#: (``wbk.appserver.LARGEST_MESSAGE``, 1.4 MB) and room (tornado takes 100 MB a connection).
LARGEST_BUFFER = 4 * 2**20
#: The open files a process may raise its limit to when the machine sets none.
MOST_OPEN_FILES = 2**20
#: Errors of ``accept`` that say the process or the machine has no file or memory to spare.
OUT_OF_FILES = {errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM}
#: Connections accepted in one go (tornado's own: other work runs between the goes).
ACCEPTED_AT_ONCE = 128


def raise_open_file_limit() -> int:
    """Raise this process's limit on open files to the most the machine allows it (a soft
    limit of 1,024 is common, its hard limit often far more); the limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = MOST_OPEN_FILES if hard == resource.RLIM_INFINITY else hard
    if soft == resource.RLIM_INFINITY or soft >= wanted:
        return wanted if soft == resource.RLIM_INFINITY else soft
    resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    return wanted


def client_of(address) -> str:
    """The client's address of a connection (``address`` as ``accept`` gives it)."""
    return str(address[0]) if isinstance(address, tuple) and address else ""


class GuestHTTPServer(HTTPServer):
    """tornado's HTTP server with a share of connections for each client address, a cap on
    them all, time limits on unfinished requests, and an accept loop that survives running out
    of open files."""

    def initialize(  # type: ignore[override]
        self, application, *, per_address: int, most: int, timeout: float, log: logging.Logger
    ) -> None:
        super().initialize(
            application,
            idle_connection_timeout=timeout,  # tornado's wait for a request's headers, too
            body_timeout=timeout,
            max_body_size=LARGEST_BODY,
            max_buffer_size=LARGEST_BUFFER,
        )
        self.per_address, self.most = per_address, most
        self.log = log.getChild("guests")
        self.log.addFilter(OnceAWhile())
        self._streams: dict[str, list[IOStream]] = {}  # client -> its connections
        self._open: list[IOStream] = []
        self._spare: int | None = os.open(os.devnull, os.O_RDONLY)  # see _refuse_one

    def held_by(self, client: str) -> int:
        """The connections ``client`` holds open now."""
        held = [s for s in self._streams.get(client, ()) if not s.closed()]
        if held:
            self._streams[client] = held
        else:
            self._streams.pop(client, None)
        return len(held)

    def handle_stream(self, stream: IOStream, address) -> None:
        client = client_of(address)
        if len(self._open) >= self.most:
            self._open = [s for s in self._open if not s.closed()]
        if len(self._open) >= self.most:
            self.log.warning("refused a connection: %d are open, the most the app holds", self.most)
            stream.close()
            return
        if self.held_by(client) >= self.per_address:
            self.log.warning(
                "refused a connection from %s: it holds %d already (--connections-per-address)",
                client,
                self.per_address,
            )
            stream.close()
            return
        self._streams.setdefault(client, []).append(stream)
        self._open.append(stream)
        if len(self._streams) > 10 * self.most // max(self.per_address, 1):  # clients gone
            for gone in [c for c in self._streams if not self.held_by(c)]:
                self._streams.pop(gone, None)
        super().handle_stream(stream, address)

    def add_sockets(self, sockets) -> None:
        """tornado's ``add_sockets``, with ``_accept`` for its accept loop."""
        for sock in sockets:
            self._sockets[sock.fileno()] = sock
            IOLoop.current().add_handler(sock, self._accept, IOLoop.READ)
            self._handlers[sock.fileno()] = functools.partial(IOLoop.current().remove_handler, sock)

    def _accept(self, sock: socket.socket, events: int) -> None:
        for _ in range(ACCEPTED_AT_ONCE):
            try:
                connection, address = sock.accept()
            except BlockingIOError:
                return
            except ConnectionAbortedError:
                continue
            except OSError as error:
                if error.errno not in OUT_OF_FILES:
                    raise
                self._refuse_one(sock, error)
                return
            self._handle_connection(connection, address)

    def _refuse_one(self, sock: socket.socket, error: OSError) -> None:
        """Out of open files, a connection waiting is accepted on the spare file kept for this
        and closed at once, so that the next one is not the same failure at once (libuv's
        way); the refusal is logged a line a while."""
        self.log.warning("out of open files (%s): refused a connection", error.strerror)
        if self._spare is not None:
            os.close(self._spare)
            self._spare = None
            try:
                connection, _ = sock.accept()
                connection.close()
            except OSError:
                pass
            try:
                self._spare = os.open(os.devnull, os.O_RDONLY)
            except OSError:  # taken meanwhile: a second's pause, then try again
                pass
        if self._spare is None:
            IOLoop.current().remove_handler(sock)
            IOLoop.current().call_later(1, self._resume, sock)

    def _resume(self, sock: socket.socket) -> None:
        try:
            self._spare = self._spare or os.open(os.devnull, os.O_RDONLY)
        except OSError:
            IOLoop.current().call_later(1, self._resume, sock)
            return
        IOLoop.current().add_handler(sock, self._accept, IOLoop.READ)


class Guesses:
    """Wrong passwords from each client address: after ``free`` wrong guesses, each next guess
    is checked only ``first_wait`` seconds after the last, the wait doubling with each wrong
    one; after ``most`` wrong guesses the address is paused for ``pause`` seconds. A right
    guess forgets the address's wrong ones."""

    def __init__(
        self,
        *,
        free: int = 3,
        first_wait: float = 1,
        most: int = 10,
        pause: float = 600,
        clock=time.monotonic,
    ):
        self.free, self.first_wait, self.most, self.pause = free, first_wait, most, pause
        self.clock = clock
        self._wrong: dict[str, tuple[int, float]] = {}  # client -> (wrong guesses, the last's time)

    def wait(self, client: str) -> float:
        """Seconds before a guess from ``client`` is checked (0: now)."""
        wrong, last = self._wrong.get(client, (0, 0.0))
        if wrong < self.free:
            return 0
        waited = self.pause if wrong >= self.most else self.first_wait * 2 ** (wrong - self.free)
        return max(0.0, last + waited - self.clock())

    def wrong(self, client: str) -> None:
        if len(self._wrong) > 100_000:  # a crowd of addresses: keep those still waiting
            now = self.clock()
            self._wrong = {c: w for c, w in self._wrong.items() if now - w[1] < self.pause}
        self._wrong[client] = (self._wrong.get(client, (0, 0.0))[0] + 1, self.clock())

    def right(self, client: str) -> None:
        self._wrong.pop(client, None)
