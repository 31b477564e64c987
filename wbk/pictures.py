"""Pictures worth posting: any of wbk's results drawn and saved in one call, as PNG or SVG, with
its title (the question and its answer) and its legend, exactly as a panel shows it.

>>> from wbk.maps import example_map
>>> from wbk.games.ss_panzer import line_of_sight
>>> m = example_map("ss_panzer_errata_9_4")
>>> picture(line_of_sight(m, "1712", "2014"), map=m).axes[0].get_title()
'1712 → 2014: blocked by slope hexside 1813/1913, slope hex 1913'
"""

from __future__ import annotations

import io
import os
import textwrap
from pathlib import Path

from matplotlib.figure import Figure
from matplotlib.text import Text

from wbk.dice import Dist
from wbk.errors import WbkError
from wbk.maps import HexMap
from wbk.plot import draw_map, figure_size, map_axes

__all__ = [
    "EDGE_CASE_KEY",
    "FORMATS",
    "picture",
    "picture_bytes",
    "read_edge_case",
    "save_picture",
]

FORMATS = (".png", ".svg")


def picture(subject: object, *, map: HexMap | None = None, width: float | None = None) -> Figure:
    """A figure of ``subject``: a line of sight or a route (drawn on ``map``), a map, a
    distribution (its bar chart), a ``MapView``, a panel (its picture) or a figure."""
    if isinstance(subject, Figure):
        return subject
    figure = getattr(subject, "figure", None)
    if isinstance(figure, Figure):  # a MapView, a panel
        return figure
    if isinstance(subject, Dist):
        from wbk.charts import bar_chart

        figure = Figure(figsize=(6.0, 3.6), layout="constrained")
        bar_chart(subject, ax=figure.add_subplot())
        return figure
    if isinstance(subject, HexMap):
        map, subject = subject, None
    if not isinstance(map, HexMap):
        raise WbkError(
            f"a picture of {type(subject).__name__} needs its map: picture(result, map=m)"
        )
    figure = Figure(figsize=figure_size(map, width))
    view = draw_map(map, ax=map_axes(figure))
    if subject is None:
        return figure
    if hasattr(subject, "verdict") and hasattr(subject, "trace"):
        view.show_line_of_sight(subject)
    elif hasattr(subject, "hexes") and hasattr(subject, "mp"):
        view.show_route(subject.hexes, label=f"path, {subject.mp} MP")
        view.set_title(
            f"{map.label(subject.hexes[0])} → {map.label(subject.hexes[-1])}: {subject.mp} MP"
        )
    else:
        raise WbkError(f"wbk cannot draw a {type(subject).__name__}")
    return figure


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
) -> Path:
    """Save ``subject``'s picture (see ``picture``) to ``path``, PNG or SVG by its suffix;
    returns the path written. The folder must exist.

    ``caption``: small print under the legend (the rule illustrated, the settings unlike the
    defaults). ``edge_case``: TOML text a PNG carries in its metadata, for ``read_edge_case``.
    """
    if isinstance(path, bytes) or not isinstance(path, (str, os.PathLike)):
        raise WbkError(f"picture file {path!r} is not a file path")
    path = Path(path).expanduser()
    if path.suffix.lower() not in FORMATS:
        raise WbkError(f"picture file {path.name!r} should end in .png or .svg")
    if not path.parent.is_dir():
        raise WbkError(f"cannot save the picture to {path}: there is no folder {path.parent}")
    try:
        path.write_bytes(
            picture_bytes(subject, path.suffix, map=map, caption=caption, edge_case=edge_case)
        )
    except OSError as e:
        raise WbkError(f"cannot save the picture to {path}: {e.strerror}") from None
    return path


def picture_bytes(
    subject: object,
    suffix: str = ".png",
    *,
    map: HexMap | None = None,
    caption: str = "",
    edge_case: str | None = None,
) -> bytes:
    """The bytes ``save_picture`` writes, for a file that goes elsewhere (a download):
    ``suffix`` ".png" or ".svg"."""
    suffix = str(suffix).lower()
    if suffix not in FORMATS:
        raise WbkError(f"picture format {suffix!r} is not one of {', '.join(FORMATS)}")
    figure = picture(subject, map=map)
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


def read_edge_case(path: str | os.PathLike[str]) -> str:
    """The edge case (TOML text) that a PNG saved by a wbk panel carries; a file that is not
    such a picture is a ``WbkError`` naming it."""
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(path) as image:
            image.load()
            chunks = dict(getattr(image, "text", {}))
    except FileNotFoundError:
        raise WbkError(f"{path}: cannot read the picture (no such file)") from None
    except (OSError, UnidentifiedImageError) as e:
        raise WbkError(f"{path}: not a PNG picture ({e})") from None
    if EDGE_CASE_KEY not in chunks:
        raise WbkError(
            f"{path}: the picture holds no edge case (only a PNG that a wbk panel saved does)"
        )
    return str(chunks[EDGE_CASE_KEY])
