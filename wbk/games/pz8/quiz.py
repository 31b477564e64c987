"""Pz 8's quiz questions (``wbk.quiz``): does a shot reach and is its target in cover, which
tanks can a tank shoot, the chance one attack destroys (of a gun class, or of a calibre), may a
platoon move together, the chance a shaken tank rallies, the chance a tank can end its move at
a point. Asked on the crossroads table unless a question names a table file, with tanks moved
or shaken as it says."""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

from wbk.checks import Input
from wbk.datafile import file_beside
from wbk.dice import percent
from wbk.errors import WbkError
from wbk.explain import Step
from wbk.games import pz8
from wbk.games.pz8.readings import CALIBRE_GAPS, PIVOT, VETERAN_HQ_RALLY
from wbk.games.pz8.tanks import GUNS, TANK_CLASSES, tank_on
from wbk.quiz import Answer, GameQuiz, Question, QuizKind, chance_words, yes_no_words

SHOT_CHOICES = ("no shot", "shot, target in the open", "shot, target in cover")


def _pz8_shot(q: Question, readings: dict[str, str]) -> Answer:
    result = pz8.shot(q.board, q.setting("firer"), q.setting("target"), **readings)
    if not result.can_shoot:
        value = SHOT_CHOICES[0]
        why = "; ".join(s.text[9:] for s in result.steps if s.text.startswith("no shot: "))
        words = f"no shot ({why})"
    else:
        value = SHOT_CHOICES[2] if result.in_cover else SHOT_CHOICES[1]
        words = f"{value} ({result.distance_words} away)"
    return Answer(value, words, result.steps, result)


def _pz8_targets(q: Question, readings: dict[str, str]) -> Answer:
    table = q.board
    firer = table.piece(q.setting("firer"))
    steps, able = [], []
    for t in table.pieces:
        if t.side == firer.side or getattr(t, "destroyed", False):
            continue
        result = pz8.shot(table, firer.name, t.name)
        if result.can_shoot:
            able.append(t.name)
            seen = "in cover" if result.in_cover else "in the open"
            steps.append(Step(f"{t.name}: {result.distance_words}, {seen}: a shot", pz8.SHOOTING))
        else:
            why = "; ".join(s.text[9:] for s in result.steps if s.text.startswith("no shot: "))
            steps.append(Step(f"{t.name}: no shot ({why})", pz8.SHOOTING))
    names = frozenset(able)
    words = ", ".join(sorted(names)) if names else "none"
    return Answer(names, words, tuple(steps), firer)


def _pz8_destroy(q: Question, readings: dict[str, str]) -> Answer:
    if q.setting("firer") is not None:
        result = pz8.shot(q.board, q.setting("firer"), q.setting("target"), **readings)
        if result.outcome is None:
            p = Fraction(0)
            steps = (*result.steps, Step("no shot: no chance to destroy", pz8.SHOOTING))
        else:
            p = result.outcome.map(lambda o: o.destroyed).probability(True)
            steps = (*result.steps, Step(f"destroyed: {p} = {percent(p)}", pz8.DAMAGE))
        return Answer(p, chance_words(p), tuple(steps), result)
    natural_six = {k: v for k, v in readings.items() if k == "natural_six"}
    gun = q.setting("gun")
    classed: tuple[Step, ...] = ()
    if q.setting("calibre") is not None:
        gun, classed = _gun_of_calibre(q, readings)
    procedure = pz8.attack_procedure(
        gun,
        q.setting("target_class"),
        cover=q.setting("cover"),
        veteran=q.setting("veteran"),
        shaken=q.setting("shaken"),
        **natural_six,
    )
    p = procedure.outcome.map(lambda o: o.destroyed).probability(True)
    steps = (*classed, *procedure.steps, Step(f"destroyed: {p} = {percent(p)}", pz8.DAMAGE))
    return Answer(p, chance_words(p), steps, procedure)


def _gun_of_calibre(q: Question, readings: dict[str, str]) -> tuple[str, tuple[Step, ...]]:
    """Shooting: the class of the question's calibre, and the step that says so (with the
    reading of the card's gaps where the calibre falls in one)."""
    calibre = q.setting("calibre")
    reading = readings.get("calibre_gaps", CALIBRE_GAPS.default)
    gun = pz8.gun_for_calibre(calibre, calibre_gaps=reading)
    other = next(v for v in CALIBRE_GAPS.values if v != reading)
    if pz8.gun_for_calibre(calibre, calibre_gaps=other) == gun:
        return gun, (Step(f"a {calibre:g} mm gun is a {gun} gun", pz8.SHOOTING),)
    said = (
        f"a {calibre:g} mm gun is a {gun} gun (read as: {CALIBRE_GAPS.sentence(reading)}; read "
        f"the other way, a {pz8.gun_for_calibre(calibre, calibre_gaps=other)} gun)"
    )
    return gun, (Step(said, f"{pz8.SHOOTING}, {CALIBRE_GAPS.cited(reading)}"),)


def _pz8_platoon(q: Question, readings: dict[str, str]) -> Answer:
    move = pz8.platoon_movement(q.board, q.setting("side"), **readings)
    detail = f"{len(move.tanks)} tanks move together" if move.allowed else move.steps[-1].text
    return Answer(move.allowed, yes_no_words(move.allowed, detail), move.steps, move)


def _pz8_rally(q: Question, readings: dict[str, str]) -> Answer:
    options = {k: q.setting(k) for k in ("veteran", "is_hq", "hq_within_12", "hq_able")}
    reading = readings.get("veteran_hq_rally", VETERAN_HQ_RALLY.default)
    p = pz8.rally_chance(**options, veteran_hq_rally=reading)
    said = ", ".join(k.replace("_", " ") for k, v in options.items() if v is True) or "none"
    rule, read = pz8.SHAKEN, ""
    if _rally_readings(q, ("veteran_hq_rally",)):
        rule = f"{pz8.SHAKEN}, {VETERAN_HQ_RALLY.cited(reading)}"
        read = f" ({VETERAN_HQ_RALLY.sentence(reading)})"
    steps = (
        Step(f"the tank: {said}", pz8.SHAKEN),
        Step(f"it rallies with chance {p} = {percent(p)}{read}", rule),
    )
    return Answer(p, chance_words(p), steps, None)


def _pz8_reach(q: Question, readings: dict[str, str]) -> Answer:
    tank, (x, y) = q.setting("tank"), q.setting("point")
    reach = pz8.movement_reach(
        q.board,
        tank,
        rough_terrain=readings.get("rough_terrain", pz8.READINGS["rough_terrain"].default),
        pivot=readings.get("pivot", PIVOT.default),
    )
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
            "pivoting at the start"
            if not way.before
            else f'straight on {float(way.before):g}", then pivoting'
        )
        paid = f", {', '.join(way.charged)} to pay" if way.charged else ""
        said = f'{where}: {way.length:.2f}" of way {how}{paid}: a roll of {roll} or more, {p}'
    steps = (*reach.steps, Step(said, pz8.MOVEMENT, about=(tank,)))
    return Answer(p, chance_words(p), steps, reach)


def _enemy_pair(rng: random.Random, table) -> tuple[str, str]:
    live = [t for t in table.pieces if not getattr(t, "destroyed", False)]
    firer = rng.choice(live)
    target = rng.choice([t for t in live if t.side != firer.side])
    return firer.name, target.name


def _draw_shot(rng: random.Random, table) -> dict:
    firer, target = _enemy_pair(rng, table)
    return {"firer": firer, "target": target}


def _draw_destroy(rng: random.Random, table) -> dict:
    """Two enemy tanks, the one able to shoot the other: a chance that one attack destroys is
    asked only of an attack that can be made."""
    live = [t for t in table.pieces if not getattr(t, "destroyed", False)]
    pairs = [(a.name, b.name) for a in live for b in live if a.side != b.side]
    rng.shuffle(pairs)
    for firer, target in pairs:
        if pz8.shot(table, firer, target).can_shoot:
            return {"firer": firer, "target": target}
    raise WbkError("no tank on the table can shoot an enemy")


def _draw_targets(rng: random.Random, table) -> dict:
    return {"firer": _enemy_pair(rng, table)[0]}


def _draw_reach(rng: random.Random, table) -> dict:
    """A tank that can move, and a point near the places it may reach (to a tenth of an
    inch): ahead, a little to the side of its pivot, a little past its longest move."""
    movers = [t for t in table.pieces if not (t.destroyed or t.shaken)]
    tank = rng.choice(movers)
    longest = pz8.MOVE_VALUES[tank.tank_class] + 6
    for _ in range(100):
        angle = math.radians(tank.facing + rng.uniform(-55, 55))
        distance = rng.uniform(2, longest + 2)
        x = round(tank.position[0] + distance * math.cos(angle), 1)
        y = round(tank.position[1] + distance * math.sin(angle), 1)
        if 0 <= x <= table.width and 0 <= y <= table.depth:
            return {"tank": tank.name, "point": [x, y]}
    return {"tank": tank.name, "point": list(tank.position)}


def _draw_platoon(rng: random.Random, table) -> dict:
    return {"side": rng.choice(sorted({t.side for t in table.pieces}))}


def _draw_rally(rng: random.Random, table) -> dict:
    if rng.random() < 0.25:
        return {"is_hq": True}
    return {"veteran": rng.random() < 0.5, "hq_within_12": rng.random() < 0.8}


def _table(settings: Mapping, folder: Path | None):
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
        table = table.with_piece(replace(tank_on(table, tank), shaken=True))
    return table


def _table_unless_gun(settings: Mapping, folder: Path | None):
    """A chance to destroy asks of a gun (or a calibre) and a class (no table) or of two tanks
    on one."""
    if settings.get("gun") is not None or settings.get("calibre") is not None:
        return None
    return _table(settings, folder)


def _platoon_readings(q: Question, readings: tuple[str, ...]) -> tuple[str, ...]:
    """Only the readings of the platoon's shaken tanks matter: its HQ's, another's, or both."""
    side = [t for t in q.board.pieces if t.side == q.setting("side") and t.shaken]
    return tuple(r for r in readings if any(t.is_hq == (r == "shaken_hq") for t in side))


def _destroy_readings(q: Question, readings: tuple[str, ...]) -> tuple[str, ...]:
    """Cover is read only for a shot across the table, the card's gaps between gun classes
    only for a gun given by its calibre."""
    if q.setting("firer") is not None:
        return tuple(r for r in readings if r != "calibre_gaps")
    asked = [r for r in readings if r != "cover_reading"]
    return tuple(r for r in asked if r != "calibre_gaps" or q.setting("calibre") is not None)


def _rally_readings(q: Question, readings: tuple[str, ...]) -> tuple[str, ...]:
    """A veteran HQ's own rally is read; no other tank's."""
    veteran_hq = q.setting("is_hq") is True and q.setting("veteran") is True
    return tuple(r for r in readings if r != "veteran_hq_rally" or veteran_hq)


def _rally_ask(s: Mapping) -> str:
    """Everything a rally's chance hangs on: the crew, and the HQ (the tank itself, or how far
    off and whether it is able)."""
    crew = "veteran" if s.get("veteran") else "regular"
    if s.get("is_hq"):
        return f"A shaken HQ tank with a {crew} crew tries to rally itself. What is its chance?"
    near = s.get("hq_within_12", True)
    where = 'within 12" of its HQ' if near else 'more than 12" from its HQ'
    able = "" if s.get("hq_able", True) else ", which is shaken or destroyed"
    return f"A shaken tank with a {crew} crew, {where}{able}, tries to rally. What is its chance?"


# --- what each key takes ---

NAME = Input.text()
FLAG = Input.flag()


class Shot(QuizKind):
    name = "shot"
    form = "choice"
    what = "does the shot reach, and is the target in cover"
    rule = "Pz 8, Shooting"
    keys = {"firer": NAME, "target": NAME}
    readings = ("cover_reading",)

    def answer(self, question, readings):
        return _pz8_shot(question, readings)

    def draw(self, rng, board):
        return _draw_shot(rng, board)

    def ask(self, s):
        return (
            f"{s['firer']} shoots at {s['target']}: does the shot reach, and is the target "
            "in cover?"
        )

    def board(self, settings, folder):
        return _table(settings, folder)

    def choices(self, q):
        return SHOT_CHOICES


class Targets(QuizKind):
    name = "targets"
    form = "tanks"
    what = "which enemy tanks can this tank shoot"
    rule = "Pz 8, Shooting"
    keys = {"firer": NAME}

    def answer(self, question, readings):
        return _pz8_targets(question, readings)

    def draw(self, rng, board):
        return _draw_targets(rng, board)

    def ask(self, s):
        return f"Which enemy tanks can {s['firer']} shoot?"

    def board(self, settings, folder):
        return _table(settings, folder)


class DestroyChance(QuizKind):
    name = "destroy_chance"
    form = "band"
    what = "chance one attack destroys the target"
    rule = "Pz 8, Shooting; Penetration and Damage"
    keys = {
        "firer": NAME,
        "target": NAME,
        "gun": Input.text(GUNS),
        "calibre": Input.number(1, 1000),
        "target_class": Input.text(TANK_CLASSES),
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
        return _pz8_destroy(question, readings)

    def draw(self, rng, board):
        return _draw_destroy(rng, board)

    def ask(self, s):
        return f"{s['firer']} shoots at {s['target']}: what is the chance one attack destroys it?"

    def relevant(self, question):
        return _destroy_readings(question, self.readings)

    def board(self, settings, folder):
        return _table_unless_gun(settings, folder)


class Platoon(QuizKind):
    name = "platoon"
    form = "yes_no"
    what = "may this platoon move together"
    rule = "Pz 8, Movement"
    keys = {"side": NAME}
    readings = ("shaken_hq", "shaken_member")

    def answer(self, question, readings):
        return _pz8_platoon(question, readings)

    def draw(self, rng, board):
        return _draw_platoon(rng, board)

    def ask(self, s):
        return f"May the {s['side']} platoon move together?"

    def relevant(self, question):
        return _platoon_readings(question, self.readings)

    def board(self, settings, folder):
        return _table(settings, folder)


class Rally(QuizKind):
    name = "rally"
    form = "band"
    what = "chance a shaken tank rallies"
    rule = "Pz 8, Optional Rule: Shaken"
    keys = {k: FLAG for k in ("veteran", "is_hq", "hq_within_12", "hq_able")}
    defaults = {"veteran": False, "is_hq": False, "hq_within_12": True, "hq_able": True}
    readings = ("veteran_hq_rally",)

    def answer(self, question, readings):
        return _pz8_rally(question, readings)

    def draw(self, rng, board):
        return _draw_rally(rng, board)

    def ask(self, settings):
        return _rally_ask(settings)

    def relevant(self, question):
        return _rally_readings(question, self.readings)


class Reach(QuizKind):
    name = "reach"
    form = "band"
    what = "chance a tank can end its move at a point"
    rule = "Pz 8, Movement"
    keys = {"tank": NAME, "point": Input.list(Input.number(-1000, 1000), least=2, most=2)}
    readings = (PIVOT.keyword, "rough_terrain")

    def answer(self, question, readings):
        return _pz8_reach(question, readings)

    def draw(self, rng, board):
        return _draw_reach(rng, board)

    def ask(self, s):
        return (
            f"What is the chance {s['tank']} can end its move with its centre at "
            f"({s['point'][0]:g}, {s['point'][1]:g})?"
        )

    def board(self, settings, folder):
        return _table(settings, folder)


QUIZ = GameQuiz(
    Shot,
    Targets,
    DestroyChance,
    Platoon,
    Rally,
    Reach,
    board=pz8.example_table,
    board_keys={
        "table": NAME,
        "moves": Input.table(Input.list(Input.number(-1000, 1000), least=2, most=3), most=100),
        "shaken_tanks": Input.list(NAME, most=100),
    },
)
