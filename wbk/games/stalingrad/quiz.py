"""Streets of Stalingrad's kinds of quiz question (``wbk.quiz``): which CRT column an attack
uses, where defenders hit by a "P" may retreat and how many they lose, and whether the attacker
may take the Close Assault Bonus. A retreat is asked on a shipped situation, a situation file,
or units placed on the chapter's blocks. Each key takes what the rules' own input does
(``units``, ``crt``, ``retreat``, ``situation``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar

from wbk.checks import Input
from wbk.datafile import file_beside
from wbk.errors import WbkError
from wbk.explain import Step, count
from wbk.quiz import Answer, GameQuiz, Question, QuizKind, list_words, yes_no_words

from . import situation
from .close_assault import close_assault_bonus
from .crt import SHIPPED, TOTAL, Crt, example_crt
from .readings import GIVEN_UP_TO_STAY, MINEFIELDS_AND_BRIDGES, PINNED_ZOC, RETREAT_READINGS
from .retreat import CLEAR, STACKING_LIMIT, STAY_TERRAIN, UNTOUCHED_KINDS, Retreat
from .situation import Situation, example_situation
from .units import FLAG, KIND, NAME, SIDE, STRENGTH, UNIT, Unit, cite


def _crt(question: Question) -> Crt:
    return example_crt(question.setting("crt"))


class CrtColumn(QuizKind):
    """An attack of some AF, maybe shifted higher: which column of the CRT does it roll on?"""

    name = "crt_column"
    form = "choice"
    what = "which CRT column"
    rule = "Streets of Stalingrad CRT and 9.67"
    keys = {"strength": TOTAL, "shift": Input.whole(0, 3), "crt": SHIPPED}
    defaults = {"shift": 0, "crt": "illustrative_1d6"}

    def answer(self, question, readings):
        crt = _crt(question)
        strength, shift = question.setting("strength"), question.setting("shift")
        own = crt.column_for(strength)
        column = crt.shift(own, shift)
        rule = "Streets of Stalingrad CRT (wbk's illustrative table)"
        steps = [Step(f"{strength} on the {crt.name}: the {own} column", rule)]
        if shift:
            moved = crt.columns.index(own) + shift != crt.columns.index(column)
            clamp = " (the table ends there)" if moved else ""
            steps.append(Step(f"{count(shift, 'column')} higher: {column}{clamp}", cite("9.67")))
        return Answer(column, f"the {column} column", tuple(steps), crt)

    def ask(self, settings):
        shifted = f", shifted {count(settings['shift'], 'column')} higher"
        return (
            f"An attack of {settings['strength']} AF"
            + (shifted if settings.get("shift") else "")
            + ": which column of the illustrative 1d6 CRT?"
        )

    def draw(self, rng, board):
        return {"strength": rng.randint(1, 40), "shift": rng.choice((0, 0, 1))}

    def shown(self, question):
        return _crt(question)

    def choices(self, question):
        return tuple(_crt(question).columns)


class _Retreat:
    """A "P" on a situation, the part the two kinds of retreat question share (a mixin before
    ``QuizKind``, whose hooks it fills in): the situation's keys, its board, how a drawn one is
    drawn and asked, and the readings that can change where the defenders go and how many are
    lost. Each kind says what it asks (``asks``) and reads its answer off the retreat
    (``reply``)."""

    rule = "Streets of Stalingrad 9.87-9.89"
    keys: ClassVar[Mapping[str, Input]] = {
        "situation": Input.either(
            situation.SHIPPED, Input.text(pattern=r".+\.toml", what="a situation file (.toml)")
        ),
        "target": NAME,
        "units": Input.table(Input.list(UNIT, least=1, most=20), most=200),
        "bombarded": Input.list(NAME, most=200),
        "attacked": Input.list(NAME, most=200),
        "stacking_limit": STACKING_LIMIT,
    }
    defaults: ClassVar[Mapping[str, object]] = {
        "situation": None,
        "target": None,
        "units": None,
        "bombarded": [],
        "attacked": [],
        "stacking_limit": 3,
    }
    readings: ClassVar[tuple[str, ...]] = tuple(r.keyword for r in RETREAT_READINGS)
    #: what the kind asks of the defenders, in words
    asks = ""

    def reply(self, r: Retreat) -> Answer:
        raise NotImplementedError

    def answer(self, question, readings):
        return self.reply(question.board.retreat(**readings))

    def ask(self, settings):
        """A drawn retreat in words: the defending hex and its terrain, and the hexes under
        attack or bombardment (the map shows the units)."""
        m = example_situation("one_way_out").map
        terrain = " and ".join(sorted(m.terrain(settings["target"]) - {CLEAR})) or CLEAR
        said = [f'A "P" result hits the Soviet units in the {terrain} hex {settings["target"]}']
        for key in ("bombarded", "attacked"):
            if settings.get(key):
                verb = "is" if len(settings[key]) == 1 else "are"
                said.append(f"{list_words(settings[key])} {verb} being {key}")
        return "; ".join(said) + f". {self.asks}"

    def draw(self, rng, board):
        """A defending hex with one to three Soviet units, German units near it, and maybe a
        hex under bombardment, on the chapter's blocks."""
        m = example_situation("one_way_out").map
        # a hex 9.87 or 9.88 speaks of (clear, balka, forest, suburb, village), never one where
        # wbk only assumes what a "P" does
        covered = {CLEAR, *STAY_TERRAIN}
        inner = [h for h in m if len(m.neighbors(h)) == 6 and m.terrain(h) <= covered]
        target = rng.choice(inner)
        kinds = ("infantry", "infantry", "engineer", "tank")
        units: dict[str, list[dict[str, Any]]] = {
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

    def board(self, settings: Mapping[str, Any], folder: Path | None) -> Situation:
        """The situation named (a shipped one, or a file in ``folder``), its target perhaps
        moved; or the units given, placed on the chapter's blocks."""
        name = settings.get("situation")
        if name is not None:
            if name.endswith(".toml"):
                s = Situation.load(file_beside(folder, name, "situation"))
            else:
                s = example_situation(name)
            target = settings.get("target")
            return s if target is None else replace(s, target=s.map.hex(target))
        for key in ("target", "units"):
            if settings.get(key) is None:
                raise WbkError(f"{key}: missing (or name a situation)")
        placed = {h: [Unit(**u) for u in listed] for h, listed in settings["units"].items()}
        return Situation(
            "a quiz question",
            example_situation("one_way_out").map,
            placed,
            attacked=settings.get("attacked", []),
            bombarded=settings.get("bombarded", []),
            target=settings["target"],
            stacking_limit=settings.get("stacking_limit", 3),
        )

    def relevant(self, question):
        """Pinned ZOCs matter only with a pinned or spent unit about, the unit given up to stay
        only with a fortification or an immobilized tank among the defenders, minefields and
        bridges in a stack only where one stands in a friendly hex next to the defenders, under
        a stacking limit."""
        s = question.board
        units = [u for here in s.units.values() for u in here]
        defenders = s.units.get(s.target, ())
        sides = {u.side for u in defenders}
        around = [u for h in s.map.neighbors(s.target) for u in s.units.get(h, ())]
        matters = {
            PINNED_ZOC.keyword: any(u.pinned or u.spent for u in units),
            GIVEN_UP_TO_STAY.keyword: any(
                u.kind == "fortification" or u.immobilized for u in defenders
            ),
            MINEFIELDS_AND_BRIDGES.keyword: s.stacking_limit is not None
            and any(u.kind in UNTOUCHED_KINDS and u.side in sides for u in around),
        }
        return tuple(r for r in self.readings if matters.get(r, True))


class RetreatHexes(_Retreat, QuizKind):
    """A "P": into which hexes may the defenders retreat?"""

    name = "retreat_hexes"
    form = "hexes"
    what = "where may the defenders retreat"
    asks = "Into which hexes may they retreat?"

    def reply(self, r):
        labels = frozenset(r.map.label(h) for hexes in r.options.values() for h in hexes)
        if labels:
            words = f"into {', '.join(sorted(labels))}"
        elif r.terrain == "other":  # 9.87-9.89 cover no such hex: wbk assumes a "P" only pins
            words = f"nowhere: {r.summary} (wbk's assumption)"
        else:
            words = "nowhere: no hex is open"
        return Answer(labels, words, r.steps, r)


class RetreatLosses(_Retreat, QuizKind):
    """A "P": how many of the defending units are lost, at the least?"""

    name = "retreat_losses"
    form = "number"
    what = "how many defending units are lost"
    asks = "How many of them does the defender lose, at the least?"

    def reply(self, r):
        words = f"{count(r.eliminated_at_least, 'unit')} lost ({r.summary})"
        return Answer(r.eliminated_at_least, words, r.steps, r)


#: An attacking unit of a bonus question: a unit's values (German unless it says), and whether
#: it is adjacent to the target hex (by default it is).
ATTACKER = Input.record(
    {
        "name": NAME,
        "side": SIDE,
        "kind": KIND,
        "strength": STRENGTH,
        "pinned": FLAG,
        "spent": FLAG,
        "adjacent": FLAG,
    },
    required=("name", "kind", "strength"),
)


class BonusAllowed(QuizKind):
    """Some units attack a hex: may the attacker take the Close Assault Bonus?"""

    name = "bonus_allowed"
    form = "yes_no"
    what = "may the attacker take the Close Assault Bonus"
    rule = "Streets of Stalingrad 9.67"
    keys = {"attack": Input.list(ATTACKER, least=1, most=20), "df": TOTAL, "crt": SHIPPED}
    defaults = {"crt": "illustrative_1d6"}

    def answer(self, question, readings):
        listed = question.setting("attack")
        attack = [
            Unit(**{"side": "German", **{k: v for k, v in u.items() if k != "adjacent"}})
            for u in listed
        ]
        away = [u["name"] for u in listed if u.get("adjacent") is False]
        df = question.setting("df")
        defence = [Unit("defender", "Soviet", "infantry")]
        result = close_assault_bonus(attack, defence, df, crt=_crt(question), not_adjacent=away)
        steps = tuple(s for s in result.steps if "9.67" in s.rule)
        # the yes or no alone: the column the bonus gives hangs on readings (pinned_attack) this
        # kind of question does not ask about; its steps show it
        detail = (
            "an unpinned, unspent infantry or engineer unit is adjacent"
            if result.allowed
            else "no unpinned, unspent infantry or engineer unit is adjacent"
        )
        return Answer(result.allowed, yes_no_words(result.allowed, detail), steps, result)

    def ask(self, settings):
        attackers = "; ".join(
            f"{u['kind']} {u['strength']}"
            + "".join(f", {k}" for k in ("pinned", "spent") if u.get(k))
            + (", not adjacent" if u.get("adjacent") is False else "")
            for u in settings["attack"]
        )
        return (
            f"Attacking: {attackers}; the defence has {settings['df']} DF. May the attacker take "
            "the Close Assault Bonus?"
        )

    def draw(self, rng, board):
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


QUIZ = GameQuiz(CrtColumn, RetreatHexes, RetreatLosses, BonusAllowed)
