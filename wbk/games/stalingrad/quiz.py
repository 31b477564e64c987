"""Streets of Stalingrad's quiz questions (``wbk.quiz``): which CRT column an attack uses,
where defenders hit by a "P" may retreat and how many they lose, and whether the attacker may
take the Close Assault Bonus. A retreat is asked on a shipped situation, a situation file, or
units placed on the chapter's blocks."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path

from wbk.checks import Input
from wbk.datafile import file_beside
from wbk.errors import WbkError
from wbk.explain import Step, count
from wbk.games import stalingrad
from wbk.games.stalingrad.readings import (
    GIVEN_UP_TO_STAY,
    MINEFIELDS_AND_BRIDGES,
    PINNED_ZOC,
    RETREAT_READINGS,
)
from wbk.games.stalingrad.retreat import CLEAR, STAY_TERRAIN, UNTOUCHED_KINDS
from wbk.games.stalingrad.units import KINDS, SIDES
from wbk.quiz import Answer, GameQuiz, Question, QuizKind, list_words, yes_no_words


def _crt(q: Question):
    return stalingrad.example_crt(q.setting("crt"))


def _crt_column(q: Question, readings: dict[str, str]) -> Answer:
    crt = _crt(q)
    strength, shift = q.setting("strength"), q.setting("shift")
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
    if labels:
        words = f"into {', '.join(sorted(labels))}"
    elif r.terrain == "other":  # 9.87-9.89 cover no such hex: wbk assumes a "P" only pins
        words = f"nowhere: {r.summary} (wbk's assumption)"
    else:
        words = "nowhere: no hex is open"
    return Answer(labels, words, r.steps, r)


def _retreat_losses(q: Question, readings: dict[str, str]) -> Answer:
    r = _situation_retreat(q, readings)
    words = f"{count(r.eliminated_at_least, 'unit')} lost ({r.summary})"
    return Answer(r.eliminated_at_least, words, r.steps, r)


def _assault_units(values) -> list:
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
    attack = _assault_units(q.setting("attack"))
    away = [v["name"] for v in q.setting("attack") if v.get("adjacent") is False]
    defence = [stalingrad.Unit("defender", "Soviet", "infantry", q.setting("df"))]
    result = stalingrad.close_assault_bonus(
        attack, defence, q.setting("df"), crt=_crt(q), not_adjacent=away
    )
    steps = tuple(s for s in result.steps if "9.67" in s.rule)
    # the yes or no alone: the column the bonus gives hangs on readings (pinned_attack) this
    # kind of question does not ask about; its steps show it
    detail = (
        "an unpinned, unspent infantry or engineer unit is adjacent"
        if result.allowed
        else "no unpinned, unspent infantry or engineer unit is adjacent"
    )
    return Answer(result.allowed, yes_no_words(result.allowed, detail), steps, result)


def _draw_crt_column(rng: random.Random, board) -> dict:
    return {"strength": rng.randint(1, 40), "shift": rng.choice((0, 0, 1))}


def _draw_retreat(rng: random.Random, board) -> dict:
    """A defending hex with one to three Soviet units, German units near it, and maybe a hex
    under bombardment, on the chapter's blocks."""
    m = stalingrad.example_situation("one_way_out").map
    # a hex 9.87 or 9.88 speaks of (clear, balka, forest, suburb, village), never one where
    # wbk only assumes what a "P" does
    covered = {CLEAR, *STAY_TERRAIN}
    inner = [h for h in m if len(m.neighbors(h)) == 6 and m.terrain(h) <= covered]
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


def _situation(settings: Mapping, folder: Path | None):
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


def _retreat_readings(q: Question, readings: tuple[str, ...]) -> tuple[str, ...]:
    """Pinned ZOCs matter only with a pinned or spent unit about, the unit given up to stay
    only with a fortification or an immobilized tank among the defenders, minefields and
    bridges in a stack only where one stands in a friendly hex next to the defenders, under a
    stacking limit."""
    situation = q.board
    units = [u for here in situation.units.values() for u in here]
    defenders = situation.units.get(situation.target, ())
    sides = {u.side for u in defenders}
    around = situation.map.neighbors(situation.target)
    matters = {
        PINNED_ZOC.keyword: any(u.pinned or u.spent for u in units),
        GIVEN_UP_TO_STAY.keyword: any(
            u.kind == "fortification" or u.immobilized for u in defenders
        ),
        MINEFIELDS_AND_BRIDGES.keyword: situation.stacking_limit is not None
        and any(
            u.kind in UNTOUCHED_KINDS and u.side in sides
            for h in around
            for u in situation.units.get(h, ())
        ),
    }
    return tuple(r for r in readings if matters.get(r, True))


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
_RETREAT_READINGS = tuple(r.keyword for r in RETREAT_READINGS)
RETREAT = "Streets of Stalingrad 9.87-9.89"

# --- what each key takes ---

NAME = Input.text()
FLAG = Input.flag()
STRENGTH = Input.whole(0, 1000)
HEXES = Input.list(NAME, most=200)
UNIT = Input.record(
    {
        "name": NAME,
        "side": Input.text(SIDES),
        "kind": Input.text(KINDS),
        "strength": STRENGTH,
        "pinned": FLAG,
        "immobilized": FLAG,
        "spent": FLAG,
    },
    required=("name", "side", "kind"),
)
ATTACKER = Input.record(
    {
        "name": NAME,
        "side": Input.text(SIDES),
        "kind": Input.text(KINDS),
        "strength": STRENGTH,
        "pinned": FLAG,
        "spent": FLAG,
        "adjacent": FLAG,
    },
    required=("name", "kind", "strength"),
)
_RETREAT_KEYS = {
    "situation": NAME,
    "target": NAME,
    "units": Input.table(Input.list(UNIT, least=1, most=20), most=200),
    "bombarded": HEXES,
    "attacked": HEXES,
    "stacking_limit": Input.whole(1, 20),
}


def _retreat_ask(s: Mapping, question: str) -> str:
    """A drawn retreat in words: the defending hex and its terrain, and the hexes under attack
    or bombardment (the map shows the units)."""
    m = stalingrad.example_situation("one_way_out").map
    target = m.hex(s["target"])
    terrain = " and ".join(sorted(m.terrain(target) - {CLEAR})) or CLEAR
    said = [f'A "P" result hits the Soviet units in the {terrain} hex {s["target"]}']
    for key, words in (("bombarded", "bombarded"), ("attacked", "attacked")):
        if s.get(key):
            verb = "is" if len(s[key]) == 1 else "are"
            said.append(f"{list_words(s[key])} {verb} being {words}")
    return "; ".join(said) + f". {question}"


def _bonus_ask(s: Mapping) -> str:
    attackers = "; ".join(
        f"{u['kind']} {u['strength']}"
        + "".join(f", {k}" for k in ("pinned", "spent") if u.get(k))
        + (", not adjacent" if u.get("adjacent") is False else "")
        for u in s["attack"]
    )
    return (
        f"Attacking: {attackers}; the defence has {s['df']} DF. May the attacker take the Close "
        "Assault Bonus?"
    )


class CrtColumn(QuizKind):
    name = "crt_column"
    form = "choice"
    what = "which CRT column"
    rule = "Streets of Stalingrad CRT and 9.67"
    keys = {"strength": Input.whole(1, 1000), "shift": Input.whole(0, 3), "crt": NAME}
    defaults = {"shift": 0, "crt": "illustrative_1d6"}

    def answer(self, question, readings):
        return _crt_column(question, readings)

    def draw(self, rng, board):
        return _draw_crt_column(rng, board)

    def ask(self, s):
        return (
            f"An attack of {s['strength']} AF"
            + (f", shifted {count(s['shift'], 'column')} higher" if s.get("shift") else "")
            + ": which column of the illustrative 1d6 CRT?"
        )

    def shown(self, question):
        return _crt(question)

    def choices(self, question):
        return _crt_options(question)


class RetreatHexes(QuizKind):
    name = "retreat_hexes"
    form = "hexes"
    what = "where may the defenders retreat"
    rule = RETREAT
    keys = _RETREAT_KEYS
    defaults = _RETREAT_OPTIONAL
    readings = _RETREAT_READINGS

    def answer(self, question, readings):
        return _retreat_hexes(question, readings)

    def draw(self, rng, board):
        return _draw_retreat(rng, board)

    def ask(self, s):
        return _retreat_ask(s, "Into which hexes may they retreat?")

    def relevant(self, question):
        return _retreat_readings(question, self.readings)

    def board(self, settings, folder):
        return _situation(settings, folder)


class RetreatLosses(QuizKind):
    name = "retreat_losses"
    form = "number"
    what = "how many defending units are lost"
    rule = RETREAT
    keys = _RETREAT_KEYS
    defaults = _RETREAT_OPTIONAL
    readings = _RETREAT_READINGS

    def answer(self, question, readings):
        return _retreat_losses(question, readings)

    def draw(self, rng, board):
        return _draw_retreat(rng, board)

    def ask(self, s):
        return _retreat_ask(s, "How many of them does the defender lose, at the least?")

    def relevant(self, question):
        return _retreat_readings(question, self.readings)

    def board(self, settings, folder):
        return _situation(settings, folder)


class BonusAllowed(QuizKind):
    name = "bonus_allowed"
    form = "yes_no"
    what = "may the attacker take the Close Assault Bonus"
    rule = "Streets of Stalingrad 9.67"
    keys = {
        "attack": Input.list(ATTACKER, least=1, most=20),
        "df": Input.whole(0, 1000),
        "crt": NAME,
    }
    defaults = {"crt": "illustrative_1d6"}

    def answer(self, question, readings):
        return _bonus_allowed(question, readings)

    def draw(self, rng, board):
        return _draw_bonus(rng, board)

    def ask(self, settings):
        return _bonus_ask(settings)


QUIZ = GameQuiz(
    CrtColumn,
    RetreatHexes,
    RetreatLosses,
    BonusAllowed,
)
