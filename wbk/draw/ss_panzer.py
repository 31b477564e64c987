"""SS Panzer's results drawn (see ``wbk.pictures``): a line of sight, a route and a victory on
their map, and a fire's dice as a chart."""

from __future__ import annotations

from collections.abc import Sequence

from matplotlib.figure import Figure

from wbk.explain import Step
from wbk.games.ss_panzer import FireDice, LosResult, Route, Victory
from wbk.pictures import on_map, picture
from wbk.plot import MapView
from wbk.widgets.ss_panzer import draw_victory, fire_picture


@picture.register
def _fire_dice(subject: FireDice, *, map=None, step=None, width=None, table=None) -> Figure:
    return fire_picture(subject, step=step)


@on_map.register
def _line_of_sight(subject: LosResult, view: MapView) -> Sequence[Step]:
    view.show_line_of_sight(subject)
    return tuple(subject.steps)


@on_map.register
def _route(subject: Route, view: MapView) -> Sequence[Step]:
    m = view.map
    view.show_route(subject.hexes, label=f"path, {subject.mp} MP")
    view.set_title(f"{m.label(subject.hexes[0])} → {m.label(subject.hexes[-1])}: {subject.mp} MP")
    return tuple(getattr(subject, "steps", ()))


@on_map.register
def _victory(subject: Victory, view: MapView) -> Sequence[Step]:
    draw_victory(view, subject)
    return subject.steps
