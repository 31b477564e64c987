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
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from numbers import Integral
from typing import ParamSpec, TypeVar

from wbk.errors import WbkError

P = ParamSpec("P")
R = TypeVar("R")
T = TypeVar("T")

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


#: The most items a list or a table in a question takes (units, rolls, hexes, strengths...).
MOST_ITEMS = 1_000


@dataclass(frozen=True)
class Input:
    """What one input of a rule takes, declared once beside the rule: the rule checks its
    argument with it (``check``), a kind of quiz question checks a file's key with it
    (``wbk.quiz.QuizKind.keys``), before any work is done. ``what`` says it in words ("a whole
    number from 2 to 12"); ``problem(value)`` is None for a value it takes, else what is wrong
    with it, in a sentence naming the value. Built with ``Input.whole``, ``Input.number``,
    ``Input.flag``, ``Input.text``, ``Input.list``, ``Input.table``, ``Input.record`` and
    ``Input.either``.

    >>> MORALE = Input.whole(2, 12)
    >>> MORALE.check(9, "leader morale")
    9
    >>> MORALE.check(13, "leader morale")
    Traceback (most recent call last):
    ...
    wbk.errors.WbkError: leader morale: 13 is not a whole number from 2 to 12
    >>> Input.flag().problem("no")
    "'no' is not true or false"
    """

    what: str
    problem: Callable[[object], str | None] = field(repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.what, str) or not callable(self.problem):
            raise WbkError(
                f"what {self.what!r} is not text or problem {self.problem!r} is not a function"
            )

    def check(self, value: T, name: str) -> T:
        """``value`` if the input takes it, else a ``WbkError`` naming ``name`` and why."""
        wrong = self.problem(value)
        if wrong:
            raise WbkError(f"{name}: {wrong}")
        return value

    @classmethod
    def whole(cls, least: int = 0, most: int | None = None) -> Input:
        """A whole number from ``least`` to ``most`` (no bound above for None)."""
        least = _bound(least, "least")
        if most is not None and _bound(most, "most") < least:
            raise WbkError(f"most {most!r} is less than least {least!r}")
        what = (
            f"a whole number from {least} to {most}"
            if most is not None
            else (f"a whole number of {least} or more")
        )

        def problem(v: object) -> str | None:
            if isinstance(v, bool) or not isinstance(v, Integral):
                return f"{v!r} is not {what}"
            n = int(v)
            return None if least <= n and (most is None or n <= most) else f"{v} is not {what}"

        return cls(what, problem)

    @classmethod
    def number(cls, least: int, most: int) -> Input:
        """A number, whole or not, from ``least`` to ``most`` (a length or an angle)."""
        least, most = _bound(least, "least", None), _bound(most, "most", None)
        what = f"a number from {least} to {most}"

        def problem(v: object) -> str | None:
            if isinstance(v, bool) or not isinstance(v, Integral | float):
                return f"{v!r} is not {what}"
            x = v if isinstance(v, float) else int(v)
            return None if least <= x <= most else f"{v!r} is not {what}"  # NaN fails both

        return cls(what, problem)

    @classmethod
    def flag(cls) -> Input:
        """True or false, nothing else ("no", 0 and 1 are not flags)."""
        return cls(
            "true or false",
            lambda v: None if isinstance(v, bool) else (f"{v!r} is not true or false"),
        )

    @classmethod
    def text(cls, choices: Sequence[str] = (), *, pattern: str = "", what: str = "") -> Input:
        """A name of at most ``LONGEST_NAME`` characters: one of ``choices`` when given, or one
        matching the regular expression ``pattern`` (``what`` says it in words)."""
        if isinstance(choices, str) or not all(isinstance(c, str) for c in choices):
            raise WbkError(f"choices {choices!r} are not a list of names")
        if not isinstance(pattern, str) or not isinstance(what, str):
            raise WbkError(f"pattern {pattern!r} and what {what!r} are not text")
        what = what or (f"one of {', '.join(choices)}" if choices else "a name")
        matcher = re.compile(pattern) if pattern else None

        def problem(v: object) -> str | None:
            if not isinstance(v, str) or not v.strip():
                return f"{v!r} is not {what}"
            if len(v) > LONGEST_NAME:
                return f"{v[:40]!r}... is longer than {LONGEST_NAME} characters"
            if (choices and v not in choices) or (matcher and not matcher.fullmatch(v)):
                return f"{v!r} is not {what}"
            return None

        return cls(what, problem)

    @classmethod
    def list(cls, item: Input, *, least: int = 0, most: int = MOST_ITEMS) -> Input:
        """A list of ``least`` to ``most`` items, each one ``item`` takes."""
        _need_key(item)
        least, most = _bound(least, "least"), _bound(most, "most")
        what = f"a list (each {item.what})"

        def problem(v: object) -> str | None:
            if not isinstance(v, list | tuple):
                return f"{v!r} is not {what}"
            if not least <= len(v) <= most:
                return f"a list of {len(v):,} is not {least} to {most} items of {item.what}"
            for i, x in enumerate(v, 1):
                wrong = item.problem(x)
                if wrong:
                    return f"item {i}: {wrong}"
            return None

        return cls(what, problem)

    @classmethod
    def table(cls, value: Input, *, most: int = MOST_ITEMS) -> Input:
        """A table of names (at most ``most``), each to a value ``value`` takes."""
        _need_key(value)
        most = _bound(most, "most")
        what = f"a table of name = {value.what}"
        name = cls.text()

        def problem(v: object) -> str | None:
            if not isinstance(v, dict):
                return f"{v!r} is not {what}"
            if len(v) > most:
                return f"a table of {len(v):,} is over the limit of {most}"
            for k, x in v.items():
                wrong = name.problem(k) or value.problem(x)
                if wrong:
                    return f"{k}: {wrong}"
            return None

        return cls(what, problem)

    @classmethod
    def record(cls, fields: Mapping[str, Input], *, required: Sequence[str] = ()) -> Input:
        """A table of the keys ``fields`` names, each taking what its ``Input`` does; the
        ``required`` ones must be there."""
        if not isinstance(fields, Mapping) or not fields:
            raise WbkError(f"fields {fields!r} are not a table of name = Input")
        for key in fields.values():
            _need_key(key)
        if isinstance(required, str) or any(r not in fields for r in required):
            raise WbkError(f"required {required!r} are not among the fields")
        what = f"a table of {', '.join(fields)}"

        def problem(v: object) -> str | None:
            if not isinstance(v, dict):
                return f"{v!r} is not {what}"
            known = [k for k in required if k not in v]
            if known:
                return f"{known[0]}: missing"
            for k, x in v.items():
                if k not in fields:
                    return f"{k}: unknown key (expected {', '.join(fields)})"
                wrong = fields[k].problem(x)
                if wrong:
                    return f"{k}: {wrong}"
            return None

        return cls(what, problem)

    @classmethod
    def either(cls, *keys: Input) -> Input:
        """A value one of ``keys`` takes."""
        if not keys:
            raise WbkError("either needs at least one Input")
        for key in keys:
            _need_key(key)
        what = " or ".join(k.what for k in keys)

        def problem(v: object) -> str | None:
            if any(k.problem(v) is None for k in keys):
                return None
            return f"{v!r} is not {what}"

        return cls(what, problem)


def _bound(value: object, what: str, least: int | None = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise WbkError(f"{what} {value!r} is not a whole number")
    if least is not None and value < least:
        raise WbkError(f"{what} {value!r} is not a whole number of {least} or more")
    return int(value)


def _need_key(key: object) -> None:
    if not isinstance(key, Input):
        raise WbkError(f"{key!r} is not an Input")
