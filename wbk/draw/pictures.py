"""Pictures worth posting: any of wbk's results drawn and saved in one call, as PNG or SVG, with
its title (the question and its answer) and its legend, exactly as a panel shows it.

>>> from wbk.maps import example_map
>>> from wbk.games.ss_panzer import line_of_sight
>>> m = example_map("ss_panzer_errata_9_4")
>>> picture(line_of_sight(m, "1712", "2014"), map=m).axes[0].get_title()
'1712 → 2014: blocked by slope hexside 1813/1913, slope hex 1913'

**Drawing a result at a step.** ``picture(result, map=m, step=k)`` draws the same picture with
``result.steps[k]`` on show: what the step is ``about`` (its ``Step.about``: hexes, hexsides,
corners) highlighted, the rest of the map dimmed, and the title "Step k+1 of n: <the step's
words> (<its rule>)". A step about nothing drawn (the verdict, say) dims nothing.

>>> picture(line_of_sight(m, "1712", "2014"), map=m, step=0).axes[0].get_title()
'Step 1 of 4: from 1712 to 2014, 3 hexes (SS Panzer errata 9.4)'

**A rule set's results.** ``picture`` finds how to draw a result by its type: the rule set that
defines the type registers its drawing in its ``draw`` module (``wbk.games``), imported the
first time a picture of one of its types is asked for. A result drawn on a board (a map, a
table) registers with ``on_board``, which draws the whole answer on a drawn board's view and
returns the steps its picture walks through; a result drawn in a figure of its own (a chart, a
CRT) registers with ``in_figure``, which draws it whole or at a step. A drawing whose steps'
``about`` hold more than hexes, hexsides and corners (a terrain name, a CRT column) marks those
itself, with ``show_step``'s ``extra`` highlight, and a figure of its own calls ``step_title``
for its title.
"""

from __future__ import annotations

import copy
import functools
import io
import os
import struct
import textwrap
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from matplotlib.axes import Axes
from matplotlib.figure import Figure, SubFigure
from matplotlib.text import Text
from matplotlib.transforms import ScaledTranslation

from wbk.datafile import LONGEST_FILE, decoded, read_bytes, write_atomically
from wbk.dice import Dist
from wbk.draw.maps import MapView, draw_map, figure_size, map_axes
from wbk.draw.tables import draw_table, table_axes, table_figure_size
from wbk.draw.view import (
    PictureView,
    checked_view,
    fit_title,
    step_index,
    wrap_to_width,
)
from wbk.errors import WbkError
from wbk.explain import Step, count
from wbk.games import game_of
from wbk.hexgrid import Hex, Trace, trace_steps
from wbk.maps import HexMap
from wbk.table import Table

FORMATS = (".png", ".svg")


def picture(
    subject: object,
    *,
    step: int | None = None,
    map: HexMap | None = None,
    table: object = None,
    width: float | None = None,
    figure: Figure | None = None,
) -> Figure:
    """A figure of ``subject``: any result a rule set draws (a line of sight, a retreat, a
    shot...), a trace, a map or a table, a distribution (its bar chart), a panel (its picture)
    or a figure. A result drawn on a board that does not know its map or table is drawn on
    ``map`` (a ``HexMap``) or ``table`` (a ``wbk.table.Table``).

    ``step``: draw the result at that step of its ``steps`` (an index; -1 the last), what the
    step is about highlighted and the rest dimmed; None draws the whole answer. ``width``: in
    inches. ``figure``: draw on this figure (cleared first), a panel's own, instead of a new
    one.

    This is the one way wbk draws a result: notebooks, panels, quizzes and the site all come
    here. A rule set registers how each of its results is drawn, in its ``draw`` module: in a
    figure of its own (``in_figure``) or on its board (``on_board``)."""
    for given, kind in ((map, HexMap), (table, Table)):
        if given is not None and not isinstance(given, kind):
            raise WbkError(f"{given!r} is not a {kind.__module__}.{kind.__name__}")
    chart = _drawing(in_figure, subject)
    if chart is not None:
        if map is not None or table is not None:
            raise WbkError(
                f"wbk cannot draw a {type(subject).__name__} on a board: it is drawn in a "
                "figure of its own"
            )
        # a picture of its own says its verdict even at a step: the whole answer's title first
        verdict = None
        if figure is None and step is not None and deciding_step(subject) is not None:
            whole = Figure(figsize=DEFAULT_SIZE)
            chart(subject, whole, step=None)
            verdict = _top_title_text(whole)
        if figure is None or not getattr(chart, "keeps_figure", False):
            made, figure = figure is None, _cleared(figure, DEFAULT_SIZE)
        else:
            made = False
        chart(subject, figure, step=step)
        if width is not None:
            w, h = figure.get_size_inches()
            figure.set_size_inches(width, h * width / w)
        if made:
            add_reason(figure, subject, verdict)
        return figure
    if step is not None and isinstance(subject, Figure | HexMap | Table):
        raise WbkError(f"a {type(subject).__name__} has no steps to draw at step {step!r}")
    if isinstance(subject, Figure):
        return subject
    drawn = getattr(subject, "figure", None)
    if isinstance(drawn, Figure):  # a view, a panel
        return drawn
    board: HexMap | Table
    if isinstance(subject, HexMap | Table):
        board, subject = subject, None
    elif _drawing(on_board, subject) is None:
        where = " on a board" if map is not None or table is not None else ""
        raise WbkError(f"wbk cannot draw a {type(subject).__name__}{where}")
    else:
        board = _board(subject, map, table)
    view: PictureView
    made = figure is None
    if isinstance(board, HexMap):
        figure = _cleared(figure, figure_size(board, width))
        view = draw_map(board, ax=map_axes(figure))
    else:
        figure = _cleared(figure, table_figure_size(board, width))
        view = draw_table(board, ax=table_axes(figure))
    if subject is not None:
        steps = on_board(subject, view)
        verdict = view.title()
        if step is not None:
            view.show_step(steps, step_index(steps, step))
        if made:
            add_reason(figure, subject, verdict if step is not None else None)
    return figure


#: The size of a figure a chart is drawn in, unless it sets its own (inches).
DEFAULT_SIZE = (6.0, 3.6)


def _cleared(figure: Figure | None, size: tuple[float, float]) -> Figure:
    """``figure`` cleared (a panel's, kept at its size), or a new one of ``size``."""
    if figure is None:
        return Figure(figsize=size)
    figure.clear()
    return figure


def _board(subject: object, map: HexMap | None, table: object) -> HexMap | Table:
    """The map or table a result is drawn on: its own, else the one given."""
    board = getattr(subject, "map", None) or getattr(subject, "table", None) or map or table
    if not isinstance(board, HexMap | Table):
        raise WbkError(
            f"a picture of {type(subject).__name__} needs its board: "
            "picture(result, map=m) or picture(result, table=t)"
        )
    return board


@functools.singledispatch
def in_figure(subject: object, figure: Figure, *, step: int | None = None) -> None:
    """Draw ``subject`` on ``figure`` (cleared), whole or at ``step``. A rule set registers each
    result it draws in a figure of its own (a chart, a CRT) here, by the type its first
    parameter is annotated with, as ``functools.singledispatch`` does::

        @in_figure.register
        def _(shot: Shot, figure: Figure, *, step: int | None = None) -> None:
            ...

    ``picture`` makes the figure (``DEFAULT_SIZE``, unless the drawing sets another), or hands
    in a panel's."""
    raise WbkError(f"wbk cannot draw a {type(subject).__name__} in a figure")


@functools.singledispatch
def on_board(subject: object, view: PictureView) -> Sequence[Step]:
    """Draw ``subject``'s whole answer on ``view`` (its map or table, already drawn: a
    ``MapView`` or a ``wbk.draw.tables.TableView``) and return the steps its picture walks
    through. A rule set registers each result it draws on a board here::

        @on_board.register
        def _(retreat: Retreat, view: MapView) -> Sequence[Step]:
            RetreatOverlay(view).show_retreat(retreat)
            return retreat.steps

    ``picture`` draws the board and, given a step, marks it; a map panel draws its answers on
    its own view with this same function."""
    if _drawing(on_board, subject) is not None:
        return on_board.dispatch(type(subject))(subject, view)
    raise WbkError(f"wbk cannot draw a {type(subject).__name__} on a board")


def _drawing(function: Any, subject: object) -> Callable[..., Any] | None:
    """What ``function`` (``in_figure`` or ``on_board``) registered for ``subject``'s type, the
    drawings of the rule set that defines it imported first if need be; None for nothing."""
    default = function.registry[object]
    if function.dispatch(type(subject)) is default:
        found = game_of(subject)  # only the subject's own rule set: another's faults are not its
        if found is not None and found.has("draw"):
            found.part("draw")
    drawn = function.dispatch(type(subject))
    return None if drawn is default else drawn


@in_figure.register
def _distribution(subject: Dist, figure: Figure, *, step: int | None = None) -> None:
    from wbk.draw.charts import bar_chart

    if step is not None:
        raise WbkError(f"a Dist has no steps to draw at step {step!r}")
    figure.set_size_inches(6.0, 3.6)
    figure.set_layout_engine("constrained")
    bar_chart(subject, ax=figure.add_subplot())


@on_board.register
def _trace(subject: Trace, view: MapView) -> Sequence[Step]:
    view.show_trace(subject)
    view.set_title(trace_title(view.map, subject))
    return trace_steps(subject, view.map.label)


def trace_title(m: HexMap, tr: Trace) -> str:
    """A trace's title: how many hexes apart its ends are beside how many hexes the line passes
    through (a line along hexsides passes fewer than its distance, a zig-zag more), then what it
    crosses, runs along and passes, on a second line."""
    if not isinstance(m, HexMap):
        raise WbkError(f"trace_title: map {m!r} is not a HexMap")
    if not isinstance(tr, Trace):
        raise WbkError(f"trace_title: trace {tr!r} is not a Trace (wbk.hexgrid.trace's answer)")
    apart = count(tr.a.distance(tr.b), "hex", "hexes")
    passes = count(len(tr.hexes), "hex", "hexes")
    details = [f"crossing {count(len(tr.crossed), 'hexside', 'hexsides')}"]
    if tr.along:
        details.append(f"running along {len(tr.along)}")
    if tr.touched:
        details.append(f"through {count(len(tr.touched), 'corner')}")
    return (
        f"{m.label(tr.a)} → {m.label(tr.b)}, {apart} apart: the line passes "
        f"through {passes},\n{', '.join(details)}"
    )


# --- a result at a step ---------------------------------------------------------------------


def clear_step(view: PictureView) -> None:
    """Take a step's marks off ``view`` (its dimming too): the whole answer again."""
    checked_view(view, "clear_step")
    view.clear_step()


def show_step(
    view: MapView,
    steps: Sequence[Step],
    k: int,
    *,
    extra: Sequence[Hex] = (),
) -> None:
    """Mark step ``k`` of ``steps`` on a map already showing the whole answer
    (``MapView.show_step``; a table's view marks its steps the same way)."""
    checked_view(view, "show_step", MapView)
    view.show_step(steps, k, extra=extra)


# --- the deciding reason ----------------------------------------------------------------------

#: The reason line's type size (points) and colour (#333333: 12:1 on white); the gap between
#: the lines the header stacks, and the room left above its top (inches).
REASON_SIZE = 8.0
REASON_COLOUR = "#333333"
HEADER_GAP = 0.05
#: A rule this long or shorter is never broken across lines of the reason (characters).
SHORT_RULE = 30
#: A line of text is this many times its type size tall (matplotlib's default line spacing).
LINE_HEIGHT = 1.2
#: The ``gid`` of the texts ``add_reason`` adds, by which a test or a site finds them.
REASON_ID, VERDICT_ID = "wbk-reason", "wbk-verdict"


def deciding_step(subject: object) -> Step | None:
    """The step a result's verdict rests on, which a picture gives as its reason: the one it
    names (its ``deciding_step``; None for none), else its last step (a rule's working ends in
    its verdict); None for what has no steps."""
    if hasattr(subject, "deciding_step"):
        named = subject.deciding_step
        if named is not None and not isinstance(named, Step):
            raise WbkError(
                f"a {type(subject).__name__}'s deciding_step {named!r} is not a "
                "wbk.explain.Step (or None)"
            )
        return named
    steps = getattr(subject, "steps", None)
    if isinstance(steps, Sequence) and steps and isinstance(steps[-1], Step):
        return steps[-1]
    return None


def add_reason(figure: Figure, subject: object, verdict: str | None = None) -> None:
    """Under the title of a picture of ``subject`` (a figure of its own, not a panel's), the
    reason its verdict rests on (``deciding_step``) with its rule, wrapped to the figure's
    width, so that the picture posted alone says why as well as what. A picture at a step
    (whose title is the step) has the whole answer's ``verdict`` and the reason above its title.
    The figure grows at its top to make room: nothing drawn moves on the page or is covered."""
    if not isinstance(figure, Figure):
        raise WbkError(f"add_reason: figure {figure!r} is not a matplotlib Figure")
    if verdict is not None and not isinstance(verdict, str):
        raise WbkError(f"add_reason: verdict {verdict!r} is not text")
    step = deciding_step(subject)
    if step is not None:
        _write_reason(figure, step, verdict)


def _write_reason(figure: Figure, step: Step, verdict: str | None) -> None:
    """``add_reason``'s work, for the deciding ``step`` given."""
    width = figure.get_figwidth() * 72 * 0.96
    stack: list[tuple[str, float, str]] = []  # the texts, top first: words, size, gid
    if verdict:  # its lines as the answer's title had them, each wrapped only if it must be
        fitted = [fit_title(line, width, 1, cut=False) for line in verdict.split("\n")]
        lines = [wrapped for part, _ in fitted for wrapped in part]
        stack.append(("\n".join(lines), min(size for _, size in fitted), VERDICT_ID))
    # a short rule is kept on one line ("SS Panzer errata 9.4", not "errata" and "9.4" apart)
    rule = step.rule.replace(" ", "\u00a0") if len(step.rule) <= SHORT_RULE else step.rule
    reason = wrap_to_width(f"Why: {step.text} ({rule})", width, REASON_SIZE)
    stack.append(("\n".join(reason), REASON_SIZE, REASON_ID))
    heights = [(words.count("\n") + 1) * size * LINE_HEIGHT / 72 for words, size, _ in stack]
    block = sum(heights) + HEADER_GAP * len(stack)
    figure.draw_without_rendering()
    figure.set_layout_engine("none")  # the layout found so far kept: the header is laid out here
    dpi, height = figure.dpi, figure.get_figheight()
    title = _top_title(figure)
    if title is None:
        base, top = height, height + block
    else:
        extent = title.get_window_extent()
        if verdict:  # the stack above the step's title
            base = extent.y1 / dpi + HEADER_GAP
            top = base + block
        else:  # the title moves up, the reason takes its place
            base = extent.y0 / dpi
            top = extent.y1 / dpi + block
            _raise(title, block, figure)
    grown = height + max(0.0, top + HEADER_GAP - height)
    _grow_at_top(figure, grown)
    y = base
    for (words, size, gid), tall in reversed(list(zip(stack, heights, strict=True))):
        figure.text(
            0.5,
            y / grown,
            words,
            ha="center",
            va="bottom",
            fontsize=size,
            color=REASON_COLOUR if gid == REASON_ID else "black",
            linespacing=LINE_HEIGHT,
            gid=gid,
        )
        y += tall + HEADER_GAP


def _top_title(figure: Figure) -> Text | None:
    """The topmost title of ``figure``: its suptitle or an axes' title (the verdict, or the step
    a picture at a step shows); None when it has none."""
    suptitle = getattr(figure, "_suptitle", None)
    titles = [suptitle] if isinstance(suptitle, Text) and suptitle.get_text() else []
    titles += [ax.title for ax in _every_axes(figure) if ax.title.get_text()]
    if not titles:
        return None
    return max(titles, key=lambda t: t.get_window_extent().y1)


def _every_axes(figure: Figure | SubFigure) -> list[Axes]:
    """The axes of ``figure`` and of its subfigures (a chart in parts laid out apart)."""
    return [*figure.axes, *(ax for part in figure.subfigs for ax in _every_axes(part))]


def verdict_of(subject: object) -> str:
    """The verdict ``picture(subject)`` gives in its title: what a panel's saved picture, at a
    step of a chart, says above the step."""
    return _top_title_text(picture(subject))


def _top_title_text(figure: Figure) -> str:
    """The text of ``figure``'s topmost title, in its lines ("" for none)."""
    figure.draw_without_rendering()
    title = _top_title(figure)
    return "" if title is None else title.get_text()


def _raise(title: Text, inches: float, figure: Figure) -> None:
    """``title`` moved up by ``inches`` (an axes' title, or the figure's suptitle)."""
    if title is getattr(figure, "_suptitle", None):
        x, y = title.get_position()
        title.set_position((x, y + inches / figure.get_figheight()))
    else:
        title.set_transform(
            title.get_transform() + ScaledTranslation(0, inches, figure.dpi_scale_trans)
        )


def _grow_at_top(figure: Figure, height: float) -> None:
    """``figure`` made ``height`` inches tall by adding room at its top: its axes and its texts
    keep their places, measured from its foot."""
    old = figure.get_figheight()
    if height <= old:
        return
    scale = old / height
    for ax in figure.axes:
        box = ax.get_position()
        ax.set_position((box.x0, box.y0 * scale, box.width, box.height * scale))
    for text in figure.texts:
        x, y = text.get_position()
        text.set_position((x, y * scale))
    for part in figure.subfigs:  # placed in fractions of the figure, its axes inside it
        box = part.bbox_relative
        box.y0, box.y1 = box.y0 * scale, box.y1 * scale
    figure.set_figheight(height)


#: The PNG text chunk that holds a picture's edge case (see ``wbk.widgets.load_edge_case``).
EDGE_CASE_KEY = "wbk edge case"
#: The caption's type size (points) and how many characters a line holds per inch of width.
CAPTION_SIZE = 7
CAPTION_CHARACTERS_AN_INCH = 16


def save_picture(
    subject: object,
    path: str | os.PathLike[str],
    *,
    map: HexMap | None = None,
    caption: str = "",
    edge_case: str | None = None,
    reason: Step | None = None,
    verdict: str | None = None,
) -> Path:
    """Save ``subject``'s picture (see ``picture``) to ``path``, PNG or SVG by its suffix;
    returns the path written. The folder must exist.

    ``caption``: small print under the legend (the rule illustrated, the settings unlike the
    defaults). ``edge_case``: TOML text a PNG carries in its metadata, for ``read_edge_case``.
    ``reason`` and ``verdict``: as for ``picture_bytes``, for a panel's figure.
    """
    if isinstance(path, bytes) or not isinstance(path, (str, os.PathLike)):
        raise WbkError(f"picture file {path!r} is not a file path")
    path = Path(path).expanduser()
    if path.suffix.lower() not in FORMATS:
        raise WbkError(f"picture file {path.name!r} should end in .png or .svg")
    if not path.parent.is_dir():
        raise WbkError(f"cannot save the picture to {path}: there is no folder {path.parent}")
    data = picture_bytes(
        subject,
        path.suffix,
        map=map,
        caption=caption,
        edge_case=edge_case,
        reason=reason,
        verdict=verdict,
    )
    write_atomically(path, data, "picture")
    return path


def picture_bytes(
    subject: object,
    suffix: str = ".png",
    *,
    map: HexMap | None = None,
    caption: str = "",
    edge_case: str | None = None,
    step: int | None = None,
    reason: Step | None = None,
    verdict: str | None = None,
) -> bytes:
    """The bytes ``save_picture`` writes, for a file that goes elsewhere (a download):
    ``suffix`` ".png" or ".svg"; ``step`` as for ``picture``. ``reason``: the step the verdict
    of a panel's figure rests on, written under its title as ``add_reason`` writes it (with the
    whole answer's ``verdict`` above, when the figure shows a step) on a copy: the panel's own
    figure stays as the reader sees it."""
    suffix = str(suffix).lower()
    if suffix not in FORMATS:
        raise WbkError(f"picture format {suffix!r} is not one of {', '.join(FORMATS)}")
    figure = picture(subject, map=map, step=step)
    if reason is not None:
        # a copy (the live canvas is left behind): the panel's figure stays as it is shown
        figure = copy.deepcopy(figure)
        _write_reason(figure, reason, verdict)
    metadata = {EDGE_CASE_KEY: edge_case} if edge_case is not None and suffix == ".png" else {}
    text = _add_caption(figure, caption) if caption else None
    buffer = io.BytesIO()
    try:
        figure.savefig(
            buffer,
            format=suffix[1:],
            dpi=110,
            metadata=metadata,
            bbox_inches="tight",
            pad_inches=0.1,
        )
    finally:
        if text is not None:
            text.remove()
    return buffer.getvalue()


def _add_caption(figure: Figure, caption: str) -> Text:
    """``caption`` in small type under everything the figure shows (its legend included),
    wrapped to the figure's width; saving with a tight box takes it in."""
    width, height = figure.get_size_inches()
    figure.draw_without_rendering()
    bottom = figure.get_tightbbox().y0  # inches from the figure's foot; below 0 if it overhangs
    wrapped = textwrap.fill(caption, width=int(width * CAPTION_CHARACTERS_AN_INCH))
    return figure.text(
        0.5,
        (bottom - 0.04) / height,
        wrapped,
        ha="center",
        va="top",
        fontsize=CAPTION_SIZE,
        color="#333333",
        linespacing=1.3,
    )


#: The largest picture file ``read_edge_case`` opens (a panel's PNG is 100-300 KB).
LARGEST_PICTURE = 20_000_000
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def read_edge_case(path: str | os.PathLike[str]) -> str:
    """The edge case (TOML text) that a PNG saved by a wbk panel carries; a file that is not
    such a picture is a ``WbkError`` naming it. Only the file's text chunks are read: a picture
    of any size costs no more than its bytes."""
    return edge_case_in_png(read_bytes(path, "picture", LARGEST_PICTURE), str(path))


def edge_case_in_png(data: bytes, source: str) -> str:
    """The edge case in a PNG's bytes: its text chunk ``EDGE_CASE_KEY`` (tEXt, or iTXt or zTXt,
    unpacked no further than ``LONGEST_FILE``), found without decoding a pixel."""
    if not data.startswith(PNG_SIGNATURE):
        raise WbkError(f"{source}: not a PNG picture")
    key = EDGE_CASE_KEY.encode("latin-1")
    at = len(PNG_SIGNATURE)
    while at + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[at : at + 8])
        body = data[at + 8 : at + 8 + length]
        at += 12 + length
        if kind == b"IEND" or len(body) < length:
            break
        name, _, rest = body.partition(b"\0")
        if name != key:
            continue
        if kind == b"tEXt":
            return rest.decode("latin-1")
        if kind == b"zTXt":
            return _inflated(rest[1:], source).decode("latin-1")
        if kind == b"iTXt":
            compressed, text = rest[0:1] == b"\1", rest[2:].split(b"\0", 2)
            if len(text) == 3:
                value = _inflated(text[2], source) if compressed else text[2]
                return decoded(value, source, "edge case")
    raise WbkError(
        f"{source}: the picture holds no edge case (only a PNG that a wbk panel saved does)"
    )


def _inflated(data: bytes, source: str) -> bytes:
    """A compressed text chunk unpacked, no further than ``LONGEST_FILE`` bytes."""
    unpacker = zlib.decompressobj()
    try:
        text = unpacker.decompress(data, LONGEST_FILE + 1)
    except zlib.error:
        raise WbkError(f"{source}: the picture's edge case is damaged") from None
    if len(text) > LONGEST_FILE:
        raise WbkError(f"{source}: the picture's edge case is larger than wbk reads")
    return text
