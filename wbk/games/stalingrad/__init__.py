"""Streets of Stalingrad (third edition) as code: Dana Lombardy's supplementary rules 9.67 and
9.87-9.89.

The supplement leans on the game's own combat results table (CRT), stacking limits (5.0) and
zones of control (6.0), which wbk does not reproduce: the CRT is a TOML file the user types in
(wbk ships two ILLUSTRATIVE tables), and stacking and ZOC are settings whose defaults are named
assumptions.

Public names:

- ``Crt`` (``Crt.load``, ``Crt.from_toml``, ``column_for``, ``shift``, ``on_column``,
  ``resolve``, ``lookup``, ``effect``), ``Effect``, ``example_crt(name)``: combat results
  tables; ``Crt.lookup(...) -> CrtLookup``: an attack looked up step by step (the column, the
  shift, the roll, the DRM, the chances), its steps about a ``CrtColumn``, ``CrtRow`` or
  ``CrtCode`` (``crt``);
- ``Unit``: a unit on the map or in an attack (``SIDES``, ``KINDS``);
- 9.67 ``close_assault_bonus(...) -> CloseAssault``: may the attacker take the Close Assault
  Bonus, and what it buys and costs, as exact distributions with a one-line verdict;
  ``in_words(dist)``: such a distribution in a line;
- 9.87-9.89 ``retreat_after_combat(...) -> Retreat``: where defenders hit by a "P" may retreat,
  who is lost, who is untouched, and whether they may stay (``Retreat.go`` and ``.stay``: each
  choice whole, a ``Choice``);
- ``Situation`` (``Situation.load``, ``Situation.from_toml``, ``retreat``),
  ``example_situation(name)``: a map with units, attacked and bombarded hexes, from TOML.

Where they live: ``units`` (``Unit`` and what its values take), ``crt`` (CRT files and lookups),
``close_assault`` (9.67), ``retreat`` (9.87-9.89), ``situation`` (situation files) and
``readings`` (each reading declared once, ``READINGS``); the files it ships in ``crts/`` and
``situations/``; its quiz (``quiz``, ``quiz.toml``), pictures (``draw``) and panels
(``panels``); its chapter, ``streets_of_stalingrad.ipynb``.

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

from .close_assault import close_assault_bonus, in_words
from .crt import Crt, Effect, example_crt
from .readings import READINGS
from .retreat import retreat_after_combat
from .situation import Situation, example_situation
from .units import KINDS, SIDES, Unit

# the results (CloseAssault, CrtLookup, Retreat, Choice...) are returned, never built by hand:
# importable from their modules, not listed here
__all__ = [
    "KINDS",
    "READINGS",
    "SIDES",
    "Crt",
    "Effect",
    "Situation",
    "Unit",
    "close_assault_bonus",
    "example_crt",
    "example_situation",
    "in_words",
    "retreat_after_combat",
]

GAME = Game("Streets of Stalingrad", cites=("Streets of Stalingrad",), readings=READINGS)
