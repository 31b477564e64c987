"""Publishing the workbook: ``wbk site`` builds a static site of every chapter (``make site``),
``wbk app`` serves them as an app with Voila (``make app``; the command is ``wbk.cli``).
The chapters are wbk's own and each rule set's (``wbk.games.chapters``), or the notebooks of a
folder given with ``--notebooks`` (a teacher's own).

The site executes each notebook afresh with wbk's panels shown as snapshots (``WBK_PANELS=static``:
see ``wbk.widgets.Panel.static_html``), so that a page needs no kernel and fetches nothing from
elsewhere; the NBVAL markers the tests use are taken out of the code first. After Sphinx, the
build gives every picture its title as alt text, writes the index that the search page reads
(each section's words and its rule and hex numbers: Sphinx's own search lists pages by title
and drops "9.4" and "1913"), and fills the page of rule sections (``wbk/site/reference/rules.md``)
with links to where each is taught, computed and quizzed.

``wbk notebooks`` (``make notebooks``) runs each chapter as a reader does and
stores that run's outputs in it, as the tests (nbval, pictures by pixels: conftest.py) expect.

The app serves copies of the notebooks (in a folder of its own) with links to the previous and next
chapter and a place for the situation a link carries (``wbk.widgets.app``), under an index of
chapter titles. Each chapter has a pool of kernels that have already run it (Voila's preheated
kernels), so that a reader's page is drawn at once, and the kernels of readers who left are shut
down (culled) after a few idle minutes.
"""

from __future__ import annotations

import copy
import functools
import html
import io
import json
import os
import re
import secrets
import shutil
import subprocess
import sys
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import nbformat
from jupyter_client.manager import AsyncKernelManager
from jupyter_core.paths import jupyter_runtime_dir
from nbclient import NotebookClient
from nbformat.sign import NotebookNotary

from wbk.appsettings import (
    READER_KERNEL,
    TOKEN_ENV,
    AppSettings,
    Door,
)
from wbk.errors import WbkError
from wbk.games import chapters, games
from wbk.widgets import PANELS_ENV

#: The app's Voila template (its pages, its index of chapters, its error page).
VOILA_TEMPLATES = Path(__file__).parent / "voila_templates"
#: The site's Sphinx sources (its configuration, home page, reference pages and scripts),
#: which the chapters join when it is built.
SITE = Path(__file__).resolve().parent / "site"
NBVAL_MARKER = re.compile(r"^\s*# NBVAL_\w+\s*\n?", re.M)
#: The chapters' note that their panels need the notebook run, which a page or the app says
#: otherwise.
LIVE_NOTE = re.compile(
    r"The (panels?) at the end (?:is|are) live: run the whole notebook \(Run ▸ Run All Cells\) "
    r"to use (?:it|them)\."
)
RULE_NUMBER = r"\d{1,2}\.\d{1,2}(?:\.\d{1,2})?"
#: What the site's search finds by number: rule sections ("9.4", "9.87") and four-digit hexes.
NUMBER_TOKEN = re.compile(rf"(?<![\w.]){RULE_NUMBER}(?![\w.]|\.\d)|(?<![\w.])\d{{4}}(?![\w.])")
RULE_INDEX_MARK = '<div id="wbk-rule-index"></div>'

# --- the site ---------------------------------------------------------------------------------


def site_wording(text: str) -> str:
    """A chapter's text as a static page says it: its panels are snapshots there."""

    def static(match: re.Match) -> str:
        one = match.group(1) == "panel"
        return (
            f"The {match.group(1)} at the end {'is' if one else 'are'} live in JupyterLab "
            f"(make lab) and in the app (make app); this page shows "
            f"{'it as a snapshot' if one else 'them as snapshots'}."
        )

    return LIVE_NOTE.sub(static, text)


def app_wording(text: str) -> str:
    """A chapter's text as the app says it: its panels are live, nothing to run."""
    return LIVE_NOTE.sub(
        lambda m: f"The {m.group(1)} at the end {'is' if m.group(1) == 'panel' else 'are'} live.",
        text,
    )


def publishable(notebook: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The notebook as a page shows it: no stored outputs (the build runs it again), no NBVAL
    marker comments in its code, and its text saying what a static page shows."""
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.source = NBVAL_MARKER.sub("", cell.source)
            cell.outputs, cell.execution_count = [], None
        elif cell.cell_type == "markdown":
            cell.source = site_wording(cell.source)
    return notebook


#: Run in each kernel of the site build (an IPython startup file): record the title of every
#: matplotlib picture a cell shows, by the SHA-256 of its PNG, which names myst-nb's image file.
ALT_TEXT_RECORDER = """\
import base64, hashlib, json, os
from IPython.core.formatters import PNGFormatter

_wbk_png_call = PNGFormatter.__call__


def _wbk_recording_png(self, obj):
    data = _wbk_png_call(self, obj)
    png = data[0] if isinstance(data, tuple) else data  # retina: (PNG, its size)
    if isinstance(png, str):  # the inline backend's PNG comes base64-encoded
        png = base64.b64decode(png)
    axes = getattr(obj, "axes", None)
    if isinstance(png, bytes) and axes is not None:
        suptitle = getattr(obj, "_suptitle", None)
        titles = [suptitle.get_text()] if suptitle is not None else []
        titles += [t.get_text() for ax in axes for t in (ax.title, ax._left_title)]
        title = " ".join(t for t in titles if t)
        if title:
            with open(os.environ["WBK_ALT_TEXTS"], "a", encoding="utf-8") as f:
                f.write(json.dumps([hashlib.sha256(png).hexdigest(), title]) + "\\n")
    return data


PNGFormatter.__call__ = _wbk_recording_png
"""


def _kernel_manager() -> AsyncKernelManager:
    """A kernel that talks to its runner over local sockets (IPC) where the system has them:
    no port open to the machine, and no "Kernel is running over TCP without encryption" warning
    from every kernel of a build."""
    if os.name == "nt":
        return AsyncKernelManager(kernel_name="python3")
    # the sockets' path, absolute: the kernel runs in the notebook's folder, its runner here
    runtime = Path(jupyter_runtime_dir())
    runtime.mkdir(parents=True, exist_ok=True)
    sockets = runtime / f"wbk-kernel-{secrets.token_hex(6)}"
    return AsyncKernelManager(kernel_name="python3", transport="ipc", ip=str(sockets))


def execute(path: Path, env: dict[str, str]) -> nbformat.NotebookNode:
    """Run the notebook at ``path`` top to bottom in a fresh kernel with environment ``env``, in
    its folder, and store its outputs in it; a cell that fails stops the run with its error."""
    notebook = nbformat.read(path, as_version=4)
    # no widget state: a page shows its panels as snapshots, and the state would carry every
    # widget's value (a box's placeholder names the build machine's folders) and megabytes of
    # canvases into the page; no timings, which change on every run
    client = NotebookClient(
        notebook,
        km=_kernel_manager(),
        timeout=600,
        resources={"metadata": {"path": path.parent}},
        store_widget_state=False,
        record_timing=False,
    )
    client.execute(env=env, cleanup_kc=True)  # the kernel shut down, its sockets removed
    nbformat.write(notebook, path)
    return notebook


def _joined_streams(outputs: list) -> list:
    """Outputs with each run of consecutive stream outputs of one name joined into one, as
    JupyterLab shows and saves them (a kernel may send a cell's print in several pieces)."""
    joined: list = []
    for output in outputs:
        last = joined[-1] if joined else None
        if (
            output.output_type == "stream"
            and last is not None
            and last.output_type == "stream"
            and last.name == output.name
        ):
            last.text += output.text
        else:
            joined.append(output)
    return joined


def reader_env() -> dict[str, str]:
    """The environment of a reader's kernel: panels live, matplotlib as the notebook sets it."""
    env = dict(os.environ)
    for name in (PANELS_ENV, "MPLBACKEND", "IPYTHONDIR", "WBK_ALT_TEXTS"):
        env.pop(name, None)
    return env


def store_outputs(path: Path) -> None:
    """Run the chapter at ``path`` as a reader does (Run All in a fresh kernel, its panels
    live) and store that run's outputs in it, as the tests expect them (``make notebooks``):
    without widget state or timings, each cell's streams joined as JupyterLab saves them, the
    cells' other metadata kept. The tests (``pytest --nbval``, pictures by pixels: conftest.py)
    then find every stored output what a fresh run makes."""
    before = {cell.get("id"): cell for cell in nbformat.read(path, as_version=4).cells}
    notebook = execute(path, reader_env())
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        cell.outputs = _joined_streams(cell.outputs)
        cell.metadata.pop("execution", None)
        old = before.get(cell.get("id"))
        if old is not None and old.get("source") == cell.source:
            if _without_widget_ids(old.outputs) == _without_widget_ids(cell.outputs):
                cell.outputs = old.outputs  # the same but for new widget ids: left as stored
    notebook.metadata.pop("widgets", None)
    nbformat.write(notebook, path)


def _without_widget_ids(outputs: list) -> list:
    """Outputs without what names a widget of one kernel (new on every run)."""
    kept = copy.deepcopy(outputs)
    for output in kept:
        view = output.get("data", {}).get("application/vnd.jupyter.widget-view+json")
        if isinstance(view, dict):
            view.pop("model_id", None)
        output.pop("execution_count", None)
    return kept


def chapters_from(folder: Path | None) -> list[Path]:
    """The chapters to publish: the notebooks in ``folder``, or, for None, every chapter wbk
    and its rule sets have (``wbk.games.chapters``)."""
    return chapters() if folder is None else sorted(Path(folder).glob("*.ipynb"))


def build_site(notebooks: Sequence[Path], out: Path, *, work: Path) -> Path:
    """Build the site of the chapters ``notebooks`` into ``out``; returns its index page.
    Each notebook runs once, as the page shows it, in ``work / "site-src"`` (removed after the
    build with the rest of what only the build needs). ``out`` is emptied first, so it must be
    empty, new, or a site built before (its Sphinx ``.buildinfo``): never a folder of the
    reader's own."""
    out = Path(out)
    if out.exists() and (
        not out.is_dir() or (any(out.iterdir()) and not (out / ".buildinfo").is_file())
    ):
        raise WbkError(
            f"{out} holds files of its own: the site goes into a new or empty folder, or one "
            "it was built in before"
        )
    sources = work / "site-src"
    shutil.rmtree(sources, ignore_errors=True)
    shutil.copytree(SITE, sources)
    for path in notebooks:
        notebook = publishable(nbformat.read(path, as_version=4))
        nbformat.write(notebook, sources / path.name)
    ipython = work / "site-ipython"
    shutil.rmtree(ipython, ignore_errors=True)
    (ipython / "profile_default" / "startup").mkdir(parents=True)
    (ipython / "profile_default" / "startup" / "50-wbk-alt-texts.py").write_text(
        ALT_TEXT_RECORDER, encoding="utf-8"
    )
    # pictures drawn at twice their size on the page, so that one opened full size is sharp
    (ipython / "profile_default" / "ipython_kernel_config.py").write_text(
        'c.InlineBackend.figure_formats = {"retina"}\n', encoding="utf-8"
    )
    alt_texts = work / "site-alt-texts.jsonl"
    alt_texts.write_text("", encoding="utf-8")
    env = {
        **os.environ,
        PANELS_ENV: "static",
        "IPYTHONDIR": str(ipython),
        "WBK_ALT_TEXTS": str(alt_texts),
    }
    env.pop("MPLBACKEND", None)
    # the chapters side by side, one a core, each in its own kernel; a cell that fails stops
    # the build with its error once the others have finished
    chapters = sorted(sources.glob("*.ipynb"))
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        list(pool.map(functools.partial(execute, env=env), chapters))
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
    finish_site(out, alt_texts)
    # what only the build needed: the run notebooks, Sphinx's caches and myst-nb's copies of
    # every output (three times the site's size between them)
    doctrees, outputs = work / "site-doctrees", out.parent / "jupyter_execute"  # myst-nb: there
    for scratch in (sources, ipython, alt_texts, doctrees, outputs):
        if scratch.is_dir():
            shutil.rmtree(scratch, ignore_errors=True)
        else:
            scratch.unlink(missing_ok=True)
    return out / "index.html"


VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}


@dataclass
class Section:
    """A section of a built page: where it is, its heading, and its words by where they stand."""

    page: str
    id: str
    title: str
    level: int
    prose: list[str] = field(default_factory=list)
    outputs: list[str] = field(default_factory=list)
    code: list[str] = field(default_factory=list)
    #: the prose set in bold: what a chapter's opening lists as its rules ("**8.2 and 8.3**")
    bold: list[str] = field(default_factory=list)

    def text(self) -> str:
        return " ".join(self.prose + self.outputs + self.code)


class _PageReader(HTMLParser):
    """The sections of a Sphinx page's article, each with its prose, cell outputs and code."""

    def __init__(self, page: str):
        super().__init__(convert_charrefs=True)
        self.page = page
        self.sections: list[Section] = []
        self.stack: list[tuple[str, set[str], Section | None]] = []
        self.heading: Section | None = None

    def _current(self) -> Section | None:
        for _, _, section in reversed(self.stack):
            if section is not None:
                return section
        return None

    def _inside(self, cls: str) -> bool:
        return any(cls in classes for _, classes, _ in self.stack)

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            return
        attributes = dict(attrs)
        classes = set((attributes.get("class") or "").split())
        section = None
        if tag == "section" and attributes.get("id") and self._inside("bd-article"):
            level = 1 + sum(s is not None for _, _, s in self.stack)
            section = Section(self.page, attributes["id"], "", level)
            self.sections.append(section)
        if tag in ("h1", "h2", "h3", "h4") and self._current() is not None:
            self.heading = self._current()
        self.stack.append((tag, classes, section))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        while self.stack:
            popped = self.stack.pop()[0]
            if popped in ("h1", "h2", "h3", "h4"):
                self.heading = None
            if popped == tag:
                break

    def handle_data(self, data):
        section = self._current()
        if (
            section is None
            or self._inside("headerlink")
            or any(t in ("script", "style") for t, _, _ in self.stack)
        ):
            return
        if self.heading is section:
            section.title += data
        elif self._inside("cell_output"):
            section.outputs.append(data)
        elif self._inside("cell_input"):
            section.code.append(data)
        else:
            section.prose.append(data)
            if any(t in ("strong", "b") for t, _, _ in self.stack):
                section.bold.append(data)


def page_sections(path: Path, page: str) -> list[Section]:
    """The sections of the built page at ``path`` (``page`` is its name in the site)."""
    reader = _PageReader(page)
    reader.feed(path.read_text(encoding="utf-8"))
    for section in reader.sections:
        section.title = " ".join(section.title.split())
    return reader.sections


def chapter_pages(out: Path) -> list[Path]:
    """The built chapter pages, in the order of the site's table of contents."""
    return sorted(p for p in out.glob("*.html") if p.stem not in ("index", "search", "genindex"))


def _is_aside(title: str) -> bool:
    """A chapter's live panels and its quiz: they repeat a rule's numbers, they do not teach it."""
    return title.startswith(("Explore", "Quiz"))


def search_index(sections: list[Section]) -> dict:
    """What the search page reads: each section's page, anchor, title, chapter, whether it is
    an aside (a chapter's panels or its quiz, or a reference page: listed after where a rule is
    taught) and its words
    (prose, then cell outputs, then code); and each rule or hex number with the sections it
    appears in and how often."""
    chapters = {s.page: s.title for s in sections if s.level == 1}
    places: list[list] = []
    tokens: dict[str, list[list[int]]] = {}
    for section in sections:
        words = " ".join(section.text().split())
        chapter = chapters.get(section.page, "")
        # a reference page explains wbk, it does not teach a rule: listed after the chapters
        aside = _is_aside(section.title) or section.page.startswith("reference/")
        places.append([section.page, section.id, section.title, chapter, aside, words])
        counts: dict[str, int] = {}
        for token in NUMBER_TOKEN.findall(words + " " + section.title):
            counts[token] = counts.get(token, 0) + 1
        for token, n in counts.items():
            tokens.setdefault(token, []).append([len(places) - 1, n])
    return {"places": places, "tokens": tokens}


@dataclass
class RuleSection:
    """A rule section the workbook covers, and the sections of the site about it."""

    game: str
    rule: str
    taught: list[Section] = field(default_factory=list)
    computed: list[Section] = field(default_factory=list)
    quizzed: list[Section] = field(default_factory=list)

    def sort_key(self) -> tuple:
        numbered = re.fullmatch(RULE_NUMBER, self.rule)
        if numbered:
            return (0, tuple(int(n) for n in self.rule.split(".")), "")
        return (1, (), self.rule)


def cited_games() -> tuple[str, ...]:
    """The games whose rules the workbook computes, as their steps cite them ("SS Panzer errata
    9.4", "Pz 8, Movement"): each registered game's ``cites``. A chapter belongs to the game its
    title starts with."""
    return tuple(cite for found in games().values() for cite in found.cites)


@functools.cache
def _citation(cites: tuple[str, ...]) -> re.Pattern[str]:
    names = "|".join(map(re.escape, sorted(cites, key=len, reverse=True)))
    return re.compile(rf"[\[(]({names})(?: errata)?(,?) ([^\[\]()]{{1,80}})[\])]")


def cited_rules(text: str) -> list[tuple[str, str]]:
    """The (game, rule) pairs that step citations in ``text`` name: "[Streets of Stalingrad 9.87;
    6.0, wbk assumption]" names 9.87 and 6.0, "(Pz 8, Movement)" names Movement.

    >>> cited_rules("blocked (SS Panzer errata 9.4) and [Pz 8, Penetration and Damage]")
    [('SS Panzer', '9.4'), ('Pz 8', 'Penetration and Damage')]
    """
    found = []
    for match in _citation(cited_games()).finditer(text):
        game, comma, rest = match.groups()
        numbers = re.findall(rf"(?<![\w.]){RULE_NUMBER}(?![\w.])", rest)
        if numbers:
            found += [(game, n) for n in numbers]
        elif comma:  # a named section: "Pz 8, Movement"
            found.append((game, re.split(r"[:;,]", rest)[0].strip()))  # not its reading
    return found


def rule_sections(sections: list[Section]) -> list[RuleSection]:
    """Every rule section the site's steps cite or its chapters' headings name, with the
    sections that teach it (a heading or prose naming it in its game's chapter), compute it (a
    cell output citing it) and quiz it (its chapter's Quiz section)."""
    cites = cited_games()
    game_of = {
        s.page: game for s in sections if s.level == 1 for game in cites if s.title.startswith(game)
    }
    rules: dict[tuple[str, str], RuleSection] = {}

    def rule(game: str, name: str) -> RuleSection:
        return rules.setdefault((game, name), RuleSection(game, name))

    for section in sections:
        game = game_of.get(section.page)
        heading = re.match(rf"({RULE_NUMBER})\b", section.title)
        if game and heading and section.level > 1:
            rule(game, heading.group(1))
        if game and section.level == 1:  # the rules a chapter's opening lists, in bold
            for number in re.findall(rf"(?<![\w.]){RULE_NUMBER}(?![\w.]|\.\d)", _bold(section)):
                rule(game, number)
        for cited in cited_rules(" ".join(section.outputs)):
            found = rule(*cited)
            if section not in found.computed:
                found.computed.append(section)
    _split_joined(rules)
    for found in rules.values():
        chapter = [s for s in sections if game_of.get(s.page) == found.game]
        named = re.compile(rf"(?<![\w.]){re.escape(found.rule)}(?![\w]|\.\d)")
        found.taught = [s for s in chapter if s.level > 1 and s.title.startswith(found.rule)]
        found.taught += [
            s
            for s in chapter
            if s not in found.taught and s.level > 1 and named.search(" ".join(s.prose))
        ]
        # a rule only the chapter's opening names is taught there
        opening = [s for s in chapter if s.level == 1 and named.search(_own(s))]
        found.taught = found.taught or opening
        quiz = [s for s in chapter if s.title.lower().startswith("quiz")]
        inside = [s for s in chapter if quiz and s.level > quiz[0].level and named.search(s.text())]
        found.quizzed = [q for q in quiz + inside if named.search(q.text())] or quiz[:1]
    # the index follows the book: a game's rules where its chapter comes, then games without one
    order = list(dict.fromkeys([*game_of.values(), *cites]))
    return sorted(rules.values(), key=lambda r: (order.index(r.game), *r.sort_key()))


def _own(section: Section) -> str:
    """A section's own prose, without its headings' words."""
    return " ".join(section.prose)


def _bold(section: Section) -> str:
    return " ".join(section.bold)


def _split_joined(rules: dict[tuple[str, str], RuleSection]) -> None:
    """A step citing two named sections at once ("Blitz Combat, Leader Saving Throws and
    Damage") computes each of them: its rows are merged into theirs when each part is a section
    cited on its own too ("Pz 8, Penetration and Damage" is one section and stays)."""
    for (game, name), joined in list(rules.items()):
        parts = name.split(" and ")
        if len(parts) < 2 or not all((game, part) in rules for part in parts):
            continue
        for part in parts:
            found = rules[(game, part)]
            found.computed += [s for s in joined.computed if s not in found.computed]
        del rules[(game, name)]


def rule_index_html(rules: list[RuleSection], prefix: str) -> str:
    """The rule index's tables, one per game: each rule and links to its sections."""

    def links(where: list[Section], most: int = 3) -> str:
        shown = [
            f'<a href="{prefix}{html.escape(s.page)}#{html.escape(s.id)}">'
            f"{html.escape(s.title)}</a>"
            for s in where[:most]
        ]
        more = f" and {len(where) - most} more" if len(where) > most else ""
        return ", ".join(shown) + more or "—"

    parts = []
    for game in dict.fromkeys(r.game for r in rules):
        ours = [r for r in rules if r.game == game]
        if not ours:
            continue
        anchor = re.sub(r"[^a-z0-9]+", "-", game.lower())
        parts.append(f'<h2 id="{anchor}">{html.escape(game)}</h2>')
        parts.append(
            '<table class="table wbk-rule-index"><thead><tr><th scope="col">Rule</th>'
            '<th scope="col">Taught</th><th scope="col">Computed</th>'
            '<th scope="col">Quizzed</th></tr></thead><tbody>'
        )
        for r in ours:
            parts.append(
                f"<tr><th scope='row'>{html.escape(r.rule)}</th><td>{links(r.taught)}</td>"
                f"<td>{links(r.computed)}</td><td>{links(r.quizzed)}</td></tr>"
            )
        parts.append("</tbody></table>")
    return "\n".join(parts)


def _set_alt_texts(page: Path, titles: dict[str, str]) -> None:
    """Give each picture on ``page`` whose file a recorded title names that title as alt text."""

    def with_title(match: re.Match) -> str:
        tag = match.group(0)
        source = re.search(r'src="[^"]*?([0-9a-f]{64})\.png"', tag)
        if source is None or source.group(1) not in titles:
            return tag
        alt = html.escape(titles[source.group(1)])
        return re.sub(r'alt="[^"]*"', f'alt="{alt}"', tag, count=1)

    text = page.read_text(encoding="utf-8")
    page.write_text(re.sub(r"<img [^>]*>", with_title, text), encoding="utf-8")


def _smaller_png(path: Path) -> None:
    """The picture at ``path`` in a palette of 256 colours, where that is smaller: a chapter's
    pictures look the same in it (flat colours, anti-aliased edges), at a third of the bytes
    (10 MB of the site's pictures in 3.2 MB). A picture with see-through pixels is left as it
    is."""
    import numpy as np
    from PIL import Image  # matplotlib's own dependency

    with Image.open(path) as picture:
        picture.load()
    if picture.mode != "RGB" and np.asarray(picture.convert("RGBA"))[..., 3].min() < 255:
        return
    buffer = io.BytesIO()
    picture.convert("RGB").quantize(colors=256).save(buffer, format="PNG", optimize=True)
    if buffer.tell() < path.stat().st_size:
        path.write_bytes(buffer.getvalue())


#: The theme's search button, named "Search" for assistive technology while it shows "Search
#: Ctrl+K": a name that differs from the visible text fails WCAG 2.5.3 (label in name). Without
#: the label, its name is what it shows.
SEARCH_BUTTON_LABEL = re.compile(
    r'(<button class="btn search-button-field[^>]*?) aria-label="[^"]*"'
)


def finish_site(out: Path, alt_texts: Path) -> None:
    """What the site needs after Sphinx: alt texts, the search index, the rule index and a
    search button named by what it shows."""
    for page in out.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        page.write_text(SEARCH_BUTTON_LABEL.sub(r"\1", text), encoding="utf-8")
    for source_map in (out / "_static").rglob("*.map"):  # the theme's, for its developers
        source_map.unlink()
    for picture in (out / "_images").glob("*.png"):
        _smaller_png(picture)
    titles = {}
    for line in alt_texts.read_text(encoding="utf-8").splitlines():
        digest, title = json.loads(line)
        titles[digest] = title
    pages = chapter_pages(out)
    for page in pages:
        _set_alt_texts(page, titles)
    sections = [s for page in pages for s in page_sections(page, page.name)]
    rules_page = out / "reference" / "rules.html"
    text = rules_page.read_text(encoding="utf-8")
    rules_page.write_text(
        text.replace(RULE_INDEX_MARK, rule_index_html(rule_sections(sections), "../")),
        encoding="utf-8",
    )
    # the search finds the reference pages too (formats, publishing, the API), after the chapters;
    # the rule index is the chapters' alone, where rules are taught, computed and quizzed
    reference = [
        s
        for page in sorted((out / "reference").glob("*.html"))
        if page != rules_page
        for s in page_sections(page, f"reference/{page.name}")
    ]
    searched = search_index(sections + reference)
    index = json.dumps(searched, ensure_ascii=False, separators=(",", ":"))
    # a script, not JSON: a page opened from file:// may load scripts but not fetch files
    (out / "_static" / "wbk-search-index.js").write_text(
        f"window.WBK_SEARCH = {index};\n", encoding="utf-8"
    )


# --- the app ----------------------------------------------------------------------------------


@dataclass
class Chapter:
    """A chapter as the app's index lists it."""

    name: str
    title: str
    summary: str


def chapter_of(path: Path, notebook: nbformat.NotebookNode) -> Chapter:
    """A notebook's title (its first heading) and one-line summary (its first sentence of prose
    after the title)."""
    title, summary = path.stem, ""
    for cell in notebook.cells:
        if cell.cell_type != "markdown":
            continue
        for block in re.split(r"\n\s*\n", cell.source):
            block = block.strip()
            if block.startswith("# ") and title == path.stem:
                title = block[2:].splitlines()[0].strip()
                continue
            prose = not re.match(r"([#|>`<]|[-*+] |\d+\. )", block)
            if block and prose and not summary:
                plain = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", block)
                plain = re.sub(r"[*_`]", "", " ".join(plain.split()))
                summary = re.sub(r"[:;]$", ".", re.split(r"(?<=[.!?])\s", plain)[0])
        if summary:
            break
    return Chapter(path.name, title, summary)


def _markdown(source: str) -> nbformat.NotebookNode:
    return nbformat.v4.new_markdown_cell(source)


def for_the_app(
    notebook: nbformat.NotebookNode, previous: Chapter | None, following: Chapter | None
) -> nbformat.NotebookNode:
    """The notebook as the app serves it: links to the chapters either side and to the index,
    a place for a link's situation at the top (``wbk.widgets.app``), and its text saying that
    its panels are live."""
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            cell.source = app_wording(cell.source)
    links = [
        f"[← {previous.title}]({previous.name})" if previous else "",
        "[All chapters](../../)",
        f"[{following.title} →]({following.name})" if following else "",
    ]
    navigation = " · ".join(link for link in links if link)
    notebook.metadata.kernelspec = {
        "name": READER_KERNEL,
        "display_name": "A reader's kernel (wbk.appkernel)",
        "language": "python",
    }
    top = nbformat.v4.new_code_cell("from wbk.widgets.app import link_slot\n\nlink_slot()")
    end = nbformat.v4.new_code_cell("from wbk.widgets.app import open_link\n\nopen_link()")
    notebook.cells = [
        _markdown(navigation),
        top,
        *notebook.cells,
        _markdown(navigation),
        end,
    ]
    return notebook


def chapter_list_html(chapters: list[Chapter]) -> str:
    """The app's index (a Jinja template the index page includes, so that links start at the
    server's base URL): each chapter's title, linked, and its one-line summary."""

    def text(words: str) -> str:  # HTML, and nothing Jinja would read as its own
        return html.escape(words).replace("{", "&#123;").replace("%", "&#37;")

    items = "".join(
        f'<li><a href="{{{{ base_url }}}}voila/render/{text(c.name)}">{text(c.title)}</a>'
        f"<p>{text(c.summary)}</p></li>"
        for c in chapters
    )
    return f'<ol class="wbk-chapters">{items}</ol>'


def prepare_app(notebooks: Sequence[Path], work: Path) -> Path:
    """Write the app's copies of the chapters ``notebooks`` and its template (with the index of
    chapters) under ``work``; returns the folder of notebooks to serve."""
    served = work / "notebooks"
    shutil.rmtree(work, ignore_errors=True)
    served.mkdir(parents=True)
    paths = list(notebooks)
    read = [nbformat.read(p, as_version=4) for p in paths]
    chapters = [chapter_of(p, nb) for p, nb in zip(paths, read, strict=True)]
    for i, (path, notebook) in enumerate(zip(paths, read, strict=True)):
        previous = chapters[i - 1] if i > 0 else None
        following = chapters[i + 1] if i + 1 < len(chapters) else None
        nbformat.write(for_the_app(notebook, previous, following), served / path.name)
    templates = work / "voila" / "templates"
    shutil.copytree(VOILA_TEMPLATES, templates)
    (templates / "wbk" / "chapters.html").write_text(chapter_list_html(chapters), encoding="utf-8")
    return served


def app_command(
    notebooks: Sequence[Path],
    *,
    port: int,
    work: Path,
    settings: AppSettings | None = None,
    door: Door | None = None,
) -> tuple[list[str], dict[str, str]]:
    """The command (and environment) that serves the chapters as an app with Voila
    (``wbk.appserver``) on ``door``'s address (127.0.0.1 by default): an index of the chapters,
    each a page of its panels without the code, rendered with wbk's template, which fetches
    nothing from elsewhere. The app's copies of the notebooks and its configuration
    (``settings``) are written to ``work``, a folder of the app's own (emptied first)."""
    settings = settings or AppSettings()
    door = door or Door()
    served = prepare_app(notebooks, work)
    config = settings.voila_config()
    # in the configuration, not on the command line: traitlets warns at a list given there
    config["WbkVoila"]["allow_hosts"] = list(door.allow_hosts)
    # the app's own copies of the chapters, trusted by a notary of the app's own (not the
    # teacher's Jupyter data folder), so that its log does not warn of each chapter at each page
    trust = {"data_dir": str(work / "trust")}
    config["NotebookNotary"] = trust
    (work / "trust").mkdir(mode=0o700)
    notary = NotebookNotary(**trust)
    for chapter in served.glob("*.ipynb"):
        notary.sign(nbformat.read(chapter, as_version=4))
    notary.store.close()
    # the kernels talk to the server over Unix sockets in the app's private folder of
    # connection files, not over TCP: nothing for another user of the machine to listen to
    config["KernelManager"] = {"transport": "ipc"}
    (work / "voila.json").write_text(json.dumps(config, indent=1))
    spec = work / "kernels" / READER_KERNEL  # found on JUPYTER_PATH, below
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps(settings.kernel_spec(), indent=1))
    env = {
        **os.environ,
        "JUPYTER_PATH": os.pathsep.join(filter(None, [str(work), os.environ.get("JUPYTER_PATH")])),
        PANELS_ENV: "app",
    }
    env.pop("MPLBACKEND", None)
    command = [
        sys.executable,
        "-m",
        "wbk.appserver",
        str(served),
        "--template=wbk",
        "--no-browser",
        f"--Voila.ip={door.ip}",
        f"--port={port}",
        "--theme=light",
        "--classic_tree=True",
        f"--Voila.config_file_paths={work}",
    ]
    if door.token:  # in the environment: a command line is every user's to read
        env[TOKEN_ENV] = door.token
    return command, env
