"""Streets of Stalingrad (third edition) as code: Dana Lombardy's supplementary rules 9.67 and
9.87-9.89.

The supplement leans on the game's own combat results table (CRT), stacking limits (5.0) and
zones of control (6.0), which wbk does not reproduce: the CRT is a TOML file the user types in
(wbk ships two ILLUSTRATIVE tables), and stacking and ZOC are settings whose defaults are named
assumptions.

Public names:

- ``Crt`` (``Crt.load``, ``Crt.from_toml``, ``column_for``, ``shift``, ``on_column``,
  ``resolve``, ``lookup``, ``effect``),
  ``Effect``, ``example_crt(name)``: combat results tables; ``Crt.lookup(...) -> CrtLookup``:
  an attack looked up step by step (the column, the shift, the roll, the DRM, the chances),
  its steps about a ``CrtColumn``, ``CrtRow`` or ``CrtCode``;
- ``Unit``: a unit on the map or in an attack;
- 9.67 ``close_assault_bonus(...) -> CloseAssault``: may the attacker take the Close Assault
  Bonus, and what it buys and costs, as exact distributions with a one-line verdict;
- 9.87-9.89 ``retreat_after_combat(...) -> Retreat``: where defenders hit by a "P" may retreat,
  who is lost, who is untouched, and whether they may stay (``Retreat.go`` and ``.stay``: each
  choice whole, a ``Choice``);
- ``Situation`` (``Situation.load``, ``Situation.from_toml``, ``retreat``),
  ``example_situation(name)``: a map with units, attacked and bombarded hexes, from TOML;
- option values ``KINDS``, ``SIDES``, ``LOSS_CHOICES``, ``PINNED_ATTACK_READINGS``; the
  readings' values ``FIRE_WITHOUT_BONUS_READINGS``, ``COLUMN_AFTER_FIRE_READINGS`` (9.67),
  ``RETREAT_INTO_READINGS``, ``PINNED_ZOC_READINGS``, ``GIVEN_UP_TO_STAY_READINGS``,
  ``MINEFIELDS_AND_BRIDGES_READINGS`` (9.87-9.89).

Where they live: ``crt`` (CRT files and lookups), ``units`` (``Unit``), ``close_assault`` (9.67),
``retreat`` (9.87-9.89), ``situation`` (situation files) and ``readings`` (each reading declared
once, ``READINGS``); import them from here.

The supplement's example of 9.67: 15 AF attacks on the 10-19 column; with the bonus on 20-29,
and the defender's 3 DF fires first on the 4 column.

>>> attack = [Unit("I/194 GR", "German", "infantry", 6), Unit("Pi 336", "German", "engineer", 4),
...           Unit("StuG III", "German", "tank", 5)]
>>> a = close_assault_bonus(attack, [Unit("3/1045", "Soviet", "infantry", 3)], 3)
>>> a.allowed, a.column, a.bonus_column, a.fire_column
(True, '10-19', '20-29', '4')
>>> a.without.result.probability("P"), a.with_bonus.result.probability("P")
(Fraction(1, 3), Fraction(1, 3))
>>> a.with_bonus.fire.probabilities()
{'-': Fraction(1, 3), '1': Fraction(1, 6), 'P': Fraction(1, 2)}
"""

from __future__ import annotations

from wbk.games import Game

# The names after __all__'s are the results' classes and the option values the panels use.
from wbk.games.stalingrad.close_assault import (
    ASSAULT_KINDS,  # noqa: F401
    COLUMN_AFTER_FIRE_READINGS,  # noqa: F401
    FIRE_WITHOUT_BONUS_READINGS,  # noqa: F401
    LOSS_CHOICES,
    NO_ATTACK,  # noqa: F401
    NO_FIRE,  # noqa: F401
    PINNED_ATTACK_READINGS,
    AssaultOption,  # noqa: F401
    CloseAssault,  # noqa: F401
    close_assault_bonus,
)
from wbk.games.stalingrad.crt import (
    Crt,
    CrtCode,  # noqa: F401
    CrtColumn,  # noqa: F401
    CrtLookup,  # noqa: F401
    CrtRow,  # noqa: F401
    Effect,
    chances_in_words,  # noqa: F401
    codes_mild_to_severe,  # noqa: F401
    example_crt,
)
from wbk.games.stalingrad.readings import READINGS as _DECLARED
from wbk.games.stalingrad.retreat import (
    CLEAR,  # noqa: F401
    GIVEN_UP_TO_STAY_READINGS,  # noqa: F401
    MINEFIELDS_AND_BRIDGES_READINGS,  # noqa: F401
    PINNED_ZOC_READINGS,  # noqa: F401
    RETREAT_INTO_READINGS,  # noqa: F401
    STAY_TERRAIN,  # noqa: F401
    ZOC_KINDS,  # noqa: F401
    Choice,  # noqa: F401
    Retreat,  # noqa: F401
    eliminated_words,  # noqa: F401
    retreat_after_combat,
)
from wbk.games.stalingrad.situation import Situation, example_situation
from wbk.games.stalingrad.units import (
    ASSUMED,  # noqa: F401
    KINDS,
    SIDES,
    Unit,
)

#: Every reading of the chapter in a control's words (keyword -> value -> words), from their
#: one declaration in ``readings``.
READING_WORDS: dict[str, dict[str, str]] = {
    keyword: dict(reading.values) for keyword, reading in _DECLARED.items()
}

__all__ = [
    "KINDS",
    "LOSS_CHOICES",
    "PINNED_ATTACK_READINGS",
    "READING_WORDS",
    "SIDES",
    "Crt",
    "Effect",
    "Situation",
    "Unit",
    "close_assault_bonus",
    "example_crt",
    "example_situation",
    "retreat_after_combat",
]


GAME = Game(
    "Streets of Stalingrad",
    cites=("Streets of Stalingrad",),
    readings=_DECLARED,
)
