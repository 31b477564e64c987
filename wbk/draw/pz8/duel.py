"""A Pz 8 duel drawn: two tanks trading shots, as a chart."""

from wbk.widgets.pz8 import duel_picture

__all__ = ["duel_picture"]
