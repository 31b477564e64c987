"""Streets of Stalingrad's quiz in the quiz panel: a retreat pictured on its map, a CRT column
asked beside the table it is read from."""

import re

from wbk import quiz
from wbk.widgets.quiz import QuizPanel


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
