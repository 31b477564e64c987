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


def test_shuffle_is_a_new_order_of_the_same_questions():
    panel = QuizPanel.for_game(next(key for key, g in games().items() if g.shipped_quiz))
    panel.shuffle(seed=3)
    first = list(panel.order)
    assert sorted(first) == list(range(len(panel.questions))) and first != sorted(first)
    assert panel.question is panel.questions[first[0]]
    panel.shuffle(seed=3)  # the order is shuffled again from where it stands
    assert sorted(panel.order) == list(range(len(panel.questions)))


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


def test_a_panel_needs_questions():
    with pytest.raises(WbkError, match="a quiz panel needs at least one question"):
        QuizPanel([])


def test_a_static_picture_is_shown_as_wide_as_its_column_and_holds_more_pixels():
    """Issue 30: the site's quiz pictures drawn at 144 dpi, so a zoom opens them sharp; issue
    40: shown at 110 a figure inch (a 6-inch map 660 pixels wide, readable without a click)."""
    on_a_board = next(
        q
        for key, found in games().items()
        if found.shipped_quiz
        for q in quiz.shipped(key).questions
        if q.board is not None
    )
    page = QuizPanel([on_a_board]).static_html()
    data, width = re.search(
        r'<img src="data:image/png;base64,([^"]+)" alt="[^"]*" width="(\d+)"', page
    ).groups()
    png = Image.open(io.BytesIO(base64.b64decode(data)))
    assert int(width) >= 600 and abs(png.width - int(width) * 144 / 110) <= 2


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


def _a_quiz_file(title: str) -> tuple[str, str]:
    """A rule set with a quiz, and a quiz file of its first shipped question called ``title``."""
    key, found = next((k, g) for k, g in games().items() if g.shipped_quiz is not None)
    first_question = found.shipped_quiz.read_text().split("[[question]]")[1]
    return key, f'game = "{key}"\ntitle = "{title}"\n\n[[question]]{first_question}'


def test_a_teachers_quiz_file_is_loaded_in_the_panel_and_a_wrong_one_refused_in_one_line(
    tmp_path,
):
    """Issue 40: in JupyterLab a quiz file with a wrong answer showed a five-frame traceback;
    the panel reads the teacher's file itself, every answer worked out again."""
    key, text = _a_quiz_file("My evening")
    panel = QuizPanel.for_game(key)
    asked = [q.id for q in panel.questions]
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(re.sub(r"^answer = .*$", "answer = 12345", text, flags=re.M))
    panel.file.box.value = str(wrong)
    said = panel.message.value
    assert "wrong.toml: question" in said and "answer" in said and "\n" not in said
    assert [q.id for q in panel.questions] == asked  # the questions on show stay
    mine = tmp_path / "mine.toml"
    mine.write_text(text)
    panel.file.box.value = str(mine)
    assert panel.message.value == "" and panel.title == "My evening"
    assert [q.id for q in panel.questions] == [asked[0]]


def test_in_the_app_a_quiz_file_is_an_upload_that_names_no_file_of_the_server(monkeypatch):
    monkeypatch.setenv(PANELS_ENV, "app")
    key, text = _a_quiz_file("Uploaded")
    panel = QuizPanel.for_game(key)
    assert not hasattr(panel.file, "box")  # no path box: an upload button
    panel.file.carry("upload.toml", text)
    assert panel.title == "Uploaded" and panel.message.value == ""
    panel.file.carry("bad.toml", "game = ")
    assert ">bad.toml: not valid TOML" in panel.message.value and "\n" not in panel.message.value
    assert panel.title == "Uploaded"
