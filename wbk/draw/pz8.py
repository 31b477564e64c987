"""Pz 8's results drawn (see ``wbk.pictures``): a shot, a reach, a platoon move and a rally on
their table, and a duel as a chart."""

from __future__ import annotations

from matplotlib.figure import Figure

from wbk.errors import WbkError
from wbk.games import pz8
from wbk.pictures import picture
from wbk.tableplot import table_picture
from wbk.widgets.pz8 import duel_picture


@picture.register
def _duel(subject: pz8.Duel, *, map=None, step=None, width=None, table=None) -> Figure:
    return duel_picture(subject, step)


@picture.register(pz8.Shot)
@picture.register(pz8.MovementReach)
@picture.register(pz8.PlatoonMove)
@picture.register(pz8.Rally)
def _on_table(subject, *, map=None, step=None, width=None, table=None) -> Figure:
    if table is None:
        raise WbkError(
            f"a picture of a {type(subject).__name__} needs its table: picture(result, table=t)"
        )
    return table_picture(table, subject, step=step, width=width)
