"""A quiz question drawn (``wbk.quiz``): its map or table with the situation marked and the
learner's picks, nothing of the answer; revealed, the rules' answer drawn, and right or wrong
in the title. A question asked on no board draws nothing until revealed, then the distribution
of its chance.

What a kind of question marks on its board is the game's own: its drawing module registers a
``QuestionDrawing`` for each kind (``question_drawing(game, kind, ...)``), as it registers its
results with ``wbk.draw``. Every question gets the rest: the board, the learner's hexes or
tanks (``mark_chosen_hexes``, ``rings``), the title.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from matplotlib.artist import Artist
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from wbk.dice import Dist
from wbk.draw.charts import bar_chart
from wbk.draw.maps import MapView, center, figure_size, map_axes
from wbk.draw.pictures import picture
from wbk.draw.tables import TableView, table_axes, table_figure_size
from wbk.draw.view import PictureView
from wbk.errors import WbkError
from wbk.games import game_of
from wbk.maps import HexMap
from wbk.quiz import Answer, Attempt, Question, QuizKind, kind_of, reading
from wbk.table import Table

__all__ = [
    "QuestionDrawing",
    "draw_question",
    "mark_chosen_hexes",
    "picture_title",
    "question_drawing",
    "rings",
]

RIGHT, WRONG = "#009E73", "#b03a2e"  # Okabe-Ito bluish green, and wbk's message red
CHOSEN = "#E69F00"  # Okabe-Ito orange: what the learner picked
WIDTH = 6.0


@dataclass(frozen=True)
class QuestionDrawing:
    """How a game draws one kind of its questions.

    - ``title(question)``: the question in a picture's title, short ("Can 1712 see 2014?");
      without it, the question's own words, cut to fit;
    - ``draw(view, question, answer, chosen)``: mark the situation and the learner's ``chosen``
      hexes or tanks on the board's view, and with ``answer`` (None until revealed) the rules'
      answer;
    - ``own_title``: the answer's drawing sets a title of its own (a retreat's, a shot's), which
      the verdict goes in front of;
    - ``chart(question)``: for a question on no board, what its chart shows and its x label.
    """

    title: Callable[[Question], str] | None = None
    draw: Callable[[Any, Question, Answer | None, Sequence[str]], None] | None = None
    own_title: bool = False
    chart: Callable[[Question], tuple[str, str]] | None = None


_DRAWINGS: dict[type[QuizKind], QuestionDrawing] = {}


def question_drawing(kind: type[QuizKind], drawing: QuestionDrawing) -> None:
    """Draw the questions of ``kind`` (a ``QuizKind`` class) so: a rule set's drawing module
    calls this for the kinds it marks on their board."""
    if not (isinstance(kind, type) and issubclass(kind, QuizKind)):
        raise WbkError(f"{kind!r} is not a QuizKind class")
    if not isinstance(drawing, QuestionDrawing):
        raise WbkError(f"{drawing!r} is not a QuestionDrawing")
    _DRAWINGS[kind] = drawing


def _drawing(q: Question) -> QuestionDrawing:
    kind = type(kind_of(q))
    found = game_of(kind)
    if found is not None and found.has("draw"):
        found.part("draw")
    return next((_DRAWINGS[k] for k in kind.__mro__ if k in _DRAWINGS), QuestionDrawing())


def _short(text: str, limit: int = 90) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _lines(text: str) -> str:
    """A title in at most two lines that fit a picture 6 inches wide."""
    return "\n".join(textwrap.wrap(_short(text.replace("\n", " "), 140), 72))


def rings(
    ax,
    points: Sequence[tuple[float, float]],
    marker: str,
    *,
    size: float,
    colour: str,
    edge_width: float,
) -> Line2D:
    """Hollow ``marker``s of ``colour`` around ``points``, above the board: the learner's picks
    or the rules' answer, drawn so the hex or tank under them stays readable."""
    (marks,) = ax.plot(
        [p[0] for p in points],
        [p[1] for p in points],
        marker,
        markersize=size,
        markerfacecolor="none",
        markeredgecolor=colour,
        markeredgewidth=edge_width,
        zorder=9,
    )
    return marks


def mark_chosen_hexes(view: MapView, q: Question, answer, chosen: Sequence[str]) -> None:
    """The learner's hexes on a map: filled in orange before the answer, orange rings over the
    rules' answer once it is drawn."""
    if q.form != "hexes" or not chosen:
        return
    m = view.map
    if answer is None:
        view.highlight([m.hex(label) for label in chosen], label="your hexes", colour=CHOSEN)
        return
    points = [center(m.hex(label)) for label in chosen]
    picked = rings(view.ax, points, "o", size=20, colour=CHOSEN, edge_width=2.5)
    view.set_overlay_legend("quiz", {"your hexes": legend_key(picked)})


def _question_view(figure: Figure, q: Question, width: float):
    """The view of the board ``q`` is asked on: its map (a situation's too) or its table."""
    board = q.board
    m = board if isinstance(board, HexMap) else getattr(board, "map", None)
    if isinstance(m, HexMap):
        return _board_view(
            figure, board, figure_size(m, width), lambda: MapView(m, map_axes(figure))
        )
    if isinstance(board, Table):
        size = table_figure_size(board, width)
        return _board_view(figure, board, size, lambda: TableView(board, table_axes(figure)))
    raise WbkError(f"question {q.id!r}: wbk cannot draw a board that is a {type(board).__name__}")


@dataclass
class _Drawn:
    """The board a figure shows and what the last question added to it: the next question on
    the same board takes those away and reuses the view, whose terrain and labels are drawn
    once and kept as a picture (drawing 143 hex labels anew would cost a second each time)."""

    board: object
    view: PictureView
    size: tuple[float, ...]
    before: set = field(default_factory=set)
    added: list = field(default_factory=list)


_DRAWN = "_wbk_quiz_drawn"


def _board_view(figure: Figure, board, size: tuple[float, float], make: Callable[[], Any]):
    drawn = getattr(figure, _DRAWN, None)
    if (
        drawn is not None
        and drawn.size == tuple(size)
        and drawn.view.ax in figure.axes
        and drawn.board == board
    ):
        for artist in drawn.added:
            artist.remove()
        drawn.view.clear()
        for key in list(drawn.view.overlay_legend):
            drawn.view.set_overlay_legend(key, {})
    else:
        figure.clear()
        figure.set_layout_engine("none")
        figure.set_size_inches(*size)
        drawn = _Drawn(board, make(), tuple(size))
        setattr(figure, _DRAWN, drawn)
    drawn.before = set(drawn.view.ax.get_children())
    return drawn.view


def _owned(view) -> set:
    """The artists a view keeps (some it makes only when first needed, as a hex's number)."""
    owned: set = {view.ax.get_legend()}
    for value in vars(view).values():
        values = value.values() if isinstance(value, dict) else value
        if isinstance(values, (list, tuple, type({}.values()))):
            owned.update(v for v in values if isinstance(v, Artist))
        elif isinstance(value, Artist):
            owned.add(value)
    return owned


def _remember_added(figure: Figure) -> None:
    drawn = getattr(figure, _DRAWN)
    owned = _owned(drawn.view)
    drawn.added = [
        a for a in drawn.view.ax.get_children() if a not in drawn.before and a not in owned
    ]


def _forget_view(figure: Figure) -> None:
    if hasattr(figure, _DRAWN):
        delattr(figure, _DRAWN)


def legend_key(line: Line2D) -> Line2D:
    """A legend entry drawn like ``line``'s markers (an empty line, as the legend wants)."""
    return Line2D(
        [],
        [],
        linestyle="none",
        marker=line.get_marker(),
        markersize=9,
        markerfacecolor="none",
        markeredgecolor=line.get_markeredgecolor(),
        markeredgewidth=2,
    )


def picture_title(q: Question, readings: Mapping[str, str] | None = None) -> str:
    """The question in a picture's title, short, with any reading that is not the default in
    its declared words."""
    short = _drawing(q).title
    title = short(q) if short is not None and q.board is not None else _short(q.ask, 70)
    chosen = {**q.readings, **(readings or {})}
    options = q.reading_options
    odd = [
        reading(q.game, k).tag(v) for k, v in chosen.items() if k in options and v != options[k][0]
    ]
    return title + (f" ({'; '.join(odd)})" if odd else "")


def draw_question(
    figure: Figure,
    q: Question,
    *,
    answer: Answer | None = None,
    chosen: Sequence[str] = (),
    verdict: str = "",
    readings: Mapping[str, str] | None = None,
    width: float = WIDTH,
):
    """Draw question ``q`` on ``figure``: its map or table with the situation marked and the
    learner's ``chosen`` hexes or tanks, nothing of the answer; with ``answer`` (worked out
    under ``readings``), the rules' answer drawn too and ``verdict`` ("Right: ", "Wrong: ") in
    the title. A question on no board shows nothing until revealed, then its answer's own
    picture (a distribution's bars, a result as ``picture`` draws it). Returns the view (a
    ``MapView`` or ``TableView``, or the chart's axes), or None when there is nothing to draw
    (a question on no board not yet answered, or an answer wbk draws no picture of)."""
    title = picture_title(q, readings)
    drawing = _drawing(q)
    if q.board is None:
        figure.clear()
        figure.set_layout_engine("none")  # the question before may have laid its figure out
        _forget_view(figure)
        if answer is None:
            return None
        if isinstance(answer.result, Dist):
            figure.set_size_inches(width, 3.4)
            ax = figure.add_axes((0.12, 0.18, 0.84, 0.66))
            what, xlabel = drawing.chart(q) if drawing.chart else ("", "outcome")
            bar_chart(answer.result, ax=ax, title=None, xlabel=xlabel)
            ax.set_title(_lines(f"{verdict}{what}: {answer.words}"), fontsize=10)
            return ax
        try:
            picture(answer.result, figure=figure)
        except WbkError:  # a result no rule set draws: the answer in words only
            figure.clear()
            return None
        figure.suptitle(_lines(f"{verdict}{answer.words}"), fontsize=10, color="#1a1a1a")
        return figure.axes[0] if figure.axes else None
    view = _question_view(figure, q, width)
    if drawing.draw is not None:
        drawing.draw(view, q, answer, chosen)
    elif isinstance(view, MapView):
        mark_chosen_hexes(view, q, answer, chosen)
    _remember_added(figure)
    if answer is None:
        view.set_title(_lines(title))
    elif drawing.own_title:
        view.set_title(_lines(f"{verdict}{view.ax.get_title()}"))
    else:
        view.set_title(_lines(f"{verdict}{title} {answer.words}"))
    return view


def board_view(figure: Figure) -> MapView | TableView | None:
    """The view of the board a quiz question was drawn on in ``figure`` (a click on it is a
    pick), or None for a question on no board."""
    drawn = getattr(figure, _DRAWN, None)
    if drawn is None or drawn.view.ax not in figure.axes:
        return None
    return cast(MapView | TableView, drawn.view)


def draw_attempt(attempt: Attempt, figure: Figure, *, step: int | None = None) -> None:
    """``picture``'s drawing of a learner at a question (``wbk.quiz.Attempt``): the question's
    board, kept from the question before when it is the same board, and what ``draw_question``
    marks on it."""
    if step is not None:
        raise WbkError(f"a quiz question's picture has no steps to draw at step {step!r}")
    draw_question(
        figure,
        attempt.question,
        answer=attempt.answer,
        chosen=attempt.chosen,
        verdict=attempt.verdict,
        readings=attempt.readings,
    )


#: ``picture`` hands a figure it was given over uncleared: the board drawn for the question
#: before is kept (drawing 143 hex labels anew costs a second)
draw_attempt.keeps_figure = True  # type: ignore[attr-defined]
