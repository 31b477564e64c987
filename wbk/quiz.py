"""Questions that ask before they tell: a situation from one chapter, a question in words, the
rule it tests, and the answer the rules work out, never one typed in trust.

A quiz file is TOML a teacher writes (the format is in wbk's reference): ``game`` names the chapter
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
- for a game's own kinds of question (``QuizKind``, ``GameQuiz``; see the reference's "Adding a
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
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from numbers import Integral
from pathlib import Path
from typing import Any, ClassVar

from wbk.checks import LONGEST_NAME, MOST_ITEMS, Input
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
class Attempt:
    """A learner at a question, as its picture shows it: the ``question``, the hexes or tanks
    they have ``chosen``, and once revealed the rules' ``answer`` (worked out under
    ``readings``) with the ``verdict`` ("Right: ", "Wrong: "). ``wbk.draw.picture(attempt)``
    draws it: the board with the situation and the picks, then the answer."""

    question: Question
    chosen: tuple[str, ...] = ()
    answer: Answer | None = None
    verdict: str = ""
    readings: Mapping[str, str] = field(default_factory=dict)


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
        keys = kind.relevant(self)
        settled = self.settled_readings
        return {key: tuple(reading(self.game, key).values) for key in keys if key not in settled}

    @property
    def settled_readings(self) -> dict[str, str]:
        """The readings of its kind that the text settles for this very question, each with
        the sentence of the text that settles it (the question is asked under the default)."""
        return dict(_kind(self.game, self.kind).settled(self))

    def answer(self, **readings: str) -> Answer:
        """The rules' answer under the question's readings, or those given here instead."""
        chosen = self._readings(readings)
        return _kind(self.game, self.kind).answer(self, chosen)

    def shown(self) -> str:
        """What the learner needs to see beside the words (a CRT), as HTML; "" for nothing."""
        shown = _kind(self.game, self.kind).shown(self)
        return shown._repr_html_() if shown is not None else ""

    def setting(self, key: str) -> Any:
        """The situation's ``key``: as the question gives it, else its kind's default."""
        return self.settings.get(key, _kind(self.game, self.kind).defaults.get(key))

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


# --- the kinds of question -------------------------------------------------------------------


class QuizKind:
    """A kind of question a rule set asks: a small class in its ``quiz`` module, as icepool
    declares a die: say what it asks in class attributes and work the answer out in ``answer``;
    the other hooks have defaults a kind overrides where it needs to.

    What it declares:

    - ``name``: what quiz files call it ("sees"); ``form``: how the learner answers (one of
      ``FORMS``); ``what``: what it asks, in words; ``rule``: the rule a drawn question tests;
    - ``keys``: each setting of its questions and what it takes (a ``wbk.checks.Input``, as
      the rules declare theirs), checked before any work: a file's value that does not fit is one
      ``WbkError`` naming the file, the question and the key; ``defaults``: the settings a
      question may leave out, with their values;
    - ``readings``: the keywords of the rule set's readings it can be asked under.

    Its hooks:

    - ``answer(question, readings)``: the rules' ``Answer`` under those readings;
    - ``ask(settings)``: a drawn question in words; ``draw(rng, board)``: the settings of a
      random question on the rule set's board (the same ``rng`` draws the same question);
    - ``board(settings, folder)``: the board a question's settings set up, files it names
      looked for in ``folder``; None (the default) for a question asked on no board;
    - ``relevant(question)``: those of its ``readings`` that can matter to one question (all,
      by default); ``settled(question)``: those the text itself settles for one question (a
      worked example that is this very situation), each with the sentence that settles it;
    - ``choices(question)``: the options of a "choice" question; ``shown(question)``: what the
      learner needs to see beside the words (a CRT: anything with a ``_repr_html_``), or None.
    """

    name: ClassVar[str]
    form: ClassVar[str]
    what: ClassVar[str]
    rule: ClassVar[str]
    keys: ClassVar[Mapping[str, Input]] = {}
    defaults: ClassVar[Mapping[str, object]] = {}
    readings: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for attribute in ("name", "form", "what", "rule"):
            if not isinstance(getattr(cls, attribute, None), str):
                raise WbkError(f"quiz kind {cls.__name__}: {attribute} is not declared as text")
        if cls.form not in FORMS:
            raise WbkError(
                f"quiz kind {cls.name!r}: form {cls.form!r} is not one of {', '.join(FORMS)}"
            )
        _check_keys(cls.keys, f"quiz kind {cls.name!r}")
        undeclared = [key for key in cls.defaults if key not in cls.keys]
        if undeclared:
            raise WbkError(f"quiz kind {cls.name!r}: default {undeclared[0]!r} is not a key")

    @property
    def required(self) -> tuple[str, ...]:
        """The keys every question of the kind must give."""
        return tuple(key for key in self.keys if key not in self.defaults)

    def answer(self, question: Question, readings: dict[str, str]) -> Answer:
        raise NotImplementedError(f"quiz kind {self.name!r} works out no answer")

    def ask(self, settings: Mapping[str, Any]) -> str:
        raise NotImplementedError(f"quiz kind {self.name!r} asks no drawn question")

    def draw(self, rng: random.Random, board: Any) -> dict:
        raise NotImplementedError(f"quiz kind {self.name!r} draws no question")

    def board(self, settings: Mapping[str, Any], folder: Path | None) -> Any:
        return None

    def relevant(self, question: Question) -> tuple[str, ...]:
        return self.readings

    def settled(self, question: Question) -> Mapping[str, str]:
        return {}

    def choices(self, question: Question) -> tuple[str, ...]:
        return ()

    def shown(self, question: Question) -> Any:
        return None


class GameQuiz:
    """A rule set's quizzes, its quiz module's ``QUIZ``: its kinds of question (``QuizKind``
    classes), the board a drawn question is asked on (``board()``, None for none), and the keys
    of a question that set up its board rather than ask it (``board_keys``: each and what it
    takes, as ``QuizKind.keys``)."""

    def __init__(
        self,
        *kinds: type[QuizKind],
        board: Callable[[], Any] = lambda: None,
        board_keys: Mapping[str, Input] | None = None,
    ) -> None:
        if not kinds or not all(isinstance(k, type) and issubclass(k, QuizKind) for k in kinds):
            raise WbkError(f"a GameQuiz's kinds {kinds!r} are not QuizKind classes")
        self.kinds = {kind.name: kind() for kind in kinds}
        if len(self.kinds) < len(kinds):
            raise WbkError("two of a GameQuiz's kinds have one name")
        self.default_board = board
        self.board_keys: Mapping[str, Input] = board_keys or {}
        _check_keys(self.board_keys, "a GameQuiz's board")


def _check_keys(keys: object, whose: str) -> None:
    if not isinstance(keys, Mapping) or not all(isinstance(i, Input) for i in keys.values()):
        raise WbkError(f"{whose}: keys {keys!r} are not a table of key = Input")


def game_quiz(game: str) -> GameQuiz:
    """``game``'s kinds of question: its quiz module's ``QUIZ`` (``wbk.games``)."""
    found = _game(game)
    if not found.has("quiz"):
        raise WbkError(f"{found.title} has no quiz")
    return found.part("quiz").QUIZ


def kind_of(question: Question) -> QuizKind:
    """The kind of question ``question`` is (an instance of its rule set's ``QuizKind``)."""
    return _kind(question.game, question.kind)


def kinds(game: str) -> dict[str, str]:
    """``game``'s kinds of question, each with what it asks in words."""
    return {name: kind.what for name, kind in game_quiz(game).kinds.items()}


def _kind(game: str, name: str) -> QuizKind:
    found = game_quiz(game).kinds
    if name not in found:
        raise WbkError(f"kind {name!r} is not one of {', '.join(found)} ({game})")
    return found[name]


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
    checks = {**quiz.board_keys, **kind.keys}
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
    allowed = (*kind.keys, *quiz.board_keys)
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
        board = kind.board(settings, folder)
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


def from_toml(
    text: str,
    *,
    source: str = "quiz",
    folder: str | os.PathLike | None = None,
    game: str | None = None,
) -> Quiz:
    """A quiz from TOML text, every answer checked against the rules; ``folder`` is where map,
    table and situation files it names are looked for; ``game``: the rule set the quiz is for
    where the text may leave it out (a quiz a rule set ships, named by its folder). Anything
    wrong is one ``WbkError`` naming ``source``, the question and the key."""
    if folder is not None and not isinstance(folder, (str, os.PathLike)):
        raise WbkError(f"folder {folder!r} is not a folder path")
    data = parse_toml(text, source)
    unknown = sorted(set(data) - set(_QUIZ_KEYS))
    if unknown:
        raise WbkError(f"{source}: {unknown[0]}: unknown key (expected {', '.join(_QUIZ_KEYS)})")
    named = data.get("game", game)
    if game is not None and named != game:
        raise WbkError(f"{source}: game: {named!r} is not this quiz's rule set {game!r}")
    game = named
    quizzed = [key for key, found in _games().items() if found.has("quiz")]
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
    """A quiz file (format in wbk's reference), every answer worked out again by the rules: a
    question whose ``answer`` disagrees is a ``WbkError`` naming it and both answers."""
    if isinstance(path, bytes) or not isinstance(path, (str, os.PathLike)):
        raise WbkError(f"quiz file {path!r} is not a file path")
    return from_toml(read_text(path, "quiz"), source=str(path), folder=Path(path).parent)


def shipped(game: str) -> Quiz:
    """The quiz a rule set ships: ``quiz.toml`` in its folder (``wbk.games``)."""
    found = _game(game)
    path = found.shipped_quiz
    if path is None:
        raise WbkError(f"{found.title} ships no quiz")
    source = "/".join(path.parts[-4:]) if "wbk" in path.parts else path.name
    return from_toml(
        path.read_text(encoding="utf-8"), source=source, folder=path.parent, game=found.key
    )


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
            here = drawn.board(settings, None)
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
