"""The quiz panel as a learner uses it on SS Panzer's quiz (the checks of
tests/test_widgets_quiz.py that ask SS Panzer's questions): the question first, a right and a
wrong answer revealed with their working, readings, clicking the hexes a unit reaches, a drawn
question by its seed, a board drawn again, and a reading the text settles."""

from test_widgets_quiz import click, click_hex, go_to, title

from wbk import quiz
from wbk.widgets.quiz import QuizPanel


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
