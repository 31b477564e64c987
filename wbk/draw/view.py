"""What every picture wbk draws shares (a hex map, a table, a chart): its title, fitted to the
picture's width on at most two lines (``fit_title``, the one title fitter of wbk), a legend of
what it shows, rebuilt only when it changes (``PictureView``), a step's marks and its title,
and the artists drawn again and again alike, drawn cheaply: the layers that change only with
the board (``CachedArtists``: its terrain, its labels) and short texts stamped from a picture of
themselves (``StampedText``: a hex's label or number). A panel redraws its picture on every
click; these keep that quick (see each class for what it saves)."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, cast

import matplotlib
import matplotlib.artist
import numpy as np
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.collections import LineCollection
from matplotlib.colors import to_rgba
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties, findfont
from matplotlib.lines import Line2D
from matplotlib.patches import Patch
from matplotlib.text import Text
from matplotlib.textpath import TextToPath
from matplotlib.transforms import TransformedPath

from wbk.errors import WbkError
from wbk.explain import count

_TEXT_TO_PATH = TextToPath()


#: Title sizes (points) tried in turn until the title fits on two lines.
TITLE_SIZES = (10.0, 9.0, 8.0)


def text_width(text: str, size: float) -> float:
    """The width in points of ``text`` set at ``size`` points in matplotlib's default font."""
    # measuring a text costs half a millisecond, and a title is tried at up to three sizes, word
    # by word, on every update of its panel; a width grows in proportion to the size (TextToPath
    # measures at one size and scales), so each text is measured once per font
    return _width_at_one_point(text, findfont(FontProperties())) * size


@functools.lru_cache(maxsize=4096)
def _width_at_one_point(text: str, font: str) -> float:
    width, _height, _descent = _TEXT_TO_PATH.get_text_width_height_descent(
        text, FontProperties(fname=font, size=1), ismath=False
    )
    return float(width)


def wrap_to_width(text: str, width: float, size: float) -> list[str]:
    """``text`` broken at spaces into lines no wider than ``width`` points at ``size`` points
    (a word longer than a line stays whole); its own line breaks are kept."""
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split(" "):
            tried = f"{line} {word}" if line else word
            if line and text_width(tried, size) > width:
                lines.append(line)
                line = word
            else:
                line = tried
        lines.append(line)
    return lines


#: The narrowest a character is set, in ems: no line of a title holds more than its width over
#: this, so the rest of a long title is never measured.
NARROWEST_CHARACTER = 0.2


def fit_title(
    text: str,
    width: float,
    most_lines: int = 2,
    *,
    sizes: Sequence[float] = TITLE_SIZES,
    cut: bool = True,
    break_after: Sequence[str] = (),
) -> tuple[list[str], float]:
    """A title's lines and type size to fit ``width`` points on ``most_lines`` lines (the two
    kept above a map), at the largest of ``sizes`` that fits. If even the smallest is too large,
    the last line ends in "…" (``cut``), or the title takes as many lines as it needs at the
    smallest (``cut=False``: a step's words, never cut). ``break_after``: marks ("; ", ": ") a
    title in two lines breaks after rather than inside what follows them (a question and its
    answer), where each part then fits one line."""
    if cut:  # however long the title, only what could fit on its lines is wrapped and measured
        room = most_lines * int(width / (NARROWEST_CHARACTER * min(sizes))) + 1
        text = text[:room]
    for size in sizes:
        lines = wrap_to_width(text, width, size)
        if len(lines) == 2 and break_after:
            lines = _broken_after(text, lines, width, size, break_after)
        if len(lines) <= most_lines:
            return lines, size
    if not cut:
        return lines, size
    last = " ".join(lines[most_lines - 1 :])
    # the longest start of the last line that fits with its "…" (found by halving)
    fits, too_long = 0, len(last) + 1
    while too_long - fits > 1:
        middle = (fits + too_long) // 2
        if text_width(last[:middle] + " …", size) <= width:
            fits = middle
        else:
            too_long = middle
    return [*lines[: most_lines - 1], last[:fits].rstrip() + " …"], size


def _broken_after(
    text: str, lines: list[str], width: float, size: float, marks: Sequence[str]
) -> list[str]:
    for mark in marks:
        at = text.rfind(mark)
        parts = [text[: at + 1], text[at + 2 :]]
        if at > 0 and all(len(wrap_to_width(part, width, size)) == 1 for part in parts):
            return parts
    return lines


class PictureView:
    """What every drawn picture shares (a hex map, a table): its title and a legend of what it
    shows, the overlays' entries kept by overlay and the legend rebuilt only when it changes.
    A subclass says what its picture holds in ``picture_entries``."""

    #: how the legend sits below the picture
    legend_style: ClassVar[dict[str, Any]] = {
        "ncol": 3,
        "fontsize": 7,
        "frameon": False,
        "handlelength": 1.6,
        "handletextpad": 0.6,
        "columnspacing": 1.0,
        "labelspacing": 0.3,
        "borderaxespad": 0.3,
    }

    def __init__(self, ax: Axes) -> None:
        self.ax, self.figure = ax, cast(Figure, ax.figure)
        self.overlay_legend: dict[str, dict[str, object]] = {}
        self._legend_key: list[tuple[str, tuple]] | None = None
        self._title_text = ax.get_title()

    def set_title(self, text: str) -> None:
        """The picture's title: the question it answers and its answer, wrapped at word breaks
        to the picture's width (at most two lines; smaller type rather than cut off)."""
        if text == self._title_text:
            return
        self._title_text = text
        width = self.ax.get_position().width * self.figure.get_figwidth() * 72
        lines, size = fit_title(text, width)
        # a fixed place (y=1): matplotlib's automatic title placement measures the hidden axis
        # ticks on every draw, which costs more than drawing the map
        self.ax.set_title("\n".join(lines), fontsize=size, y=1.0)

    def title(self) -> str:
        """The title as set, before it was wrapped."""
        return self._title_text

    def set_overlay_legend(self, key: str, entries: Mapping[str, object]) -> None:
        """Name in the legend what overlay ``key`` draws now (an empty ``entries``: nothing)."""
        self.overlay_legend[key] = dict(entries)
        self.update_legend()

    def clear_step(self) -> None:
        """Take a step's marks off: the whole answer again (a view that marks steps takes its
        marks off too)."""
        self.set_overlay_legend("step", {})

    def picture_entries(self) -> dict[str, object]:
        """The legend entries of what the picture always shows (terrain, markers...)."""
        return {}

    def legend_entries(self) -> dict[str, object]:
        """What the picture shows, in the legend's words: its own entries, then each overlay's."""
        entries = self.picture_entries()
        for overlay in self.overlay_legend.values():
            for text, artist in overlay.items():
                entries[text] = legend_handle(artist)
        return entries

    def update_legend(self) -> None:
        entries = self.legend_entries()
        key = [(text, _handle_key(handle)) for text, handle in entries.items()]
        if key == self._legend_key:
            return  # the same legend: keep it (making one costs as much as drawing the map)
        self._legend_key = key
        old = self.ax.get_legend()
        if old is not None:
            old.remove()
        if entries:
            ncol, labels = self.legend_layout(list(entries))
            self.ax.legend(
                cast(list[Artist], list(entries.values())),
                labels,
                loc="upper center",
                bbox_to_anchor=(0.5, 0.0),
                **{**self.legend_style, "ncol": ncol},
            )

    def legend_layout(self, texts: list[str]) -> tuple[int, list[str]]:
        """The legend's columns and its texts wrapped to fit them, so that it stays within the
        picture's width: of 3 or 4 columns, the fewer lines (issue 30: a long entry ran off
        both edges)."""
        style = self.legend_style
        size = float(style["fontsize"])
        width = self.figure.get_figwidth() * 72 * 0.98
        pads = (style["handlelength"] + style["handletextpad"] + style["columnspacing"]) * size
        ncol = int(style["ncol"])
        rows = -(-len(texts) // ncol)
        columns = [texts[at : at + rows] for at in range(0, len(texts), rows)]
        widest = [max(text_width(t, size) for t in column) for column in columns]
        if sum(widest) + pads * len(columns) <= width:
            return ncol, texts  # as they are: the legend fits the picture's width
        best: tuple[int, int, list[str]] | None = None
        for tried in (ncol, ncol + 1):
            column = width / tried - pads
            wrapped = ["\n".join(wrap_to_width(text, column, size)) for text in texts]
            rows = -(-len(texts) // tried)  # the legend fills each column before the next
            lines = sum(
                max(wrapped[i].count("\n") + 1 for i in range(row, len(texts), rows))
                for row in range(rows)
            )
            if best is None or lines < best[0]:
                best = (lines, tried, wrapped)
        assert best is not None
        return best[1], best[2]


def _handle_key(handle) -> tuple:
    """What a legend handle looks like, to tell whether a legend changed."""
    parts: tuple[object, ...]
    if isinstance(handle, Patch):
        parts = ("patch", handle.get_facecolor(), handle.get_edgecolor(), handle.get_hatch())
    else:
        parts = (
            "line",
            handle.get_color(),
            handle.get_linestyle(),
            handle.get_linewidth(),
            handle.get_marker(),
            handle.get_markerfacecolor(),
            handle.get_markeredgecolor(),
        )
    return tuple(repr(np.asarray(p).tolist()) if not isinstance(p, str) else p for p in parts)


def legend_handle(artist):
    """A stand-in for an overlay artist in the legend (an empty overlay has nothing to show)."""
    if isinstance(artist, Patch):
        return artist
    if isinstance(artist, Line2D) and np.size(artist.get_xdata()) == 0:
        return artist
    if isinstance(artist, Line2D):
        return Line2D(
            [],
            [],
            color=artist.get_color(),
            linestyle=artist.get_linestyle(),
            linewidth=min(artist.get_linewidth(), 3),
            marker=artist.get_marker(),
            markerfacecolor=artist.get_markerfacecolor(),
            markeredgecolor=artist.get_markeredgecolor(),
            markersize=6,
        )
    if isinstance(artist, LineCollection):
        colour = to_rgba(np.asarray(artist.get_color())[0])
        width = float(np.atleast_1d(artist.get_linewidth())[0])
        return Line2D([], [], color=colour, linewidth=min(width, 4))
    return Patch(
        facecolor="none",
        edgecolor=artist.get_edgecolor()[0],
        hatch=artist.get_hatch(),
        linewidth=1.5,
        linestyle=artist.get_linestyle()[0],  # a dashed outline's swatch dashed too
    )


#: Type sizes for a step's title, largest first: the largest at which it takes at most
#: ``STEP_TITLE_LINES`` lines, else the smallest with as many lines as it needs (never cut).
STEP_TITLE_SIZES = (9.0, 8.0, 7.0)


STEP_TITLE_LINES = 3


#: What a step is about: drawn over everything, in Okabe-Ito sky blue with a dark edge, so it
#: stands apart from the line's own colours (blue, vermillion, orange, pink).
#: Okabe-Ito's sky blue: what a step is about, marked on any picture.
SKY_BLUE = "#56B4E9"


STEP_COLOUR = SKY_BLUE


STEP_EDGE = "#1a1a1a"


def step_index(steps: Sequence[object], step: object) -> int:
    """``step`` as an index into ``steps`` (a negative one counts from the end); a step that is
    not there is a ``WbkError`` saying how many steps there are."""
    n = len(steps)
    if isinstance(step, bool) or not isinstance(step, int):
        raise WbkError(f"step {step!r} is not a whole number (an index into the {n} steps)")
    if not -n <= step < n:
        there = f"steps 0 to {n - 1}, or -1 for the last" if n else "no steps"
        raise WbkError(f"step {step} is not one of the answer's {count(n, 'step')} ({there})")
    return step % n


def checked_view(view: object, function: str, kind: type | None = None) -> None:
    """A ``WbkError`` naming ``function`` unless ``view`` is a drawn picture (of ``kind``)."""
    kind = kind or PictureView
    if not isinstance(view, kind):
        raise WbkError(f"{function}: view {view!r} is not a {kind.__name__} (a drawn picture)")


def step_title(view: PictureView, text: str) -> None:
    """A long title (a step in words with its rule) wrapped to the picture's width at the
    largest of ``STEP_TITLE_SIZES`` that keeps it to ``STEP_TITLE_LINES`` lines, else in as many
    lines as it needs at the smallest: never cut off."""
    checked_view(view, "step_title")
    if not isinstance(text, str):
        raise WbkError(f"step_title: title {text!r} is not text")
    width = view.ax.get_position().width * view.figure.get_figwidth() * 72
    lines, size = fit_title(text, width, STEP_TITLE_LINES, sizes=STEP_TITLE_SIZES, cut=False)
    view.ax.set_title("\n".join(lines), fontsize=size, y=1.0)
    # keep the view's record of its title, so that its next set_title replaces this one
    view._title_text = text


class CachedArtists(matplotlib.artist.Artist):
    """Artists that change only with the map (the terrain, the hex labels) drawn as one. On a
    raster canvas drawn a second time alike they are drawn into a transparent picture of the
    canvas's size, which each later draw lays over the map: a panel redraws on every click, and
    a map's 150 labels alone cost more to draw than its hexes. A new canvas size or resolution,
    or ``changed()``, starts again; another renderer (SVG, PDF) gets the artists themselves."""

    def __init__(self, artists: list, ax, *, zorder: float):
        super().__init__()
        self.artists = artists
        for artist in artists:
            artist.set_figure(ax.figure)
            artist.axes = ax
            artist.set_transform(ax.transData)
            artist.set_clip_path(ax.patch)
        self.set_zorder(zorder)
        self._key: tuple | None = None
        self._seen: tuple | None = None
        self._picture: tuple[int, np.ndarray] | None = None
        self._version = 0

    def changed(self) -> None:
        """Say that the artists changed: the next draw draws them again."""
        self._version += 1
        self.stale = True

    def draw(self, renderer):
        if not self.get_visible():
            return
        from matplotlib.backends.backend_agg import RendererAgg

        if not isinstance(renderer, RendererAgg):
            for artist in self.artists:
                artist.draw(renderer)
            return
        ax = self.axes
        if ax is None:
            return
        key = (
            renderer.width,
            renderer.height,
            renderer.dpi,
            tuple(ax.bbox.bounds),
            ax.get_xlim(),
            ax.get_ylim(),
            self._version,
        )
        if key != self._key and key != self._seen:
            # drawn once like this so far (a picture in a notebook is drawn only once): no picture
            self._seen = key
            for artist in self.artists:
                artist.draw(renderer)
            return
        if key != self._key:
            layer = RendererAgg(int(renderer.width), int(renderer.height), renderer.dpi)
            for artist in self.artists:
                artist.draw(layer)
            picture = np.asarray(layer.buffer_rgba())
            rows = np.flatnonzero(picture[:, :, 3].any(axis=1))
            self._picture = (rows[0], picture[rows[0] : rows[-1] + 1].copy()) if len(rows) else None
            self._key = key
        if self._picture is not None:
            top, picture = self._picture
            gc = renderer.new_gc()
            renderer.draw_image(gc, 0, renderer.height - top - len(picture), picture[::-1])
            gc.restore()
        self.stale = False


class StampedText(Text):
    """A text drawn often (a hex's label or number, a chart's titles): on a raster canvas,
    drawn once per string and resolution into a small picture, which is then stamped where the
    text goes
    (outlined text costs a millisecond a draw: a map's labels were half of the time a chapter's
    picture took, and a movement range prints a hundred numbers)."""

    _stamps: ClassVar[dict] = {}

    def draw(self, renderer):
        from matplotlib.backends.backend_agg import RendererAgg

        if not (self.get_visible() and isinstance(renderer, RendererAgg)) or self.get_rotation():
            return super().draw(renderer)
        text = self.get_text()
        if not text:
            return
        effects = tuple(
            (type(e).__name__, repr(getattr(e, "_gc", None)), repr(getattr(e, "_offset", None)))
            for e in self.get_path_effects()
        )
        # how the lines of a text of several are aligned: matplotlib has no getter for it
        lines_aligned = getattr(self, "_multialignment", None) or self.get_horizontalalignment()
        key = (
            text,
            renderer.dpi,
            self.get_fontsize(),
            self.get_fontweight(),
            str(self.get_color()),
            self.get_horizontalalignment(),
            self.get_verticalalignment(),
            lines_aligned,
            self.get_linespacing(),
            effects,
        )
        stamp = self._stamps.get(key)
        if stamp is None:
            lines = text.split("\n")
            longest = max(2 * len(lines), max(map(len, lines)) + 2)  # a line is < 2 letters tall
            size = int(renderer.dpi * max(1.0, float(self.get_fontsize()) / 72 * longest))
            canvas = RendererAgg(2 * size, 2 * size, renderer.dpi)
            probe = Text(
                size,
                size,
                text,
                ha=self.get_horizontalalignment(),
                va=self.get_verticalalignment(),
                fontsize=self.get_fontsize(),
                fontweight=self.get_fontweight(),
                color=self.get_color(),
                path_effects=self.get_path_effects(),
                multialignment=lines_aligned,
                linespacing=self.get_linespacing(),
            )
            probe.set_figure(self.figure)
            probe.set_transform(matplotlib.transforms.IdentityTransform())
            probe.draw(canvas)
            picture = np.asarray(canvas.buffer_rgba())
            rows = np.flatnonzero(picture[:, :, 3].any(axis=1))
            cols = np.flatnonzero(picture[:, :, 3].any(axis=0))
            # the anchor sits at (size, size) from the bottom left; rows count from the top
            stamp = (
                cols[0] - size,
                size - 1 - rows[-1],
                picture[rows[0] : rows[-1] + 1, cols[0] : cols[-1] + 1][::-1].copy(),
            )
            if len(self._stamps) > 2000:
                self._stamps.clear()
            self._stamps[key] = stamp
        dx, dy, picture = stamp
        x, y = self.get_transform().transform(self.get_unitless_position())
        gc = renderer.new_gc()
        if self.get_clip_on():  # a zoomed map's labels end at its axes, as drawn text does
            gc.set_clip_rectangle(self.get_clip_box())
            clip = self.get_clip_path()  # stored as a TransformedPath, whatever it was set with
            gc.set_clip_path(clip if isinstance(clip, TransformedPath) else None)
        renderer.draw_image(gc, round(x) + dx, round(y) + dy, picture)
        gc.restore()
        self.stale = False


def stamp_texts(figure) -> int:
    """Draw every text of ``figure`` that is not rotated (tick labels, a chart's cell numbers,
    its titles) from a stamp, as ``StampedText`` does: a chart redrawn on every click whose
    texts are most of its cost (the gun-against-armour panel: 90 texts, two thirds of a draw).
    Only how each is drawn changes; the number of texts so changed."""
    changed = 0
    for text in figure.findobj(Text):
        if type(text) is Text and not text.get_rotation():
            text.__class__ = StampedText
            changed += 1
    return changed
