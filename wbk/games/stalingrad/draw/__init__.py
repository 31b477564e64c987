"""Streets of Stalingrad's results drawn (see ``wbk.draw``): a lookup on a CRT, and a
retreat on its map; and its quiz questions (``wbk.draw.quiz``).

The drawings themselves, which the chapter's panels draw too: ``crt`` (the table, its bars, a
lookup), ``close_assault`` (9.67's advice) and ``retreat`` (9.87-9.89 on the map)."""

from __future__ import annotations

from collections.abc import Sequence

from matplotlib.figure import Figure

from wbk.draw import in_figure, on_board
from wbk.draw.maps import MapView
from wbk.draw.quiz import QuestionDrawing, mark_chosen_hexes, question_drawing
from wbk.explain import Step
from wbk.games.stalingrad import CrtLookup, Retreat, quiz
from wbk.games.stalingrad.draw.crt import LOOKUP_SIZE, lookup_picture
from wbk.games.stalingrad.draw.retreat import RetreatOverlay


@in_figure.register
def _lookup(subject: CrtLookup, figure: Figure, *, step: int | None = None) -> None:
    figure.set_size_inches(*LOOKUP_SIZE)
    figure.set_layout_engine("constrained")
    lookup_picture(subject, step, figure=figure)


@on_board.register
def _retreat(subject: Retreat, view: MapView) -> Sequence[Step]:
    RetreatOverlay(view).show_retreat(subject)
    return subject.steps


def _retreat_question(view: MapView, q, answer, chosen) -> None:
    """The situation, the defending hex marked; revealed, the retreat drawn."""
    situation = q.board
    overlay = RetreatOverlay(view)
    if answer is None:
        overlay.show_situation(situation)
        overlay.target.set_verts([view.polygons[view.index[situation.target]]])
        view.set_overlay_legend("retreat", {"defending hex": overlay.target})
    else:
        overlay.show(situation)
    mark_chosen_hexes(view, q, answer, chosen)


question_drawing(
    quiz.RetreatHexes,
    QuestionDrawing(
        title=lambda q: (
            f'A "P" on {q.board.map.label(q.board.target)}: where may its units retreat?'
        ),
        draw=_retreat_question,
        own_title=True,
    ),
)
question_drawing(
    quiz.RetreatLosses,
    QuestionDrawing(
        title=lambda q: f'A "P" on {q.board.map.label(q.board.target)}: how many units are lost?',
        draw=_retreat_question,
        own_title=True,
    ),
)
