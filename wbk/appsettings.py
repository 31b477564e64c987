"""How the app for a class is set up (``python -m wbk.publish app``): its kernels
(``AppSettings``: pools, culling, the cap on kernels), who may come in (``Door``: the address,
the class password, the names it answers to), and the command line's options for both.
``wbk.publish.app_command`` starts the server with them (``wbk.appserver``)."""

from __future__ import annotations

import argparse
import ipaddress
import os
import secrets
import socket
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

#: What a kernel holds at most (a reader's, or one waiting in a pool: benchmarks/RESULTS.md).
KERNEL_MEMORY = 250 * 2**20
#: The kernel the app's chapters run in (``wbk.appkernel``), a kernel spec of the app's own.
READER_KERNEL = "wbk-reader"
#: Seconds the app waits for a kernel's messages before it gives up on them (Voila's 4 s loses a
#: cell's outputs on a busy machine).
BUSY_WAIT = 120
#: The fewest characters of a class password the teacher chooses (``--token``): with the app's
#: limit on guesses (``wbk.appguests.Guesses``: about 150 a day from one address) even a
#: password of 12 lowercase letters outlasts a school year many times over.
SHORTEST_TOKEN = 12
#: The environment variable that hands the app's server its token (never its command line,
#: which every user of the machine can read).
TOKEN_ENV = "WBK_APP_TOKEN"


def default_max_kernels() -> int:
    """As many kernels as half this machine's memory holds, 250 MB each (49 on 24 GiB), at
    least 4."""
    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 4
    return max(4, memory // 2 // KERNEL_MEMORY)


@dataclass(frozen=True)
class AppSettings:
    """How the app holds its kernels: ``pool`` kernels per chapter that have run it already
    (``pools`` sets a chapter's own: a class about to open one chapter wants one per reader),
    refilled ``refill_after`` seconds after a reader takes one (so that the refill does not slow
    the reader's first picture; a reader who comes meanwhile waits for it); the kernel of a
    reader who left is shut down after ``cull_after`` idle seconds (looked for every
    ``cull_every`` seconds); at most ``max_kernels`` kernels at once, the pools' included (a
    reader past it is told that the class is full: ``wbk.appserver``).

    What each guest may take (``wbk.appserver``, ``wbk.appguests``, ``wbk.appkernel``): a
    kernel holds at most ``kernel_memory`` bytes; a client address holds at most
    ``kernels_per_address`` kernels and ``connections_per_address`` connections, and after
    its third wrong class password waits ``password_wait`` seconds before its next is
    checked (doubled after each wrong one; ``password_pause`` after the tenth); a kernel
    handed to a page that does not connect is shut down ``connect_within`` seconds after it
    last worked for it; a request that is not whole within
    ``request_timeout`` seconds (its headers, its body), or a connection idle that long, is
    closed."""

    pool: int = 1
    pools: dict[str, int] = field(default_factory=dict)
    refill_after: float = 10
    cull_after: int = 180
    cull_every: int = 30
    max_kernels: int = field(default_factory=default_max_kernels)
    kernel_memory: int = 2 * KERNEL_MEMORY
    kernels_per_address: int = 3
    connect_within: int = 60
    connections_per_address: int = 64
    request_timeout: float = 20
    password_wait: float = 1
    password_pause: float = 600

    def kernel_spec(self) -> dict:
        """The kernel spec of a reader's kernel (``wbk.appkernel``), its memory bounded."""
        return {
            "argv": [
                sys.executable,
                "-m",
                "wbk.appkernel",
                f"--memory={self.kernel_memory}",
                "-f",
                "{connection_file}",
            ],
            "display_name": "A reader's kernel (wbk.appkernel)",
            "language": "python",
        }

    def voila_config(self) -> dict:
        """These settings as Voila's configuration (a voila.json)."""
        pools = {"default": {"pool_size": self.pool}}
        pools.update({name: {"pool_size": size} for name, size in self.pools.items()})
        return {
            "VoilaConfiguration": {
                "preheat_kernel": self.pool > 0 or any(self.pools.values()),
                "default_pool_size": self.pool,
                # a kernel just taken from a pool is not culled before its reader's page connects
                "multi_kernel_manager_class": "wbk.appserver.ReaderKernelManager",
                # a page without code or a link to JupyterLab needs neither: less to load
                "extension_denylist": [
                    "@voila-dashboards/jupyterlab-preview",
                    "jupyterlab_pygments",
                ],
            },
            "VoilaKernelManager": {"kernel_pools_config": pools, "fill_delay": self.refill_after},
            # a busy machine is slow, not broken: a cell's last outputs (its panels, a link's
            # situation) are waited for, not dropped after 4 s, and a kernel has 5 minutes to
            # start, not 1 (issue 31)
            "VoilaExecutor": {"iopub_timeout": BUSY_WAIT, "startup_timeout": 300},
            "WbkVoila": {
                "connections_per_address": self.connections_per_address,
                "request_timeout": self.request_timeout,
            },
            "ReaderKernelManager": {
                "max_kernels": self.max_kernels,
                "kernel_memory": self.kernel_memory,
                "kernels_per_address": self.kernels_per_address,
                "connect_within": self.connect_within,
            },
            # a kernel that stopped is not started again: it would come back without its
            # chapter, its page's widgets gone (wbk.appserver tells the page)
            "ClassPassword": {"first_wait": self.password_wait, "pause": self.password_pause},
            "KernelRestarter": {"restart_limit": 0},
            "MappingKernelManager": {
                "cull_idle_timeout": self.cull_after,
                "cull_interval": self.cull_every,
                # a tab still open keeps its kernel, however long the reader thinks
                "cull_connected": False,
            },
        }


@dataclass(frozen=True)
class Door:
    """Who may come into the app: the address it listens on (``ip``: 127.0.0.1, this machine
    only; 0.0.0.0, every network it is on), the class password (``token``: asked of every
    reader, given in the link handed out; always one on an address beyond this machine) and more
    names it answers to (``allow_hosts``: besides localhost, and the machine's own names when it
    listens beyond itself)."""

    ip: str = "127.0.0.1"
    token: str = ""
    allow_hosts: tuple[str, ...] = ()

    def link(self, port: int) -> str:
        """The address to hand out, the token in it."""
        host = self.ip if is_loopback(self.ip) else _lan_address(self.ip)
        host = f"[{host}]" if ":" in host else host
        return f"http://{host}:{port}/" + (f"?token={self.token}" if self.token else "")


def is_loopback(ip: str) -> bool:
    try:
        return ipaddress.ip_address(ip).is_loopback
    except ValueError:
        return ip == "localhost"


def _lan_address(ip: str) -> str:
    """The address a classroom reaches this machine at: ``ip`` itself, or for every network
    (0.0.0.0) the machine's address on its usual route (no packet is sent)."""
    if ip not in ("0.0.0.0", "::", ""):
        return ip
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: only the route is looked up
            return probe.getsockname()[0]
        except OSError:
            return socket.gethostname()


def add_arguments(app: argparse.ArgumentParser) -> None:
    """The app's options (besides ``--notebooks``) on ``app``, the command's parser."""
    app.add_argument("--port", type=int, default=8866)
    app.add_argument(
        "--ip",
        default=Door.ip,
        help="the address to listen on: 127.0.0.1 (this machine only, the default), the "
        "machine's address on the classroom network, or 0.0.0.0 (every network it is on)",
    )
    app.add_argument(
        "--token",
        default="",
        help="the class password, asked of every reader (given in the link to hand out), "
        f"{SHORTEST_TOKEN} characters at least; on an address beyond this machine one is made "
        "up if none is given",
    )
    app.add_argument(
        "--allow-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a name the classroom reaches this machine by, besides its own (repeat for more)",
    )
    app.add_argument(
        "--max-kernels",
        type=int,
        default=None,
        help="the most readers' and pools' kernels at once, past which a reader is told that "
        f"the class is full (default: half the machine's memory, here {default_max_kernels()})",
    )
    app.add_argument("--pool", type=int, default=AppSettings.pool, help="kernels per chapter")
    app.add_argument(
        "--pool-of",
        action="append",
        default=[],
        metavar="CHAPTER=N",
        help="a chapter's own pool, e.g. ss_panzer.ipynb=25 for a class about to open it",
    )
    app.add_argument(
        "--cull-after",
        type=int,
        default=AppSettings.cull_after,
        help="seconds before an idle reader's kernel is shut down",
    )
    app.add_argument(
        "--refill-after",
        type=float,
        default=AppSettings.refill_after,
        help="seconds before a pool refills behind its readers (a class: after all came in)",
    )
    _add_shares(app)


def _add_shares(app: argparse.ArgumentParser) -> None:
    """The options of what each guest may take: a kernel's memory, kernels, connections and
    time per client address, password guesses."""
    app.add_argument(
        "--kernel-memory",
        type=int,
        default=AppSettings.kernel_memory // 2**20,
        metavar="MB",
        help="the memory a reader's kernel may hold, past which it stops and its page says so "
        "(default: %(default)s)",
    )
    app.add_argument(
        "--kernels-per-address",
        type=int,
        default=AppSettings.kernels_per_address,
        metavar="N",
        help="the most kernels (chapters open) one client address holds at once; 0 for no "
        "limit, for a class behind one address (default: %(default)s)",
    )
    app.add_argument(
        "--connect-within",
        type=int,
        default=AppSettings.connect_within,
        metavar="SECONDS",
        help="how long a kernel handed to a page waits for the page to connect before it is "
        "shut down (default: %(default)s)",
    )
    app.add_argument(
        "--connections-per-address",
        type=int,
        default=AppSettings.connections_per_address,
        metavar="N",
        help="the most connections one client address holds open at once (default: %(default)s)",
    )
    app.add_argument(
        "--request-timeout",
        type=float,
        default=AppSettings.request_timeout,
        metavar="SECONDS",
        help="how long an unfinished request or an idle connection is kept open "
        "(default: %(default)s)",
    )
    app.add_argument(
        "--password-wait",
        type=float,
        default=AppSettings.password_wait,
        metavar="SECONDS",
        help="how long a computer waits after its third wrong class password before its next "
        "is checked, doubled after each wrong one (default: %(default)s)",
    )
    app.add_argument(
        "--password-pause",
        type=float,
        default=AppSettings.password_pause,
        metavar="SECONDS",
        help="how long a computer waits after its tenth wrong class password, and after each "
        "wrong one after that (default: %(default)s)",
    )


def from_arguments(
    args: argparse.Namespace, parser: argparse.ArgumentParser, served: Sequence[Path]
) -> tuple[AppSettings, Door]:
    """The settings and the door the options say for the chapters ``served`` (an option that
    cannot be is ``parser``'s error, in one line)."""
    pools = {}
    for given in args.pool_of:
        name, _, size = given.partition("=")
        if not size.isdigit() or name not in {path.name for path in served}:
            parser.error(f"--pool-of {given!r}: expected CHAPTER=N, a notebook and a number")
        pools[name] = int(size)
    settings = AppSettings(
        pool=args.pool,
        pools=pools,
        cull_after=args.cull_after,
        refill_after=args.refill_after,
        kernel_memory=args.kernel_memory * 2**20,
        kernels_per_address=args.kernels_per_address,
        connect_within=args.connect_within,
        connections_per_address=args.connections_per_address,
        request_timeout=args.request_timeout,
        password_wait=args.password_wait,
        password_pause=args.password_pause,
        **({} if args.max_kernels is None else {"max_kernels": args.max_kernels}),
    )
    held = settings.pool * len(served) + sum(size - settings.pool for size in pools.values())
    if settings.max_kernels < held:
        parser.error(
            f"--max-kernels {settings.max_kernels}: the pools alone hold {held} kernels; allow "
            "more, or make the pools smaller"
        )
    if args.token and len(args.token) < SHORTEST_TOKEN:
        parser.error(
            f"--token: a class password of {len(args.token)} characters is guessed too easily; "
            f"choose one of {SHORTEST_TOKEN} or more, such as {secrets.token_urlsafe(12)}"
        )
    token = args.token or ("" if is_loopback(args.ip) else secrets.token_urlsafe(12))
    door = Door(ip=args.ip, token=token, allow_hosts=tuple(args.allow_host))
    return settings, door
