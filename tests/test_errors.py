"""wbk.errors: one exception class, its message kept to one line, and in a notebook said as that
line (issue 40: a quiz file with a wrong answer showed a five-frame traceback)."""

import subprocess
import sys

from wbk.errors import LONGEST_MESSAGE, WbkError


def test_a_long_message_keeps_its_ends():
    message = str(WbkError("x" * 10_000 + "the end"))
    assert len(message) <= LONGEST_MESSAGE + 3 and message.endswith("the end")
    assert isinstance(WbkError("bad"), ValueError)


CELLS = """
from IPython.core.interactiveshell import InteractiveShell
shell = InteractiveShell.instance(colors="NoColor")
shell.run_cell("from wbk import quiz")  # a chapter's first cell imports wbk in its kernel
shell.run_cell('quiz.from_toml("game = 3")')
shell.run_cell("1 / 0")
"""


def test_in_a_notebooks_kernel_a_wbk_error_is_its_one_line_and_others_keep_theirs():
    shown = subprocess.run(
        [sys.executable, "-c", CELLS], capture_output=True, text=True, check=True
    ).stdout
    wbk_error, other = shown.split("-----", 1)
    assert wbk_error.strip().startswith("WbkError: quiz: game: 3 is not one of ")
    assert len(wbk_error.strip().splitlines()) == 1
    assert "Traceback" in other and "ZeroDivisionError: division by zero" in other
