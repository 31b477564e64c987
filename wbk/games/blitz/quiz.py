"""Blitz Combat's quiz questions (``wbk.quiz``): how many dice an attack rolls, the chance of
so many hits or of a damage or worse, and the hits left after a leader's saving throws. No
board: the situation is all in the question."""

from __future__ import annotations

import random
from collections.abc import Mapping

from wbk.checks import Input
from wbk.dice import percent
from wbk.errors import WbkError
from wbk.explain import Step, count
from wbk.games import blitz
from wbk.quiz import Answer, GameQuiz, Question, QuizKind, chance_words, list_words


def _pieces(values, key: str) -> list[int | blitz.Piece]:
    """Strengths as a file writes them: 5, or "5d" for a disrupted piece."""
    pieces: list[int | blitz.Piece] = []
    for v in values:
        if isinstance(v, str) and v.endswith("d") and v[:-1].isdigit():
            pieces.append(blitz.Piece(int(v[:-1]), disrupted=True))
        elif isinstance(v, int) and not isinstance(v, bool):
            pieces.append(v)
        else:
            raise WbkError(f'{key}: {v!r} is not a strength (5, or "5d" for a disrupted piece)')
    return pieces


def _blitz_dice(q: Question, readings: dict[str, str]) -> Answer:
    if q.setting("fire") == "assault" and q.setting("range") is not None:
        raise WbkError(
            f"range {q.setting('range')}: assault combat takes place in the hex both sides "
            "share, so it has no range (Blitz Combat, Assault Combat): give none"
        )
    strength = blitz.fire_strength(
        _pieces(q.setting("strengths"), "strengths"),
        fire=q.setting("fire"),
        engineer_strengths=_pieces(q.setting("engineer_strengths"), "engineer_strengths"),
        range_hexes=q.setting("range"),
        target_non_vehicle_units=q.setting("non_vehicle_units"),
        target_terrain=q.setting("terrain"),
        protection=q.setting("protection"),
        **readings,
    )
    return Answer(strength.dice, count(strength.dice, "die", "dice"), strength.steps, strength)


def _blitz_hits_chance(q: Question, readings: dict[str, str]) -> Answer:
    dice, at_least, armor = q.setting("dice"), q.setting("hits"), q.setting("armor")
    rolled = blitz.hits(dice, armor=armor)
    p = rolled.at_least(at_least)
    steps = [Step(f"roll {count(dice, 'die', 'dice')}: every 6 is a hit", blitz.PROCEDURE)]
    if armor:
        steps.append(Step(f"armor {armor} takes {count(armor, 'hit')} off", blitz.ARMOR))
    steps.append(
        Step(f"{count(at_least, 'hit')} or more: {p} = {percent(p)}", "exact distribution")
    )
    return Answer(p, chance_words(p), tuple(steps), rolled)


_DAMAGE_NAMES = ("disrupted", "demoralized", "step_loss", "eliminated")


def _blitz_damage_chance(q: Question, readings: dict[str, str]) -> Answer:
    level = blitz.Damage[q.setting("damage").upper()]
    procedure = blitz.fire_procedure(
        q.setting("dice"),
        fire=q.setting("fire"),
        target=q.setting("target"),
        armor=q.setting("armor"),
        leader_morale=q.setting("leader_morale"),
        **readings,
    )
    p = procedure.damage.at_least(level)
    steps = (
        *procedure.steps,
        Step(f"{level} or worse: {p} = {percent(p)}", blitz.DAMAGE),
    )
    return Answer(p, chance_words(p), steps, procedure.damage)


def _blitz_saves(q: Question, readings: dict[str, str]) -> Answer:
    throws = blitz.saving_throws(q.setting("morale"), list(q.setting("rolls")), **readings)
    words = f"{count(throws.remaining, 'hit')} left: {throws.damage}"
    return Answer(throws.remaining, words, throws.steps, throws)


def _draw_blitz_dice(rng: random.Random, board) -> dict:
    strengths: list = [rng.randint(0, 8) for _ in range(rng.randint(1, 3))]
    if rng.random() < 0.3:
        strengths[0] = f"{max(strengths[0], 1)}d"
    fire = rng.choice(("direct", "at", "assault"))
    drawn = {
        "strengths": strengths,
        "fire": fire,
        "range": rng.choice((1, 2, 3)),
        "terrain": rng.choice(blitz.TERRAINS),
        "protection": rng.choice(blitz.PROTECTIONS),
        "non_vehicle_units": rng.randint(1, 4),
    }
    if fire == "assault":  # in the hex both sides share: no range (Assault Combat)
        del drawn["range"]
    return drawn


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


# --- what each key takes ---

#: A quiz question's dice: as many as a chance is worked out for in a moment.
MOST_DICE = 200
STRENGTH = Input.either(
    Input.whole(0, 100), Input.text(pattern=r"\d{1,3}d", what='"5d" for a disrupted piece')
)
DICE = Input.whole(1, MOST_DICE)
MORALE = Input.whole(2, 12)
ARMOR = Input.whole(0, 20)
FIRE = Input.text(blitz.FIRE_TYPES)


def _dice_ask(s: Mapping) -> str:
    fire = {"direct": "direct fire", "at": "AT fire", "assault": "assault combat"}.get(
        s.get("fire", "direct"), s.get("fire", "direct")
    )
    disrupted = any(isinstance(v, str) for v in s["strengths"])
    hint = ' ("d": disrupted)' if disrupted else ""
    parts = [f"Strengths {list_words(s['strengths'])}{hint}, {fire}"]
    if s.get("range") is not None:
        parts.append(f"range {s['range']}")
    parts.append(f"target in {s.get('terrain', 'open')}")
    if s.get("protection", "none") != "none":
        parts.append(f"protection: {s['protection'].replace('_', ' ')}")
    if s.get("non_vehicle_units"):
        parts.append(f"{s['non_vehicle_units']} non-vehicle units in the target hex")
    return "; ".join(parts) + ". How many dice does the attack roll?"


def _dice_readings(q: Question, readings: tuple[str, ...]) -> tuple[str, ...]:
    """Crowding matters with three non-vehicle units or more, the assault reading only to
    assault combat, the disrupted firers' only with a disrupted firer."""
    matters = {
        "crowded": (q.setting("non_vehicle_units") or 0) >= 3,
        "assault": q.setting("fire") == "assault",
        "disrupted_firers": any(isinstance(v, str) for v in q.setting("strengths")),
    }
    return tuple(r for r in readings if matters.get(r, True))


def _damage_readings(q: Question, readings: tuple[str, ...]) -> tuple[str, ...]:
    """The saving-throw bonus matters only where a leader throws (Leader Saving Throws)."""
    return readings if q.setting("leader_morale") is not None else ()


def _hits_ask(s: Mapping) -> str:
    if s.get("armor"):
        return (
            f"{s['dice']} dice of AT fire at a tank of armor {s['armor']}: what is the chance "
            f"that at least {count(s['hits'], 'hit')} count after armor?"
        )
    return f"{s['dice']} dice: what is the chance of at least {count(s['hits'], 'hit')}?"


class Dice(QuizKind):
    name = "dice"
    form = "number"
    what = "how many dice does this attack roll"
    rule = "Blitz Combat, Combat Strength Modifiers"
    keys = {
        "strengths": Input.list(STRENGTH, least=1, most=blitz.MAX_FIRERS),
        "fire": FIRE,
        "engineer_strengths": Input.list(STRENGTH, most=blitz.MAX_FIRERS),
        "range": Input.whole(1, 99),
        "non_vehicle_units": Input.whole(0, 20),
        "terrain": Input.text(blitz.TERRAINS),
        "protection": Input.text(blitz.PROTECTIONS),
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

    def answer(self, question, readings):
        return _blitz_dice(question, readings)

    def draw(self, rng, board):
        return _draw_blitz_dice(rng, board)

    def ask(self, settings):
        return _dice_ask(settings)

    def relevant(self, question):
        return _dice_readings(question, self.readings)


class HitsChance(QuizKind):
    name = "hits_chance"
    form = "band"
    what = "chance of at least N hits"
    rule = "Blitz Combat, Fire Procedure and Armor Protection"
    keys = {"dice": DICE, "hits": Input.whole(1, MOST_DICE), "armor": ARMOR}
    defaults = {"armor": 0}

    def answer(self, question, readings):
        return _blitz_hits_chance(question, readings)

    def draw(self, rng, board):
        return _draw_hits_chance(rng, board)

    def ask(self, settings):
        return _hits_ask(settings)


class DamageChance(QuizKind):
    name = "damage_chance"
    form = "band"
    what = "chance of this damage or worse"
    rule = "Blitz Combat, Fire Procedure to Damage"
    keys = {
        "dice": DICE,
        "damage": Input.text(_DAMAGE_NAMES),
        "fire": FIRE,
        "target": Input.text(blitz.TARGETS),
        "armor": ARMOR,
        "leader_morale": MORALE,
    }
    defaults = {"fire": "direct", "target": "non_vehicle", "armor": None, "leader_morale": None}
    readings = ("save_bonus",)

    def answer(self, question, readings):
        return _blitz_damage_chance(question, readings)

    def draw(self, rng, board):
        return _draw_damage_chance(rng, board)

    def ask(self, s):
        return (
            f"{s['dice']} dice of direct fire at a hex of infantry whose leader has morale "
            f"{s['leader_morale']}: what is the chance of "
            f"'{s['damage'].replace('_', ' ')}' or worse?"
        )

    def relevant(self, question):
        return _damage_readings(question, self.readings)


class Saves(QuizKind):
    name = "saves"
    form = "number"
    what = "how many hits are left after the saving throws"
    rule = "Blitz Combat, Leader Saving Throws"
    keys = {"morale": MORALE, "rolls": Input.list(Input.whole(2, 12), least=1, most=100)}
    readings = ("save_bonus",)

    def answer(self, question, readings):
        return _blitz_saves(question, readings)

    def draw(self, rng, board):
        return _draw_saves(rng, board)

    def ask(self, s):
        return (
            f"A leader of morale {s['morale']} throws for {count(len(s['rolls']), 'hit')} "
            f"and rolls {list_words(s['rolls'])}. How many hits are left?"
        )


QUIZ = GameQuiz(
    Dice,
    HitsChance,
    DamageChance,
    Saves,
)
