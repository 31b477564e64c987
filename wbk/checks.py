"""The argument checks every rules module makes, each a ``WbkError`` that names the argument,
the bad value and what was expected.

>>> whole(3, "number of dice")
3
>>> choice("sum", ("largest", "separate"), "reading")
Traceback (most recent call last):
...
wbk.errors.WbkError: reading 'sum' is not one of largest, separate
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence
from numbers import Integral
from typing import ParamSpec, TypeVar

from wbk.errors import WbkError

P = ParamSpec("P")
R = TypeVar("R")

#: The longest name wbk takes (a map, a terrain, a unit, a tank, a table, a CRT): names are drawn
#: in titles, legends and labels, and may come from a stranger's file or link.
LONGEST_NAME = 80
#: The longest note (a map's head comments, a situation's or a CRT's note).
LONGEST_NOTE = 2_000


def whole(value: object, what: str, least: int = 0) -> int:
    """A whole number of ``least`` or more (a bool, a float or a string is not one)."""
    if isinstance(value, bool) or not isinstance(value, Integral) or int(value) < least:
        raise WbkError(f"{what} {value!r} is not a whole number of {least} or more")
    return int(value)


def choice(value: object, allowed: Sequence[str], what: str, hint: str = "") -> str:
    """One of the ``allowed`` names; ``hint`` may follow the message."""
    if not isinstance(value, str) or value not in allowed:
        raise WbkError(f"{what} {value!r} is not one of {', '.join(allowed)}{hint}")
    return value


def flag(value: object, what: str) -> bool:
    """True or False, nothing else ("no" and 1 are not flags)."""
    if not isinstance(value, bool):
        raise WbkError(f"{what} {value!r} is not True or False")
    return value


def short_text(value: object, what: str, longest: int = LONGEST_NAME, *, drawn: bool = True) -> str:
    """Text of at most ``longest`` characters (a name, by default). Text that is ``drawn`` (in
    a picture's title, legend or labels) holds no "$": matplotlib would set what stands
    between two of them as mathematics, or fail on it."""
    if not isinstance(value, str):
        raise WbkError(f"{what} {value!r} is not text")
    if len(value) > longest:
        raise WbkError(
            f"{what} {value[:40]!r}... is {len(value):,} characters long: wbk takes "
            f"{longest:,} at most"
        )
    if drawn and "$" in value:
        raise WbkError(f"{what} {value!r}: a name holds no $ (a picture would set it as maths)")
    return value


def _keywords(function: Callable) -> tuple[str, ...]:
    """The names ``function`` takes as keywords, in order."""
    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return tuple(
        name
        for name, p in inspect.signature(function).parameters.items()
        if p.kind in kinds and name != "self"
    )


def known_keywords_like(model: Callable) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """``known_keywords`` for a function that takes ``**options`` and hands them on to
    ``model``: a keyword ``model`` does not take is a ``WbkError`` naming it."""

    def decorate(function: Callable[P, R]) -> Callable[P, R]:
        return _checking(function, tuple(dict.fromkeys(_keywords(function) + _keywords(model))))

    return decorate


def known_keywords(function: Callable[P, R]) -> Callable[P, R]:
    """A rule function whose keywords (its readings and options) are checked by name: a keyword
    it does not take is one ``WbkError`` line naming it and the keywords it does take, not
    Python's ``TypeError``.

    >>> @known_keywords
    ... def rule(n, *, edge="both"):
    ...     return n
    >>> rule(1, edge="either")
    1
    >>> rule(1, bogus=1)
    Traceback (most recent call last):
    ...
    wbk.errors.WbkError: rule: unknown keyword 'bogus' (it takes n, edge)
    """
    return _checking(function, _keywords(function))


def _checking(function: Callable[P, R], known: tuple[str, ...]) -> Callable[P, R]:
    allowed = frozenset(known)
    name = getattr(function, "__qualname__", "the rule")

    @functools.wraps(function)
    def checked(*args: P.args, **kwargs: P.kwargs) -> R:
        for key in kwargs:
            if key not in allowed:
                raise WbkError(
                    f"{name}: unknown keyword {short_text(key, 'keyword', drawn=False)!r} "
                    f"(it takes {', '.join(known)})"
                )
        return function(*args, **kwargs)

    return checked
