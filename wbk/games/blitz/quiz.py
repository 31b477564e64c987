"""Blitz Combat's quiz questions (``wbk.quiz``): how many dice an attack rolls, the chance of
so many hits or of a damage or worse, and the hits left after a leader's saving throws. No
board: the situation is all in the question. Each key takes what the rules' input of that name
takes (``wbk.games.blitz``'s ``Input`` declarations)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from wbk.checks import Input
from wbk.dice import percent
from wbk.errors import WbkError
from wbk.explain import Step, count
from wbk.games.blitz import (
    ARMOR,
    ASSAULT,
    COUNT,
    DAMAGE,
    FIRE_TYPE,
    LEADERS,
    MAX_FIRERS,
    MODIFIERS,
    MORALE,
    PROCEDURE,
    PROTECTION,
    PROTECTIONS,
    ROLL,
    STRENGTH,
    TARGET,
    TERRAIN,
    TERRAINS,
    Damage,
    Piece,
    fire_procedure,
    fire_strength,
    hits,
    label,
    saving_throws,
)
from wbk.quiz import Answer, GameQuiz, Question, QuizKind, chance_words, list_words

#: A quiz question's dice: as many as a chance is worked out for in a moment.
MOST_DICE = 200
DICE = Input.whole(1, MOST_DICE)
#: A firing piece as a quiz file writes it: its strength, or "5d" for a disrupted one.
PIECE = Input.either(STRENGTH, Input.text(pattern=r"\d{1,5}d", what='"5d" for a disrupted piece'))
#: The damage a question asks about "or worse", by name.
DAMAGE_NAMES = tuple(level.name.lower() for level in list(Damage)[1:])


def _pieces(values: Sequence[int | str]) -> list[int | Piece]:
    """Strengths as a quiz file writes them: 5, or "5d" for a disrupted piece."""
    return [Piece(int(v[:-1]), disrupted=True) if isinstance(v, str) else v for v in values]


class Dice(QuizKind):
    """How many dice an attack rolls, from its firing strengths and the modifiers."""

    name = "dice"
    form = "number"
    what = "how many dice does this attack roll"
    rule = MODIFIERS
    keys = {
        "strengths": Input.list(PIECE, least=1, most=MAX_FIRERS),
        "fire": FIRE_TYPE,
        "engineer_strengths": Input.list(PIECE, most=MAX_FIRERS),
        "range": COUNT,
        "non_vehicle_units": COUNT,
        "terrain": TERRAIN,
        "protection": PROTECTION,
    }
    defaults = {
        "fire": "direct",
        "engineer_strengths": [],
        "range": None,
        "non_vehicle_units": 0,
        "terrain": "open",
        "protection": "none",
    }
    readings = ("crowded", "assault", "disrupted_firers")

    def answer(self, question: Question, readings: dict[str, str]) -> Answer:
        distance = question.setting("range")
        if question.setting("fire") == "assault" and distance is not None:
            raise WbkError(
                f"range {distance}: assault combat takes place in the hex both sides share, so "
                f"it has no range ({ASSAULT}): give none"
            )
        strength = fire_strength(
            _pieces(question.setting("strengths")),
            fire=question.setting("fire"),
            engineer_strengths=_pieces(question.setting("engineer_strengths")),
            range_hexes=distance,
            target_non_vehicle_units=question.setting("non_vehicle_units"),
            target_terrain=question.setting("terrain"),
            protection=question.setting("protection"),
            **readings,
        )
        return Answer(strength.dice, count(strength.dice, "die", "dice"), strength.steps, strength)

    def ask(self, settings: Mapping[str, Any]) -> str:
        fire = settings.get("fire", "direct")
        disrupted = any(isinstance(v, str) for v in settings["strengths"])
        hint = ' ("d": disrupted)' if disrupted else ""
        parts = [f"Strengths {list_words(settings['strengths'])}{hint}, {label(fire)}"]
        if settings.get("range") is not None:
            parts.append(f"range {settings['range']}")
        parts.append(f"target in {settings.get('terrain', 'open')}")
        if settings.get("protection", "none") != "none":
            parts.append(f"protection: {label(settings['protection'])}")
        if settings.get("non_vehicle_units"):
            parts.append(f"{settings['non_vehicle_units']} non-vehicle units in the target hex")
        return "; ".join(parts) + ". How many dice does the attack roll?"

    def draw(self, rng: random.Random, board: object) -> dict:
        strengths: list = [rng.randint(0, 8) for _ in range(rng.randint(1, 3))]
        if rng.random() < 0.3:
            strengths[0] = f"{max(strengths[0], 1)}d"
        fire = rng.choice(("direct", "at", "assault"))
        drawn = {
            "strengths": strengths,
            "fire": fire,
            "range": rng.choice((1, 2, 3)),
            "terrain": rng.choice(TERRAINS),
            "protection": rng.choice(PROTECTIONS),
            "non_vehicle_units": rng.randint(1, 4),
        }
        if fire == "assault":  # in the hex both sides share: no range (Assault Combat)
            del drawn["range"]
        return drawn

    def relevant(self, question: Question) -> tuple[str, ...]:
        """Crowding matters with three non-vehicle units or more, the assault reading only to
        assault combat, the disrupted firers' only with a disrupted firer."""
        matters = {
            "crowded": (question.setting("non_vehicle_units") or 0) >= 3,
            "assault": question.setting("fire") == "assault",
            "disrupted_firers": any(isinstance(v, str) for v in question.setting("strengths")),
        }
        return tuple(r for r in self.readings if matters.get(r, True))


class HitsChance(QuizKind):
    """The chance of at least so many hits from so many dice, after armor."""

    name = "hits_chance"
    form = "band"
    what = "chance of at least N hits"
    rule = "Blitz Combat, Fire Procedure and Armor Protection"
    keys = {"dice": DICE, "hits": Input.whole(1, MOST_DICE), "armor": COUNT}
    defaults = {"armor": 0}

    def answer(self, question: Question, readings: dict[str, str]) -> Answer:
        dice, at_least = question.setting("dice"), question.setting("hits")
        armor = question.setting("armor")
        rolled = hits(dice, armor=armor)
        p = rolled.at_least(at_least)
        steps = [Step(f"roll {count(dice, 'die', 'dice')}: every 6 is a hit", PROCEDURE)]
        if armor:
            steps.append(Step(f"armor {armor} takes {count(armor, 'hit')} off", ARMOR))
        said = f"{count(at_least, 'hit')} or more: {p} = {percent(p)}"
        steps.append(Step(said, "exact distribution"))
        return Answer(p, chance_words(p), tuple(steps), rolled)

    def ask(self, settings: Mapping[str, Any]) -> str:
        at_least = count(settings["hits"], "hit")
        if settings.get("armor"):
            return (
                f"{settings['dice']} dice of AT fire at a tank of armor {settings['armor']}: "
                f"what is the chance that at least {at_least} count after armor?"
            )
        return f"{settings['dice']} dice: what is the chance of at least {at_least}?"

    def draw(self, rng: random.Random, board: object) -> dict:
        return {"dice": rng.randint(2, 24), "hits": rng.randint(1, 4), "armor": rng.randint(0, 2)}


class DamageChance(QuizKind):
    """The chance of a damage or worse from one attack, a leader throwing or not."""

    name = "damage_chance"
    form = "band"
    what = "chance of this damage or worse"
    rule = "Blitz Combat, Fire Procedure to Damage"
    keys = {
        "dice": DICE,
        "damage": Input.text(DAMAGE_NAMES),
        "fire": FIRE_TYPE,
        "target": TARGET,
        "armor": COUNT,
        "leader_morale": MORALE,
    }
    defaults = {"fire": "direct", "target": "non_vehicle", "armor": None, "leader_morale": None}
    readings = ("save_bonus",)

    def answer(self, question: Question, readings: dict[str, str]) -> Answer:
        level = Damage[question.setting("damage").upper()]
        procedure = fire_procedure(
            question.setting("dice"),
            fire=question.setting("fire"),
            target=question.setting("target"),
            armor=question.setting("armor"),
            leader_morale=question.setting("leader_morale"),
            **readings,
        )
        p = procedure.damage.at_least(level)
        steps = (*procedure.steps, Step(f"{level} or worse: {p} = {percent(p)}", DAMAGE))
        return Answer(p, chance_words(p), steps, procedure.damage)

    def ask(self, settings: Mapping[str, Any]) -> str:
        return (
            f"{settings['dice']} dice of direct fire at a hex of infantry whose leader has morale "
            f"{settings['leader_morale']}: what is the chance of "
            f"'{settings['damage'].replace('_', ' ')}' or worse?"
        )

    def draw(self, rng: random.Random, board: object) -> dict:
        return {
            "dice": rng.randint(2, 16),
            "damage": rng.choice(DAMAGE_NAMES),
            "leader_morale": rng.randint(6, 10),
        }

    def relevant(self, question: Question) -> tuple[str, ...]:
        """The saving-throw bonus matters only where a leader throws (Leader Saving Throws)."""
        return self.readings if question.setting("leader_morale") is not None else ()


class Saves(QuizKind):
    """The hits left after a leader's saving throws, the rolls given."""

    name = "saves"
    form = "number"
    what = "how many hits are left after the saving throws"
    rule = LEADERS
    keys = {"morale": MORALE, "rolls": Input.list(ROLL, least=1, most=100)}
    readings = ("save_bonus",)

    def answer(self, question: Question, readings: dict[str, str]) -> Answer:
        throws = saving_throws(question.setting("morale"), question.setting("rolls"), **readings)
        words = f"{count(throws.remaining, 'hit')} left: {throws.damage}"
        return Answer(throws.remaining, words, throws.steps, throws)

    def ask(self, settings: Mapping[str, Any]) -> str:
        return (
            f"A leader of morale {settings['morale']} throws for "
            f"{count(len(settings['rolls']), 'hit')} and rolls {list_words(settings['rolls'])}. "
            "How many hits are left?"
        )

    def draw(self, rng: random.Random, board: object) -> dict:
        hits_on_hex = rng.randint(1, 5)
        morale = rng.randint(6, 10)
        return {"morale": morale, "rolls": [rng.randint(2, 12) for _ in range(hits_on_hex)]}


QUIZ = GameQuiz(Dice, HitsChance, DamageChance, Saves)
