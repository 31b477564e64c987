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
