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
- ``KINDS``: each game's kinds of question; ``CHANCE_BANDS``: how a chance is answered;
- the results, returned and never built by hand (so not in ``__all__``): ``Quiz``
  (``question(id)``), ``Question`` (``answer(**readings)``, ``is_right(given)``,
  ``reading_notes()``) and ``Answer``.

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
from importlib import resources
from numbers import Integral
from pathlib import Path
from typing import Any

from wbk.datafile import file_beside, parse_toml, read_text
from wbk.dice import chance, percent
from wbk.errors import WbkError
from wbk.explain import Step, count
from wbk.maps import HexMap, example_map

__all__ = [
    "CHANCE_BANDS",
    "KINDS",
    "from_toml",
    "load",
    "random_question",
    "shipped",
]

GAMES = ("ss_panzer", "blitz", "stalingrad", "pz8")
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

#: Each reading a question can be asked under: its values, in the rules modules' order, and the
#: words that say what each value means.
READING_WORDS: dict[str, dict[str, str]] = {
    "slope_hex": {
        "enter_not_beyond": "a line may enter a hex with slope symbols but not see beyond it",
        "hexsides_only": "only slope hexsides block",
    },
    "slope_end": {
        "crosses": "a line through the end of a slope hexside crosses it",
        "touches": "a line through the end of a slope hexside only touches it",
    },
    "edge": {
        "both": "blocking terrain beside a line blocks only on both sides",
        "either": "blocking terrain on either side of a line blocks",
    },
    "reading": {
        "largest": "several conditions give one fire of the largest dice (unofficial 9.5)",
        "separate": "each condition is a fire of its own (official ZOC fire rule)",
    },
    "crowded": {
        "three_or_more": "3 non-vehicle units means three or more",
        "exactly_three": "3 non-vehicle units means exactly three",
    },
    "assault": {
        "terrain_applies": "terrain and protection modify assault combat",
        "no_terrain": "terrain and protection do not modify assault combat",
    },
    "natural_six": {
        "modified": "a die hits only if the modified roll reaches the hit number",
        "always_hits": "a natural 6 always hits",
    },
    "cover_reading": {
        "partly_hidden": "a target partly hidden is in cover",
        "half_hidden": "a target is in cover only when half or more is hidden",
    },
    "retreat_into": {
        "any_hexes": "the defending units may split over several hexes",
        "one_hex": "the defending units all retreat into one hex",
    },
    "pinned_zoc": {
        "exerts": "a pinned or spent enemy unit exerts its ZOC",
        "none": "a pinned or spent enemy unit exerts no ZOC",
    },
    "given_up_to_stay": {
        "another_unit": "the unit given up to stay is not one 9.89 eliminates anyway",
        "a_9_89_loss": "the unit given up to stay may be one 9.89 eliminates anyway",
    },
    "shaken_hq": {
        "stays_put": "a shaken HQ stays, the tanks near it may move",
        "no_platoon_move": "a shaken HQ cannot lead a platoon move",
    },
    "shaken_member": {
        "stays_put": "a shaken tank stays, the rest of the platoon may move",
        "no_platoon_move": "one shaken tank rules the platoon move out",
    },
}


def reading_words(key: str) -> dict[str, str]:
    """Each value of the reading ``key``, the default first, with its words: the rules module's
    own declaration where it has one (SS Panzer's ``READING_WORDS``, Blitz's ``READINGS``),
    else wbk.quiz's."""
    from wbk.games import blitz, ss_panzer

    if key in ss_panzer.READING_WORDS:
        return dict(ss_panzer.READING_WORDS[key])
    if key in blitz.READINGS:
        declared = blitz.READINGS[key]
        return {v: f"{declared.question} {words}" for v, words in declared.values.items()}
    return READING_WORDS[key]


def _rule_for(game: str) -> str:
    return {
        "ss_panzer": "SS Panzer errata",
        "blitz": "Blitz Combat",
        "stalingrad": "Streets of Stalingrad",
        "pz8": "Pz 8",
    }[game]


def band_names(p: Fraction) -> tuple[str, ...]:
    """The bands that hold the chance ``p`` (two when it is exactly on a border)."""
    return tuple(name for name, low, high in CHANCE_BANDS if low <= p <= high)


def _chance_words(p: Fraction) -> str:
    return f"{' or '.join(band_names(p))}: {chance(p)}"


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
        return _KINDS[self.game][self.kind].form

    @property
    def choices(self) -> tuple[str, ...]:
        """The options to choose from (yes and no, the bands, a CRT's columns...); empty for a
        number, hexes or tanks."""
        kind = _KINDS[self.game][self.kind]
        if kind.form == "yes_no":
            return ("yes", "no")
        if kind.form == "band":
            return BAND_NAMES
        if kind.form == "choice":
            return kind.options(self)
        return ()

    @property
    def reading_options(self) -> dict[str, tuple[str, ...]]:
        """The readings this kind of question can be asked under, each with its values."""
        return {k: tuple(reading_words(k)) for k in _kind_readings(self)}

    def answer(self, **readings: str) -> Answer:
        """The rules' answer under the question's readings, or those given here instead."""
        chosen = self._readings(readings)
        return _KINDS[self.game][self.kind].compute(self, chosen)

    def _readings(self, readings: Mapping[str, str]) -> dict[str, str]:
        options = self.reading_options
        chosen = dict(self.readings)
        for key, value in readings.items():
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
                words = reading_words(key)[other]
                if _same(self, mine.value, theirs.value):
                    notes.append(f"Read as '{words}' ({key}={other}), the answer is the same.")
                else:
                    notes.append(
                        f"Read as '{words}' ({key}={other}), the answer changes: {theirs.words}."
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


def _parse_given(q: Question, given) -> object:
    form = q.form
    if form == "yes_no":
        if isinstance(given, bool):
            return given
        if given in ("yes", "no"):
            return given == "yes"
        raise WbkError(f"answer {given!r} is not yes or no (true or false in a file)")
    if form == "number":
        if isinstance(given, str) and given.strip().isdigit():
            return int(given)
        if isinstance(given, bool) or not isinstance(given, Integral) or given < 0:
            raise WbkError(f"answer {given!r} is not a whole number")
        return int(given)
    if form == "fires":
        if isinstance(given, Integral) and not isinstance(given, bool):
            return (int(given),)
        if isinstance(given, str):
            given = given.replace(",", " ").replace("and", " ").split()
        if isinstance(given, (list, tuple)) and given:
            try:
                return tuple(int(n) for n in given)
            except (TypeError, ValueError):
                pass
        raise WbkError(f"answer {given!r} is not the dice of each fire (4, or [3, 4])")
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


@dataclass(frozen=True)
class _Kind:
    form: str
    required: tuple[str, ...]
    optional: Mapping[str, object]
    compute: Callable[[Question, dict[str, str]], Answer]
    draw: Callable[[random.Random, Any], dict]
    readings: tuple[str, ...] = ()
    options: Callable[[Question], tuple[str, ...]] = lambda q: ()
    what: str = ""


def _s(q: Question, key: str):
    kind = _KINDS[q.game][q.kind]
    return q.settings.get(key, kind.optional.get(key))


def _yes_no(value: bool, detail: str = "") -> str:
    return ("yes" if value else "no") + (f": {detail}" if detail else "")


# --- SS Panzer ---


def _ss():
    from wbk.games import ss_panzer

    return ss_panzer


def _ss_sees(q: Question, readings: dict[str, str]) -> Answer:
    options = {"blocking_terrain": tuple(_s(q, "blocking_terrain"))}
    if _s(q, "visibility") is not None:
        options["visibility"] = _s(q, "visibility")
    result = _ss().line_of_sight(q.board, _s(q, "firer"), _s(q, "target"), **options, **readings)
    return Answer(result.clear, _yes_no(result.clear, result.verdict), result.steps, result)


def _ss_movement(q: Question):
    return _ss().plan_movement(
        q.board,
        _s(q, "unit"),
        _s(q, "start"),
        _s(q, "mp"),
        _s(q, "action"),
        moved=_s(q, "moved"),
    )


def _ss_reach(q: Question, readings: dict[str, str]) -> Answer:
    plan = _ss_movement(q)
    m = q.board
    reached = {h: mp for h, mp in plan.costs.items() if h != plan.start}
    labels = frozenset(m.label(h) for h in reached)
    how = "Move & Fire" if plan.action == "move_and_fire" else "Move"
    steps = [
        Step(
            f"{plan.unit.name} in {m.label(plan.start)} with {plan.mp} MP ({how}"
            f"{', having moved' if plan.moved else ''})",
            "SS Panzer errata 8.3",
        )
    ]
    for h, mp in sorted(reached.items(), key=lambda item: (item[1], m.label(item[0]))):
        beyond = ": more than its MP, only as the one hex of a Move action" if mp > plan.mp else ""
        steps.append(Step(f"{m.label(h)}: {mp} MP{beyond}", "SS Panzer errata 8.3"))
    words = f"{count(len(labels), 'hex', 'hexes')}: {', '.join(sorted(labels)) or 'none'}"
    return Answer(labels, words, tuple(steps), plan)


def _ss_entry(q: Question, mp_left=None):
    options = {"moved": _s(q, "moved"), "action": _s(q, "action")}
    if mp_left is not None:
        options["mp_left"] = mp_left
    return _ss().explain_entry(q.board, _s(q, "unit"), _s(q, "from"), _s(q, "to"), **options)


def _ss_entry_cost(q: Question, readings: dict[str, str]) -> Answer:
    entry = _ss_entry(q)
    return Answer(entry.mp, f"{entry.mp} MP", entry.steps, entry)


def _ss_may_enter(q: Question, readings: dict[str, str]) -> Answer:
    entry = _ss_entry(q, _s(q, "mp_left"))
    detail = f"it costs {entry.mp} MP with {_s(q, 'mp_left')} MP left"
    return Answer(entry.allowed, _yes_no(entry.allowed, detail), entry.steps, entry)


def _ss_fire_dice(q: Question, readings: dict[str, str]) -> Answer:
    fires = _ss().fire_dice(list(_s(q, "conditions")), **readings)
    words = " and ".join(count(n, "die", "dice") for n in fires.fires)
    if len(fires.fires) > 1:
        words += f" ({len(fires.fires)} fires)"
    return Answer(tuple(fires.fires), words, fires.steps, fires)


def _ss_step_loss(q: Question, readings: dict[str, str]) -> Answer:
    ss = _ss()
    fires = ss.fire_dice(list(_s(q, "conditions")), **readings)
    hit_number = _s(q, "hit_number")
    effect = ss.fire_effect(fires, hit_number)
    p = effect.at_least(ss.FireEffect.STEP_LOSS)
    steps = (
        *fires.steps,
        Step(f"a hit is a roll of {hit_number} or less; a 1 always hits", "SS Panzer errata 9.5"),
        Step(f"a step loss (2 hits from one fire): {p} = {percent(p)}", "SS Panzer errata 9.5"),
    )
    return Answer(p, _chance_words(p), steps, effect)


def _ss_units(m) -> list[str]:
    return sorted(_ss().example_data().units)


def _random_pair(rng: random.Random, m: HexMap, low: int, high: int):
    hexes = list(m)
    while True:
        a, b = rng.choice(hexes), rng.choice(hexes)
        if low <= a.distance(b) <= high:
            return m.label(a), m.label(b)


def _draw_sees(rng: random.Random, m: HexMap) -> dict:
    slopes = sorted(m.uphill_hexes.values(), key=m.label) or list(m)
    near = [h for h in m if min(h.distance(s) for s in slopes) <= 2]
    a = rng.choice(near)
    b = rng.choice([h for h in near if 2 <= a.distance(h) <= 6])
    return {"firer": m.label(a), "target": m.label(b)}


def _draw_reach(rng: random.Random, m: HexMap) -> dict:
    return {
        "unit": rng.choice(_ss_units(m)),
        "start": m.label(rng.choice(list(m))),
        "mp": rng.randint(1, 3),
    }


def _draw_entry(rng: random.Random, m: HexMap) -> dict:
    interesting = [h for h in m if m.terrain(h)] or list(m)
    b = rng.choice(interesting)
    a = rng.choice(m.neighbors(b))
    return {"unit": rng.choice(_ss_units(m)), "from": m.label(a), "to": m.label(b)}


def _draw_may_enter(rng: random.Random, m: HexMap) -> dict:
    return {**_draw_entry(rng, m), "mp_left": rng.randint(1, 3), "moved": rng.random() < 0.5}


def _ss_conditions() -> list[str]:
    return sorted(_ss().example_data().condition_dice)


def _draw_fire_dice(rng: random.Random, m) -> dict:
    conditions = _ss_conditions()
    return {"conditions": rng.sample(conditions, rng.randint(0, len(conditions)))}


def _draw_step_loss(rng: random.Random, m) -> dict:
    return {**_draw_fire_dice(rng, m), "hit_number": rng.randint(1, 4)}


# --- Blitz Combat ---


def _blitz():
    from wbk.games import blitz

    return blitz


def _pieces(values, key: str) -> list:
    """Strengths as a file writes them: 5, or "5d" for a disrupted piece."""
    blitz = _blitz()
    pieces = []
    for v in values:
        if isinstance(v, str) and v.endswith("d") and v[:-1].isdigit():
            pieces.append(blitz.Piece(int(v[:-1]), disrupted=True))
        elif isinstance(v, int) and not isinstance(v, bool):
            pieces.append(v)
        else:
            raise WbkError(f'{key}: {v!r} is not a strength (5, or "5d" for a disrupted piece)')
    return pieces


def _blitz_dice(q: Question, readings: dict[str, str]) -> Answer:
    strength = _blitz().fire_strength(
        _pieces(_s(q, "strengths"), "strengths"),
        fire=_s(q, "fire"),
        engineer_strengths=_pieces(_s(q, "engineer_strengths"), "engineer_strengths"),
        range_hexes=_s(q, "range"),
        target_non_vehicle_units=_s(q, "non_vehicle_units"),
        target_terrain=_s(q, "terrain"),
        protection=_s(q, "protection"),
        **readings,
    )
    return Answer(strength.dice, count(strength.dice, "die", "dice"), strength.steps, strength)


def _blitz_hits_chance(q: Question, readings: dict[str, str]) -> Answer:
    blitz = _blitz()
    dice, at_least, armor = _s(q, "dice"), _s(q, "hits"), _s(q, "armor")
    rolled = blitz.hits(dice, armor=armor)
    p = rolled.at_least(at_least)
    steps = [Step(f"roll {count(dice, 'die', 'dice')}: every 6 is a hit", blitz.PROCEDURE)]
    if armor:
        steps.append(Step(f"armor {armor} takes {count(armor, 'hit')} off", blitz.ARMOR))
    steps.append(
        Step(f"{count(at_least, 'hit')} or more: {p} = {percent(p)}", "exact distribution")
    )
    return Answer(p, _chance_words(p), tuple(steps), rolled)


_DAMAGE_NAMES = ("disrupted", "demoralized", "step_loss", "eliminated")


def _blitz_damage_chance(q: Question, readings: dict[str, str]) -> Answer:
    blitz = _blitz()
    level = blitz.Damage[_s(q, "damage").upper()]
    procedure = blitz.fire_procedure(
        _s(q, "dice"),
        fire=_s(q, "fire"),
        target=_s(q, "target"),
        armor=_s(q, "armor"),
        leader_morale=_s(q, "leader_morale"),
    )
    p = procedure.damage.at_least(level)
    steps = (
        *procedure.steps,
        Step(f"{level} or worse: {p} = {percent(p)}", blitz.DAMAGE),
    )
    return Answer(p, _chance_words(p), steps, procedure.damage)


def _blitz_saves(q: Question, readings: dict[str, str]) -> Answer:
    throws = _blitz().saving_throws(_s(q, "morale"), list(_s(q, "rolls")), **readings)
    words = f"{count(throws.remaining, 'hit')} left: {throws.damage}"
    return Answer(throws.remaining, words, throws.steps, throws)


def _draw_blitz_dice(rng: random.Random, board) -> dict:
    blitz = _blitz()
    strengths: list = [rng.randint(0, 8) for _ in range(rng.randint(1, 3))]
    if rng.random() < 0.3:
        strengths[0] = f"{max(strengths[0], 1)}d"
    fire = rng.choice(("direct", "at", "assault"))
    return {
        "strengths": strengths,
        "fire": fire,
        "range": rng.choice((1, 2, 3)),
        "terrain": rng.choice(blitz.TERRAINS),
        "protection": rng.choice(blitz.PROTECTIONS),
        "non_vehicle_units": rng.randint(1, 4),
    }


def _draw_hits_chance(rng: random.Random, board) -> dict:
    return {"dice": rng.randint(2, 24), "hits": rng.randint(1, 4), "armor": rng.randint(0, 2)}


def _draw_damage_chance(rng: random.Random, board) -> dict:
    return {
        "dice": rng.randint(2, 16),
        "damage": rng.choice(_DAMAGE_NAMES),
        "leader_morale": rng.randint(6, 10),
    }


def _draw_saves(rng: random.Random, board) -> dict:
    hits = rng.randint(1, 5)
    return {"morale": rng.randint(6, 10), "rolls": [rng.randint(2, 12) for _ in range(hits)]}


# --- Streets of Stalingrad ---


def _stalingrad():
    from wbk.games import stalingrad

    return stalingrad


def _crt(q: Question):
    return _stalingrad().example_crt(_s(q, "crt"))


def _crt_column(q: Question, readings: dict[str, str]) -> Answer:
    crt = _crt(q)
    strength, shift = _s(q, "strength"), _s(q, "shift")
    own = crt.column_for(strength)
    column = crt.shift(own, shift)
    rule = "Streets of Stalingrad CRT (wbk's illustrative table)"
    steps = [Step(f"{strength} on the {crt.name}: the {own} column", rule)]
    if shift:
        clamp = (
            " (the table ends there)"
            if crt.columns.index(own) + shift != crt.columns.index(column)
            else ""
        )
        steps.append(
            Step(f"{count(shift, 'column')} higher: {column}{clamp}", "Streets of Stalingrad 9.67")
        )
    return Answer(column, f"the {column} column", tuple(steps), crt)


def _crt_options(q: Question) -> tuple[str, ...]:
    return tuple(_crt(q).columns)


def _situation_retreat(q: Question, readings: dict[str, str]):
    return q.board.retreat(**readings)


def _retreat_hexes(q: Question, readings: dict[str, str]) -> Answer:
    r = _situation_retreat(q, readings)
    m = r.map
    labels = frozenset(m.label(h) for hexes in r.options.values() for h in hexes)
    words = f"into {', '.join(sorted(labels))}" if labels else "nowhere: no hex is open"
    return Answer(labels, words, r.steps, r)


def _retreat_losses(q: Question, readings: dict[str, str]) -> Answer:
    r = _situation_retreat(q, readings)
    words = f"{count(r.eliminated_at_least, 'unit')} lost ({r.summary})"
    return Answer(r.eliminated_at_least, words, r.steps, r)


def _assault_units(values) -> list:
    stalingrad = _stalingrad()
    units = []
    for v in values:
        if not isinstance(v, dict):
            raise WbkError(
                f"{v!r} is not a unit table {{ name = ..., kind = ..., strength = ... }}"
            )
        extra = sorted(set(v) - {"name", "side", "kind", "strength", "pinned", "spent", "adjacent"})
        if extra:
            raise WbkError(f"unit {v.get('name')!r}: {extra[0]}: unknown key")
        values = {k: x for k, x in v.items() if k != "adjacent"}
        values.setdefault("side", "German")
        units.append(stalingrad.Unit(**values))
    return units


def _bonus_allowed(q: Question, readings: dict[str, str]) -> Answer:
    stalingrad = _stalingrad()
    attack = _assault_units(_s(q, "attack"))
    away = [v["name"] for v in _s(q, "attack") if v.get("adjacent") is False]
    defence = [stalingrad.Unit("defender", "Soviet", "infantry", _s(q, "df"))]
    result = stalingrad.close_assault_bonus(
        attack, defence, _s(q, "df"), crt=_crt(q), not_adjacent=away
    )
    steps = tuple(s for s in result.steps if "9.67" in s.rule)
    detail = f"the {result.bonus_column} column" if result.allowed else "no bonus"
    return Answer(result.allowed, _yes_no(result.allowed, detail), steps, result)


_SITUATIONS = ("one_way_out", "shared_hex", "balka_stay_or_go", "rule_9_89", "retreat_clear_hex")


def _draw_crt_column(rng: random.Random, board) -> dict:
    return {"strength": rng.randint(1, 40), "shift": rng.choice((0, 0, 1))}


def _draw_retreat(rng: random.Random, board) -> dict:
    """A defending hex with one to three Soviet units, German units near it, and maybe a hex
    under bombardment, on the chapter's blocks."""
    stalingrad = _stalingrad()
    m = stalingrad.example_situation("one_way_out").map
    inner = [h for h in m if len(m.neighbors(h)) == 6]
    target = rng.choice(inner)
    kinds = ("infantry", "infantry", "engineer", "tank")
    units = {
        m.label(target): [
            {
                "name": f"Soviet {i + 1}",
                "side": "Soviet",
                "kind": rng.choice(kinds[:2]),
                "strength": rng.randint(2, 6),
            }
            for i in range(rng.randint(1, 3))
        ]
    }
    ring = [h for h in m if h.distance(target) == 2]
    for i, h in enumerate(rng.sample(ring, rng.randint(1, 3))):
        units[m.label(h)] = [
            {
                "name": f"German {i + 1}",
                "side": "German",
                "kind": rng.choice(kinds),
                "strength": rng.randint(3, 8),
            }
        ]
    free = [n for n in m.neighbors(target) if m.label(n) not in units]
    friend = rng.choice(free)
    units[m.label(friend)] = [
        {"name": f"Soviet {j + 4}", "side": "Soviet", "kind": "infantry", "strength": 3}
        for j in range(rng.randint(1, 3))
    ]
    bombarded = [m.label(rng.choice(free))] if rng.random() < 0.6 else []
    return {"target": m.label(target), "units": units, "bombarded": bombarded}


def _draw_bonus(rng: random.Random, board) -> dict:
    attack = []
    for i in range(rng.randint(1, 3)):
        unit = {
            "name": f"unit {i + 1}",
            "kind": rng.choice(("infantry", "engineer", "tank")),
            "strength": rng.randint(2, 8),
        }
        for key in ("pinned", "spent"):
            if rng.random() < 0.3:
                unit[key] = True
        if rng.random() < 0.25:
            unit["adjacent"] = False
        attack.append(unit)
    return {"attack": attack, "df": rng.randint(1, 8)}


# --- Pz 8 ---


def _pz8():
    from wbk.games import pz8

    return pz8


SHOT_CHOICES = ("no shot", "shot, target in the open", "shot, target in cover")


def _pz8_shot(q: Question, readings: dict[str, str]) -> Answer:
    result = _pz8().shot(q.board, _s(q, "firer"), _s(q, "target"), **readings)
    if not result.can_shoot:
        value = SHOT_CHOICES[0]
        why = "; ".join(s.text[9:] for s in result.steps if s.text.startswith("no shot: "))
        words = f"no shot ({why})"
    else:
        value = SHOT_CHOICES[2] if result.in_cover else SHOT_CHOICES[1]
        words = f'{value} ({result.distance:.1f}" away)'
    return Answer(value, words, result.steps, result)


def _pz8_targets(q: Question, readings: dict[str, str]) -> Answer:
    pz8, table = _pz8(), q.board
    firer = table.piece(_s(q, "firer"))
    steps, able = [], []
    for t in table.pieces:
        if t.side == firer.side or getattr(t, "destroyed", False):
            continue
        result = pz8.shot(table, firer.name, t.name)
        if result.can_shoot:
            able.append(t.name)
            seen = "in cover" if result.in_cover else "in the open"
            steps.append(Step(f'{t.name}: {result.distance:.1f}", {seen}: a shot', pz8.SHOOTING))
        else:
            why = "; ".join(s.text[9:] for s in result.steps if s.text.startswith("no shot: "))
            steps.append(Step(f"{t.name}: no shot ({why})", pz8.SHOOTING))
    names = frozenset(able)
    words = ", ".join(sorted(names)) if names else "none"
    return Answer(names, words, tuple(steps), firer)


def _pz8_destroy(q: Question, readings: dict[str, str]) -> Answer:
    pz8 = _pz8()
    if _s(q, "firer") is not None:
        result = pz8.shot(q.board, _s(q, "firer"), _s(q, "target"), **readings)
        if not result.can_shoot:
            p = Fraction(0)
            steps = (*result.steps, Step("no shot: no chance to destroy", pz8.SHOOTING))
        else:
            p = result.outcome.map(lambda o: o.destroyed).probability(True)
            steps = (*result.steps, Step(f"destroyed: {p} = {percent(p)}", pz8.DAMAGE))
        return Answer(p, _chance_words(p), tuple(steps), result)
    natural_six = {k: v for k, v in readings.items() if k == "natural_six"}
    procedure = pz8.attack_procedure(
        _s(q, "gun"),
        _s(q, "target_class"),
        cover=_s(q, "cover"),
        veteran=_s(q, "veteran"),
        shaken=_s(q, "shaken"),
        **natural_six,
    )
    p = procedure.outcome.map(lambda o: o.destroyed).probability(True)
    steps = (*procedure.steps, Step(f"destroyed: {p} = {percent(p)}", pz8.DAMAGE))
    return Answer(p, _chance_words(p), steps, procedure)


def _pz8_platoon(q: Question, readings: dict[str, str]) -> Answer:
    move = _pz8().platoon_movement(q.board, _s(q, "side"), **readings)
    detail = f"{len(move.tanks)} tanks move together" if move.allowed else move.steps[-1].text
    return Answer(move.allowed, _yes_no(move.allowed, detail), move.steps, move)


def _pz8_rally(q: Question, readings: dict[str, str]) -> Answer:
    pz8 = _pz8()
    options = {k: _s(q, k) for k in ("veteran", "is_hq", "hq_within_12", "hq_able")}
    p = pz8.rally_chance(**options)
    said = ", ".join(k.replace("_", " ") for k, v in options.items() if v is True) or "none"
    steps = (
        Step(f"the tank: {said}", pz8.SHAKEN),
        Step(f"it rallies with chance {p} = {percent(p)}", pz8.SHAKEN),
    )
    return Answer(p, _chance_words(p), steps, None)


def _enemy_pair(rng: random.Random, table) -> tuple[str, str]:
    live = [t for t in table.pieces if not getattr(t, "destroyed", False)]
    firer = rng.choice(live)
    target = rng.choice([t for t in live if t.side != firer.side])
    return firer.name, target.name


def _draw_shot(rng: random.Random, table) -> dict:
    firer, target = _enemy_pair(rng, table)
    return {"firer": firer, "target": target}


def _draw_targets(rng: random.Random, table) -> dict:
    return {"firer": _enemy_pair(rng, table)[0]}


def _draw_platoon(rng: random.Random, table) -> dict:
    return {"side": rng.choice(sorted({t.side for t in table.pieces}))}


def _draw_rally(rng: random.Random, table) -> dict:
    if rng.random() < 0.25:
        return {"is_hq": True}
    return {"veteran": rng.random() < 0.5, "hq_within_12": rng.random() < 0.8}


_NO: dict[str, object] = {}  # no optional keys
#: A retreat question's situation, given in the quiz or drawn, and the readings that can change
#: where the defenders go and how many are lost (the two retreat questions share them).
_RETREAT_OPTIONAL: dict[str, object] = {
    "situation": None,
    "target": None,
    "units": None,
    "bombarded": [],
    "attacked": [],
    "stacking_limit": 3,
}
_RETREAT_READINGS = ("retreat_into", "pinned_zoc", "given_up_to_stay")
_KINDS: dict[str, dict[str, _Kind]] = {
    "ss_panzer": {
        "sees": _Kind(
            "yes_no",
            ("firer", "target"),
            {"blocking_terrain": [], "visibility": None},
            _ss_sees,
            _draw_sees,
            ("slope_hex", "slope_hex_of", "slope_end", "edge"),
            what="does A see B",
        ),
        "reach": _Kind(
            "hexes",
            ("unit", "start"),
            {"mp": None, "action": "move", "moved": False},
            _ss_reach,
            _draw_reach,
            what="which hexes can this unit reach",
        ),
        "entry_cost": _Kind(
            "number",
            ("unit", "from", "to"),
            {"moved": False, "action": "move"},
            _ss_entry_cost,
            _draw_entry,
            what="what does entering this hex cost",
        ),
        "may_enter": _Kind(
            "yes_no",
            ("unit", "from", "to", "mp_left"),
            {"moved": False, "action": "move"},
            _ss_may_enter,
            _draw_may_enter,
            what="may this unit enter the hex",
        ),
        "fire_dice": _Kind(
            "fires",
            ("conditions",),
            _NO,
            _ss_fire_dice,
            _draw_fire_dice,
            ("reading",),
            what="how many dice does this fire roll",
        ),
        "step_loss_chance": _Kind(
            "band",
            ("conditions", "hit_number"),
            _NO,
            _ss_step_loss,
            _draw_step_loss,
            ("reading",),
            what="chance of a step loss",
        ),
    },
    "blitz": {
        "dice": _Kind(
            "number",
            ("strengths",),
            {
                "fire": "direct",
                "engineer_strengths": [],
                "range": None,
                "non_vehicle_units": 0,
                "terrain": "open",
                "protection": "none",
            },
            _blitz_dice,
            _draw_blitz_dice,
            ("crowded", "assault", "disrupted_firers"),
            what="how many dice does this attack roll",
        ),
        "hits_chance": _Kind(
            "band",
            ("dice", "hits"),
            {"armor": 0},
            _blitz_hits_chance,
            _draw_hits_chance,
            what="chance of at least N hits",
        ),
        "damage_chance": _Kind(
            "band",
            ("dice", "damage"),
            {"fire": "direct", "target": "non_vehicle", "armor": None, "leader_morale": None},
            _blitz_damage_chance,
            _draw_damage_chance,
            what="chance of this damage or worse",
        ),
        "saves": _Kind(
            "number",
            ("morale", "rolls"),
            _NO,
            _blitz_saves,
            _draw_saves,
            ("save_bonus",),
            what="how many hits are left after the saving throws",
        ),
    },
    "stalingrad": {
        "crt_column": _Kind(
            "choice",
            ("strength",),
            {"shift": 0, "crt": "illustrative_1d6"},
            _crt_column,
            _draw_crt_column,
            options=_crt_options,
            what="which CRT column",
        ),
        "retreat_hexes": _Kind(
            "hexes",
            (),
            _RETREAT_OPTIONAL,
            _retreat_hexes,
            _draw_retreat,
            _RETREAT_READINGS,
            what="where may the defenders retreat",
        ),
        "retreat_losses": _Kind(
            "number",
            (),
            _RETREAT_OPTIONAL,
            _retreat_losses,
            _draw_retreat,
            _RETREAT_READINGS,
            what="how many defending units are lost",
        ),
        "bonus_allowed": _Kind(
            "yes_no",
            ("attack", "df"),
            {"crt": "illustrative_1d6"},
            _bonus_allowed,
            _draw_bonus,
            what="may the attacker take the Close Assault Bonus",
        ),
    },
    "pz8": {
        "shot": _Kind(
            "choice",
            ("firer", "target"),
            _NO,
            _pz8_shot,
            _draw_shot,
            ("cover_reading",),
            options=lambda q: SHOT_CHOICES,
            what="does the shot reach, and is the target in cover",
        ),
        "targets": _Kind(
            "tanks",
            ("firer",),
            _NO,
            _pz8_targets,
            _draw_targets,
            what="which enemy tanks can this tank shoot",
        ),
        "destroy_chance": _Kind(
            "band",
            (),
            {
                "firer": None,
                "target": None,
                "gun": None,
                "target_class": None,
                "cover": False,
                "veteran": False,
                "shaken": False,
            },
            _pz8_destroy,
            _draw_shot,
            ("natural_six", "cover_reading"),
            what="chance one attack destroys the target",
        ),
        "platoon": _Kind(
            "yes_no",
            ("side",),
            _NO,
            _pz8_platoon,
            _draw_platoon,
            ("shaken_hq", "shaken_member"),
            what="may this platoon move together",
        ),
        "rally": _Kind(
            "band",
            (),
            {"veteran": False, "is_hq": False, "hq_within_12": True, "hq_able": True},
            _pz8_rally,
            _draw_rally,
            what="chance a shaken tank rallies",
        ),
    },
}
#: Each game's kinds of question, with what each asks in words.
KINDS: dict[str, dict[str, str]] = {
    game: {name: kind.what for name, kind in kinds.items()} for game, kinds in _KINDS.items()
}
#: Keys of a question that set up its board rather than its question.
_BOARD_KEYS = {"ss_panzer": ("map", "terrain"), "pz8": ("table", "moves", "shaken_tanks")}


def _list_words(values) -> str:
    return ", ".join(str(v) for v in values) or "none"


#: For drawn questions: the rule each kind tests, and the question in words.
_RANDOM_RULES = {
    "sees": "SS Panzer errata 9.4",
    "reach": "SS Panzer errata 8.3",
    "entry_cost": "SS Panzer errata 8.3",
    "may_enter": "SS Panzer errata 8.3",
    "fire_dice": "SS Panzer errata 9.5",
    "step_loss_chance": "SS Panzer errata 9.5",
    "dice": "Blitz Combat, Combat Strength Modifiers",
    "hits_chance": "Blitz Combat, Fire Procedure and Armor Protection",
    "damage_chance": "Blitz Combat, Fire Procedure to Damage",
    "saves": "Blitz Combat, Leader Saving Throws",
    "crt_column": "Streets of Stalingrad CRT and 9.67",
    "retreat_hexes": "Streets of Stalingrad 9.87-9.89",
    "retreat_losses": "Streets of Stalingrad 9.87-9.89",
    "bonus_allowed": "Streets of Stalingrad 9.67",
    "shot": "Pz 8, Shooting",
    "targets": "Pz 8, Shooting",
    "destroy_chance": "Pz 8, Shooting; Penetration and Damage",
    "platoon": "Pz 8, Movement",
    "rally": "Pz 8, Optional Rule: Shaken",
}


def _blitz_ask(s: Mapping) -> str:
    fire = {"direct": "direct fire", "at": "AT fire", "assault": "assault combat"}.get(
        s.get("fire", "direct"), s.get("fire", "direct")
    )
    disrupted = any(isinstance(v, str) for v in s["strengths"])
    hint = ' ("d": disrupted)' if disrupted else ""
    parts = [f"Strengths {_list_words(s['strengths'])}{hint}, {fire}"]
    if s.get("range") is not None:
        parts.append(f"range {s['range']}")
    parts.append(f"target in {s.get('terrain', 'open')}")
    if s.get("protection", "none") != "none":
        parts.append(f"protection: {s['protection'].replace('_', ' ')}")
    if s.get("non_vehicle_units"):
        parts.append(f"{s['non_vehicle_units']} non-vehicle units in the target hex")
    return "; ".join(parts) + ". How many dice does the attack roll?"


_RANDOM_ASKS: dict[str, Callable[[Mapping], str]] = {
    "sees": lambda s: f"Can a unit in {s['firer']} see a unit in {s['target']}?",
    "reach": lambda s: (
        f"Which hexes can a {s['unit']} in {s['start']} reach with {s['mp']} MP on a Move action?"
    ),
    "entry_cost": lambda s: f"What does the {s['unit']} in {s['from']} pay to enter {s['to']}?",
    "may_enter": lambda s: (
        f"The {s['unit']} in {s['from']}{', having moved already,' if s.get('moved') else ''} has "
        f"{s['mp_left']} MP left, on a Move action. May it enter {s['to']}?"
    ),
    "fire_dice": lambda s: (
        f"A unit fires under these conditions: {_list_words(s['conditions'])}. How many dice?"
    ),
    "step_loss_chance": lambda s: (
        f"A unit fires under these conditions: {_list_words(s['conditions'])}, hitting on "
        f"{s['hit_number']} or less. What is the chance of a step loss?"
    ),
    "dice": _blitz_ask,
    "hits_chance": lambda s: (
        f"{s['dice']} dice of AT fire at a tank of armor {s['armor']}: what is the chance that "
        f"at least {count(s['hits'], 'hit')} count after armor?"
        if s.get("armor")
        else f"{s['dice']} dice: what is the chance of at least {count(s['hits'], 'hit')}?"
    ),
    "damage_chance": lambda s: (
        f"{s['dice']} dice of direct fire at a hex of infantry whose leader has morale "
        f"{s['leader_morale']}: what is the chance of '{s['damage'].replace('_', ' ')}' or worse?"
    ),
    "saves": lambda s: (
        f"A leader of morale {s['morale']} throws for {count(len(s['rolls']), 'hit')} and rolls "
        f"{_list_words(s['rolls'])}. How many hits are left?"
    ),
    "crt_column": lambda s: (
        f"An attack of {s['strength']} AF"
        + (f", shifted {count(s['shift'], 'column')} higher" if s.get("shift") else "")
        + ": which column of the illustrative 1d6 CRT?"
    ),
    "retreat_hexes": lambda s: (
        f'A "P" result hits the Soviet units in {s["target"]}. Into which hexes may they retreat?'
    ),
    "retreat_losses": lambda s: (
        f'A "P" result hits the Soviet units in {s["target"]}. How many of them does the '
        "defender lose, at the least?"
    ),
    "bonus_allowed": lambda s: (
        "Attacking: "
        + "; ".join(
            f"{u['kind']} {u['strength']}"
            + "".join(f", {k}" for k in ("pinned", "spent") if u.get(k))
            + (", not adjacent" if u.get("adjacent") is False else "")
            for u in s["attack"]
        )
        + f"; the defence has {s['df']} DF. May the attacker take the Close Assault Bonus?"
    ),
    "shot": lambda s: (
        f"{s['firer']} shoots at {s['target']}: does the shot reach, and is the target in cover?"
    ),
    "targets": lambda s: f"Which enemy tanks can {s['firer']} shoot?",
    "destroy_chance": lambda s: (
        f"{s['firer']} shoots at {s['target']}: what is the chance one attack destroys it?"
    ),
    "platoon": lambda s: f"May the {s['side']} platoon move together?",
    "rally": lambda s: (
        "A shaken "
        + ("veteran " if s.get("veteran") else "")
        + ("HQ tank" if s.get("is_hq") else "tank")
        + (', more than 12" from its HQ,' if not s.get("hq_within_12", True) else "")
        + " tries to rally. What is its chance?"
    ),
}


def _kind_readings(q: Question) -> tuple[str, ...]:
    """The readings that can matter to this question: the edge reading only with blocking
    terrain, cover only for a shot on the table."""
    readings = _KINDS[q.game][q.kind].readings
    if q.kind == "sees" and not _s(q, "blocking_terrain"):
        readings = tuple(r for r in readings if r != "edge")
    if q.kind == "dice" and (_s(q, "non_vehicle_units") or 0) < 3:
        readings = tuple(r for r in readings if r != "crowded")
    if q.kind == "dice" and _s(q, "fire") != "assault":
        readings = tuple(r for r in readings if r != "assault")
    if q.kind == "dice" and not any(isinstance(v, str) for v in _s(q, "strengths")):
        readings = tuple(r for r in readings if r != "disrupted_firers")
    if q.kind in ("retreat_hexes", "retreat_losses"):
        situation = q.board
        units = [u for here in situation.units.values() for u in here]
        if not any(u.pinned or u.spent for u in units):
            readings = tuple(r for r in readings if r != "pinned_zoc")
        defenders = situation.units.get(situation.target, ())
        if not any(u.kind == "fortification" or u.immobilized for u in defenders):
            readings = tuple(r for r in readings if r != "given_up_to_stay")
    if q.kind == "platoon":
        side = [t for t in q.board.pieces if t.side == _s(q, "side") and t.shaken]
        readings = tuple(
            r
            for r in readings
            if any(t.is_hq == (r == "shaken_hq") for t in side)  # whose shaken marker matters
        )
    if q.kind == "destroy_chance" and _s(q, "firer") is None:
        readings = tuple(r for r in readings if r != "cover_reading")
    return readings


def _hexmap(q: Question) -> HexMap:
    board = q.board
    return board if isinstance(board, HexMap) else board.map


# --- boards ----------------------------------------------------------------------------------


def _ss_map(settings: Mapping, folder: Path | None) -> HexMap:
    name = settings.get("map", "ss_panzer_errata_9_4")
    if not isinstance(name, str):
        raise WbkError(f"map {name!r} is not a shipped map's name or a map file")
    if name.endswith(".toml"):
        m = HexMap.load(file_beside(folder, name, "map"))
    else:
        m = example_map(name)
    edits = settings.get("terrain", {})
    if not isinstance(edits, dict):
        raise WbkError(f"terrain {edits!r} is not a table of terrain = [hexes]")
    for kind, hexes in edits.items():
        if not isinstance(hexes, list):
            raise WbkError(f"terrain {kind}: {hexes!r} is not a list of hexes")
        for label in hexes:
            m = m.with_terrain(label, m.terrain(m.hex(label)) | {kind})
    return m


def _pz8_table(settings: Mapping, folder: Path | None):
    pz8 = _pz8()
    name = settings.get("table", "pz8_crossroads")
    if name == "pz8_crossroads":
        table = pz8.example_table()
    elif isinstance(name, str) and name.endswith(".toml"):
        table = pz8.load_table(file_beside(folder, name, "table"))
    else:
        raise WbkError(f"table {name!r} is not pz8_crossroads or a table file")
    moves = settings.get("moves", {})
    if not isinstance(moves, dict):
        raise WbkError(f"moves {moves!r} is not a table of tank = [x, y] or [x, y, facing]")
    for tank, where in moves.items():
        if not isinstance(where, list) or len(where) not in (2, 3):
            raise WbkError(f"moves: {tank}: {where!r} is not [x, y] or [x, y, facing]")
        piece = table.piece(tank)
        moved = replace(piece, position=(where[0], where[1]))
        if len(where) == 3:
            moved = replace(moved, facing=where[2])
        table = table.with_piece(moved)
    shaken = settings.get("shaken_tanks", [])
    if not isinstance(shaken, list):
        raise WbkError(f"shaken_tanks {shaken!r} is not a list of tank names")
    for tank in shaken:
        table = table.with_piece(replace(table.piece(tank), shaken=True))
    return table


def _retreat_situation(settings: Mapping, folder: Path | None):
    stalingrad = _stalingrad()
    name = settings.get("situation")
    if name is not None:
        if not isinstance(name, str):
            raise WbkError(f"situation {name!r} is not a shipped situation's name or a file")
        if name.endswith(".toml"):
            situation = stalingrad.Situation.load(file_beside(folder, name, "situation"))
        else:
            situation = stalingrad.example_situation(name)
        if settings.get("target") is not None:
            situation = replace(situation, target=situation.map.hex(settings["target"]))
        return situation
    for key in ("target", "units"):
        if settings.get(key) is None:
            raise WbkError(f"{key}: missing (or name a situation)")
    m = stalingrad.example_situation("one_way_out").map
    units = settings["units"]
    if not isinstance(units, dict):
        raise WbkError(f"units {units!r} is not a table of hex = [units]")
    placed = {}
    for label, listed in units.items():
        if not isinstance(listed, list) or not all(isinstance(u, dict) for u in listed):
            raise WbkError(f"units: {label}: {listed!r} is not a list of unit tables")
        placed[label] = [stalingrad.Unit(**u) for u in listed]
    return stalingrad.Situation(
        "a quiz question",
        m,
        placed,
        attacked=settings.get("attacked", []),
        bombarded=settings.get("bombarded", []),
        target=settings["target"],
        stacking_limit=settings.get("stacking_limit", 3),
    )


def _board(game: str, kind: str, settings: Mapping, folder: Path | None):
    if game == "ss_panzer" and kind in ("sees", "reach", "entry_cost", "may_enter"):
        return _ss_map(settings, folder)
    if game == "pz8" and (kind != "rally" and settings.get("gun") is None):
        return _pz8_table(settings, folder)
    if kind in ("retreat_hexes", "retreat_losses"):
        return _retreat_situation(settings, folder)
    return None


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


def _key_of(message: str, settings: Mapping) -> str:
    """The key whose value a rules error names, else "situation"."""
    for key, value in settings.items():
        if isinstance(value, bool) or value is None:
            continue
        shown = [repr(value), str(value)]
        if isinstance(value, (list, tuple)):
            shown += [repr(v) for v in value] + [str(v) for v in value]
        if any(s and s in message for s in shown):
            return key
    return "situation"


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
    if qid in ids:
        raise fail("id", "used twice: ids must be unique")
    ids.add(qid)
    for key in ("kind", "rule", "ask", "answer"):
        if key not in data:
            raise fail(key, "missing")
    for key in ("rule", "ask"):
        if not isinstance(data[key], str) or not data[key].strip():
            raise fail(key, f"{data[key]!r} is not text")
    kinds = _KINDS[game]
    if data["kind"] not in kinds:
        raise fail("kind", f"{data['kind']!r} is not one of {', '.join(kinds)} ({game})")
    kind = kinds[data["kind"]]
    settings = {k: v for k, v in data.items() if k not in _QUESTION_KEYS}
    allowed = (*kind.required, *kind.optional, *_BOARD_KEYS.get(game, ()))
    for key in settings:
        if key not in allowed:
            raise fail(
                key, f"unknown key for a {data['kind']} question (expected {', '.join(allowed)})"
            )
    for key in kind.required:
        if key not in settings:
            raise fail(key, "missing")
    readings = data.get("readings", {})
    if not isinstance(readings, dict):
        raise fail("readings", f"{readings!r} is not a table of reading = value")
    try:
        board = _board(game, data["kind"], settings, folder)
    except WbkError as e:
        raise fail(_key_of(str(e), settings), str(e)) from None
    q = Question(qid, game, data["kind"], data["rule"], data["ask"], settings, {}, board, source)
    try:
        q = replace(q, readings=q._readings(readings))
    except WbkError as e:
        raise fail("readings", str(e).split(": ", 1)[1]) from None
    try:
        answer = q.answer()
    except WbkError as e:
        raise fail(_key_of(str(e), settings), str(e)) from None
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
    if game not in GAMES:
        raise WbkError(f"{source}: game: {game!r} is not one of {', '.join(GAMES)}")
    questions = data.get("question")
    if not isinstance(questions, list) or not questions:
        raise WbkError(f"{source}: question: missing (write one [[question]] table per question)")
    title = data.get("title", f"{_rule_for(game)} quiz")
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
    """The quiz wbk ships for a chapter (``wbk/data/quizzes/<game>.toml``)."""
    if game not in GAMES:
        raise WbkError(f"game {game!r} is not one of {', '.join(GAMES)}")
    path = resources.files("wbk") / "data" / "quizzes" / f"{game}.toml"
    text = path.read_text(encoding="utf-8")
    return from_toml(text, source=f"wbk/data/quizzes/{game}.toml", folder=Path(str(path)).parent)


def _default_board(game: str):
    if game == "ss_panzer":
        return example_map("ss_panzer_errata_9_4")
    if game == "pz8":
        return _pz8().example_table()
    return None


def random_question(game: str, kind: str, seed: int) -> Question:
    """A question of ``kind`` drawn from the chapter's map or table: the same ``seed`` draws the
    same situation, so a teacher can give a class the same question."""
    if game not in GAMES:
        raise WbkError(f"game {game!r} is not one of {', '.join(GAMES)}")
    if kind not in _KINDS[game]:
        raise WbkError(f"kind {kind!r} is not one of {', '.join(_KINDS[game])} ({game})")
    if isinstance(seed, bool) or not isinstance(seed, Integral):
        raise WbkError(f"seed {seed!r} is not a whole number")
    rng = random.Random(f"{game}/{kind}/{seed}")
    board = _default_board(game)
    draw = _KINDS[game][kind].draw
    # a yes-or-no question is as often yes as no: draw until the answer is the one tossed for
    wanted = rng.random() < 0.5 if _KINDS[game][kind].form == "yes_no" else None
    fallback = None
    for attempt in range(100):
        settings = draw(rng, board)
        try:
            here = _board(game, kind, settings, None)
            q = Question(
                f"{kind} #{seed}",
                game,
                kind,
                _RANDOM_RULES[kind],
                _RANDOM_ASKS[kind](settings),
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
