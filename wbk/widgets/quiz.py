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
from collections.abc import Sequence
from pathlib import Path

import ipywidgets as widgets
from matplotlib.figure import Figure

from wbk import quiz
from wbk.draw import MapView, TableView, picture
from wbk.draw.quiz import RIGHT, WIDTH, WRONG, board_view
from wbk.errors import WbkError
from wbk.explain import steps_html
from wbk.widgets import LIVE_NOTE, FileInput, Panel, in_app, interactive_figure, reports_errors

__all__ = ["QuizPanel"]
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


# --- the panel --------------------------------------------------------------------------------


class QuizPanel(Panel):
    """Ask a chapter's questions one at a time; ``QuizPanel.for_game("ss_panzer")`` asks the
    quiz a rule set ships. A teacher's own quiz file is loaded in the panel ("quiz file": its
    path in JupyterLab, an upload in the app), every answer in it worked out again by the
    rules: a file that is wrong is refused in one line, and the questions on show stay."""

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
        self.file = FileInput(
            "quiz",
            description="your quiz file",
            tooltip="a quiz file you wrote (the format is in wbk's reference): its questions "
            "replace these",
        )
        self.file.observe(lambda _: self.load_quiz(), names="value")
        self.figure, self.canvas = interactive_figure((WIDTH, 4.0), layout=None)
        self.canvas.mpl_connect("button_press_event", self.on_click)
        #: the board the question is drawn on (a click on it is a pick), None for none
        self.view: MapView | TableView | None = None
        self.pane = widgets.HTML()
        answer_row = widgets.HBox([self.choice, self.typed, self.check_button])
        buttons = widgets.HBox([self.next_button, self.shuffle_button, self.missed_only])
        random_row = widgets.HBox([self.kind, self.seed, self.new_button])
        self.control_row = widgets.HBox([self.file], layout=widgets.Layout(flex_flow="row wrap"))
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
                self.control_row,
            ]
        )
        self.show_question()

    @classmethod
    def for_game(cls, game: str) -> QuizPanel:
        """The panel of the quiz the rule set ``game`` ships (``wbk.games``)."""
        return cls(quiz.shipped(game))

    @reports_errors(stale=False)
    def load_quiz(self) -> None:
        """Ask the quiz in the file the reader gave: its path, or the file they uploaded (which
        names no other file: a map or a table it needs is inline)."""
        text, name = self.file.text()
        folder = None if in_app() else Path(name).parent
        loaded = quiz.from_toml(text, source=Path(name).name, folder=folder)
        self.questions, self.title, self.game = list(loaded.questions), loaded.title, loaded.game
        self.kind.options = [(words, kind) for kind, words in quiz.kinds(self.game).items()]
        self.results, self.right, self.asked, self.missed_only.value = {}, 0, 0, False
        self.order, self.position = list(range(len(self.questions))), 0
        self.question = self.questions[0]
        self.show_question()
        self.show_message("")

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
        typed = self.typed.value.strip()
        if not typed:
            raise WbkError("type an answer first")
        if q.form == "number" and typed.startswith("-") and typed[1:].isdigit():
            raise WbkError(f"answer {typed}: a count is a whole number of at least 0")
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
            + _settled_html(q, readings)
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
        if isinstance(self.view, MapView):
            h = self.view.hex_at(event.xdata, event.ydata)
            if h is None:
                raise WbkError("that click is off the map")
            name = self.view.map.label(h)
        else:
            tank = self.view.piece_at(event.xdata, event.ydata)
            if tank is None:
                raise WbkError("no tank there: click on a tank")
            name = tank
        self.chosen ^= {name}
        self.typed.value = _chosen_words(self.chosen)
        self.draw()  # the picks marked on the map or the table

    # --- showing -------------------------------------------------------------------------------

    def show_header(self) -> None:
        q = self.question
        if q in self.questions:
            where = f"question {self.position + 1} of {len(self.order)}"
        else:
            kind = quiz.kinds(self.game).get(q.kind, q.kind.replace("_", " "))
            where = f"a drawn question: {kind}, seed {self.seed.value}"
        self.header.value = (
            f"<b>{html.escape(self.title)}</b> · {where} · score {self.right} of {self.asked}"
        )

    def show_question(self) -> None:
        q = self.question
        self.revealed = None
        self.chosen = set()
        self.pane.value = ""
        self.show_message("")
        extra = q.shown()
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
        attempt = quiz.Attempt(
            self.question,
            tuple(sorted(self.chosen)),
            self.revealed,
            verdict,
            self.chosen_readings(),
        )
        picture(attempt, figure=self.figure)
        self.view = board_view(self.figure)
        shown = bool(self.figure.axes)
        self.canvas.layout.display = "flex" if shown else "none"
        if self.revealed is not None and not shown:
            self.show_message(f"wbk draws no picture of this answer: {self.revealed.words}")
        self.canvas.draw_idle()

    def figures(self) -> list[Figure]:
        return [self.figure] if self.figure.axes else []

    def static_html(self) -> str:
        """Every question with its picture, each answer with its working inside a closed
        ``<details class="wbk-quiz">`` a reader opens after answering in their head."""
        parts = [f'<div class="wbk-quiz-snapshot"><p><b>{html.escape(self.title)}</b></p>']
        # one figure for the questions and one for the answers: a board drawn once serves all
        figure, revealed = Figure(), Figure()
        for number, q in enumerate(self.questions, 1):
            picture(quiz.Attempt(q), figure=figure)
            choices = f" ({' / '.join(q.choices)})" if q.choices else ""
            parts.append(
                f"<p><b>{number}.</b> {html.escape(q.ask)}{html.escape(choices)} "
                f'<span style="color:#595959;font-size:smaller">({html.escape(q.rule)})</span></p>'
            )
            parts.append(q.shown())
            if figure.axes:
                parts.append(_img(figure, q.ask))
            answer = q.answer()
            picture(quiz.Attempt(q, answer=answer), figure=revealed)
            notes = "".join(
                f"<li>{html.escape(n)}</li>" for n in q.reading_notes() if "changes" in n
            )
            parts.append(
                '<details class="wbk-quiz"><summary>Answer</summary>'
                f"<p><b>{html.escape(answer.words)}</b></p>{steps_html(answer.steps)}"
                + (f"<ul>{notes}</ul>" if notes else "")
                + _settled_html(q)
                + (_img(revealed, answer.words) if revealed.axes else "")
                + "</details>"
            )
        parts.append(f"<p><i>{LIVE_NOTE}</i></p></div>")
        return "".join(parts)


def _settled_html(q: quiz.Question, readings: dict[str, str] | None = None) -> str:
    """The readings the text settles for this question, each with what settles it, as HTML."""
    notes = q.settled_notes(**(readings or {}))
    items = "".join(f"<li>{html.escape(n)}</li>" for n in notes)
    return f"<p>Settled by the text:</p><ul>{items}</ul>" if items else ""


#: Dots per inch of a static quiz picture, and the width the page shows it at: 110 a figure
#: inch, as wide as the page's column (a 6-inch map is 660 pixels, readable without a click),
#: drawn at 144 so that the full-size view is sharp.
_DPI, _SHOWN_DPI = 144, 110


def _img(figure: Figure, alt: str) -> str:
    """A picture for the static page, as wide as its column (at most)."""
    from PIL import Image  # matplotlib's own dependency

    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=_DPI)
    # a palette of 96 colours keeps the picture as it looks at a quarter of the bytes
    small = Image.open(io.BytesIO(buffer.getvalue())).convert("RGB").quantize(colors=96)
    buffer = io.BytesIO()
    small.save(buffer, format="PNG")
    data = base64.b64encode(buffer.getvalue()).decode("ascii")
    width = round(figure.get_figwidth() * _SHOWN_DPI)
    return (
        f'<img src="data:image/png;base64,{data}" alt="{html.escape(alt)}" width="{width}" '
        'style="max-width:100%;height:auto">'
    )
