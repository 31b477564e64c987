"""Pz 8's results drawn (see ``wbk.draw``): a shot, a reach, a platoon move and a rally on
their table, and a duel as a chart."""

from __future__ import annotations

from collections.abc import Sequence

from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from wbk.draw import in_figure, on_board
from wbk.draw.quiz import CHOSEN, RIGHT, QuestionDrawing, legend_key, question_drawing, rings
from wbk.draw.tables import TableView
from wbk.explain import Step
from wbk.games import pz8
from wbk.games.pz8 import quiz
from wbk.games.pz8.draw.duel import draw_duel
from wbk.games.pz8.draw.table import (
    shot_title,
    show_platoon,
    show_rally,
    show_reach,
    show_shot,
)


@in_figure.register
def _duel(subject: pz8.Duel, figure: Figure, *, step: int | None = None) -> None:
    figure.set_size_inches(9.0, 3.8)
    figure.set_layout_engine("constrained")
    draw_duel(figure, subject, step=step, curve=pz8.duel_curve(subject))


@on_board.register
def _shot(subject: pz8.Shot, view: TableView) -> Sequence[Step]:
    gun = getattr(view.table.piece(subject.firer), "gun", "")
    view.show_ranges(subject.firer, pz8.GUN_RANGES, gun=gun)
    show_shot(view, subject)
    return subject.steps


@on_board.register
def _reach(subject: pz8.MovementReach, view: TableView) -> Sequence[Step]:
    show_reach(view, subject)
    return subject.steps


@on_board.register
def _platoon_move(subject: pz8.PlatoonMove, view: TableView) -> Sequence[Step]:
    show_platoon(view, subject)
    return subject.steps


@on_board.register
def _rally(subject: pz8.Rally, view: TableView) -> Sequence[Step]:
    show_rally(view, subject)
    return subject.steps


# --- quiz questions ---------------------------------------------------------------------------


def _on_the_table(view: TableView, q, answer, chosen) -> None:
    """The shooter ringed; the learner's tanks in orange; revealed, a shot's ranges and sight,
    or the tanks that can be shot."""
    table, firer = q.board, q.settings.get("firer")
    sight_shown = answer is not None and q.kind in ("shot", "destroy_chance") and firer is not None
    if sight_shown:
        view.show_ranges(firer, pz8.GUN_RANGES, gun=table.piece(firer).gun)
        view.show_sight(answer.result.sight)
        view.set_title(shot_title(answer.result))
    marks = {}
    if chosen:
        points = [table.piece(name).position for name in chosen]
        picked = rings(view.ax, points, "o", size=22, colour=CHOSEN, edge_width=3)
        marks["your tanks"] = legend_key(picked)
    if answer is not None and q.kind == "targets":
        points = [table.piece(name).position for name in answer.value]
        right = rings(view.ax, points, "s", size=26, colour=RIGHT, edge_width=2)
        marks["can be shot"] = legend_key(right)
    if firer is not None and not sight_shown:
        x, y = table.piece(firer).position
        shooter = Line2D(
            [x],
            [y],
            marker="o",
            markersize=24,
            markerfacecolor="none",
            markeredgecolor="black",
            markeredgewidth=2,
            linestyle="none",
            zorder=9,
        )
        view.ax.add_line(shooter)
        marks["the shooter"] = legend_key(shooter)
    view.set_overlay_legend("quiz", marks)


question_drawing(
    quiz.Shot,
    QuestionDrawing(
        title=lambda q: f"{q.settings['firer']} → {q.settings['target']}: does it reach? in cover?",
        draw=_on_the_table,
        own_title=True,
    ),
)
question_drawing(
    quiz.Targets,
    QuestionDrawing(
        title=lambda q: f"Which tanks can {q.settings['firer']} shoot?", draw=_on_the_table
    ),
)
question_drawing(
    quiz.DestroyChance,
    QuestionDrawing(
        title=lambda q: f"{q.settings['firer']} → {q.settings['target']}: chance to destroy?",
        draw=_on_the_table,
        own_title=True,
    ),
)
question_drawing(
    quiz.Platoon,
    QuestionDrawing(
        title=lambda q: f"May the {q.settings['side']} platoon move together?",
        draw=_on_the_table,
    ),
)
question_drawing(quiz.Rally, QuestionDrawing(draw=_on_the_table))


def _the_move(view: TableView, q, answer, chosen) -> None:
    """The tank ringed and the point it would end its move at crossed; revealed, its reach by
    the roll under the question's readings."""
    table, tank = q.board, q.settings["tank"]
    if answer is not None:
        view.show_reach(answer.result)
    x, y = table.piece(tank).position
    mover = Line2D(
        [x],
        [y],
        marker="o",
        markersize=24,
        markerfacecolor="none",
        markeredgecolor="black",
        markeredgewidth=2,
        linestyle="none",
        zorder=9,
    )
    px, py = q.settings["point"]
    point = Line2D(
        [px],
        [py],
        marker="X",
        markersize=11,
        color=CHOSEN,
        markeredgecolor="black",
        linestyle="none",
        zorder=9,
    )
    view.ax.add_line(mover)
    view.ax.add_line(point)
    view.set_overlay_legend(
        "quiz", {"the tank": legend_key(mover), "where it would end": legend_key(point)}
    )


question_drawing(
    quiz.Reach,
    QuestionDrawing(
        title=lambda q: (
            f"Can {q.settings['tank']} end its move at "
            f"({q.settings['point'][0]:g}, {q.settings['point'][1]:g})?"
        ),
        draw=_the_move,
    ),
)
