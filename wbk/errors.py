"""The one exception class of wbk."""

#: The longest message a ``WbkError`` keeps: one line for a panel's message line, however long
#: the bad value that a file, a link or a box gave (the middle is cut out).
LONGEST_MESSAGE = 600


class WbkError(ValueError):
    """Bad input to wbk: the message names the bad value and what was expected."""

    def __init__(self, message: object = "", *args: object) -> None:
        text = str(message)
        if len(text) > LONGEST_MESSAGE:
            half = LONGEST_MESSAGE // 2
            text = f"{text[:half]} … {text[-half:]}"
        super().__init__(text, *args)


def one_line_in(shell: object) -> None:
    """Show a ``WbkError`` as its one line in an IPython ``shell`` (a notebook's kernel), not as
    a traceback: a quiz file a teacher loads, a map with a hex off it, a bad reading typed in a
    cell is said in the words of its message, as a panel says it. The cell still fails (a run of
    the notebook stops there), and any other error keeps its traceback."""

    def one_line(shell, etype, value, tb, tb_offset=None):
        said = [f"{etype.__name__}: {value}"]
        shell._showtraceback(etype, value, said)  # as the kernel shows an error: its hook
        return said

    shell.set_custom_exc((WbkError,), one_line)  # type: ignore[attr-defined]
