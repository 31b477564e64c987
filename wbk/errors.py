"""The one exception class of wbk."""


class WbkError(ValueError):
    """Bad input to wbk: the message names the bad value and what was expected."""
