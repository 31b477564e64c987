"""Pictures worth posting: any of wbk's results drawn and saved in one call, as PNG or SVG, with
its title (the question and its answer) and its legend, exactly as a panel shows it.

>>> from wbk.maps import example_map
>>> from wbk.games.ss_panzer import line_of_sight
>>> m = example_map("ss_panzer_errata_9_4")
>>> picture(line_of_sight(m, "1712", "2014"), map=m).axes[0].get_title()
'1712 → 2014: blocked by slope hexside 1813/1913, slope hex 1913'
"""

from __future__ import annotations

import os
from pathlib import Path

from matplotlib.figure import Figure

from wbk.dice import Dist
from wbk.errors import WbkError
from wbk.maps import HexMap
from wbk.plot import MapView, draw_map, figure_size, map_axes

__all__ = ["FORMATS", "picture", "save_picture"]

FORMATS = (".png", ".svg")


def picture(subject, *, map: HexMap | None = None, width: float | None = None) -> Figure:
    """A figure of ``subject``: a line of sight or a route (drawn on ``map``), a map, a
    distribution (its bar chart), a ``MapView``, a panel (its picture) or a figure."""
    if isinstance(subject, Figure):
        return subject
    if isinstance(subject, MapView):
        return subject.figure
    figure = getattr(subject, "figure", None)
    if isinstance(figure, Figure):  # a panel
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


def save_picture(subject, path: str | os.PathLike, *, map: HexMap | None = None) -> Path:
    """Save ``subject``'s picture (see ``picture``) to ``path``, PNG or SVG by its suffix;
    returns the path written. A missing folder is made."""
    if isinstance(path, bytes) or not isinstance(path, (str, os.PathLike)):
        raise WbkError(f"picture file {path!r} is not a file path")
    path = Path(path).expanduser()
    if path.suffix.lower() not in FORMATS:
        raise WbkError(f"picture file {path.name!r} should end in .png or .svg")
    figure = picture(subject, map=map)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        figure.savefig(path, dpi=110)
    except OSError as e:
        raise WbkError(f"cannot save the picture to {path}: {e.strerror}") from None
    return path
