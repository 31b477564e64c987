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


def test_the_question_comes_first_with_nothing_revealed():
    panel = QuizPanel.for_game("ss_panzer")
    assert panel.question.id == "slope-example-1"
    assert "Can a unit in 1813 see a unit in 2014" in panel.ask.value
    assert "SS Panzer errata 9.4, example 1" in panel.ask.value
    assert panel.pane.value == ""
    assert title(panel) == "Can 1813 see 2014?"  # the picture asks, it does not answer
    assert panel.choice.options == ("yes", "no") and panel.choice.value is None
    assert "score 0 of 0" in panel.header.value and "question 1 of 15" in panel.header.value


def test_a_right_answer_is_scored_and_revealed_with_its_working():
    panel = QuizPanel.for_game("ss_panzer")
    panel.answer_with("yes")
    panel.check()
    assert panel.score == (1, 1)
    assert ">Right</b>: you said yes; the answer is <b>yes: clear</b>" in panel.pane.value
    assert "crosses slope hexside 1813/1913, a side of the firer&#x27;s hex" in panel.pane.value
    assert "(SS Panzer errata 9.4)" in panel.pane.value
    assert title(panel) == "Right: Can 1813 see 2014? yes: clear"
    panel.check()  # checking again reveals again but does not score twice
    assert panel.score == (1, 1)


def test_a_wrong_answer_is_scored_and_the_answer_revealed():
    panel = QuizPanel.for_game("ss_panzer")
    panel.next()  # slope example 2: 1712 does not see 2014
    panel.answer_with("yes")
    panel.check()
    assert panel.score == (0, 1)
    assert ">Wrong</b>: you said yes; the answer is <b>no: blocked by slope hexside" in (
        panel.pane.value
    )
    assert title(panel).startswith("Wrong: Can 1712 see 2014? no: blocked by slope hexside")
    assert "score 0 of 1" in panel.header.value


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


def test_a_reading_reveal_says_whether_the_other_reading_changes_the_answer():
    panel = QuizPanel.for_game("ss_panzer")
    go_to(panel, "beyond-the-hill")
    assert list(panel.readings) == ["slope_hex", "slope_hex_of", "slope_end"]
    panel.readings["slope_end"].value = "touches"  # before the check: the picture says so
    assert title(panel) == "Can 1712 see 2113? (a line through a slope's end: only touches it)"
    assert panel.pane.value == ""
    panel.readings["slope_end"].value = "crosses"
    panel.answer_with("yes")
    panel.check()
    assert ">Wrong</b>" in panel.pane.value
    assert "only slope hexsides block&#x27;, the answer changes: yes: clear." in panel.pane.value
    assert "The other readings give the same answer." in panel.pane.value
    # asked under the other reading, the same answer is right
    panel.readings["slope_hex"].value = "hexsides_only"
    assert ">Right</b>: you said yes; the answer is <b>yes: clear</b>" in panel.pane.value
    assert "not see beyond it&#x27;, the answer changes: no" in panel.pane.value
    assert "(slope hexes: only slope hexsides block)" in title(panel)


def test_a_question_asked_under_a_reading_says_so():
    panel = QuizPanel.for_game("ss_panzer")
    go_to(panel, "slope-end")
    assert "Asked under the reading: only slope hexsides block." in panel.ask.value
    assert panel.readings["slope_hex"].value == "hexsides_only"


def test_clicking_hexes_answers_a_reach_question():
    panel = QuizPanel.for_game("ss_panzer")
    go_to(panel, "one-hex-rule")
    assert "Click the hexes on the map" in panel.ask.value
    for label in ("1509", "1510", "1609", "1611", "1709", "1710", "1712"):
        click_hex(panel, label)
    click_hex(panel, "1712")  # a second click takes it off
    assert panel.typed.value == "1509, 1510, 1609, 1611, 1709, 1710"
    click(panel, -50, -50)
    assert "that click is off the map" in panel.message.value
    panel.check()
    assert panel.score == (1, 1) and ">Right</b>" in panel.pane.value
    assert "1609: 4 MP: more than its MP, only as the one hex of a Move action" in (
        panel.pane.value
    )


def test_a_drawn_question_repeats_by_its_seed():
    panel = QuizPanel.for_game("ss_panzer")
    panel.new_question("sees", 5)
    ask, answer = panel.question.ask, panel.question.answer().value
    assert "a drawn question: does A see B, seed 5" in panel.header.value
    panel.next()
    panel.new_question("sees", 5)
    assert (panel.question.ask, panel.question.answer().value) == (ask, answer)
    assert panel.question.ask == quiz.random_question("ss_panzer", "sees", 5).ask
    panel.answer_with("yes" if answer else "no")
    panel.check()
    assert panel.score == (1, 1) and panel.results == {}  # drawn questions are not in the deck


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


def test_a_board_drawn_again_keeps_nothing_of_the_last_question():
    from matplotlib.figure import Figure

    from wbk.draw.quiz import draw_question

    shipped = quiz.shipped("ss_panzer")
    reach, sight = shipped.question("one-hex-rule"), shipped.question("beyond-the-hill")
    figure = Figure()
    first = draw_question(figure, sight)
    shown = draw_question(figure, reach, answer=reach.answer(), chosen=["1509"], verdict="Wrong: ")
    assert shown is first  # the same board: the view is reused, its labels drawn once
    assert shown.ax.get_title().startswith("Wrong: Guards airborne battalion from 1610")
    again = draw_question(figure, sight)
    plain = len(again.ax.get_children())  # the view's own hex numbers are kept, hidden
    draw_question(figure, reach, answer=reach.answer(), chosen=["1509"], verdict="Wrong: ")
    again = draw_question(figure, sight)
    assert len(again.ax.get_children()) == plain  # the rings of the picks do not pile up
    assert again.ax.get_title() == "Can 1712 see 2113?"
    assert not any(t.get_visible() and t.get_text() for t in again.value_texts.values())
    assert "your hexes" not in [t.get_text() for t in again.ax.get_legend().get_texts()]


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


def test_a_reading_the_text_settles_is_shown_under_the_reveal_and_on_the_static_page():
    """Errata 9.5's example: a Kill Zone unit firing at a unit entering a ZOC rolls 4 dice,
    not 5, so the 'separate fires' reading is ruled out, and the reveal says so."""
    q = quiz.shipped("ss_panzer").question("kill-zone-and-zoc")
    panel = QuizPanel([q])
    panel.answer_with("4")
    panel.check()
    assert "Settled by the text:" in panel.pane.value
    assert "with 4 dice, not 5" in panel.pane.value
    assert "the answer would be 3 dice and 4 dice (2 fires)" in panel.pane.value
    page = panel.static_html()
    inside = page[page.index(">Answer</summary>") :]
    assert "Settled by the text:" in inside and "with 4 dice, not 5" in inside


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
