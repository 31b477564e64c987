"""The ``wbk`` command: the workbook in JupyterLab, its static site and its app for a class.

    wbk lab [FOLDER]          copy the chapters into FOLDER and open JupyterLab there
    wbk site [--out DIR]      build the static site of the chapters
    wbk app [...]             serve the chapters as an app for a class (Voila)
    wbk notebooks [PATH ...]  run chapters afresh and store their outputs (a maintainer's)

Each subcommand has its own ``--help``. The Makefile's targets call this command, so a clone
and an installed wbk do the same thing.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from wbk import __version__
from wbk.errors import WbkError

#: The folders the commands use when none is given, in the current folder.
WORKBOOK = Path("wbk-workbook")
SITE_OUT = Path("wbk-site")


def parser() -> argparse.ArgumentParser:
    from wbk.appsettings import add_arguments

    wbk = argparse.ArgumentParser(
        prog="wbk",
        description="wbk, the wargame rules workbook: its chapters in JupyterLab, as a static "
        "site, or as an app for a class.",
        epilog="wbk COMMAND --help says more.",
    )
    wbk.add_argument("--version", action="version", version=f"wbk {__version__}")
    commands = wbk.add_subparsers(dest="command", required=True, metavar="COMMAND")
    lab = commands.add_parser(
        "lab",
        help="copy the chapters into a folder and open JupyterLab there",
        description="Copy every chapter into FOLDER the first time, bring up to date the copies "
        "you have not changed, never overwrite one you have, and open JupyterLab there with "
        "wbk's settings (a chapter run and saved keeps its stored cells; no news prompt). "
        "Options wbk does not know are JupyterLab's (--port 8890, --no-browser).",
    )
    lab.add_argument(
        "folder",
        type=Path,
        nargs="?",
        default=WORKBOOK,
        metavar="FOLDER",
        help=f"(default: ./{WORKBOOK})",
    )
    site = commands.add_parser(
        "site",
        help="build the static site of the chapters",
        description="Run every chapter afresh, its panels as pictures, and build a static site "
        "of them with the reference pages: open OUT/index.html, or put OUT on any web server.",
    )
    site.add_argument(
        "--out",
        type=Path,
        default=SITE_OUT,
        metavar="DIR",
        help=f"the site's folder, new, empty or built before (default: ./{SITE_OUT})",
    )
    site.add_argument(
        "--notebooks",
        type=Path,
        metavar="DIR",
        help="a folder of your own chapters (default: wbk's)",
    )
    app = commands.add_parser(
        "app",
        help="serve the chapters as an app for a class",
        description="Serve the chapters as web pages of their panels, without the code, each "
        "reader on a kernel of their own (Voila). Every guest has a bounded share of kernels, "
        "memory, connections and password guesses: the options below.",
    )
    app.add_argument(
        "--notebooks",
        type=Path,
        metavar="DIR",
        help="a folder of your own chapters (default: wbk's)",
    )
    add_arguments(app)
    stored = commands.add_parser(
        "notebooks",
        help="run chapters afresh and store their outputs in them (a maintainer's)",
        description="Run each chapter as a reader does and store that run's outputs in it, as "
        "wbk's tests expect them (make notebooks).",
    )
    stored.add_argument("paths", type=Path, nargs="*", help="chapters (default: every one)")
    return wbk


def main(argv: list[str] | None = None) -> None:
    commands = parser()
    args, rest = commands.parse_known_args(argv)
    if rest and args.command != "lab":  # only JupyterLab takes options wbk does not know
        commands.error(f"unrecognized arguments: {' '.join(rest)}")
    try:
        {"lab": _lab, "site": _site, "app": _app, "notebooks": _notebooks}[args.command](
            args, rest, commands
        )
    except WbkError as e:
        commands.exit(2, f"wbk {args.command}: {e}\n")


def _lab(args: argparse.Namespace, options: list[str], _: argparse.ArgumentParser) -> None:
    from wbk.lab import fill_workbook, lab_command

    for line in fill_workbook(args.folder):
        print(line)
    command, env = lab_command(args.folder, *options)
    sys.exit(subprocess.call(command, env=env))


def _needs(extra: str, *modules: str) -> None:
    """Refuse in one line when a module of one of wbk's extras is not installed."""
    missing = [name for name in modules if importlib.util.find_spec(name) is None]
    if missing:
        raise WbkError(f"needs {', '.join(missing)}: pip install 'wbk[{extra}]'")


def _site(args: argparse.Namespace, _: list[str], __: argparse.ArgumentParser) -> None:
    _needs("site", "sphinx", "myst_nb", "sphinx_book_theme")
    from wbk.publish import build_site, chapters_from

    out = args.out.resolve()
    with tempfile.TemporaryDirectory(prefix="wbk-site-") as work:
        index = build_site(chapters_from(args.notebooks), out, work=Path(work))
    print(f"site built: {index}")


def _app(args: argparse.Namespace, _: list[str], commands: argparse.ArgumentParser) -> None:
    _needs("app", "voila")
    from wbk.appsettings import from_arguments, is_loopback
    from wbk.publish import app_command, chapters_from

    served = chapters_from(args.notebooks)
    settings, door = from_arguments(args, commands, served)
    # the app's copies of the chapters and its settings, for as long as it serves them
    work = Path(tempfile.mkdtemp(prefix="wbk-app-"))
    command, env = app_command(served, port=args.port, work=work, settings=settings, door=door)
    print(f"serving the workbook on {door.link(args.port)} (Ctrl-C stops it)")
    if not is_loopback(args.ip):
        print("hand that link out: the token in it is the class password")
    os.execvpe(command[0], command, env)


def _notebooks(args: argparse.Namespace, _: list[str], __: argparse.ArgumentParser) -> None:
    from nbclient.exceptions import CellExecutionError

    from wbk.games import chapters
    from wbk.publish import store_outputs

    for path in args.paths or chapters():
        if not path.is_file():
            raise WbkError(f"{path}: no such chapter")
        try:
            store_outputs(path)
        except CellExecutionError as e:
            # the failing cell and the kernel's traceback are what an author needs, not wbk's
            raise WbkError(f"{path.name}: a cell failed, nothing stored\n{e}") from None
        print(f"stored the outputs of a fresh run: {path.name}")
