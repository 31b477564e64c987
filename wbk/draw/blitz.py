"""Blitz Combat's results drawn (see ``wbk.pictures``): a fire procedure, a strength, a leader's
saving throws and rolled hits, each a chart of its steps."""

from __future__ import annotations

from matplotlib.figure import Figure

from wbk.games import blitz
from wbk.pictures import picture
from wbk.widgets.blitz import RolledHits, blitz_picture


@picture.register(blitz.FireProcedure)
@picture.register(blitz.Strength)
@picture.register(blitz.SavingThrows)
@picture.register(RolledHits)
def _blitz(subject, *, map=None, step=None, width=None, table=None) -> Figure:
    return blitz_picture(subject, step)
