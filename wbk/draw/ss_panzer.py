"""SS Panzer's results drawn (see ``wbk.pictures``): a line of sight, a route and a victory on
their map, and a fire's dice as a chart."""

from __future__ import annotations

from collections.abc import Sequence

from matplotlib.figure import Figure

from wbk.explain import Step
from wbk.games.ss_panzer import FireDice, LosResult, Route, Victory
from wbk.pictures import on_map, picture
from wbk.plot import MapView
from wbk.quizplot import QuestionDrawing, mark_chosen_hexes, question_drawing
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


# --- quiz questions ---------------------------------------------------------------------------


def _sees(view: MapView, q, answer, chosen) -> None:
    m, s = view.map, q.settings
    view.mark(m.hex(s["firer"]), m.hex(s["target"]), labels=("firer", "target"))
    if answer is not None:
        view.show_line_of_sight(answer.result)
    mark_chosen_hexes(view, q, answer, chosen)


def _entry(view: MapView, q, answer, chosen) -> None:
    m, s = view.map, q.settings
    view.mark(m.hex(s["from"]), m.hex(s["to"]), labels=("from", "to"))
    mark_chosen_hexes(view, q, answer, chosen)


def _reach(view: MapView, q, answer, chosen) -> None:
    m = view.map
    view.mark(m.hex(q.settings["start"]), None, labels=("start", ""))
    if answer is not None:
        plan = answer.result
        reached = {h: mp for h, mp in plan.costs.items() if h != plan.start}
        view.highlight(reached, label="reachable (the number: MP spent)")
        view.show_numbers(reached)
    mark_chosen_hexes(view, q, answer, chosen)


question_drawing(
    "ss_panzer",
    "sees",
    QuestionDrawing(
        title=lambda q: f"Can {q.settings['firer']} see {q.settings['target']}?", draw=_sees
    ),
)
question_drawing(
    "ss_panzer",
    "entry_cost",
    QuestionDrawing(
        title=lambda q: (
            f"{q.settings['unit']}, {q.settings['from']} → {q.settings['to']}: what does it cost?"
        ),
        draw=_entry,
    ),
)
question_drawing(
    "ss_panzer",
    "may_enter",
    QuestionDrawing(
        title=lambda q: (
            f"{q.settings['unit']} in {q.settings['from']}, {q.settings['mp_left']} MP left: "
            f"enter {q.settings['to']}?"
        ),
        draw=_entry,
    ),
)
question_drawing(
    "ss_panzer",
    "reach",
    QuestionDrawing(
        title=lambda q: (
            f"{q.settings['unit']} from {q.settings['start']}: which hexes can it reach?"
        ),
        draw=_reach,
    ),
)
question_drawing(
    "ss_panzer",
    "step_loss_chance",
    QuestionDrawing(chart=lambda q: ("a step loss", "effect on the target")),
)
