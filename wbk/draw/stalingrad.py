"""Streets of Stalingrad's results drawn (see ``wbk.pictures``): a lookup on a CRT, and a
retreat on its map."""

from __future__ import annotations

from collections.abc import Sequence

from matplotlib.figure import Figure

from wbk.explain import Step
from wbk.games.stalingrad import CrtLookup, Retreat
from wbk.pictures import on_map, picture
from wbk.plot import MapView
from wbk.widgets.stalingrad.crt import lookup_picture
from wbk.widgets.stalingrad.retreat import RetreatOverlay


@picture.register
def _lookup(subject: CrtLookup, *, map=None, step=None, width=None, table=None) -> Figure:
    return lookup_picture(subject, step)


@on_map.register
def _retreat(subject: Retreat, view: MapView) -> Sequence[Step]:
    RetreatOverlay(view).show_retreat(subject)
    return subject.steps
