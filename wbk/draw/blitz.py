"""Blitz Combat's results drawn (see ``wbk.pictures``): a fire procedure, a strength, a leader's
saving throws and rolled hits, each a chart of its steps."""

from __future__ import annotations

from matplotlib.figure import Figure

from wbk.games import blitz
from wbk.pictures import picture
from wbk.quizplot import QuestionDrawing, question_drawing
from wbk.widgets.blitz import RolledHits, blitz_picture


@picture.register(blitz.FireProcedure)
@picture.register(blitz.Strength)
@picture.register(blitz.SavingThrows)
@picture.register(RolledHits)
def _blitz(subject, *, map=None, step=None, width=None, table=None) -> Figure:
    return blitz_picture(subject, step)


def _damage_chart(q) -> tuple[str, str]:
    damage = str(q.settings.get("damage"))
    worse = "" if damage == "eliminated" else " or worse"
    return damage.replace("_", " ") + worse, "damage"


question_drawing(
    "blitz",
    "hits_chance",
    QuestionDrawing(
        chart=lambda q: (
            f"{q.settings.get('hits')} hits or more from {q.settings.get('dice')} dice",
            "hits",
        )
    ),
)
question_drawing("blitz", "damage_chance", QuestionDrawing(chart=_damage_chart))
