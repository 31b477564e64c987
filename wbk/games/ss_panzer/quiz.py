"""SS Panzer's kinds of quiz question (``wbk.quiz``): does A see B, which hexes can a unit reach,
what does a hex cost to enter and may a unit enter it, how many dice does a fire roll and what is
the chance of a step loss. A question on a map is asked on the errata's 9.4 map unless it names
another (a shipped map or a map file), with its terrain edited (``terrain``). Its keys are the
rules' own inputs (``fire``, ``movement``, ``sight``); hexes, units and maps are named."""

from __future__ import annotations

import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any, ClassVar

from wbk.checks import Input
from wbk.datafile import file_beside
from wbk.errors import WbkError
from wbk.explain import Step, count
from wbk.games.ss_panzer import movement
from wbk.games.ss_panzer.data import example_data
from wbk.games.ss_panzer.fire import (
    CONDITIONS,
    HIT_NUMBER,
    condition_words,
    fire_dice,
    step_loss_chance,
)
from wbk.games.ss_panzer.movement import ACTION, MOVED, MP, explain_entry, plan_movement
from wbk.games.ss_panzer.readings import EDGE, SIGHT_READINGS, ZOC_FIRE
from wbk.games.ss_panzer.sight import VISIBILITY, line_of_sight
from wbk.maps import HexMap, example_map
from wbk.quiz import Answer, GameQuiz, Question, QuizKind, chance_words, yes_no_words

#: A hex's printed label, a unit's name in the game data, a map's or a terrain's name: the rules
#: say whether the map or the data has it.
NAME = Input.text()
MAP = "ss_panzer_errata_9_4"
MOVEMENT = "SS Panzer errata 8.3"
FIRE = "SS Panzer errata 9.5"
#: The units a drawn question about a unit that has not moved asks of: those whose full MP
#: reach a few dozen hexes, not the whole map.
SLOW = 4


class _OnTheMap:
    """A kind of question asked on a map (mixed into its ``QuizKind``)."""

    def board(self, settings: Mapping[str, Any], folder: Path | None) -> HexMap:
        """The map a question names (the chapter's by default), its ``terrain`` edits made."""
        name = settings.get("map", MAP)
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


class _AUnit:
    """A kind of question about a unit that may have moved (mixed into its ``QuizKind``)."""

    @staticmethod
    def moved_words(s: Mapping, mp: str) -> str:
        """Whether the unit has moved this Action Phase and the MP it has, as a question says
        it."""
        if s.get("moved"):
            return f"has moved already this Action Phase and has {s[mp]} MP left"
        return f"has not moved yet this Action Phase and has {s[mp]} MP"

    @staticmethod
    def drawn_unit(rng: random.Random, moved: bool) -> str:
        """A unit for a drawn question: a slow one (``SLOW``) if it has not moved yet."""
        units = example_data().units
        return rng.choice([u for u in sorted(units) if moved or units[u].mp <= SLOW])

    @staticmethod
    def drawn_mp(rng: random.Random, unit: str, moved: bool) -> int:
        """The MP a drawn unit has: all its MP before it moves, 1 to 3 (fewer than all) after."""
        allowance = example_data().units[unit].mp
        return rng.randint(1, min(3, allowance - 1)) if moved else allowance


class _AFire:
    """A kind of question about a unit's fire (mixed into its ``QuizKind``): its conditions,
    and how several of them combine (the reading ``ZOC_FIRE``)."""

    readings: ClassVar[tuple[str, ...]] = (ZOC_FIRE.keyword,)

    def relevant(self, question: Question) -> tuple[str, ...]:
        """How conditions combine can matter only where more than one applies."""
        return self.readings if len(question.setting("conditions")) >= 2 else ()

    def settled(self, question: Question) -> dict[str, str]:
        """Errata 9.5 itself settles how several conditions combine: one fire, of the most
        dice any of them gives, and its example is a Kill Zone unit firing at a unit entering
        a ZOC."""
        if len(question.setting("conditions")) < 2:
            return {}
        return {
            ZOC_FIRE.keyword: "errata 9.5 says that when more than one condition applies, the "
            "one giving the most dice is used and the effects do not add up; in its example a "
            "unit marked Kill Zone fires on one that enters a ZOC with 4 dice, not 5"
        }

    @staticmethod
    def conditions_words(s: Mapping) -> str:
        conditions = [condition_words(c) for c in s["conditions"]]
        if not conditions:
            return "A unit fires with no special condition"
        these = "these conditions" if len(conditions) > 1 else "one condition"
        return f"A unit fires under {these}: {', '.join(conditions)}"

    @staticmethod
    def drawn_conditions(rng: random.Random) -> dict:
        conditions = sorted(example_data().condition_dice)
        return {"conditions": rng.sample(conditions, rng.randint(0, len(conditions)))}


class Sees(_OnTheMap, QuizKind):
    name = "sees"
    form = "yes_no"
    what = "does A see B"
    rule = "SS Panzer errata 9.4"
    keys = {
        "firer": NAME,
        "target": NAME,
        "blocking_terrain": Input.list(NAME, most=20),
        "visibility": VISIBILITY,
    }
    defaults = {"blocking_terrain": [], "visibility": None}
    readings = tuple(SIGHT_READINGS)

    def answer(self, question, readings):
        s = question.setting
        options: dict[str, Any] = {"blocking_terrain": tuple(s("blocking_terrain"))}
        if s("visibility") is not None:
            options["visibility"] = s("visibility")
        result = line_of_sight(question.board, s("firer"), s("target"), **options, **readings)
        return Answer(
            result.clear, yes_no_words(result.clear, result.verdict), result.steps, result
        )

    def ask(self, s):
        return f"Can a unit in {s['firer']} see a unit in {s['target']}?"

    def draw(self, rng, board):
        slopes = sorted(board.uphill_hexes.values(), key=board.label) or list(board)
        near = [h for h in board if min(h.distance(s) for s in slopes) <= 2]
        a = rng.choice(near)
        b = rng.choice([h for h in near if 2 <= a.distance(h) <= 6])
        return {"firer": board.label(a), "target": board.label(b)}

    def relevant(self, question):
        """The edge reading matters only with blocking terrain."""
        if question.setting("blocking_terrain"):
            return self.readings
        return tuple(r for r in self.readings if r != EDGE.keyword)


class Reach(_OnTheMap, _AUnit, QuizKind):
    name = "reach"
    form = "hexes"
    what = "which hexes can this unit reach"
    rule = MOVEMENT
    keys = {"unit": NAME, "start": NAME, "mp": MP, "action": ACTION, "moved": MOVED}
    defaults = {"mp": None, "action": "move", "moved": False}

    def answer(self, question, readings):
        s, m = question.setting, question.board
        plan = plan_movement(m, s("unit"), s("start"), s("mp"), s("action"), moved=s("moved"))
        reached = {h: mp for h, mp in plan.costs.items() if h != plan.start}
        labels = frozenset(m.label(h) for h in reached)
        steps = [
            Step(
                f"{plan.unit.name} in {m.label(plan.start)} with {plan.mp} MP ({plan.how})",
                MOVEMENT,
            )
        ]
        for h, mp in sorted(reached.items(), key=lambda item: (item[1], m.label(item[0]))):
            beyond = (
                ": more than its MP, only as the one hex of a Move action" if mp > plan.mp else ""
            )
            steps.append(Step(f"{m.label(h)}: {mp} MP{beyond}", MOVEMENT))
        words = f"{count(len(labels), 'hex', 'hexes')}: {', '.join(sorted(labels)) or 'none'}"
        return Answer(labels, words, tuple(steps), plan)

    def ask(self, s):
        return (
            f"The {s['unit']} in {s['start']} {self.moved_words(s, 'mp')}. Which hexes can it "
            "reach on a Move action?"
        )

    def draw(self, rng, board):
        moved = rng.random() < 0.5
        unit = self.drawn_unit(rng, moved)
        start = board.label(rng.choice(list(board)))
        return {"unit": unit, "start": start, "mp": self.drawn_mp(rng, unit, moved), "moved": moved}


class EntryCost(_OnTheMap, QuizKind):
    name = "entry_cost"
    form = "number"
    what = "what does entering this hex cost"
    rule = MOVEMENT
    keys = {"unit": NAME, "from": NAME, "to": NAME, "moved": MOVED, "action": ACTION}
    defaults = {"moved": False, "action": "move"}

    def answer(self, question, readings):
        entry = self.entry(question)
        return Answer(entry.mp, f"{entry.mp} MP", entry.steps, entry)

    def entry(self, question: Question, mp_left: int | None = None) -> movement.EntryCost:
        """What entering the hex costs the unit, and with ``mp_left`` whether it may."""
        s = question.setting
        return explain_entry(
            question.board,
            s("unit"),
            s("from"),
            s("to"),
            mp_left=mp_left,
            moved=s("moved"),
            action=s("action"),
        )

    def ask(self, s):
        return f"What does the {s['unit']} in {s['from']} pay to enter {s['to']}?"

    def draw(self, rng, board):
        interesting = [h for h in board if board.terrain(h)] or list(board)
        b = rng.choice(interesting)
        a = rng.choice(board.neighbors(b))
        unit = rng.choice(sorted(example_data().units))
        return {"unit": unit, "from": board.label(a), "to": board.label(b)}


class MayEnter(_AUnit, EntryCost):
    name = "may_enter"
    form = "yes_no"
    what = "may this unit enter the hex"
    keys = {**EntryCost.keys, "mp_left": MP}

    def answer(self, question, readings):
        entry = self.entry(question, mp_left=question.setting("mp_left"))
        detail = f"it costs {entry.mp} MP with {question.setting('mp_left')} MP left"
        return Answer(entry.allowed, yes_no_words(entry.allowed, detail), entry.steps, entry)

    def ask(self, s):
        return (
            f"The {s['unit']} in {s['from']} {self.moved_words(s, 'mp_left')}, on a Move "
            f"action. May it enter {s['to']}?"
        )

    def draw(self, rng, board):
        entry = super().draw(rng, board)
        moved = rng.random() < 0.5
        unit = entry["unit"] if moved else self.drawn_unit(rng, moved)
        return {**entry, "unit": unit, "mp_left": self.drawn_mp(rng, unit, moved), "moved": moved}


class FireDice(_AFire, QuizKind):
    name = "fire_dice"
    form = "fires"
    what = "how many dice does this fire roll"
    rule = FIRE
    keys = {"conditions": CONDITIONS}

    def answer(self, question, readings):
        fires = fire_dice(list(question.setting("conditions")), **readings)
        words = fires.words
        if len(fires.fires) > 1:
            words += f" ({len(fires.fires)} fires)"
        return Answer(tuple(fires.fires), words, fires.steps, fires)

    def ask(self, s):
        return f"{self.conditions_words(s)}. How many dice does it roll?"

    def draw(self, rng, board):
        return self.drawn_conditions(rng)


class StepLossChance(_AFire, QuizKind):
    name = "step_loss_chance"
    form = "band"
    what = "chance of a step loss"
    rule = FIRE
    keys = {"conditions": CONDITIONS, "hit_number": HIT_NUMBER}

    def answer(self, question, readings):
        fires = fire_dice(list(question.setting("conditions")), **readings)
        # its steps cite the sources the game data names
        loss = step_loss_chance(fires, question.setting("hit_number"))
        steps = (*fires.steps, *loss.steps)
        return Answer(loss.chance, chance_words(loss.chance), steps, loss.effect)

    def ask(self, s):
        return (
            f"{self.conditions_words(s)}, hitting on {s['hit_number']} or less. What is the "
            "chance of a step loss?"
        )

    def draw(self, rng, board):
        return {**self.drawn_conditions(rng), "hit_number": rng.randint(1, 4)}


QUIZ = GameQuiz(
    Sees,
    Reach,
    EntryCost,
    MayEnter,
    FireDice,
    StepLossChance,
    board=lambda: example_map(MAP),
    board_keys={"map": NAME, "terrain": Input.table(Input.list(NAME), most=20)},
)
