"""Artists that a map picture draws again and again alike, drawn cheaply: the layers that change
only with the map (``CachedArtists``: its terrain, its hex labels) and short texts stamped from
a picture of themselves (``StampedText``: a hex's label or number). A panel redraws its map on
every click; these keep that quick (see each class for what it saves)."""

from __future__ import annotations

from typing import ClassVar

import matplotlib
import matplotlib.artist
import numpy as np
from matplotlib.text import Text
from matplotlib.transforms import TransformedPath

__all__ = ["CachedArtists", "StampedText", "stamp_texts"]


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
