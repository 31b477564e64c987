"""Streets of Stalingrad 9.87-9.89: retreat after combat on a hex map."""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from wbk.checks import Input, known_keywords
from wbk.errors import WbkError
from wbk.explain import Step, count, steps_html
from wbk.hexgrid import Hex
from wbk.maps import HexMap

from .readings import GIVEN_UP_TO_STAY, MINEFIELDS_AND_BRIDGES, PINNED_ZOC, RETREAT_INTO, checked
from .units import ASSUMED, KIND, Unit, checked_units, cite, named

#: wbk's default for 6.0: the kinds of unit that exert a ZOC.
ZOC_KINDS = ("infantry", "engineer", "tank", "gun")
#: 9.88: hex terrain where defenders hit by a "P" may stay by eliminating one of them.
STAY_TERRAIN = ("balka", "forest", "suburb", "village")
CLEAR = "clear"
#: 9.89: the kinds of unit a "P" leaves untouched (and whose place under the stacking limit
#: is a reading, ``minefields_and_bridges``).
UNTOUCHED_KINDS = ("minefield", "bridge")
#: How many units of a side a hex may hold (5.0, as wbk assumes it: a setting, 3 by default).
STACKING_LIMIT = Input.whole(1, 100)

#: The units in each hex, the hex by ``Hex`` or by its label.
Placement = Mapping[Hex, Sequence[Unit]] | Mapping[str, Sequence[Unit]]


def _placement(m: HexMap, units) -> dict[Hex, tuple[Unit, ...]]:
    """Units by hex, checked: hexes on the map, each listed once, unit names unique."""
    if not isinstance(m, HexMap):
        raise WbkError(f"{m!r} is not a HexMap")
    if not isinstance(units, Mapping):
        raise WbkError(f"units {units!r} is not a mapping of hex -> list of units")
    placed: dict[Hex, tuple[Unit, ...]] = {}
    seen: dict[str, str] = {}
    for where, here in units.items():
        h = m.hex(where)
        if h in placed:
            raise WbkError(f"hex {m.label(h)} is listed twice in the units")
        here = checked_units(here, f"hex {m.label(h)}")
        for u in here:
            if u.name in seen:
                raise WbkError(
                    f"unit name {u.name!r} is used in {seen[u.name]} and {m.label(h)}: "
                    "names must be unique"
                )
            seen[u.name] = m.label(h)
        if here:
            placed[h] = tuple(here)
    return placed


def _hexes(m: HexMap, hexes, what: str) -> frozenset[Hex]:
    if isinstance(hexes, (str, Hex)) or not isinstance(hexes, Iterable):
        raise WbkError(f"{what} hexes {hexes!r} is not a list of hexes")
    return frozenset(m.hex(h) for h in hexes)


@dataclass(frozen=True)
class Choice:
    """One way of answering a "P" result whole: ``eliminated``, the units lost (those 9.89
    eliminates first), and ``pinned_in``, each other unit hit and the hex it ends in, pinned.
    ``cost`` is the number of units lost."""

    eliminated: tuple[str, ...]
    pinned_in: Mapping[str, Hex]

    @property
    def cost(self) -> int:
        """How many units this choice loses."""
        return len(self.eliminated)

    def describe(self, m: HexMap) -> str:
        """The choice in one line: "lost: A, B; pinned: C in 1314, D in 1215"."""
        lost = ", ".join(self.eliminated) or "none"
        return f"lost: {lost}; pinned: {self.where_pinned(m)}"

    def where_pinned(self, m: HexMap) -> str:
        """Each unit pinned and its hex on ``m``: "C in 1314, D in 1215" ("none")."""
        return ", ".join(f"{name} in {m.label(h)}" for name, h in self.pinned_in.items()) or "none"


@dataclass(frozen=True)
class Retreat:
    """What a "P" result does to the defenders of one hex (9.87-9.89).

    - ``map``, ``target``, ``units`` (the units in each hex, both sides), ``attacked``,
      ``bombarded`` and ``readings`` (by keyword): the situation it was worked out in, and how
      the text was read;
    - ``terrain``: "clear" (9.87), the 9.88 terrain ("balka", "forest", "suburb", "village"),
      or "other" where the supplement is silent and a "P" only pins;
    - ``options``: for each unit that must (or may) retreat, the hexes it could retreat into on
      its own;
    - ``best``: a choice of hexes that loses the fewest units when they must share room (None:
      eliminated);
    - ``eliminated``: the units lost whatever happens (fortifications, immobilized tanks);
    - ``eliminated_at_least``: the fewest units the defender can lose in all, staying included
      where 9.88 allows it;
    - ``unaffected``: minefields and bridges (9.89);
    - ``pinned``: the units pinned after the ``best`` retreat (all survivors but the unaffected);
    - ``may_stay``: 9.88 lets the units stay by eliminating one of them, and
    ``stay_eliminates`` names the one the defender would give up (his weakest);
    - ``zoc``: the hexes in the ZOC of the defenders' enemies (6.0, as assumed);
    - ``go`` and ``stay``: each choice whole (a ``Choice``: who is lost, who is pinned where);
      ``go`` is None where no one retreats (terrain "other"), ``stay`` None in a clear hex.
    """

    map: HexMap
    target: Hex
    units: Mapping[Hex, tuple[Unit, ...]]
    attacked: frozenset[Hex]
    bombarded: frozenset[Hex]
    readings: Mapping[str, str]
    terrain: str
    steps: tuple[Step, ...]
    unaffected: frozenset[str]
    pinned: frozenset[str]
    options: dict[str, frozenset[Hex]] = field(default_factory=dict)
    best: dict[str, Hex | None] = field(default_factory=dict)
    eliminated: frozenset[str] = frozenset()
    eliminated_at_least: int = 0
    may_stay: bool = False
    stay_eliminates: str | None = None
    zoc: frozenset[Hex] = frozenset()
    go: Choice | None = None
    stay: Choice | None = None
    #: the step the verdict rests on: what the hex's terrain asks of its units (retreat, stay,
    #: or only be pinned), which the title's who-goes-where follows from
    deciding_step: Step | None = field(default=None, repr=False, compare=False)

    @property
    def summary(self) -> str:
        """The answer in one line."""
        lost = self.eliminated_at_least
        where = self.map.label(self.target)
        if self.terrain == "other":
            return f"{where}: the units are pinned and stay; no retreat"
        stay = ""
        if self.may_stay and self.stay is not None:
            stay = (
                ", or stay by eliminating one"
                if self.stay.cost > len(self.eliminated)
                else ", or stay at no further cost"
            )
        retreating = [n for n, h in self.best.items() if h is not None]
        total = len(self.best) + len(self.eliminated)
        cheaper = " (the cheaper choice)" if self.may_stay else ""
        return (
            f"{where}: {len(retreating)} of {len(self.best)} units can retreat{stay}; "
            f"{eliminated_words(lost, total)}{cheaper}"
        )

    def _repr_html_(self) -> str:
        """The hexes open, each unit's legal hexes and where it goes, the choices side by side,
        the answer in a line and its steps."""
        parts = []
        if self.terrain != "other":
            open_hexes = sorted(self.map.label(h) for h in set().union(*self.options.values()))
            listed = ", ".join(open_hexes) or "none"
            hexes = count(len(open_hexes), "hex", "hexes")
            parts += [f"<p>{hexes} open for the retreat: {listed}.</p>", self._units_html()]
        parts += [self._choices_html(), f"<b>{html.escape(self.summary)}</b>"]
        return "".join(parts) + steps_html(self.steps)

    def _units_html(self) -> str:
        """Each defending unit, its legal hexes and where it goes, as an HTML table."""
        m = self.map

        def legal(name: str) -> str:
            return ", ".join(sorted(m.label(h) for h in self.options[name])) or "none"

        def goes_to(name: str) -> str:
            h = self.best[name]
            return "eliminated" if h is None else m.label(h)

        rows = "".join(
            f"<tr><th>{html.escape(n)}</th><td>{legal(n)}</td><td>{goes_to(n)}</td></tr>"
            for n in self.best
        )
        rows += "".join(
            f"<tr><th>{html.escape(n)}</th><td>never retreats (9.89)</td><td>eliminated</td></tr>"
            for n in sorted(self.eliminated)
        )
        rows += "".join(
            f"<tr><th>{html.escape(n)}</th><td>not affected (9.89)</td><td>stays</td></tr>"
            for n in sorted(self.unaffected)
        )
        return (
            "<table><thead><tr><th>unit</th><th>legal hexes</th><th>goes to</th></tr></thead>"
            f"<tbody>{rows}</tbody></table>"
        )

    def _choices_html(self) -> str:
        """The defender's choices side by side as an HTML table: retreating ("go") and staying,
        each with the units lost and where the others end up, pinned."""
        columns = [
            ("retreat (9.87)", self.go),
            ("stay (9.88)" if self.may_stay else "stay", self.stay),
        ]
        shown = [(name, choice) for name, choice in columns if choice is not None]
        if not shown:
            return ""
        head = "".join(f"<th>{html.escape(name)}</th>" for name, _ in shown)
        lost = [
            f"{choice.cost}: {html.escape(', '.join(choice.eliminated))}" if choice.cost else "none"
            for _, choice in shown
        ]
        pinned = [html.escape(choice.where_pinned(self.map)) for _, choice in shown]
        body = "".join(
            f"<tr><th>{what}</th>{''.join(f'<td>{cell}</td>' for cell in cells)}</tr>"
            for what, cells in (("units lost", lost), ("pinned, where", pinned))
        )
        return f"<table><thead><tr><th></th>{head}</tr></thead><tbody>{body}</tbody></table>"


def eliminated_words(n: int, total: int) -> str:
    """How many of ``total`` units are eliminated, in words: "no unit eliminated", "2 of 3
    units eliminated", "all 3 units eliminated" ("the unit eliminated" for one of one)."""
    if n == 0:
        return "no unit eliminated"
    if n == total:
        return "the unit eliminated" if total == 1 else f"all {total} units eliminated"
    return f"{n} of {count(total, 'unit')} eliminated"


@known_keywords
def retreat_after_combat(
    m: HexMap,
    units: Placement,
    target: Hex | str,
    *,
    attacked: Iterable[Hex | str] = (),
    bombarded: Iterable[Hex | str] = (),
    stacking_limit: int | None = 3,
    zoc_kinds: Iterable[str] = ZOC_KINDS,
    retreat_into: str = RETREAT_INTO.default,
    pinned_zoc: str = PINNED_ZOC.default,
    given_up_to_stay: str = GIVEN_UP_TO_STAY.default,
    minefields_and_bridges: str = MINEFIELDS_AND_BRIDGES.default,
) -> Retreat:
    """Streets of Stalingrad 9.87-9.89: a "P" result against the defenders in ``target``.

    ``units`` maps each hex (label or ``Hex``) to the units in it, both sides; unit names must
    be unique. ``attacked`` and ``bombarded``: the other hexes being attacked or bombarded.

    In a clear hex (a hex with no terrain listed is clear) every defender retreats one hex and
    is pinned; one that cannot is eliminated (9.87). Closed to it: hexes off the map, hexes
    holding an enemy unit, enemy ZOCs, hexes under attack or bombardment, and friendly hexes it
    would push over the stacking limit (5.0). In balka, forest, suburb or
    village the units may instead stay, all pinned, by eliminating one of them (9.88).
    Minefields and bridges are untouched; fortifications and immobilized Soviet tanks never
    retreat and are eliminated in those terrains (9.89).

    Named assumptions, where the supplement leans on rules not in wbk's texts or is silent:

    - ZOC (6.0): the six hexes around each enemy unit of ``zoc_kinds`` (infantry, engineer, tank
      and gun by default), whatever is in them;
    - stacking (5.0): a hex holds ``stacking_limit`` units (3 by default; None for no limit),
      counting every unit of the side already there (minefields and bridges as read below);
    - in any other terrain (city, factory, ...), or a hex that mixes one with 9.88's, a "P" only
      pins: nobody retreats or is lost;
    - an immobilized unit other than a Soviet tank cannot retreat either, so 9.87 eliminates it;
    - the defender keeps his strongest units when not all can find room, and spreads the
      retreat over the free hexes in the order N, NE, SE, S, SW, NW.

    Readings (the text settles none of them):

    - ``retreat_into``: 9.87 lets the defender choose "the hex he retreats into". "any_hexes"
      (default): the units may split over several hexes, each choosing its own; "one_hex": they
      all go into one hex, and those it has no room for are eliminated.
    - ``pinned_zoc``: does a pinned or spent enemy unit still exert its ZOC? "exerts"
      (default, 6.0 is not in wbk's texts) or "none".
    - ``given_up_to_stay``: may the unit 9.88 asks the defender to give up to stay be one that
      9.89 eliminates anyway (a fortification, an immobilized tank)? "another_unit" (default:
      giving up what is lost anyway is no price, so it must be another unit) or
      "a_9_89_loss".
    - ``minefields_and_bridges``: do the minefields and bridges in a friendly hex count toward
      the stacking limit (5.0, which the supplement cites but does not give)? "count" (default:
      the supplement counts them among a hex's units, 9.89 naming them among the defending
      units a "P" hits) or "do_not_count".

    >>> m = HexMap("demo", (10, 16), (10, 16))
    >>> units = {"1313": [Unit("1/42 Rifle", "Soviet", "infantry", 4)],
    ...          "1412": [Unit("Pz III", "German", "tank", 6)],
    ...          "1214": [Unit("II/276 GR", "German", "infantry", 5)]}
    >>> r = retreat_after_combat(m, units, "1313")
    >>> sorted(m.label(h) for h in r.options["1/42 Rifle"])
    ['1414']
    >>> r.summary
    '1313: 1 of 1 units can retreat; no unit eliminated'
    >>> for step in r.steps[:3]:
    ...     print(step)
    a "P" result against the Soviet units in 1313 (1/42 Rifle) [Streets of Stalingrad 9.87]
    1313 is clear: the defending units retreat one hex, then are pinned [Streets of Stalingrad 9.87]
    1312: in the ZOC of Pz III: no [Streets of Stalingrad 9.87; 6.0, wbk assumption]
    """
    readings = checked(
        retreat_into=retreat_into,
        pinned_zoc=pinned_zoc,
        given_up_to_stay=given_up_to_stay,
        minefields_and_bridges=minefields_and_bridges,
    )
    d = _Defence.checked(m, units, target, attacked, bombarded, stacking_limit, zoc_kinds, readings)
    return _retreat(d)


def _retreat(d: _Defence) -> Retreat:
    """9.87-9.89 in their order: the units untouched (9.89), the terrain (9.87, 9.88), the
    units that never retreat (9.89), the hexes open (9.87), the retreat chosen, and where 9.88
    allows it, staying weighed against retreating."""
    terrain, terrain_types = _terrain(d.map, d.target)
    steps, unaffected = _untouched(d)
    affected = [u for u in d.defenders if u.name not in unaffected]
    if terrain == "other":
        return _only_pinned(d, terrain_types, affected, unaffected, steps)
    deciding = _terrain_step(d, terrain)
    steps.append(deciding)
    fixed = _never_retreat(d, affected, steps)
    eliminated = frozenset(u.name for u in fixed)
    retreaters = [u for u in affected if u not in fixed]
    enemy_in, zoc = _enemy_zoc(d, steps)
    free, room = _open_hexes(d, retreaters, enemy_in, zoc, steps)
    options = {u.name: frozenset(free) for u in retreaters}
    free = _one_hex(d, free, room, steps)
    best = _assign(retreaters, free, room)
    lost = _retreat_steps(d, retreaters, free, best, steps)
    may_stay = terrain != CLEAR and bool(retreaters)
    fixed_names = tuple(sorted(eliminated))
    go = Choice(
        fixed_names + tuple(u.name for u in lost),
        {name: h for name, h in best.items() if h is not None},
    )
    stay, stay_eliminates = (
        _stay(d, retreaters, fixed_names, len(lost), steps) if may_stay else (None, None)
    )
    at_least = go.cost if stay is None else min(go.cost, stay.cost)
    survivors = {u.name for u in affected} - eliminated - {u.name for u in lost}
    steps.append(_outcome_step(at_least, len(affected), may_stay))
    return Retreat(
        **d.situation,
        terrain=terrain,
        steps=tuple(steps),
        unaffected=unaffected,
        pinned=frozenset(survivors),
        options=options,
        best=best,
        eliminated=eliminated,
        eliminated_at_least=at_least,
        may_stay=may_stay,
        stay_eliminates=stay_eliminates,
        zoc=frozenset(zoc),
        go=go,
        stay=stay,
        deciding_step=deciding,
    )


@dataclass(frozen=True)
class _Defence:
    """A "P" result's defenders and their surroundings, as ``retreat_after_combat`` checked
    them, with the readings it takes."""

    map: HexMap
    placed: dict[Hex, tuple[Unit, ...]]
    target: Hex
    attacked: frozenset[Hex]
    bombarded: frozenset[Hex]
    stacking_limit: int | None
    zoc_kinds: tuple[str, ...]
    #: the readings, checked, by keyword
    readings: dict[str, str]
    side: str

    @classmethod
    def checked(
        cls,
        m: HexMap,
        units: Placement,
        target: Hex | str,
        attacked: Iterable[Hex | str],
        bombarded: Iterable[Hex | str],
        stacking_limit: int | None,
        zoc_kinds: Iterable[str],
        readings: dict[str, str],
    ) -> _Defence:
        """``retreat_after_combat``'s arguments checked, each bad one named, in its order."""
        placed = _placement(m, units)
        t = m.hex(target)
        where = m.label(t)
        attacked = _hexes(m, attacked, "attacked")
        bombarded = _hexes(m, bombarded, "bombarded")
        if stacking_limit is not None:
            STACKING_LIMIT.check(stacking_limit, "stacking limit")
        if isinstance(zoc_kinds, str) or not isinstance(zoc_kinds, Iterable):
            raise WbkError(f"zoc_kinds {zoc_kinds!r} is not a list of unit kinds")
        zoc_kinds = tuple(KIND.check(kind, "ZOC kind") for kind in zoc_kinds)
        defenders = placed.get(t, ())
        if not defenders:
            raise WbkError(f"hex {where} has no defending units")
        sides = sorted({u.side for u in defenders})
        if len(sides) > 1:
            raise WbkError(f"hex {where} holds units of both sides: the defenders must be one side")
        return cls(m, placed, t, attacked, bombarded, stacking_limit, zoc_kinds, readings, sides[0])

    @property
    def situation(self) -> dict[str, Any]:
        """What a ``Retreat`` says of the situation it was worked out in: its first fields."""
        return {
            "map": self.map,
            "target": self.target,
            "units": self.placed,
            "attacked": self.attacked,
            "bombarded": self.bombarded,
            "readings": self.readings,
        }

    @property
    def where(self) -> str:
        """The defending hex's label."""
        return self.map.label(self.target)

    @property
    def defenders(self) -> tuple[Unit, ...]:
        """The units hit by the "P"."""
        return self.placed[self.target]


def _terrain(m: HexMap, t: Hex) -> tuple[str, frozenset[str]]:
    """The defending hex's terrain as 9.87-9.89 sort it: "clear" (9.87), its 9.88 terrain
    ("balka", or several joined by commas), or "other"; and its terrain types but clear."""
    terrain_types = m.terrain(t) - {CLEAR}
    if not terrain_types:
        terrain = CLEAR
    elif terrain_types <= set(STAY_TERRAIN):
        terrain = ", ".join(sorted(terrain_types))
    else:
        terrain = "other"
    return terrain, frozenset(terrain_types)


def _untouched(d: _Defence) -> tuple[list[Step], frozenset[str]]:
    """The first steps: the "P" result (9.87), and the minefields and bridges it leaves
    untouched (9.89); returns the steps and the names of those untouched."""
    steps = [
        Step(
            f'a "P" result against the {d.side} units in {d.where} ({named(d.defenders)})',
            cite("9.87"),
            about=(d.target,),
        )
    ]
    unaffected = frozenset(u.name for u in d.defenders if u.kind in UNTOUCHED_KINDS)
    if unaffected:
        untouched = ", ".join(sorted(unaffected))
        steps.append(Step(f"minefields and bridges are untouched: {untouched}", cite("9.89")))
    return steps, unaffected


def _only_pinned(
    d: _Defence,
    terrain_types: frozenset[str],
    affected: list[Unit],
    unaffected: frozenset[str],
    steps: list[Step],
) -> Retreat:
    """Terrain the supplement does not cover (wbk's assumption): a "P" only pins."""
    kinds = ", ".join(sorted(terrain_types))
    steps.append(
        Step(
            f"{d.where} is {kinds}: the supplement covers only clear, balka, forest and "
            'suburb/village hexes, so here a "P" only pins',
            ASSUMED,
        )
    )
    stay_put = Choice((), {u.name: d.target for u in affected})
    pinned = frozenset(u.name for u in affected)
    return Retreat(
        **d.situation,
        terrain="other",
        steps=tuple(steps),
        unaffected=unaffected,
        pinned=pinned,
        stay=stay_put,
        deciding_step=steps[-1],
    )


def _terrain_step(d: _Defence, terrain: str) -> Step:
    """What the terrain asks of the defenders: retreat (9.87), or retreat or stay (9.88)."""
    if terrain == CLEAR:
        return Step(
            f"{d.where} is clear: the defending units retreat one hex, then are pinned",
            cite("9.87"),
            about=(d.target,),
        )
    return Step(
        f"{d.where} is {terrain}: the units may retreat, or stay by eliminating one of them",
        cite("9.88"),
        about=(d.target,),
    )


def _never_retreat(d: _Defence, affected: list[Unit], steps: list[Step]) -> list[Unit]:
    """9.89: the fortifications and immobilized Soviet tanks, which never retreat and are
    eliminated; and (wbk's assumption) any other immobilized unit, which 9.87 eliminates."""
    fixed = []
    for u in affected:
        if u.kind == "fortification":
            why, rule = "a fortification never retreats and is eliminated", cite("9.89")
        elif u.immobilized and u.kind == "tank" and u.side == "Soviet":
            why, rule = "an immobilized Soviet tank never retreats and is eliminated", cite("9.89")
        elif u.immobilized:
            why = "immobilized, so unable to retreat, and eliminated (9.89 names only Soviet tanks)"
            rule = f"{cite('9.87')}, {ASSUMED}"
        else:
            continue
        fixed.append(u)
        steps.append(Step(f"{u.name}: {why}", rule, about=(d.target, u)))
    return fixed


def _enemy_zoc(
    d: _Defence, steps: list[Step]
) -> tuple[dict[Hex, list[Unit]], dict[Hex, list[Unit]]]:
    """The enemy units by hex, and the hexes in their ZOC with the units exerting it (6.0, as
    wbk assumes it, pinned or spent units as ``pinned_zoc`` reads)."""
    enemy_in = {h: [u for u in here if u.side != d.side] for h, here in d.placed.items()}
    enemy_in = {h: here for h, here in enemy_in.items() if here}
    zoc: dict[Hex, list[Unit]] = {}
    idle = [u for here in enemy_in.values() for u in here if u.pinned or u.spent]
    for h, here in enemy_in.items():
        for u in here:
            if u.kind in d.zoc_kinds and not (d.readings["pinned_zoc"] == "none" and u in idle):
                for n in d.map.neighbors(h):
                    zoc.setdefault(n, []).append(u)
    if d.readings["pinned_zoc"] == "none" and idle:
        steps.append(
            Step(
                f"pinned or spent, so exerting no ZOC: {named(idle)}",
                f"6.0, {ASSUMED}, {PINNED_ZOC.cited('none')}",
            )
        )
    return enemy_in, zoc


def _open_hexes(
    d: _Defence,
    retreaters: list[Unit],
    enemy_in: dict[Hex, list[Unit]],
    zoc: dict[Hex, list[Unit]],
    steps: list[Step],
) -> tuple[list[Hex], dict[Hex, int]]:
    """9.87: each hex around the defenders, open to their retreat or closed and why (off the
    map, enemy units, enemy ZOC, attacked, bombarded, full under the stacking limit). Returns
    the open hexes in order, and the room in each."""
    m, r987, limit = d.map, cite("9.87"), d.stacking_limit
    counted = d.readings["minefields_and_bridges"] == "count"
    friendly = {h: [u for u in here if u.side == d.side] for h, here in d.placed.items()}
    friendly_count = {
        h: sum(counted or u.kind not in UNTOUCHED_KINDS for u in here)
        for h, here in friendly.items()
    }
    free: list[Hex] = []
    room: dict[Hex, int] = {}
    off = 6 - len(m.neighbors(d.target))
    if off:
        verb = "is" if off == 1 else "are"
        steps.append(Step(f"{off} of the hexes around {d.where} {verb} off the map", r987))
    for n in m.neighbors(d.target):
        label = m.label(n)
        reasons = _closed_because(d, n, enemy_in, zoc)
        if reasons:
            steps.append(
                Step(f"{label}: {'; '.join(reasons)}: no", _closedcite(d, n, zoc), about=(n,))
            )
            continue
        there = friendly_count.get(n, 0)
        space = len(retreaters) if limit is None else limit - there
        works, stacking_rule = _stacked_works(d, friendly.get(n, ()))
        if space <= 0:
            steps.append(
                Step(
                    f"{label}: {there} friendly units already{works}, the stacking limit of "
                    f"{limit}: no",
                    stacking_rule,
                    about=(n,),
                )
            )
            continue
        free.append(n)
        room[n] = space
        if limit is None:
            steps.append(Step(f"{label}: open", r987, about=(n,)))
        else:
            steps.append(
                Step(
                    f"{label}: open, room for {space} under the stacking limit of {limit}{works}",
                    stacking_rule,
                    about=(n,),
                )
            )
    return free, room


def _stacked_works(d: _Defence, friendly: Sequence[Unit]) -> tuple[str, str]:
    """The words on the minefields and bridges in a friendly hex under the stacking limit
    (5.0, as ``minefields_and_bridges`` reads it), and the rule a step of that hex cites."""
    rule = f"{cite('9.87')}; 5.0, {ASSUMED}"
    works = [u for u in friendly if u.kind in UNTOUCHED_KINDS]
    if not works:
        return "", rule
    counted = "counted" if d.readings["minefields_and_bridges"] == "count" else "not counted"
    cited = MINEFIELDS_AND_BRIDGES.cited(d.readings["minefields_and_bridges"])
    return f" ({named(works)} {counted})", f"{rule}, {cited}"


def _closed_because(
    d: _Defence, n: Hex, enemy_in: dict[Hex, list[Unit]], zoc: dict[Hex, list[Unit]]
) -> list[str]:
    """Why the hex ``n`` is closed to the retreat (none: it is not closed on these counts): 9.87
    closes enemy ZOC, attacked and bombarded hexes; an enemy-occupied hex is wbk's assumption."""
    reasons = []
    if n in enemy_in:
        reasons.append(
            f"enemy units ({named(enemy_in[n])}; closed by wbk's assumption: 9.87 names only "
            "enemy ZOC)"
        )
    if n in zoc:
        reasons.append(f"in the ZOC of {named(zoc[n])}")
    if n in d.attacked:
        reasons.append("being attacked")
    if n in d.bombarded:
        reasons.append("being bombarded")
    return reasons


def _closedcite(d: _Defence, n: Hex, zoc: dict[Hex, list[Unit]]) -> str:
    """What a closed hex's step cites: 9.87 for an enemy ZOC (as 6.0 is assumed), a hex
    attacked or bombarded; wbk's assumption alone for a hex closed only by enemy units in it."""
    if n in zoc:
        return f"{cite('9.87')}; 6.0, {ASSUMED}"
    if n in d.attacked or n in d.bombarded:
        return f"{cite('9.87')}, {ASSUMED}" if n in d.placed and _enemy_here(d, n) else cite("9.87")
    return ASSUMED


def _enemy_here(d: _Defence, n: Hex) -> bool:
    return any(u.side != d.side for u in d.placed.get(n, ()))


def _one_hex(d: _Defence, free: list[Hex], room: dict[Hex, int], steps: list[Step]) -> list[Hex]:
    """9.87 "the hex he retreats into", as ``retreat_into`` reads it: under "one_hex" the
    units all go into the roomiest open hex (the first of them, in order)."""
    if d.readings["retreat_into"] != "one_hex" or len(free) <= 1:
        return free
    roomiest = max(free, key=lambda h: room[h])  # the first of the roomiest, in order
    steps.append(
        Step(
            "the units retreat together into one hex: "
            f"{d.map.label(roomiest)}"
            + ("" if d.stacking_limit is None else f", with room for {room[roomiest]}"),
            f"{cite('9.87')}, {ASSUMED}, {RETREAT_INTO.cited('one_hex')}",
            about=(roomiest,),
        )
    )
    return [roomiest]


def _retreat_steps(
    d: _Defence,
    retreaters: list[Unit],
    free: list[Hex],
    best: dict[str, Hex | None],
    steps: list[Step],
) -> list[Unit]:
    """9.87: where each unit retreats, pinned, and which are eliminated for want of a hex or of
    room; returns those eliminated."""
    r987 = cite("9.87")
    lost = [u for u in retreaters if best[u.name] is None]
    # with a choice of hexes the defender chooses (9.87); the hex named is wbk's pick for him
    picked = len(free) > 1
    said = " (the defender chooses among the open hexes; this is wbk's pick)" if picked else ""
    for u in retreaters:
        if (into := best[u.name]) is not None:
            steps.append(
                Step(
                    f"{u.name} retreats to {d.map.label(into)} and is pinned{said}",
                    f"{r987}, {ASSUMED}" if picked else r987,
                    about=(into, u),
                )
            )
    if lost:
        why = "no hex to retreat into" if not free else "no room left"
        steps.append(Step(f"{named(lost)}: {why}, eliminated", r987, about=(d.target, *lost)))
    return lost


def _stay(
    d: _Defence,
    retreaters: list[Unit],
    fixed_names: tuple[str, ...],
    retreating: int,
    steps: list[Step],
) -> tuple[Choice, str]:
    """9.88: staying put, all pinned, by giving up one unit (a 9.89 loss may be the one, as
    ``given_up_to_stay`` reads), weighed against retreating, which loses ``retreating`` units.
    Returns the choice and the unit given up."""
    r988, t = cite("9.88"), d.target
    if d.readings["given_up_to_stay"] == "a_9_89_loss" and fixed_names:
        stay_eliminates = fixed_names[0]
        steps.append(
            Step(
                f"to stay, the defender gives up {stay_eliminates}, lost anyway",
                f"{r988}, {ASSUMED}, {GIVEN_UP_TO_STAY.cited('a_9_89_loss')}",
                about=(t,),
            )
        )
        given_up = []
    else:
        given_up = [min(retreaters, key=lambda u: (u.strength, u.name))]
        stay_eliminates = given_up[0].name
        steps.append(
            Step(
                f"to stay, the defender would eliminate {stay_eliminates} (the weakest: 9.88 "
                "lets him choose, and wbk picks for him)",
                f"{r988}, {ASSUMED}",
                about=(t,),
            )
        )
    stay = Choice(
        fixed_names + tuple(u.name for u in given_up),
        {u.name: t for u in retreaters if u not in given_up},
    )
    staying = stay.cost - len(fixed_names)
    if staying < retreating:
        advice = (
            f"staying costs {count(staying, 'unit') if staying else 'nothing'} more, "
            f"retreating {retreating}: staying is cheaper"
        )
    elif staying == retreating:
        each = count(staying, "unit") if staying else "nothing"
        advice = f"staying and retreating each cost {each} more"
    else:
        advice = f"retreating costs nothing more, staying {count(staying, 'unit')}"
    if not fixed_names:
        advice = advice.replace(" more", "")
    steps.append(Step(advice, r988))
    return stay, stay_eliminates


def _outcome_step(at_least: int, affected: int, may_stay: bool) -> Step:
    """The last step: the fewest units the defender loses, the cheaper choice where 9.88 lets
    him stay."""
    lost_words = eliminated_words(at_least, affected)
    if at_least == affected:
        outcome = lost_words
    elif at_least:
        outcome = f"the defending units left are pinned; {lost_words}"
    else:
        outcome = f"the defending units are pinned; {lost_words}"
    return Step(
        outcome + (" (the cheaper choice)" if may_stay else ""),
        cite("9.88") if may_stay else cite("9.87"),
    )


def _assign(retreaters: list[Unit], free: list[Hex], room: dict[Hex, int]) -> dict[str, Hex | None]:
    """A hex for as many retreaters as there is room for, the strongest first, spread over the
    free hexes one unit at a time in their order."""
    order = sorted(retreaters, key=lambda u: (-u.strength, u.name))
    left = dict(room)
    best: dict[str, Hex | None] = {u.name: None for u in retreaters}
    i = 0
    for u in order:
        open_hexes = [h for h in free if left[h] > 0]
        if not open_hexes:
            break
        h = open_hexes[i % len(open_hexes)]
        left[h] -= 1
        best[u.name] = h
        i += 1
    return {u.name: best[u.name] for u in retreaters}
