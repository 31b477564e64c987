"""The quiz panel: a chapter's questions asked before they are answered, lichess-puzzle style.

The panel shows the question and its picture with nothing revealed; the learner answers by
clicking the map or the table (hexes, tanks) or by choosing, then "Check" says right or wrong and
reveals the answer with its working, each step citing its rule, and whether another reading
would change it. A score, "Next", "Shuffle", "only the questions I missed", and "New question":
a situation drawn from the chapter's map or table by a seed the panel shows.

>>> panel = QuizPanel.for_game("ss_panzer")
>>> panel.answer_with("yes"); panel.check()
>>> panel.score
(1, 1)
"""

from __future__ import annotations

import base64
import html
import io
import random
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import ipywidgets as widgets
from matplotlib.artist import Artist
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from wbk import quiz
from wbk.charts import bar_chart
from wbk.dice import Dist
from wbk.errors import WbkError
from wbk.explain import steps_html
from wbk.maps import HexMap
from wbk.plot import MapView, PictureView, center, figure_size, map_axes
from wbk.widgets import LIVE_NOTE, Panel, interactive_figure, reports_errors

__all__ = ["QuizPanel", "draw_question", "picture_title", "situation_html"]

RIGHT, WRONG = "#009E73", "#b03a2e"  # Okabe-Ito bluish green, and wbk's message red
CHOSEN = "#E69F00"  # Okabe-Ito orange: what the learner picked
WIDTH = 6.0
#: What the answer box says for each form of question.
_PROMPTS = {
    "number": "your answer",
    "fires": "dice (each fire)",
    "hexes": "your hexes",
    "tanks": "your tanks",
}


def _chosen_words(chosen) -> str:
    """Hexes or tanks as the answer box and the verdict list them: "1509, 1610" or "none"."""
    return ", ".join(sorted(chosen)) or "none"


def _given_words(q: quiz.Question, given) -> str:
    if q.form == "yes_no":
        return "yes" if given else "no"
    if q.form in ("hexes", "tanks"):
        return _chosen_words(given)
    if q.form == "fires":
        return " and ".join(str(n) for n in given)
    return str(given)


# --- pictures ---------------------------------------------------------------------------------


def _short(text: str, limit: int = 90) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _lines(text: str) -> str:
    """A title in at most two lines that fit a picture 6 inches wide."""
    return "\n".join(textwrap.wrap(_short(text.replace("\n", " "), 140), 72))


def _rings(
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
    (rings,) = ax.plot(
        [p[0] for p in points],
        [p[1] for p in points],
        marker,
        markersize=size,
        markerfacecolor="none",
        markeredgecolor=colour,
        markeredgewidth=edge_width,
        zorder=9,
    )
    return rings


def _map_question(figure: Figure, q: quiz.Question, answer, chosen, width: float):
    """A map question: the units' hexes marked, the learner's hexes in orange; revealed, the
    rules' answer drawn."""
    from wbk.widgets.stalingrad import RetreatOverlay

    situation = q.board if not isinstance(q.board, HexMap) else None
    m = situation.map if situation is not None else q.board
    view = _board_view(figure, m, figure_size(m, width), lambda: MapView(m, map_axes(figure)))
    s = q.settings
    if q.kind == "sees":
        view.mark(m.hex(s["firer"]), m.hex(s["target"]), labels=("firer", "target"))
        if answer is not None:
            view.show_line_of_sight(answer.result)
    elif q.kind in ("entry_cost", "may_enter"):
        view.mark(m.hex(s["from"]), m.hex(s["to"]), labels=("from", "to"))
    elif q.kind == "reach":
        view.mark(m.hex(s["start"]), None, labels=("start", ""))
    if situation is not None:
        overlay = RetreatOverlay(view)
        if answer is None:
            overlay.show_situation(situation)
            overlay.target.set_verts([view.polygons[view.index[situation.target]]])
            view.set_overlay_legend("retreat", {"defending hex": overlay.target})
        else:
            overlay.show(situation)
    if q.kind == "reach" and answer is not None:
        plan = answer.result
        reached = {h: mp for h, mp in plan.costs.items() if h != plan.start}
        view.highlight(reached, label="reachable (the number: MP spent)")
        view.show_numbers(reached)
    if q.form == "hexes" and chosen and answer is None:
        view.highlight([m.hex(label) for label in chosen], label="your hexes", colour=CHOSEN)
    elif q.form == "hexes" and chosen:
        points = [center(m.hex(label)) for label in chosen]
        picked = _rings(view.ax, points, "o", size=20, colour=CHOSEN, edge_width=2.5)
        view.set_overlay_legend("quiz", {"your hexes": _key(picked)})
    return view


def _table_question(figure: Figure, q: quiz.Question, answer, chosen, width: float):
    from wbk.games import pz8
    from wbk.tableplot import TableView, shot_title, table_axes, table_figure_size

    table = q.board
    size = table_figure_size(table, width)
    view = _board_view(figure, table, size, lambda: TableView(table, table_axes(figure)))
    s = q.settings
    firer = s.get("firer")
    if answer is not None and q.kind in ("shot", "destroy_chance") and firer is not None:
        view.show_ranges(firer, pz8.GUN_RANGES, gun=table.piece(firer).gun)
        view.show_sight(answer.result.sight)
        view.set_title(shot_title(answer.result))
    marks = {}
    if chosen:
        points = [table.piece(name).position for name in chosen]
        picked = _rings(view.ax, points, "o", size=22, colour=CHOSEN, edge_width=3)
        marks["your tanks"] = _key(picked)
    if answer is not None and q.kind == "targets":
        points = [table.piece(name).position for name in answer.value]
        right = _rings(view.ax, points, "s", size=26, colour=RIGHT, edge_width=2)
        marks["can be shot"] = _key(right)
    sight_shown = answer is not None and q.kind in ("shot", "destroy_chance")
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
        marks["the shooter"] = _key(shooter)
    view.set_overlay_legend("quiz", marks)
    return view


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
#: Overlay legends the quiz adds besides the view's own.
_OVERLAYS = ("quiz", "retreat", "situation")


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
        for key in _OVERLAYS:
            drawn.view.set_overlay_legend(key, {})
    else:
        figure.clear()
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


def situation_html(q: quiz.Question) -> str:
    """What a question needs shown beside its words: the CRT a column is read from."""
    if q.kind != "crt_column":
        return ""
    from wbk.games import stalingrad

    return stalingrad.example_crt(q.settings.get("crt", "illustrative_1d6"))._repr_html_()


def _key(line: Line2D) -> Line2D:
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


def picture_title(q: quiz.Question, readings: dict[str, str] | None = None) -> str:
    """The question in a picture's title, short, with any reading that is not the default."""
    s = q.settings
    titles = {
        "sees": lambda: f"Can {s['firer']} see {s['target']}?",
        "entry_cost": lambda: f"{s['unit']}, {s['from']} → {s['to']}: what does it cost?",
        "may_enter": lambda: (
            f"{s['unit']} in {s['from']}, {s['mp_left']} MP left: enter {s['to']}?"
        ),
        "reach": lambda: f"{s['unit']} from {s['start']}: which hexes can it reach?",
        "retreat_hexes": lambda: (
            f'A "P" on {q.board.map.label(q.board.target)}: where may its units retreat?'
        ),
        "retreat_losses": lambda: (
            f'A "P" on {q.board.map.label(q.board.target)}: how many units are lost?'
        ),
        "shot": lambda: f"{s['firer']} → {s['target']}: does it reach? in cover?",
        "targets": lambda: f"Which tanks can {s['firer']} shoot?",
        "destroy_chance": lambda: f"{s['firer']} → {s['target']}: chance to destroy?",
        "platoon": lambda: f"May the {s['side']} platoon move together?",
    }
    title = titles[q.kind]() if q.kind in titles and q.board is not None else _short(q.ask, 70)
    chosen = {**q.readings, **(readings or {})}
    odd = [f"{k}={v}" for k, v in chosen.items() if v != q.reading_options[k][0]]
    return title + (f" ({', '.join(odd)})" if odd else "")


def draw_question(
    figure: Figure,
    q: quiz.Question,
    *,
    answer: quiz.Answer | None = None,
    chosen: Sequence[str] = (),
    verdict: str = "",
    readings: dict[str, str] | None = None,
    width: float = WIDTH,
):
    """Draw question ``q`` on the cleared ``figure``: its map or table with the situation marked
    and the learner's ``chosen`` hexes or tanks, nothing of the answer; with ``answer`` (worked
    out under ``readings``), the rules' answer drawn too and ``verdict`` ("Right: ", "Wrong: ")
    in the title. A question with no board draws nothing until revealed, then the distribution
    of a chance. Returns the view (a ``MapView`` or ``TableView``, or the chart's axes), or None
    when there is nothing to draw."""
    title = picture_title(q, readings)
    if q.board is None:
        figure.clear()
        _forget_view(figure)
        if answer is None or not isinstance(answer.result, Dist):
            return None
        figure.set_size_inches(width, 3.4)
        ax = figure.add_axes((0.12, 0.18, 0.84, 0.66))
        s = q.settings
        what, xlabel = {
            "hits_chance": (f"{s.get('hits')} hits or more from {s.get('dice')} dice", "hits"),
            "damage_chance": (
                str(s.get("damage")).replace("_", " ")
                + ("" if s.get("damage") == "eliminated" else " or worse"),
                "damage",
            ),
            "step_loss_chance": ("a step loss", "effect on the target"),
        }.get(q.kind, ("", "outcome"))
        bar_chart(answer.result, ax=ax, title=None, xlabel=xlabel)
        ax.set_title(_lines(f"{verdict}{what}: {answer.words}"), fontsize=10)
        return ax
    if isinstance(q.board, HexMap) or hasattr(q.board, "units"):
        view = _map_question(figure, q, answer, chosen, width)
    else:
        view = _table_question(figure, q, answer, chosen, width)
    _remember_added(figure)
    drawn_own_title = answer is not None and (
        q.kind in ("retreat_hexes", "retreat_losses")
        or (q.game == "pz8" and q.kind in ("shot", "destroy_chance"))
    )
    if answer is None:
        view.set_title(_lines(title))
    elif drawn_own_title:
        view.set_title(_lines(f"{verdict}{view.ax.get_title()}"))
    else:
        view.set_title(_lines(f"{verdict}{title} {answer.words}"))
    return view


# --- the panel --------------------------------------------------------------------------------


class QuizPanel(Panel):
    """Ask a chapter's questions one at a time; ``QuizPanel.for_game("ss_panzer")`` asks the
    shipped quiz, ``QuizPanel(quiz.load(path))`` a teacher's."""

    def __init__(self, questions: quiz.Quiz | Sequence[quiz.Question], *, title: str = ""):
        super().__init__()
        if isinstance(questions, quiz.Quiz):
            title = title or questions.title
            questions = questions.questions
        self.questions = list(questions)
        if not self.questions:
            raise WbkError("a quiz panel needs at least one question")
        self.game = self.questions[0].game
        self.title = title or "Quiz"
        self.order = list(range(len(self.questions)))
        self.position = 0
        self.results: dict[str, bool] = {}
        self.right = self.asked = 0
        self.question = self.questions[0]
        self.revealed: quiz.Answer | None = None
        self.chosen: set[str] = set()

        self.header = widgets.HTML()
        self.ask = widgets.HTML()
        self.reading_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.readings: dict[str, widgets.Dropdown] = {}
        self.choice = widgets.ToggleButtons(options=["yes", "no"], value=None)
        self.choice.style.button_width = "auto"
        self.typed = widgets.Text(
            "", description="your answer", style={"description_width": "initial"}
        )
        self.check_button = widgets.Button(description="Check", button_style="primary")
        self.next_button = widgets.Button(description="Next")
        self.shuffle_button = widgets.Button(description="Shuffle")
        self.missed_only = widgets.Checkbox(
            False, description="only the questions I missed", indent=False
        )
        self.check_button.on_click(lambda _: self.check())
        self.next_button.on_click(lambda _: self.next())
        self.shuffle_button.on_click(lambda _: self.shuffle())
        self.missed_only.observe(lambda _: self.restart(), names="value")
        self.kind = widgets.Dropdown(
            options=[(words, kind) for kind, words in quiz.kinds(self.game).items()],
            description="new question of kind",
            style={"description_width": "initial"},
        )
        self.seed = widgets.BoundedIntText(
            1, min=0, max=10**9, description="seed", layout=widgets.Layout(width="150px")
        )
        self.new_button = widgets.Button(description="New question")
        self.new_button.on_click(lambda _: self.new_question())
        self.figure, self.canvas = interactive_figure((WIDTH, 4.0), layout=None)
        self.canvas.mpl_connect("button_press_event", self.on_click)
        self.view = None
        self.pane = widgets.HTML()
        answer_row = widgets.HBox([self.choice, self.typed, self.check_button])
        buttons = widgets.HBox([self.next_button, self.shuffle_button, self.missed_only])
        random_row = widgets.HBox([self.kind, self.seed, self.new_button])
        self.widget = widgets.VBox(
            [
                self.header,
                self.ask,
                self.reading_box,
                answer_row,
                self.message,
                self.canvas,
                self.pane,
                buttons,
                random_row,
            ]
        )
        self.show_question()

    @classmethod
    def for_game(cls, game: str) -> QuizPanel:
        """The panel of the quiz wbk ships for a chapter: "ss_panzer", "blitz", "stalingrad"
        or "pz8"."""
        return cls(quiz.shipped(game))

    # --- what the learner does -----------------------------------------------------------------

    @property
    def score(self) -> tuple[int, int]:
        """(right, checked) so far."""
        return self.right, self.asked

    def chosen_readings(self) -> dict[str, str]:
        return {key: box.value for key, box in self.readings.items()}

    def answer_with(self, given) -> None:
        """Answer as a learner would: a choice, a typed answer, or hexes or tanks."""
        q = self.question
        if q.form in ("yes_no", "choice", "band"):
            self.choice.value = given
        elif q.form in ("hexes", "tanks"):
            self.chosen = set(q.parse(given))
            self.typed.value = _chosen_words(self.chosen)
        else:
            self.typed.value = str(given)

    def _given(self):
        q = self.question
        if q.form in ("yes_no", "choice", "band"):
            if self.choice.value is None:
                raise WbkError("choose an answer first")
            return self.choice.value
        if q.form in ("hexes", "tanks"):
            return q.parse(self.typed.value)
        if not self.typed.value.strip():
            raise WbkError("type an answer first")
        return self.typed.value

    @reports_errors(stale=False)
    def check(self) -> None:
        """Say right or wrong, then reveal the answer with its working."""
        q = self.question
        given = q.parse(self._given())
        readings = self.chosen_readings()
        answer = q.answer(**readings)
        right = q.is_right(given, **readings)
        if self.revealed is None:  # a second check of the same question does not score again
            self.asked += 1
            self.right += right
            if q in self.questions:
                self.results[q.id] = right
        self.revealed = answer
        verdict = "Right: " if right else "Wrong: "
        colour = RIGHT if right else WRONG
        notes = q.reading_notes(**readings)
        changes = [n for n in notes if "answer changes" in n]
        same = len(notes) - len(changes)
        reading_html = "".join(f"<li>{html.escape(n)}</li>" for n in changes)
        if same:
            reading_html += (
                f"<li>{'The other reading gives' if same == 1 else 'The other readings give'}"
                " the same answer.</li>"
            )
        self.pane.value = (
            f'<p><b style="color:{colour}">{"Right" if right else "Wrong"}</b>: you said '
            f"{html.escape(_given_words(q, given))}; the answer is "
            f"<b>{html.escape(answer.words)}</b>.</p>"
            f"<p>The working ({html.escape(q.rule)}):</p>{steps_html(answer.steps)}"
            + (f"<p>Readings:</p><ul>{reading_html}</ul>" if reading_html else "")
        )
        self.show_message("")
        self.draw(verdict=verdict)
        self.show_header()

    @reports_errors(stale=False)
    def next(self) -> None:
        """The next question of the deck (back to the first after the last)."""
        if not self.order:
            raise WbkError("no questions left to ask: untick 'only the questions I missed'")
        self.position = (self.position + 1) % len(self.order)
        self.question = self.questions[self.order[self.position]]
        self.show_question()

    @reports_errors(stale=False)
    def shuffle(self, seed: int | None = None) -> None:
        """The deck in a new order, from its first question."""
        random.Random(seed).shuffle(self.order)
        self.position = 0
        if self.order:
            self.question = self.questions[self.order[0]]
        self.show_question()

    @reports_errors(stale=False)
    def restart(self) -> None:
        """The deck again: every question, or only those answered wrong last time."""
        indices = range(len(self.questions))
        if self.missed_only.value:
            self.order = [i for i in indices if self.results.get(self.questions[i].id) is False]
            if not self.order:
                self.missed_only.value = False  # which starts the whole deck again
                self.show_message("no missed questions: every question checked so far was right")
                return
        else:
            self.order = list(indices)
        self.position = 0
        self.question = self.questions[self.order[0]]
        self.show_question()

    @reports_errors(stale=False)
    def new_question(self, kind: str | None = None, seed: int | None = None) -> None:
        """A question of ``kind`` drawn by ``seed`` (the controls' by default)."""
        if kind is not None:
            self.kind.value = kind
        if seed is not None:
            self.seed.value = seed
        self.question = quiz.random_question(self.game, self.kind.value, self.seed.value)
        self.show_question()

    @reports_errors(stale=False)
    def on_click(self, event) -> None:
        """A click on the map or the table: toggle the hex or the tank clicked."""
        q = self.question
        if self.view is None or q.form not in ("hexes", "tanks") or self.revealed is not None:
            return
        if q.form == "hexes":
            h = self.view.hex_at(event.xdata, event.ydata)
            if h is None:
                raise WbkError("that click is off the map")
            name = self.view.map.label(h)
        else:
            name = self.view.piece_at(event.xdata, event.ydata)
            if name is None:
                raise WbkError("no tank there: click on a tank")
        self.chosen ^= {name}
        self.typed.value = _chosen_words(self.chosen)
        self.draw()  # the picks marked on the map or the table

    # --- showing -------------------------------------------------------------------------------

    def show_header(self) -> None:
        q = self.question
        if q in self.questions:
            where = f"question {self.position + 1} of {len(self.order)}"
        else:
            where = f"a drawn question: {q.kind}, seed {self.seed.value}"
        self.header.value = (
            f"<b>{html.escape(self.title)}</b> · {where} · score {self.right} of {self.asked}"
        )

    def show_question(self) -> None:
        q = self.question
        self.revealed = None
        self.chosen = set()
        self.pane.value = ""
        self.show_message("")
        extra = situation_html(q)
        how = {
            "hexes": " Click the hexes on the map (a second click takes one off), then Check.",
            "tanks": " Click the tanks on the table (a second click takes one off), then Check.",
        }.get(q.form, "")
        assumed = [
            quiz.reading(q.game, key).sentence(value)
            for key, value in q.readings.items()
            if value != q.reading_options[key][0]
        ]
        if assumed:
            how += f" Asked under the reading: {'; '.join(assumed)}."
        self.ask.value = (
            f"<p>{html.escape(q.ask)}{html.escape(how)}</p>"
            f'<p style="color:#595959;font-size:smaller">Rule: {html.escape(q.rule)}</p>{extra}'
        )
        self.readings = {}
        for key, values in q.reading_options.items():
            declared = quiz.reading(q.game, key)
            box = widgets.Dropdown(
                options=declared.options,
                value=q.readings.get(key, values[0]),
                description=declared.question,
                style={"description_width": "initial"},
            )
            box.observe(lambda _: self._reading_changed(), names="value")
            self.readings[key] = box
        self.reading_box.children = tuple(self.readings.values())
        choices = q.choices
        self.choice.layout.display = "flex" if choices else "none"
        if choices:
            self.choice.options = choices
            self.choice.value = None
        self.typed.layout.display = "none" if choices else "flex"
        self.typed.description = _PROMPTS.get(q.form, "your answer")
        self.typed.value = ""
        self.draw()
        self.show_header()

    @reports_errors(stale=False)
    def _reading_changed(self) -> None:
        """A reading switched: the answer on show is worked out again under it, or the picture
        says which reading the question is now asked under."""
        if self.revealed is not None:
            self.check()
        else:
            self.draw()

    def draw(self, verdict: str = "") -> None:
        self.view = draw_question(
            self.figure,
            self.question,
            answer=self.revealed,
            chosen=sorted(self.chosen),
            verdict=verdict,
            readings=self.chosen_readings(),
        )
        self.canvas.layout.display = "none" if self.view is None else "flex"
        self.canvas.draw_idle()

    def figures(self) -> list[Figure]:
        return [self.figure] if self.view is not None else []

    def static_html(self) -> str:
        """Every question with its picture, each answer with its working inside a closed
        ``<details class="wbk-quiz">`` a reader opens after answering in their head."""
        parts = [f'<div class="wbk-quiz-snapshot"><p><b>{html.escape(self.title)}</b></p>']
        # one figure for the questions and one for the answers: a board drawn once serves all
        figure, revealed = Figure(), Figure()
        for number, q in enumerate(self.questions, 1):
            view = draw_question(figure, q)
            choices = f" ({' / '.join(q.choices)})" if q.choices else ""
            parts.append(
                f"<p><b>{number}.</b> {html.escape(q.ask)}{html.escape(choices)} "
                f'<span style="color:#595959;font-size:smaller">({html.escape(q.rule)})</span></p>'
            )
            parts.append(situation_html(q))
            if view is not None:
                parts.append(_img(figure, q.ask))
            answer = q.answer()
            shown = draw_question(revealed, q, answer=answer)
            notes = "".join(
                f"<li>{html.escape(n)}</li>" for n in q.reading_notes() if "changes" in n
            )
            parts.append(
                '<details class="wbk-quiz"><summary>Answer</summary>'
                f"<p><b>{html.escape(answer.words)}</b></p>{steps_html(answer.steps)}"
                + (f"<ul>{notes}</ul>" if notes else "")
                + (_img(revealed, answer.words) if shown is not None else "")
                + "</details>"
            )
        parts.append(f"<p><i>{LIVE_NOTE}</i></p></div>")
        return "".join(parts)


def _img(figure: Figure, alt: str) -> str:
    """A picture for the static page, small: a chapter's quiz holds two dozen."""
    from PIL import Image  # matplotlib's own dependency

    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=72)
    # a palette of 96 colours keeps the picture as it looks at a quarter of the bytes
    small = Image.open(io.BytesIO(buffer.getvalue())).convert("RGB").quantize(colors=96)
    buffer = io.BytesIO()
    small.save(buffer, format="PNG")
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    return (
        f'<img src="data:image/png;base64,{data}" alt="{html.escape(alt)}" style="max-width:100%">'
    )
