"""SS Panzer's quiz questions (``wbk.quiz``): does A see B, which hexes can a unit reach, what
does a hex cost to enter and may a unit enter it, how many dice does a fire roll and what is the
chance of a step loss. A question is asked on the errata's 9.4 map unless it names another (a
shipped map or a map file) and edits its terrain."""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from wbk.checks import Input
from wbk.datafile import file_beside
from wbk.errors import WbkError
from wbk.explain import Step, count
from wbk.games.ss_panzer.data import example_data
from wbk.games.ss_panzer.fire import condition_words, fire_dice, step_loss_chance
from wbk.games.ss_panzer.movement import explain_entry, plan_movement
from wbk.games.ss_panzer.readings import EDGE, SIGHT_READINGS, ZOC_FIRE
from wbk.games.ss_panzer.sight import line_of_sight
from wbk.maps import HexMap, example_map
from wbk.quiz import Answer, GameQuiz, Question, QuizKind, chance_words, yes_no_words


def _ss_sees(q: Question, readings: Mapping[str, Any]) -> Answer:
    options: dict[str, Any] = {"blocking_terrain": tuple(q.setting("blocking_terrain"))}
    if q.setting("visibility") is not None:
        options["visibility"] = q.setting("visibility")
    result = line_of_sight(q.board, q.setting("firer"), q.setting("target"), **options, **readings)
    return Answer(result.clear, yes_no_words(result.clear, result.verdict), result.steps, result)


def _ss_movement(q: Question):
    return plan_movement(
        q.board,
        q.setting("unit"),
        q.setting("start"),
        q.setting("mp"),
        q.setting("action"),
        moved=q.setting("moved"),
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
    options = {"moved": q.setting("moved"), "action": q.setting("action")}
    if mp_left is not None:
        options["mp_left"] = mp_left
    return explain_entry(q.board, q.setting("unit"), q.setting("from"), q.setting("to"), **options)


def _ss_entry_cost(q: Question, readings: dict[str, str]) -> Answer:
    entry = _ss_entry(q)
    return Answer(entry.mp, f"{entry.mp} MP", entry.steps, entry)


def _ss_may_enter(q: Question, readings: dict[str, str]) -> Answer:
    entry = _ss_entry(q, q.setting("mp_left"))
    detail = f"it costs {entry.mp} MP with {q.setting('mp_left')} MP left"
    return Answer(entry.allowed, yes_no_words(entry.allowed, detail), entry.steps, entry)


def _ss_fire_dice(q: Question, readings: Mapping[str, Any]) -> Answer:
    fires = fire_dice(list(q.setting("conditions")), **readings)
    words = " and ".join(count(n, "die", "dice") for n in fires.fires)
    if len(fires.fires) > 1:
        words += f" ({len(fires.fires)} fires)"
    return Answer(tuple(fires.fires), words, fires.steps, fires)


def _ss_step_loss(q: Question, readings: Mapping[str, Any]) -> Answer:
    fires = fire_dice(list(q.setting("conditions")), **readings)
    loss = step_loss_chance(fires, q.setting("hit_number"))  # its steps cite the data's sources
    return Answer(loss.chance, chance_words(loss.chance), (*fires.steps, *loss.steps), loss.effect)


def _ss_units(m) -> list[str]:
    return sorted(example_data().units)


def _draw_sees(rng: random.Random, m: HexMap) -> dict:
    slopes = sorted(m.uphill_hexes.values(), key=m.label) or list(m)
    near = [h for h in m if min(h.distance(s) for s in slopes) <= 2]
    a = rng.choice(near)
    b = rng.choice([h for h in near if 2 <= a.distance(h) <= 6])
    return {"firer": m.label(a), "target": m.label(b)}


def _mp_drawn(rng: random.Random, unit: str, moved: bool) -> int:
    """The MP a drawn unit has: all its MP before it moves, 1 to 3 (fewer than all) after."""
    allowance = example_data().units[unit].mp
    return rng.randint(1, min(3, allowance - 1)) if moved else allowance


#: The units a drawn question about a unit that has not moved asks of: those whose full MP
#: reach a few dozen hexes, not the whole map.
_SLOW = 4


def _draw_unit(rng: random.Random, moved: bool) -> str:
    data = example_data().units
    return rng.choice([u for u in sorted(data) if moved or data[u].mp <= _SLOW])


def _draw_reach(rng: random.Random, m: HexMap) -> dict:
    moved = rng.random() < 0.5
    unit = _draw_unit(rng, moved)
    start = m.label(rng.choice(list(m)))
    return {"unit": unit, "start": start, "mp": _mp_drawn(rng, unit, moved), "moved": moved}


def _draw_entry(rng: random.Random, m: HexMap) -> dict:
    interesting = [h for h in m if m.terrain(h)] or list(m)
    b = rng.choice(interesting)
    a = rng.choice(m.neighbors(b))
    return {"unit": rng.choice(_ss_units(m)), "from": m.label(a), "to": m.label(b)}


def _draw_may_enter(rng: random.Random, m: HexMap) -> dict:
    entry = _draw_entry(rng, m)
    moved = rng.random() < 0.5
    unit = entry["unit"] if moved else _draw_unit(rng, moved)
    return {**entry, "unit": unit, "mp_left": _mp_drawn(rng, unit, moved), "moved": moved}


def _moved_words(s: Mapping, mp: str) -> str:
    """Whether the unit has moved this Action Phase and the MP it has, as a question says it."""
    if s.get("moved"):
        return f"has moved already this Action Phase and has {s[mp]} MP left"
    return f"has not moved yet this Action Phase and has {s[mp]} MP"


def _conditions_words(s: Mapping) -> str:
    conditions = [condition_words(c) for c in s["conditions"]]
    if not conditions:
        return "A unit fires with no special condition"
    these = "these conditions" if len(conditions) > 1 else "one condition"
    return f"A unit fires under {these}: {', '.join(conditions)}"


def _ss_conditions() -> list[str]:
    return sorted(example_data().condition_dice)


def _draw_fire_dice(rng: random.Random, m) -> dict:
    conditions = _ss_conditions()
    return {"conditions": rng.sample(conditions, rng.randint(0, len(conditions)))}


def _draw_step_loss(rng: random.Random, m) -> dict:
    return {**_draw_fire_dice(rng, m), "hit_number": rng.randint(1, 4)}


# --- the board ---


def _map(settings: Mapping, folder: Path | None) -> HexMap:
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


def _fire_settled(q: Question) -> dict[str, str]:
    """Errata 9.5 itself settles how several conditions combine: one fire, of the most dice any
    of them gives, and its example is a Kill Zone unit firing at a unit entering a ZOC."""
    if len(q.setting("conditions")) < 2:
        return {}
    return {
        ZOC_FIRE.keyword: "errata 9.5 says that when more than one condition applies, the one "
        "giving the most dice is used and the effects do not add up; in its example a unit "
        "marked Kill Zone fires on one that enters a ZOC with 4 dice, not 5"
    }


def _fire_readings(q: Question, readings: tuple[str, ...]) -> tuple[str, ...]:
    """How conditions combine can matter only where more than one applies."""
    return readings if len(q.setting("conditions")) >= 2 else ()


def _sees_readings(q: Question, readings: tuple[str, ...]) -> tuple[str, ...]:
    """The edge reading matters only with blocking terrain."""
    if q.setting("blocking_terrain"):
        return readings
    return tuple(r for r in readings if r != EDGE.keyword)


MOVEMENT = "SS Panzer errata 8.3"
FIRE = "SS Panzer errata 9.5"

# --- what each key takes ---

NAME = Input.text()
MP = Input.whole(0, 100)
ACTION = Input.text(("move", "move_and_fire"))
MOVED = Input.flag()
ENTRY = {"unit": NAME, "from": NAME, "to": NAME, "moved": MOVED, "action": ACTION}
CONDITIONS = Input.list(NAME, most=20)


class Sees(QuizKind):
    name = "sees"
    form = "yes_no"
    what = "does A see B"
    rule = "SS Panzer errata 9.4"
    keys = {
        "firer": NAME,
        "target": NAME,
        "blocking_terrain": Input.list(NAME, most=20),
        "visibility": Input.whole(1, 1000),
    }
    defaults = {"blocking_terrain": [], "visibility": None}
    readings = tuple(SIGHT_READINGS)

    def answer(self, question, readings):
        return _ss_sees(question, readings)

    def draw(self, rng, board):
        return _draw_sees(rng, board)

    def ask(self, s):
        return f"Can a unit in {s['firer']} see a unit in {s['target']}?"

    def relevant(self, question):
        return _sees_readings(question, self.readings)

    def board(self, settings, folder):
        return _map(settings, folder)


class Reach(QuizKind):
    name = "reach"
    form = "hexes"
    what = "which hexes can this unit reach"
    rule = MOVEMENT
    keys = {"unit": NAME, "start": NAME, "mp": MP, "action": ACTION, "moved": MOVED}
    defaults = {"mp": None, "action": "move", "moved": False}

    def answer(self, question, readings):
        return _ss_reach(question, readings)

    def draw(self, rng, board):
        return _draw_reach(rng, board)

    def ask(self, s):
        return (
            f"The {s['unit']} in {s['start']} {_moved_words(s, 'mp')}. Which hexes can it "
            "reach on a Move action?"
        )

    def board(self, settings, folder):
        return _map(settings, folder)


class EntryCost(QuizKind):
    name = "entry_cost"
    form = "number"
    what = "what does entering this hex cost"
    rule = MOVEMENT
    keys = ENTRY
    defaults = {"moved": False, "action": "move"}

    def answer(self, question, readings):
        return _ss_entry_cost(question, readings)

    def draw(self, rng, board):
        return _draw_entry(rng, board)

    def ask(self, s):
        return f"What does the {s['unit']} in {s['from']} pay to enter {s['to']}?"

    def board(self, settings, folder):
        return _map(settings, folder)


class MayEnter(QuizKind):
    name = "may_enter"
    form = "yes_no"
    what = "may this unit enter the hex"
    rule = MOVEMENT
    keys = {**ENTRY, "mp_left": MP}
    defaults = {"moved": False, "action": "move"}

    def answer(self, question, readings):
        return _ss_may_enter(question, readings)

    def draw(self, rng, board):
        return _draw_may_enter(rng, board)

    def ask(self, s):
        return (
            f"The {s['unit']} in {s['from']} {_moved_words(s, 'mp_left')}, on a Move "
            f"action. May it enter {s['to']}?"
        )

    def board(self, settings, folder):
        return _map(settings, folder)


class FireDice(QuizKind):
    name = "fire_dice"
    form = "fires"
    what = "how many dice does this fire roll"
    rule = FIRE
    keys = {"conditions": CONDITIONS}
    readings = (ZOC_FIRE.keyword,)

    def answer(self, question, readings):
        return _ss_fire_dice(question, readings)

    def draw(self, rng, board):
        return _draw_fire_dice(rng, board)

    def ask(self, s):
        return f"{_conditions_words(s)}. How many dice does it roll?"

    def relevant(self, question):
        return _fire_readings(question, self.readings)

    def settled(self, question):
        return _fire_settled(question)


class StepLossChance(QuizKind):
    name = "step_loss_chance"
    form = "band"
    what = "chance of a step loss"
    rule = FIRE
    keys = {"conditions": CONDITIONS, "hit_number": Input.whole(1, 6)}
    readings = (ZOC_FIRE.keyword,)

    def answer(self, question, readings):
        return _ss_step_loss(question, readings)

    def draw(self, rng, board):
        return _draw_step_loss(rng, board)

    def ask(self, s):
        return (
            f"{_conditions_words(s)}, hitting on {s['hit_number']} or less. What is the "
            "chance of a step loss?"
        )

    def relevant(self, question):
        return _fire_readings(question, self.readings)

    def settled(self, question):
        return _fire_settled(question)


QUIZ = GameQuiz(
    Sees,
    Reach,
    EntryCost,
    MayEnter,
    FireDice,
    StepLossChance,
    board=lambda: example_map("ss_panzer_errata_9_4"),
    board_keys={"map": NAME, "terrain": Input.table(Input.list(NAME), most=20)},
)
