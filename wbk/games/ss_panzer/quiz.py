"""SS Panzer's quiz questions (``wbk.quiz``): does A see B, which hexes can a unit reach, what
does a hex cost to enter and may a unit enter it, how many dice does a fire roll and what is the
chance of a step loss. A question is asked on the errata's 9.4 map unless it names another (a
shipped map or a map file) and edits its terrain."""

from __future__ import annotations

import random
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from wbk.datafile import file_beside
from wbk.dice import percent
from wbk.errors import WbkError
from wbk.explain import Step, count
from wbk.games.ss_panzer.data import example_data
from wbk.games.ss_panzer.fire import FireEffect, fire_dice, fire_effect
from wbk.games.ss_panzer.movement import explain_entry, plan_movement
from wbk.games.ss_panzer.readings import EDGE, SIGHT_READINGS, ZOC_FIRE
from wbk.games.ss_panzer.sight import line_of_sight
from wbk.maps import HexMap, example_map
from wbk.quiz import Answer, GameQuiz, Question, QuizKind, chance_words, list_words, yes_no_words


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
    hit_number = q.setting("hit_number")
    effect = fire_effect(fires, hit_number)
    p = effect.at_least(FireEffect.STEP_LOSS)
    steps = (
        *fires.steps,
        Step(f"a hit is a roll of {hit_number} or less; a 1 always hits", "SS Panzer errata 9.5"),
        Step(f"a step loss (2 hits from one fire): {p} = {percent(p)}", "SS Panzer errata 9.5"),
    )
    return Answer(p, chance_words(p), steps, effect)


def _ss_units(m) -> list[str]:
    return sorted(example_data().units)


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


def _sees_readings(q: Question, readings: tuple[str, ...]) -> tuple[str, ...]:
    """The edge reading matters only with blocking terrain."""
    if q.setting("blocking_terrain"):
        return readings
    return tuple(r for r in readings if r != EDGE.keyword)


MOVEMENT = "SS Panzer errata 8.3"
FIRE = "SS Panzer errata 9.5"

QUIZ = GameQuiz(
    kinds={
        "sees": QuizKind(
            "yes_no",
            ("firer", "target"),
            {"blocking_terrain": [], "visibility": None},
            _ss_sees,
            _draw_sees,
            what="does A see B",
            rule="SS Panzer errata 9.4",
            ask=lambda s: f"Can a unit in {s['firer']} see a unit in {s['target']}?",
            readings=tuple(SIGHT_READINGS),
            relevant=_sees_readings,
            board=_map,
        ),
        "reach": QuizKind(
            "hexes",
            ("unit", "start"),
            {"mp": None, "action": "move", "moved": False},
            _ss_reach,
            _draw_reach,
            what="which hexes can this unit reach",
            rule=MOVEMENT,
            ask=lambda s: (
                f"Which hexes can a {s['unit']} in {s['start']} reach with {s['mp']} MP on a "
                "Move action?"
            ),
            board=_map,
        ),
        "entry_cost": QuizKind(
            "number",
            ("unit", "from", "to"),
            {"moved": False, "action": "move"},
            _ss_entry_cost,
            _draw_entry,
            what="what does entering this hex cost",
            rule=MOVEMENT,
            ask=lambda s: f"What does the {s['unit']} in {s['from']} pay to enter {s['to']}?",
            board=_map,
        ),
        "may_enter": QuizKind(
            "yes_no",
            ("unit", "from", "to", "mp_left"),
            {"moved": False, "action": "move"},
            _ss_may_enter,
            _draw_may_enter,
            what="may this unit enter the hex",
            rule=MOVEMENT,
            ask=lambda s: (
                f"The {s['unit']} in {s['from']}"
                f"{', having moved already,' if s.get('moved') else ''} has {s['mp_left']} MP "
                f"left, on a Move action. May it enter {s['to']}?"
            ),
            board=_map,
        ),
        "fire_dice": QuizKind(
            "fires",
            ("conditions",),
            {},
            _ss_fire_dice,
            _draw_fire_dice,
            what="how many dice does this fire roll",
            rule=FIRE,
            ask=lambda s: (
                f"A unit fires under these conditions: {list_words(s['conditions'])}. How many "
                "dice?"
            ),
            readings=(ZOC_FIRE.keyword,),
        ),
        "step_loss_chance": QuizKind(
            "band",
            ("conditions", "hit_number"),
            {},
            _ss_step_loss,
            _draw_step_loss,
            what="chance of a step loss",
            rule=FIRE,
            ask=lambda s: (
                f"A unit fires under these conditions: {list_words(s['conditions'])}, hitting "
                f"on {s['hit_number']} or less. What is the chance of a step loss?"
            ),
            readings=(ZOC_FIRE.keyword,),
        ),
    },
    default_board=lambda: example_map("ss_panzer_errata_9_4"),
    board_keys=("map", "terrain"),
    shipped=Path(str(resources.files("wbk") / "data" / "quizzes" / "ss_panzer.toml")),
)
