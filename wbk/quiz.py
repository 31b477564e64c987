"""Questions that ask before they tell: a situation from one chapter, a question in words, the
rule it tests, and the answer the rules work out, never one typed in trust.

A quiz file is TOML a teacher writes (the format is in wbk's README): ``game`` names the chapter
and each ``[[question]]`` has an ``id``, a ``kind``, the ``rule``, the ``ask``, the situation in
the kind's own keys, and the ``answer``. ``load(path)`` works every answer out again with the
rules and refuses a file whose ``answer`` disagrees, naming the question and both answers, so a
typo never teaches a wrong rule.

Public names:

- ``load(path)``, ``from_toml(text, source=...)``, ``shipped(game)``: a ``Quiz`` of ``Question`` s;
- ``random_question(game, kind, seed)``: a situation drawn from the chapter's map or table,
  the same for the same seed;
- ``kinds(game)``: a game's kinds of question, with what each asks; ``CHANCE_BANDS``: how a
  chance is answered;
- for a game's own kinds of question (``QuizKind``, ``GameQuiz``; see the README's "Adding a
  rule set"): ``yes_no_words``, ``chance_words``, ``list_words``;
- the results, returned and never built by hand (so not in ``__all__``): ``Quiz``
  (``question(id)``), ``Question`` (``answer(**readings)``, ``is_right(given)``,
  ``reading_notes()``, ``settled_notes()``) and ``Answer``.

A chance is answered as a band: under 10%, 10-30%, 30-50%, 50-70%, 70-90%, over 90%. A band
holds its ends, so a chance of exactly 50% is right as 30-50% and as 50-70%.

>>> quiz = shipped("ss_panzer")
>>> q = quiz.question("slope-example-2")
>>> q.answer().words, q.is_right("no"), q.is_right("yes")
('no: blocked by slope hexside 1813/1913, slope hex 1913', True, False)
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from importlib import import_module
from numbers import Integral
from pathlib import Path
from typing import Any

from wbk.checks import LONGEST_NAME
from wbk.datafile import parse_toml, read_text
from wbk.dice import chance
from wbk.errors import WbkError
from wbk.explain import Step, count
from wbk.games import game as _game
from wbk.games import games as _games
from wbk.maps import HexMap
from wbk.readings import Reading

__all__ = [
    "CHANCE_BANDS",
    "GameQuiz",
    "Key",
    "QuizKind",
    "chance_words",
    "from_toml",
    "kinds",
    "list_words",
    "load",
    "random_question",
    "shipped",
    "yes_no_words",
]


#: The bands a chance is answered in, each (name, low, high); a band holds both its ends.
CHANCE_BANDS: tuple[tuple[str, Fraction, Fraction], ...] = (
    ("under 10%", Fraction(0), Fraction(1, 10)),
    ("10-30%", Fraction(1, 10), Fraction(3, 10)),
    ("30-50%", Fraction(3, 10), Fraction(1, 2)),
    ("50-70%", Fraction(1, 2), Fraction(7, 10)),
    ("70-90%", Fraction(7, 10), Fraction(9, 10)),
    ("over 90%", Fraction(9, 10), Fraction(1)),
)
BAND_NAMES = tuple(name for name, _, _ in CHANCE_BANDS)
#: How the learner answers each form of question.
FORMS = ("yes_no", "number", "hexes", "tanks", "choice", "band", "fires")
_QUESTION_KEYS = ("id", "kind", "rule", "ask", "answer", "readings")
_QUIZ_KEYS = ("game", "title", "note", "question")
#: The most questions a quiz file holds, and the longest ``rule`` and ``ask`` a question has.
MOST_QUESTIONS = 1_000
LONGEST_RULE = 200
LONGEST_ASK = 2_000


def reading(game: str, key: str) -> Reading:
    """The reading ``key`` of ``game``, as the game declares it (``wbk.readings``)."""
    declared = _game(game).readings
    if key not in declared:
        raise WbkError(f"{game} declares no reading {key!r}")
    return declared[key]


def band_names(p: Fraction) -> tuple[str, ...]:
    """The bands that hold the chance ``p`` (two when it is exactly on a border)."""
    return tuple(name for name, low, high in CHANCE_BANDS if low <= p <= high)


def chance_words(p: Fraction) -> str:
    """A chance as a quiz answer says it: its band(s) and the chance ("10-30%: 5/18 = 27.78%")."""
    if not isinstance(p, Fraction | Integral) or isinstance(p, bool) or not 0 <= p <= 1:
        raise WbkError(f"chance {p!r} is not a Fraction from 0 to 1")
    return f"{' or '.join(band_names(p))}: {chance(p)}"


def yes_no_words(value: bool, detail: str = "") -> str:
    """A yes or no answer in words, with why ("no: blocked by ...")."""
    if not isinstance(value, bool):
        raise WbkError(f"answer {value!r} is not yes or no (True or False)")
    return ("yes" if value else "no") + (f": {detail}" if detail else "")


def list_words(values) -> str:
    """Values in a question's words: "a, b, c", or "none"."""
    if isinstance(values, str) or not isinstance(values, list | tuple | set | frozenset):
        raise WbkError(f"values {values!r} are not a list")
    return ", ".join(str(v) for v in values) or "none"


# --- answers and questions -------------------------------------------------------------------


@dataclass(frozen=True)
class Answer:
    """What the rules work out: ``value`` (a yes or no, a number, a set of hexes or tanks, a
    choice, an exact chance or the dice of each fire), ``words`` (the answer as a reveal says
    it), ``steps`` (the working, each step citing its rule) and ``result`` (the rules' own
    result, for drawing)."""

    value: object
    words: str
    steps: tuple[Step, ...]
    result: object = None


@dataclass(frozen=True)
class Question:
    """One question: the situation, the question in words, the rule it tests, the readings it is
    asked under, and the board it is asked on (a ``HexMap``, a pz8 ``Table`` or None)."""

    id: str
    game: str
    kind: str
    rule: str
    ask: str
    settings: Mapping[str, Any]
    readings: Mapping[str, str] = field(default_factory=dict)
    board: Any = None
    source: str = "quiz"

    @property
    def form(self) -> str:
        """How the learner answers: one of ``FORMS``."""
        return _kind(self.game, self.kind).form

    @property
    def choices(self) -> tuple[str, ...]:
        """The options to choose from (yes and no, the bands, a CRT's columns...); empty for a
        number, hexes or tanks."""
        kind = _kind(self.game, self.kind)
        if kind.form == "yes_no":
            return ("yes", "no")
        if kind.form == "band":
            return BAND_NAMES
        if kind.form == "choice":
            return kind.choices(self)
        return ()

    @property
    def reading_options(self) -> dict[str, tuple[str, ...]]:
        """The readings this kind of question can be asked under, each with its values: those
        that can matter to it, but for any the text settles for it (``settled_readings``)."""
        kind = _kind(self.game, self.kind)
        keys = kind.relevant(self, kind.readings) if kind.relevant else kind.readings
        settled = self.settled_readings
        return {key: tuple(reading(self.game, key).values) for key in keys if key not in settled}

    @property
    def settled_readings(self) -> dict[str, str]:
        """The readings of its kind that the text settles for this very question, each with
        the sentence of the text that settles it (the question is asked under the default)."""
        kind = _kind(self.game, self.kind)
        return dict(kind.settled(self)) if kind.settled else {}

    def answer(self, **readings: str) -> Answer:
        """The rules' answer under the question's readings, or those given here instead."""
        chosen = self._readings(readings)
        return _kind(self.game, self.kind).answer(self, chosen)

    def shown(self) -> str:
        """What the learner needs to see beside the words (a CRT), as HTML; "" for nothing."""
        shown = _kind(self.game, self.kind).shown
        return shown(self)._repr_html_() if shown is not None else ""

    def setting(self, key: str) -> Any:
        """The situation's ``key``: as the question gives it, else its kind's default."""
        return self.settings.get(key, _kind(self.game, self.kind).optional.get(key))

    def _readings(self, readings: Mapping[str, str]) -> dict[str, str]:
        options = self.reading_options
        chosen = dict(self.readings)
        settled = self.settled_readings
        for key, value in readings.items():
            if key in settled:
                if value == reading(self.game, key).default:
                    continue  # asked as the text reads it: nothing to choose
                raise WbkError(
                    f"question {self.id!r}: reading {key!r} is settled by the text here: "
                    f"{settled[key]}"
                )
            if key not in options:
                known = ", ".join(options) or "none"
                raise WbkError(
                    f"question {self.id!r}: reading {key!r} is not one of its readings ({known})"
                )
            if value not in options[key]:
                raise WbkError(
                    f"question {self.id!r}: reading {key} {value!r} is not one of "
                    f"{', '.join(options[key])}"
                )
            chosen[key] = value
        return chosen

    def parse(self, given) -> Any:
        """A learner's or a file's answer in the form the rules' answer takes (a ``WbkError``
        naming it if it cannot be one)."""
        return _parse_given(self, given)

    def is_right(self, given, **readings: str) -> bool:
        """Whether ``given`` is right under the question's readings (or those given here)."""
        return _agrees(self, self.answer(**readings).value, self.parse(given))

    def reading_notes(self, **readings: str) -> list[str]:
        """For each reading of this kind of question: whether the other value would change the
        answer, in a sentence."""
        chosen = self._readings(readings)
        mine = self.answer(**chosen)
        notes = []
        for key, values in self.reading_options.items():
            current = chosen.get(key, values[0])
            for other in values:
                if other == current:
                    continue
                theirs = self.answer(**{**chosen, key: other})
                words = reading(self.game, key).sentence(other)
                if _same(self, mine.value, theirs.value):
                    notes.append(f"Read as '{words}', the answer is the same.")
                else:
                    notes.append(f"Read as '{words}', the answer changes: {theirs.words}.")
        return notes

    def settled_notes(self, **readings: str) -> list[str]:
        """For each reading the text settles for this question (``settled_readings``): what
        settles it, and the answer the other value would give, which the text rules out."""
        chosen = self._readings(readings)
        kind = _kind(self.game, self.kind)
        notes = []
        for key, why in self.settled_readings.items():
            declared = reading(self.game, key)
            for other in declared.values:
                if other == declared.default:
                    continue
                theirs = kind.answer(self, {**chosen, key: other})
                notes.append(
                    f"The text settles '{declared.question}' here: {why}. Read as "
                    f"'{declared.sentence(other)}', the answer would be "
                    f"{theirs.words}, which the text rules out."
                )
        return notes


def _same(q: Question, a, b) -> bool:
    if q.form == "band":
        return band_names(a) == band_names(b)
    return a == b


def _agrees(q: Question, value, given) -> bool:
    if q.form == "band":
        return given in band_names(value)
    return value == given


def _fail(q: Question | None, key: str, message: str, source: str = "quiz") -> WbkError:
    where = f"question {q.id!r}" if q is not None else "quiz"
    return WbkError(f"{q.source if q else source}: {where}: {key}: {message}")


def _count(n: object) -> bool:
    """Whether ``n`` is a whole number of 0 or more (a float or a bool is not)."""
    return isinstance(n, Integral) and not isinstance(n, bool) and int(n) >= 0


def _parse_given(q: Question, given) -> object:
    form = q.form
    if form == "yes_no":
        if isinstance(given, bool):
            return given
        if given in ("yes", "no"):
            return given == "yes"
        raise WbkError(f"answer {given!r} is not yes or no (true or false in a file)")
    if form == "number":
        if isinstance(given, str) and given.strip().isdigit() and len(given.strip()) <= 9:
            return int(given)
        if not _count(given):
            raise WbkError(f"answer {given!r} is not a whole number")
        return int(given)
    if form == "fires":
        said = given
        if isinstance(given, str):
            given = given.replace(",", " ").replace("and", " ").split()
        elif not isinstance(given, (list, tuple)):
            given = [given]
        dice = [int(n) if isinstance(n, str) and n.isdigit() and len(n) <= 9 else n for n in given]
        if dice and len(dice) <= MOST_ITEMS and all(_count(n) for n in dice):
            return tuple(int(n) for n in dice)
        raise WbkError(f"answer {said!r} is not the dice of each fire (4, or [3, 4])")
    if form in ("hexes", "tanks"):
        if isinstance(given, str):  # tank names may hold spaces, hex labels do not
            text = given.replace(",", " ") if form == "hexes" else given
            given = [part.strip() for part in text.split("," if form == "tanks" else None)]
            given = [part for part in given if part and part != "none"]
        if not isinstance(given, (list, tuple, set, frozenset)):
            raise WbkError(f"answer {given!r} is not a list of {form}")
        names = []
        for item in given:
            if not isinstance(item, str):
                raise WbkError(f"answer: {item!r} is not a {form[:-1]}'s name")
            if form == "hexes":
                m = _hexmap(q)
                names.append(m.label(m.hex(item)))
            else:
                names.append(q.board.piece(item).name)
        return frozenset(names)
    if form in ("choice", "band"):
        if given not in q.choices:
            raise WbkError(f"answer {given!r} is not one of {', '.join(q.choices)}")
        return given
    raise AssertionError(form)


# --- what a question's keys take --------------------------------------------------------------

#: The most items a list or a table in a question takes (units, rolls, hexes, strengths...).
MOST_ITEMS = 1_000


@dataclass(frozen=True)
class Key:
    """What one key of a question takes, checked before any work is done: ``what`` says it in
    words ("a whole number from 2 to 12"); ``problem(value)`` is None for a value it takes, else
    what is wrong with it, in a sentence naming the value. Built with ``Key.whole``,
    ``Key.number``, ``Key.flag``, ``Key.text``, ``Key.list``, ``Key.table``, ``Key.record`` and
    ``Key.either``; a kind of question declares one for each of its keys (``QuizKind.keys``).

    >>> Key.flag().problem("no")
    "'no' is not true or false"
    """

    what: str
    problem: Callable[[object], str | None] = field(repr=False, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.what, str) or not callable(self.problem):
            raise WbkError(
                f"what {self.what!r} is not text or problem {self.problem!r} is not a function"
            )

    @classmethod
    def whole(cls, least: int = 0, most: int | None = None) -> Key:
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
    def number(cls, least: int, most: int) -> Key:
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
    def flag(cls) -> Key:
        """True or false, nothing else ("no", 0 and 1 are not flags)."""
        return cls(
            "true or false",
            lambda v: None if isinstance(v, bool) else (f"{v!r} is not true or false"),
        )

    @classmethod
    def text(cls, choices: Sequence[str] = (), *, pattern: str = "", what: str = "") -> Key:
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
    def list(cls, item: Key, *, least: int = 0, most: int = MOST_ITEMS) -> Key:
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
    def table(cls, value: Key, *, most: int = MOST_ITEMS) -> Key:
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
    def record(cls, fields: Mapping[str, Key], *, required: Sequence[str] = ()) -> Key:
        """A table of the keys ``fields`` names, each taking what its ``Key`` does; the
        ``required`` ones must be there."""
        if not isinstance(fields, Mapping) or not fields:
            raise WbkError(f"fields {fields!r} are not a table of name = Key")
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
    def either(cls, *keys: Key) -> Key:
        """A value one of ``keys`` takes."""
        if not keys:
            raise WbkError("either needs at least one Key")
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
    if not isinstance(key, Key):
        raise WbkError(f"{key!r} is not a Key")


# --- the kinds of question -------------------------------------------------------------------


@dataclass(frozen=True)
class QuizKind:
    """A kind of question a game asks, declared in the game's own quiz module.

    - ``form``: how the learner answers (one of ``FORMS``);
    - ``required`` / ``optional``: its settings, the optional with their defaults;
    - ``answer(question, readings)``: the rules' ``Answer`` under those readings;
    - ``draw(rng, board)``: the settings of a random question on the game's default board;
    - ``what``: what it asks, in words; ``rule``: the rule a drawn question tests;
      ``ask(settings)``: a drawn question in words;
    - ``readings``: the keywords of the game's readings it can be asked under;
      ``relevant(question, readings)``: those of them that can matter to one question;
    - ``choices(question)``: the options of a "choice" question;
    - ``board(settings, folder)``: the board a question's settings set up (files it names are
      looked for in ``folder``), or None for a question asked on no board;
    - ``shown(question)``: what the learner needs to see beside the question's words (a CRT),
      an object with a ``_repr_html_``;
    - ``keys``: what each of its keys takes (a ``Key``), checked before any work: a quiz file's
      value that does not fit is one ``WbkError`` naming the file, the question and the key.
      wbk's own kinds declare every key; a key not declared is left to the rules to check;
    - ``settled(question)``: those of its ``readings`` the text itself settles for one question
      (a worked example that is this very situation), each with the sentence that settles it:
      not offered, and said so in ``Question.settled_notes()``.
    """

    form: str
    required: tuple[str, ...]
    optional: Mapping[str, object]
    answer: Callable[[Question, dict[str, str]], Answer]
    draw: Callable[[random.Random, Any], dict]
    what: str
    rule: str
    ask: Callable[[Mapping[str, Any]], str]
    readings: tuple[str, ...] = ()
    relevant: Callable[[Question, tuple[str, ...]], tuple[str, ...]] | None = None
    choices: Callable[[Question], tuple[str, ...]] = lambda question: ()
    board: Callable[[Mapping[str, Any], Path | None], Any] | None = None
    shown: Callable[[Question], Any] | None = None
    keys: Mapping[str, Key] = field(default_factory=dict)
    settled: Callable[[Question], Mapping[str, str]] | None = None

    def __post_init__(self) -> None:
        if self.form not in FORMS:
            raise WbkError(f"a quiz kind's form {self.form!r} is not one of {', '.join(FORMS)}")
        _check_keys(self.keys, (*self.required, *self.optional), "a quiz kind's")


@dataclass(frozen=True)
class GameQuiz:
    """A game's quizzes: its kinds of question by name, the board a drawn question is asked on
    (``default_board()``), the keys of a question that set up its board rather than the question
    (``board_keys``, and what each takes: ``board_checks``, as ``QuizKind.keys``), and the quiz
    it ships (a file, or None)."""

    kinds: Mapping[str, QuizKind]
    default_board: Callable[[], Any] = lambda: None
    board_keys: tuple[str, ...] = ()
    shipped: Path | None = None
    board_checks: Mapping[str, Key] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name, kind in self.kinds.items():
            if not isinstance(kind, QuizKind):
                raise WbkError(f"kind {name!r}: {kind!r} is not a QuizKind")
        _check_keys(self.board_checks, self.board_keys, "a game quiz's board")


def _check_keys(keys: object, declared: Sequence[str], whose: str) -> None:
    if not isinstance(keys, Mapping):
        raise WbkError(f"{whose} keys {keys!r} are not a table of key = Key")
    for key, check in keys.items():
        if key not in declared:
            raise WbkError(f"{whose} key {key!r} is not one of its keys ({', '.join(declared)})")
        _need_key(check)


def game_quiz(game: str) -> GameQuiz:
    """``game``'s quizzes, from the module its registration names (imported when first asked)."""
    found = _game(game)
    if not found.quiz:
        raise WbkError(f"{found.title} has no quiz")
    declared = getattr(import_module(found.quiz), "QUIZ", None)
    if not isinstance(declared, GameQuiz):
        raise WbkError(f"{found.quiz} declares no QUIZ = GameQuiz(...)")
    return declared


def kinds(game: str) -> dict[str, str]:
    """``game``'s kinds of question, each with what it asks in words."""
    return {name: kind.what for name, kind in game_quiz(game).kinds.items()}


def _kind(game: str, name: str) -> QuizKind:
    found = game_quiz(game).kinds
    if name not in found:
        raise WbkError(f"kind {name!r} is not one of {', '.join(found)} ({game})")
    return found[name]


def __getattr__(name: str) -> object:
    if name == "KINDS":  # every game's kinds, as before the registry: found when asked
        return {key: kinds(key) for key, found in _games().items() if found.quiz}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _hexmap(q: Question) -> HexMap:
    board = q.board
    return board if isinstance(board, HexMap) else board.map


# --- quizzes ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Quiz:
    """A chapter's questions, in the file's order."""

    title: str
    game: str
    questions: tuple[Question, ...]
    source: str = "quiz"

    def question(self, id: str) -> Question:
        """The question with this ``id``."""
        for q in self.questions:
            if q.id == id:
                return q
        known = ", ".join(q.id for q in self.questions)
        raise WbkError(f"{self.source}: no question {id!r} (there are: {known})")


def _given_words(q: Question, given) -> str:
    if q.form == "yes_no":
        return "yes" if given else "no"
    if q.form in ("hexes", "tanks"):
        return ", ".join(sorted(given)) or "none"
    if q.form == "fires":
        return " and ".join(count(n, "die", "dice") for n in given)
    return str(given)


def _named(message: str, settings: Mapping) -> tuple[str, str]:
    """A rules error as (the key it names, the message without that key in front)."""
    key = _key_of(message, settings)
    return key, message.removeprefix(f"{key}: ")


def _key_of(message: str, settings: Mapping) -> str:
    """The key a rules error names: the one it begins with, else the one whose value it names,
    else "situation"."""
    for key in settings:
        if message.startswith(f"{key} ") or message.startswith(f"{key}:"):
            return key
    for key, value in settings.items():
        if isinstance(value, bool) or value is None:
            continue
        shown = [repr(value), str(value)]
        if isinstance(value, (list, tuple)):
            shown += [repr(v) for v in value] + [str(v) for v in value]
        if any(s and s in message for s in shown):
            return key
    return "situation"


def _misfit(quiz: GameQuiz, kind: QuizKind, settings: Mapping) -> tuple[str, str] | None:
    """The first key of ``settings`` whose value does not fit what it takes, and why."""
    checks = {**quiz.board_checks, **kind.keys}
    for key, value in settings.items():
        wrong = checks[key].problem(value) if key in checks else None
        if wrong:
            return key, wrong
    return None


def _question(
    game: str, data, number: int, source: str, folder: Path | None, ids: set[str]
) -> Question:
    if not isinstance(data, dict):
        raise WbkError(f"{source}: question {number}: {data!r} is not a [[question]] table")
    qid = data.get("id")
    name = f"question {qid!r}" if isinstance(qid, str) else f"question {number}"

    def fail(key: str, message: str) -> WbkError:
        return WbkError(f"{source}: {name}: {key}: {message}")

    if not isinstance(qid, str) or not qid.strip():
        raise fail("id", "missing" if qid is None else f"{qid!r} is not a name")
    if len(qid) > LONGEST_NAME:
        raise fail("id", f"{qid[:40]!r}... is longer than {LONGEST_NAME} characters")
    if qid in ids:
        raise fail("id", "used twice: ids must be unique")
    ids.add(qid)
    for key in ("kind", "rule", "ask", "answer"):
        if key not in data:
            raise fail(key, "missing")
    for key, longest in (("rule", LONGEST_RULE), ("ask", LONGEST_ASK)):
        if not isinstance(data[key], str) or not data[key].strip():
            raise fail(key, f"{data[key]!r} is not text")
        if len(data[key]) > longest:
            raise fail(key, f"{len(data[key]):,} characters are over the limit of {longest:,}")
        if "$" in data[key]:
            raise fail(key, "holds a $: a picture's title would set it as mathematics")
    quiz = game_quiz(game)
    if data["kind"] not in quiz.kinds:
        raise fail("kind", f"{data['kind']!r} is not one of {', '.join(quiz.kinds)} ({game})")
    kind = quiz.kinds[data["kind"]]
    settings = {k: v for k, v in data.items() if k not in _QUESTION_KEYS}
    allowed = (*kind.required, *kind.optional, *quiz.board_keys)
    for key in settings:
        if key not in allowed:
            raise fail(
                key, f"unknown key for a {data['kind']} question (expected {', '.join(allowed)})"
            )
    for key in kind.required:
        if key not in settings:
            raise fail(key, "missing")
    wrong = _misfit(quiz, kind, settings)
    if wrong:
        raise fail(*wrong)
    readings = data.get("readings", {})
    if not isinstance(readings, dict):
        raise fail("readings", f"{readings!r} is not a table of reading = value")
    try:
        board = kind.board(settings, folder) if kind.board else None
    except WbkError as e:
        raise fail(*_named(str(e), settings)) from None
    q = Question(qid, game, data["kind"], data["rule"], data["ask"], settings, {}, board, source)
    try:
        q = replace(q, readings=q._readings(readings))
    except WbkError as e:
        raise fail("readings", str(e).split(": ", 1)[1]) from None
    try:
        answer = q.answer()
    except WbkError as e:
        raise fail(*_named(str(e), settings)) from None
    try:
        given = q.parse(data["answer"])
    except WbkError as e:
        raise fail("answer", str(e)) from None
    if not _agrees(q, answer.value, given):
        raise fail(
            "answer",
            f"the file says {_given_words(q, given)}, but wbk works out {answer.words}",
        )
    return q


def from_toml(text: str, *, source: str = "quiz", folder: str | os.PathLike | None = None) -> Quiz:
    """A quiz from TOML text, every answer checked against the rules; ``folder`` is where map,
    table and situation files it names are looked for. Anything wrong is one ``WbkError``
    naming ``source``, the question and the key."""
    if folder is not None and not isinstance(folder, (str, os.PathLike)):
        raise WbkError(f"folder {folder!r} is not a folder path")
    data = parse_toml(text, source)
    unknown = sorted(set(data) - set(_QUIZ_KEYS))
    if unknown:
        raise WbkError(f"{source}: {unknown[0]}: unknown key (expected {', '.join(_QUIZ_KEYS)})")
    game = data.get("game")
    quizzed = [key for key, found in _games().items() if found.quiz]
    if game not in quizzed:
        raise WbkError(f"{source}: game: {game!r} is not one of {', '.join(quizzed)}")
    questions = data.get("question")
    if not isinstance(questions, list) or not questions:
        raise WbkError(f"{source}: question: missing (write one [[question]] table per question)")
    if len(questions) > MOST_QUESTIONS:
        raise WbkError(
            f"{source}: question: {len(questions):,} questions are over the limit of "
            f"{MOST_QUESTIONS:,} in one file"
        )
    title = data.get("title", f"{_game(game).title} quiz")
    if not isinstance(title, str):
        raise WbkError(f"{source}: title: {title!r} is not text")
    where = Path(folder) if folder is not None else None
    ids: set[str] = set()
    built = tuple(_question(game, q, i, source, where, ids) for i, q in enumerate(questions, 1))
    return Quiz(title, game, built, source)


def load(path: str | os.PathLike) -> Quiz:
    """A quiz file (format in wbk's README), every answer worked out again by the rules: a
    question whose ``answer`` disagrees is a ``WbkError`` naming it and both answers."""
    if isinstance(path, bytes) or not isinstance(path, (str, os.PathLike)):
        raise WbkError(f"quiz file {path!r} is not a file path")
    return from_toml(read_text(path, "quiz"), source=str(path), folder=Path(path).parent)


def shipped(game: str) -> Quiz:
    """The quiz wbk ships for a chapter (for wbk's own games, ``wbk/data/quizzes/<game>.toml``)."""
    path = game_quiz(game).shipped
    if path is None:
        raise WbkError(f"{_game(game).title} ships no quiz")
    text = path.read_text(encoding="utf-8")
    source = "/".join(path.parts[-4:]) if "wbk" in path.parts else path.name
    return from_toml(text, source=source, folder=path.parent)


def random_question(game: str, kind: str, seed: int) -> Question:
    """A question of ``kind`` drawn from the chapter's map or table: the same ``seed`` draws the
    same situation, so a teacher can give a class the same question."""
    quiz = game_quiz(game)
    drawn = _kind(game, kind)
    if isinstance(seed, bool) or not isinstance(seed, Integral):
        raise WbkError(f"seed {seed!r} is not a whole number")
    rng = random.Random(f"{game}/{kind}/{seed}")
    board = quiz.default_board()
    # a yes-or-no question is as often yes as no: draw until the answer is the one tossed for
    wanted = rng.random() < 0.5 if drawn.form == "yes_no" else None
    fallback = None
    for attempt in range(100):
        settings = drawn.draw(rng, board)
        wrong = _misfit(quiz, drawn, settings)
        if wrong:  # a kind's draw that breaks its own keys is wbk's mistake: say so, loudly
            raise WbkError(f"{kind} drawn with seed {seed}: {wrong[0]}: {wrong[1]}")
        try:
            here = drawn.board(settings, None) if drawn.board else None
            q = Question(
                f"{kind} #{seed}",
                game,
                kind,
                drawn.rule,
                drawn.ask(settings),
                settings,
                {},
                here,
                f"drawn with seed {seed}",
            )
            value = q.answer().value
        except WbkError:
            continue  # a draw the rules refuse (a hex off the map, a tank too close): draw again
        if wanted is None or value == wanted or attempt >= 30:
            return q
        fallback = fallback or q
    if fallback is not None:
        return fallback
    raise WbkError(f"no {kind} question could be drawn with seed {seed}")
