"""The quiz panel as a learner uses it: answer right and wrong, the reveal and its working, the
score, Next, Shuffle, only the questions missed, readings, drawn questions, clicks, and the
static page's closed answers."""

import base64
import io
import re
from types import SimpleNamespace

import pytest
from PIL import Image

from wbk import quiz
from wbk.draw.maps import center
from wbk.errors import WbkError
from wbk.games import games
from wbk.widgets import PANELS_ENV
from wbk.widgets.quiz import QuizPanel


def click(panel, x, y):
    panel.on_click(SimpleNamespace(xdata=x, ydata=y))


def click_hex(panel, label):
    click(panel, *center(panel.view.map.hex(label)))


def go_to(panel, qid):
    for _ in panel.questions:
        if panel.question.id == qid:
            return
        panel.next()
    raise AssertionError(f"no question {qid}")


def title(panel) -> str:
    return panel.view.ax.get_title()


def test_next_moves_on_and_hides_the_answer_again():
    panel = QuizPanel.for_game("blitz")
    panel.answer_with(4)
    panel.check()
    panel.next()
    assert panel.question.id == "example-tank-in-woods" and panel.pane.value == ""
    assert panel.typed.value == "" and panel.view is None  # no picture to a Blitz question
    panel.answer_with("20")
    panel.check()
    assert panel.score == (2, 2) and "20 dice" in panel.pane.value
    assert "AT fire: × 5 = 20" in panel.pane.value


def test_no_answer_and_a_bad_answer_are_one_line_messages():
    panel = QuizPanel.for_game("blitz")
    panel.check()
    assert "type an answer first" in panel.message.value
    panel.typed.value = "six"
    panel.check()
    assert "answer 'six' is not a whole number" in panel.message.value
    assert "Traceback" not in panel.message.value and panel.score == (0, 0)


def test_shuffle_is_a_new_order_of_the_same_questions():
    panel = QuizPanel.for_game("stalingrad")
    panel.shuffle(seed=3)
    first = list(panel.order)
    assert sorted(first) == list(range(len(panel.questions))) and first != sorted(first)
    assert panel.question is panel.questions[first[0]]
    panel.shuffle(seed=3)  # the order is shuffled again from where it stands
    assert sorted(panel.order) == list(range(len(panel.questions)))


def test_only_the_questions_i_missed():
    panel = QuizPanel.for_game("pz8")
    panel.answer_with("shot, target in the open")  # right
    panel.check()
    panel.next()
    panel.answer_with("no shot")  # wrong: the T-34 is in cover
    panel.check()
    panel.missed_only.value = True
    assert [panel.questions[i].id for i in panel.order] == ["tiger-past-the-farmhouse"]
    assert panel.question.id == "tiger-past-the-farmhouse" and "question 1 of 1" in (
        panel.header.value
    )
    panel.missed_only.value = False
    assert len(panel.order) == len(panel.questions)


def test_only_missed_with_nothing_missed_says_so():
    panel = QuizPanel.for_game("pz8")
    panel.missed_only.value = True
    assert "no missed questions" in panel.message.value
    assert panel.missed_only.value is False and len(panel.order) == len(panel.questions)


def test_clicking_tanks_answers_a_targets_question():
    panel = QuizPanel.for_game("pz8")
    go_to(panel, "kv1-targets")
    table = panel.question.board
    click(panel, *table.piece("Pz IV 1").position)
    click(panel, *table.piece("Tiger").position)
    assert panel.typed.value == "Pz IV 1, Tiger"
    click(panel, 2, 45)
    assert "no tank there" in panel.message.value
    panel.check()
    assert ">Wrong</b>: you said Pz IV 1, Tiger; the answer is <b>Pz IV 1, Pz IV 2</b>" in (
        panel.pane.value
    )
    assert "Tiger: no shot (out of range; no line of sight)" in panel.pane.value


def test_a_drawn_question_of_each_kind_can_be_answered():
    for game, kinds in {k: quiz.kinds(k) for k, g in games().items() if g.has("quiz")}.items():
        panel = QuizPanel.for_game(game)
        for kind in kinds:
            panel.new_question(kind, 2)
            assert panel.message.value == "", (game, kind, panel.message.value)
            q = panel.question
            panel.answer_with(_right_answer(q))
            panel.check()
            assert ">Right</b>" in panel.pane.value, (game, kind)


def _right_answer(q):
    value = q.answer().value
    if q.form == "yes_no":
        return "yes" if value else "no"
    if q.form == "band":
        return quiz.band_names(value)[0]
    if q.form == "fires":
        return " ".join(map(str, value))
    if q.form in ("hexes", "tanks"):
        return sorted(value)
    return value


def test_static_html_holds_every_question_and_its_closed_answer(monkeypatch):
    panel = QuizPanel.for_game("blitz")
    page = panel.static_html()
    details = re.findall(r'<details class="wbk-quiz"[^>]*>', page)
    assert len(details) == len(panel.questions) >= 8
    assert all("open" not in d for d in details)  # closed until the reader opens it
    first_answer = page.index('<details class="wbk-quiz">')
    assert page.index("Three German infantry platoons") < first_answer
    assert page.index("3.75 rounds up to 4 dice") > first_answer  # the working only inside
    monkeypatch.setenv(PANELS_ENV, "static")
    assert panel._repr_mimebundle_()["text/html"] == page


def test_static_html_pictures_the_question_and_the_answer():
    retreats = quiz.shipped("stalingrad")
    panel = QuizPanel([retreats.question("one-way-out"), retreats.question("example-column")])
    page = panel.static_html()
    assert page.count("<img") == 2  # the retreat's question and answer; a CRT column has none
    assert ">10-19</th>" in page  # but the table it is read from
    question, answer = re.findall(r'<img src="data:image/png;base64,[^"]+" alt="([^"]*)"', page)
    assert question.startswith("A &quot;P&quot; result hits the rifle battalion in the clear hex")
    assert answer == "into 1314"
    assert page.index(">Answer</summary>") < page.index('alt="into 1314"')


def test_a_panel_needs_questions():
    with pytest.raises(WbkError, match="a quiz panel needs at least one question"):
        QuizPanel([])


def test_a_drawn_question_is_named_in_words_and_a_negative_count_says_at_least_0():
    """Issue 30: the header said "a drawn question: damage_chance"; typing -1 answered "is not a
    whole number"."""
    panel = QuizPanel.for_game("blitz")
    panel.new_question("damage_chance", 3)
    assert "a drawn question: chance of this damage or worse, seed 3" in panel.header.value
    assert "damage_chance" not in panel.header.value
    panel.new_question("dice", 3)
    panel.answer_with("-1")
    panel.check()
    assert "answer -1: a count is a whole number of at least 0" in panel.message.value
    assert "not a whole number" not in panel.message.value


def test_the_crt_shown_has_one_header_cell_per_column():
    """Issue 30: the Stalingrad quiz's CRT, its header in one cell per column, each padded
    and wide enough to read (tests/test_browser_quiz.py measures it in Chromium)."""
    q = quiz.shipped("stalingrad").question("example-column")
    table = q.shown()
    header = re.search(r"<thead><tr>(.*?)</tr></thead>", table).group(1)
    heads = re.findall(r"<th[^>]*>([^<]*)</th>", header)
    assert heads == ["roll", "1", "2", "3", "4", "5-9", "10-19", "20-29", "30+"]
    cells = re.findall(r"<t[hd]( [^>]*)?>", table)
    assert len(cells) == 9 * 7  # the header row and six rolls, nine cells each
    assert all("padding" in c and "min-width" in c and "border" in c for c in cells)


def test_a_static_picture_is_shown_at_its_size_and_holds_twice_the_pixels():
    """Issue 30: the site's quiz pictures drawn at 144 dpi and shown at 72 a figure inch, so a
    zoom opens them sharp."""
    panel = QuizPanel([quiz.shipped("stalingrad").question("one-way-out")])
    page = panel.static_html()
    data, width = re.search(
        r'<img src="data:image/png;base64,([^"]+)" alt="[^"]*" width="(\d+)"', page
    ).groups()
    png = Image.open(io.BytesIO(base64.b64decode(data)))
    assert png.width == 2 * int(width)


def test_a_panels_static_picture_is_shown_at_its_size_and_holds_twice_the_pixels():
    """Every panel's static page (``Panel.static_html``): drawn at 180 dpi, shown at 90 a figure
    inch as it always was."""
    import ipywidgets as widgets
    from matplotlib.figure import Figure

    from wbk.widgets import Panel

    class Pictured(Panel):
        def __init__(self):
            super().__init__()
            self.widget = widgets.VBox([self.message])

        def figures(self):
            figure = Figure(figsize=(4, 3))
            figure.add_subplot().set_title("a test picture")
            return [figure]

    page = Pictured().static_html()
    data, width = re.search(
        r'<img src="data:image/png;base64,([^"]+)" alt="a test picture" width="(\d+)"', page
    ).groups()
    assert width == "360"  # 4 inches at 90
    assert Image.open(io.BytesIO(base64.b64decode(data))).width == 720
