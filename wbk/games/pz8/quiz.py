"""Pz 8's quiz questions (``wbk.quiz``): does a shot reach and is its target in cover, which
tanks can a tank shoot, the chance one attack destroys (of a gun class, or of a calibre), may a
platoon move together, the chance a shaken tank rallies, the chance a tank can end its move at
a point. Asked on the crossroads table unless a question names a table file, with tanks moved
or shaken as it says."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction

from wbk.checks import Input
from wbk.datafile import file_beside
from wbk.dice import percent
from wbk.errors import WbkError
from wbk.explain import Step
from wbk.quiz import Answer, GameQuiz, QuizKind, chance_words, yes_no_words

from .movement import POINT, movement_reach
from .platoons import platoon_movement
from .readings import CALIBRE_GAPS, PIVOT, ROUGH_TERRAIN, VETERAN_HQ_RALLY
from .shaken import rally_chance
from .shooting import attack_procedure, shot
from .tanks import (
    CALIBRE,
    DAMAGE,
    FLAG,
    GUN,
    MOVE_VALUES,
    MOVEMENT,
    NAME,
    SHAKEN,
    SHOOTING,
    TANK_CLASS,
    example_table,
    gun_for_calibre,
    load_table,
    tank_on,
)

#: What a question on the table may set up besides its kind's keys: a table file, tanks moved
#: to [x, y] or [x, y, facing], tanks marked shaken.
TABLE_KEYS = {
    "table": NAME,
    "moves": Input.table(Input.list(Input.number(-1000, 1000), least=2, most=3), most=100),
    "shaken_tanks": Input.list(NAME, most=100),
}


def no_shot_reasons(result) -> str:
    """Why a shot cannot be taken, as its steps say it ("out of range; no line of sight")."""
    return "; ".join(
        s.text.removeprefix("no shot: ") for s in result.steps if s.text.startswith("no shot: ")
    )


def live_tanks(table) -> list:
    """The tanks on the table that are not wrecks."""
    return [t for t in table.pieces if not getattr(t, "destroyed", False)]


def enemy_pair(rng, table) -> tuple[str, str]:
    """A tank that is not a wreck, drawn at random, and an enemy of it."""
    firer = rng.choice(live_tanks(table))
    target = rng.choice([t for t in live_tanks(table) if t.side != firer.side])
    return firer.name, target.name


class OnTheTable:
    """What a kind of question asked on a table has (``QuizKind.board``): the crossroads
    unless it names a table file (in the quiz file's folder), with the tanks it ``moves`` and
    those it marks shaken."""

    def board(self, settings, folder):
        name = settings.get("table", "pz8_crossroads")
        if name == "pz8_crossroads":
            table = example_table()
        elif name.endswith(".toml"):
            table = load_table(file_beside(folder, name, "table"))
        else:
            raise WbkError(f"table {name!r} is not pz8_crossroads or a table file")
        for tank, where in settings.get("moves", {}).items():
            moved = replace(table.piece(tank), position=(where[0], where[1]))
            table = table.with_piece(replace(moved, facing=where[2]) if len(where) == 3 else moved)
        for tank in settings.get("shaken_tanks", []):
            table = table.with_piece(replace(tank_on(table, tank), shaken=True))
        return table


class Shot(OnTheTable, QuizKind):
    name = "shot"
    form = "choice"
    what = "does the shot reach, and is the target in cover"
    rule = SHOOTING
    keys = {"firer": NAME, "target": NAME}
    readings = ("cover_reading",)
    CHOICES = ("no shot", "shot, target in the open", "shot, target in cover")

    def answer(self, question, readings):
        result = shot(
            question.board, question.setting("firer"), question.setting("target"), **readings
        )
        if not result.can_shoot:
            return Answer(
                self.CHOICES[0], f"no shot ({no_shot_reasons(result)})", result.steps, result
            )
        value = self.CHOICES[2] if result.in_cover else self.CHOICES[1]
        return Answer(value, f"{value} ({result.distance_words} away)", result.steps, result)

    def ask(self, settings):
        return (
            f"{settings['firer']} shoots at {settings['target']}: does the shot reach, and is "
            "the target in cover?"
        )

    def draw(self, rng, board):
        firer, target = enemy_pair(rng, board)
        return {"firer": firer, "target": target}

    def choices(self, question):
        return self.CHOICES


class Targets(OnTheTable, QuizKind):
    name = "targets"
    form = "tanks"
    what = "which enemy tanks can this tank shoot"
    rule = SHOOTING
    keys = {"firer": NAME}

    def answer(self, question, readings):
        table = question.board
        firer = table.piece(question.setting("firer"))
        steps, able = [], []
        for t in live_tanks(table):
            if t.side == firer.side:
                continue
            result = shot(table, firer.name, t.name)
            if result.can_shoot:
                able.append(t.name)
                seen = "in cover" if result.in_cover else "in the open"
                steps.append(Step(f"{t.name}: {result.distance_words}, {seen}: a shot", SHOOTING))
            else:
                steps.append(Step(f"{t.name}: no shot ({no_shot_reasons(result)})", SHOOTING))
        names = frozenset(able)
        return Answer(names, ", ".join(sorted(names)) or "none", tuple(steps), firer)

    def ask(self, settings):
        return f"Which enemy tanks can {settings['firer']} shoot?"

    def draw(self, rng, board):
        return {"firer": enemy_pair(rng, board)[0]}


class DestroyChance(OnTheTable, QuizKind):
    """The chance one attack destroys: of two tanks on the table (``firer``, ``target``), or of
    a gun class (``gun``, or ``calibre`` in millimetres) at a ``target_class``, on no table."""

    name = "destroy_chance"
    form = "band"
    what = "chance one attack destroys the target"
    rule = f"{SHOOTING}; Penetration and Damage"
    keys = {
        "firer": NAME,
        "target": NAME,
        "gun": GUN,
        "calibre": CALIBRE,
        "target_class": TANK_CLASS,
        "cover": FLAG,
        "veteran": FLAG,
        "shaken": FLAG,
    }
    defaults = {
        "firer": None,
        "target": None,
        "gun": None,
        "calibre": None,
        "target_class": None,
        "cover": False,
        "veteran": False,
        "shaken": False,
    }
    readings = ("natural_six", "cover_reading", "calibre_gaps")

    def answer(self, question, readings):
        if question.setting("firer") is not None:
            result = shot(
                question.board, question.setting("firer"), question.setting("target"), **readings
            )
            if result.outcome is None:
                said = Step("no shot: no chance to destroy", SHOOTING)
                return Answer(Fraction(0), chance_words(Fraction(0)), (*result.steps, said), result)
            p = result.outcome.map(lambda o: o.destroyed).probability(True)
            steps = (*result.steps, Step(f"destroyed: {p} = {percent(p)}", DAMAGE))
            return Answer(p, chance_words(p), steps, result)
        gun = question.setting("gun")
        classed: tuple[Step, ...] = ()
        if question.setting("calibre") is not None:
            gun, classed = self.gun_of_calibre(question.setting("calibre"), readings)
        procedure = attack_procedure(
            gun,
            question.setting("target_class"),
            cover=question.setting("cover"),
            veteran=question.setting("veteran"),
            shaken=question.setting("shaken"),
            **{k: v for k, v in readings.items() if k == "natural_six"},
        )
        p = procedure.outcome.map(lambda o: o.destroyed).probability(True)
        steps = (*classed, *procedure.steps, Step(f"destroyed: {p} = {percent(p)}", DAMAGE))
        return Answer(p, chance_words(p), steps, procedure)

    @staticmethod
    def gun_of_calibre(calibre, readings: Mapping[str, str]) -> tuple[str, tuple[Step, ...]]:
        """Shooting: the class of a ``calibre``, and the step that says so (with the reading of
        the card's gaps where the calibre falls in one)."""
        reading = readings.get("calibre_gaps", CALIBRE_GAPS.default)
        other = next(v for v in CALIBRE_GAPS.values if v != reading)
        gun = gun_for_calibre(calibre, calibre_gaps=reading)
        otherwise = gun_for_calibre(calibre, calibre_gaps=other)
        named = calibre if isinstance(calibre, str) else f"{calibre:g} mm"
        if otherwise == gun:
            return gun, (Step(f"a {named} gun is a {gun} gun", SHOOTING),)
        said = (
            f"a {named} gun is a {gun} gun (read as: {CALIBRE_GAPS.sentence(reading)}; read the "
            f"other way, a {otherwise} gun)"
        )
        return gun, (Step(said, f"{SHOOTING}, {CALIBRE_GAPS.cited(reading)}"),)

    def ask(self, settings):
        return (
            f"{settings['firer']} shoots at {settings['target']}: what is the chance one attack "
            "destroys it?"
        )

    def draw(self, rng, board):
        """Two enemy tanks, the one able to shoot the other: a chance that one attack destroys
        is asked only of an attack that can be made."""
        live = live_tanks(board)
        pairs = [(a.name, b.name) for a in live for b in live if a.side != b.side]
        rng.shuffle(pairs)
        for firer, target in pairs:
            if shot(board, firer, target).can_shoot:
                return {"firer": firer, "target": target}
        raise WbkError("no tank on the table can shoot an enemy")

    def relevant(self, question):
        """Cover is read only for a shot across the table, the card's gaps between gun classes
        only for a gun given by its calibre."""
        if question.setting("firer") is not None:
            return tuple(r for r in self.readings if r != "calibre_gaps")
        asked = [r for r in self.readings if r != "cover_reading"]
        return tuple(
            r for r in asked if r != "calibre_gaps" or question.setting("calibre") is not None
        )

    def board(self, settings, folder):
        """A gun (or a calibre) at a class asks of no table; two tanks, of theirs."""
        if settings.get("gun") is not None or settings.get("calibre") is not None:
            return None
        return super().board(settings, folder)


class Platoon(OnTheTable, QuizKind):
    name = "platoon"
    form = "yes_no"
    what = "may this platoon move together"
    rule = MOVEMENT
    keys = {"side": NAME}
    readings = ("shaken_hq", "shaken_member")

    def answer(self, question, readings):
        move = platoon_movement(question.board, question.setting("side"), **readings)
        detail = f"{len(move.tanks)} tanks move together" if move.allowed else move.steps[-1].text
        return Answer(move.allowed, yes_no_words(move.allowed, detail), move.steps, move)

    def ask(self, settings):
        return f"May the {settings['side']} platoon move together?"

    def draw(self, rng, board):
        return {"side": rng.choice(sorted({t.side for t in board.pieces}))}

    def relevant(self, question):
        """Only the readings of the platoon's shaken tanks matter: its HQ's, another's, or
        both."""
        side = question.setting("side")
        shaken = [t for t in question.board.pieces if t.side == side and t.shaken]
        return tuple(r for r in self.readings if any(t.is_hq == (r == "shaken_hq") for t in shaken))


class Rally(QuizKind):
    name = "rally"
    form = "band"
    what = "chance a shaken tank rallies"
    rule = SHAKEN
    keys = {k: FLAG for k in ("veteran", "is_hq", "hq_within_12", "hq_able")}
    defaults = {"veteran": False, "is_hq": False, "hq_within_12": True, "hq_able": True}
    readings = ("veteran_hq_rally",)

    def answer(self, question, readings):
        options = {k: question.setting(k) for k in self.keys}
        reading = readings.get("veteran_hq_rally", VETERAN_HQ_RALLY.default)
        p = rally_chance(**options, veteran_hq_rally=reading)
        said = ", ".join(k.replace("_", " ") for k, v in options.items() if v is True) or "none"
        rule, read = SHAKEN, ""
        if self.relevant(question):
            rule = f"{SHAKEN}, {VETERAN_HQ_RALLY.cited(reading)}"
            read = f" ({VETERAN_HQ_RALLY.sentence(reading)})"
        steps = (
            Step(f"the tank: {said}", SHAKEN),
            Step(f"it rallies with chance {p} = {percent(p)}{read}", rule),
        )
        return Answer(p, chance_words(p), steps, None)

    def ask(self, settings):
        """Everything a rally's chance hangs on: the crew, and the HQ (the tank itself, or how
        far off and whether it is able)."""
        crew = "veteran" if settings.get("veteran") else "regular"
        if settings.get("is_hq"):
            return f"A shaken HQ tank with a {crew} crew tries to rally itself. What is its chance?"
        near = settings.get("hq_within_12", True)
        where = 'within 12" of its HQ' if near else 'more than 12" from its HQ'
        able = "" if settings.get("hq_able", True) else ", which is shaken or destroyed"
        return (
            f"A shaken tank with a {crew} crew, {where}{able}, tries to rally. What is its chance?"
        )

    def draw(self, rng, board):
        if rng.random() < 0.25:
            return {"is_hq": True}
        return {"veteran": rng.random() < 0.5, "hq_within_12": rng.random() < 0.8}

    def relevant(self, question):
        """A veteran HQ's own rally is read; no other tank's."""
        veteran_hq = question.setting("is_hq") is True and question.setting("veteran") is True
        return self.readings if veteran_hq else ()


class Reach(OnTheTable, QuizKind):
    name = "reach"
    form = "band"
    what = "chance a tank can end its move at a point"
    rule = MOVEMENT
    keys = {"tank": NAME, "point": POINT}
    readings = (PIVOT.keyword, ROUGH_TERRAIN.keyword)

    def answer(self, question, readings):
        tank, (x, y) = question.setting("tank"), question.setting("point")
        reach = movement_reach(question.board, tank, **readings)
        p = reach.chance_to_reach((x, y))
        ways = reach.ways((x, y))
        where = f"({x:g}, {y:g})"
        if p == 1 and not ways:
            said = f"{where} is where {tank} stands"
        elif not p:
            said = f"no way to {where} fits the highest roll: the chance is 0"
        else:
            roll = next(b.roll for b in reach.bands if b.probability == p)
            way = next(w for w in ways if w.allows(reach.bands[roll - 1].inches))
            how = (
                f'straight on {float(way.before):g}", then pivoting'
                if way.before
                else "pivoting at the start"
            )
            paid = f", {', '.join(way.charged)} to pay" if way.charged else ""
            said = f'{where}: {way.length:.2f}" of way {how}{paid}: a roll of {roll} or more, {p}'
        steps = (*reach.steps, Step(said, MOVEMENT, about=(tank,)))
        return Answer(p, chance_words(p), steps, reach)

    def ask(self, settings):
        x, y = settings["point"]
        return (
            f"What is the chance {settings['tank']} can end its move with its centre at "
            f"({x:g}, {y:g})?"
        )

    def draw(self, rng, board):
        """A tank that can move, and a point near the places it may reach (to a tenth of an
        inch): ahead, a little to the side of its pivot, a little past its longest move."""
        tank = rng.choice([t for t in board.pieces if not (t.destroyed or t.shaken)])
        longest = MOVE_VALUES[tank.tank_class] + 6
        for _ in range(100):
            angle = math.radians(tank.facing + rng.uniform(-55, 55))
            distance = rng.uniform(2, longest + 2)
            x = round(tank.position[0] + distance * math.cos(angle), 1)
            y = round(tank.position[1] + distance * math.sin(angle), 1)
            if 0 <= x <= board.width and 0 <= y <= board.depth:
                return {"tank": tank.name, "point": [x, y]}
        return {"tank": tank.name, "point": list(tank.position)}


QUIZ = GameQuiz(
    Shot,
    Targets,
    DestroyChance,
    Platoon,
    Rally,
    Reach,
    board=example_table,
    board_keys=TABLE_KEYS,
)
