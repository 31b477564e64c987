"""Publishing the workbook: ``python -m wbk.publish site`` builds a static site of every notebook
in ``notebooks/`` (``make site``), ``python -m wbk.publish app`` serves them as an app with Voila
(``make app``).

The site executes each notebook afresh with wbk's panels shown as snapshots (``WBK_PANELS=static``:
see ``wbk.widgets.Panel.static_html``), so that a page needs no kernel and fetches nothing from
elsewhere; the NBVAL markers the tests use are taken out of the code first.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import nbformat

from wbk.widgets import PANELS_ENV

ROOT = Path(__file__).resolve().parent.parent
NBVAL_MARKER = re.compile(r"^\s*# NBVAL_\w+\s*\n?", re.M)


def publishable(notebook: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The notebook as a page shows it: no stored outputs (the build runs it again) and no
    NBVAL marker comments in its code."""
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.source = NBVAL_MARKER.sub("", cell.source)
            cell.outputs, cell.execution_count = [], None
    return notebook


def build_site(notebooks: Path, out: Path, *, work: Path) -> Path:
    """Build the site of every notebook in ``notebooks`` into ``out``; returns its index page."""
    sources = work / "site-src"
    shutil.rmtree(sources, ignore_errors=True)
    shutil.copytree(ROOT / "site", sources)
    for path in sorted(notebooks.glob("*.ipynb")):
        notebook = publishable(nbformat.read(path, as_version=4))
        nbformat.write(notebook, sources / path.name)
    env = {**os.environ, PANELS_ENV: "static"}
    env.pop("MPLBACKEND", None)
    shutil.rmtree(out, ignore_errors=True)
    subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-W",
            "--keep-going",
            "-q",
            "-b",
            "html",
            "-d",
            str(work / "site-doctrees"),
            str(sources),
            str(out),
        ],
        check=True,
        env=env,
        cwd=sources,
    )
    return out / "index.html"


def app_command(notebooks: Path, *, port: int) -> tuple[list[str], dict[str, str]]:
    """The command (and environment) that serves the notebooks as an app with Voila on
    127.0.0.1: an index of the chapters, each a page of its panels without the code, rendered
    with wbk's template, which fetches nothing from elsewhere."""
    env = {
        **os.environ,
        "JUPYTER_PATH": os.pathsep.join(
            filter(None, [str(ROOT / "app"), os.environ.get("JUPYTER_PATH")])
        ),
    }
    env.pop(PANELS_ENV, None)
    env.pop("MPLBACKEND", None)
    command = [
        sys.executable,
        "-m",
        "voila",
        str(notebooks),
        "--template=wbk",
        "--no-browser",
        "--Voila.ip=127.0.0.1",
        f"--port={port}",
        "--theme=light",
    ]
    return command, env


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m wbk.publish", description=__doc__.splitlines()[0]
    )
    commands = parser.add_subparsers(dest="command", required=True)
    site = commands.add_parser("site", help="build the static site")
    site.add_argument("--notebooks", type=Path, default=ROOT / "notebooks")
    site.add_argument("--out", type=Path, default=ROOT / "build" / "site")
    app = commands.add_parser("app", help="serve the notebooks with Voila on 127.0.0.1")
    app.add_argument("--notebooks", type=Path, default=ROOT / "notebooks")
    app.add_argument("--port", type=int, default=8866)
    args = parser.parse_args(argv)
    if args.command == "site":
        index = build_site(args.notebooks, args.out, work=args.out.parent)
        print(f"site built: {index}")
    else:
        command, env = app_command(args.notebooks, port=args.port)
        print(f"serving the workbook on http://127.0.0.1:{args.port}/ (Ctrl-C stops it)")
        os.execvpe(command[0], command, env)


if __name__ == "__main__":
    main()
