"""SS Panzer (Command Magazine #36) as code, after Alan R. Arvold's unofficial errata.

Public names, each from the module of its topic:

- ``Unit``, ``GameData``, ``example_data()``: units and the terrain and fire data (user data;
  ``data``);
- 8.3 movement (``movement``): ``entry_cost`` (``explain_entry`` with its steps),
  ``movement_range``, ``route`` (a cheapest path, explained), ``plan_movement`` (both from one
  search);
- 9.4 line of sight (``sight``): ``line_of_sight`` (``LosResult``), ``has_los``, ``viewshed``,
  ``intervisibility`` (every pair of hexes at once), and ``reading_differences`` (where a
  reading decides the answer); the readings it is traced under are declared in ``readings``
  (``READINGS``, by keyword, each with its values and their words);
- 9.5 fire (``fire``): ``fire_dice``, ``hits``, ``fire_effect``, ``fire_outcome`` (the dice
  and the effect together), ``soviet_artillery_dice``, ``FireEffect``, ``step_loss_chance`` (its
  steps cite the sources the game data names);
- 3.3 victory (``victory``): ``geographic_victory``.

Hexes may be given as ``Hex`` or as printed labels ("1913") wherever a map is at hand, and units
as a ``Unit`` or by their name in the game data. Its pictures are in ``draw``, its panels in
``panels``, its quiz in ``quiz`` and ``quiz.toml``, its chapter in ``ss_panzer.ipynb``.

>>> from wbk.maps import example_map
>>> m = example_map("ss_panzer_errata_9_4")
>>> has_los(m, "1913", "1816"), has_los(m, "1913", "1716")
(True, False)
>>> entry_cost(m, "Pz IV", "1610", "1609")
6
"""

from __future__ import annotations

from wbk.games import Game
from wbk.games.ss_panzer.data import GameData, Unit, example_data
from wbk.games.ss_panzer.fire import (
    FireEffect,
    fire_dice,
    fire_effect,
    fire_outcome,
    hits,
    soviet_artillery_dice,
    step_loss_chance,
)
from wbk.games.ss_panzer.movement import (
    entry_cost,
    explain_entry,
    movement_range,
    plan_movement,
    route,
)
from wbk.games.ss_panzer.readings import READINGS
from wbk.games.ss_panzer.sight import (
    has_los,
    intervisibility,
    line_of_sight,
    reading_differences,
    viewshed,
)
from wbk.games.ss_panzer.victory import geographic_victory

__all__ = [
    "READINGS",
    "FireEffect",
    "GameData",
    "Unit",
    "entry_cost",
    "example_data",
    "explain_entry",
    "fire_dice",
    "fire_effect",
    "fire_outcome",
    "geographic_victory",
    "has_los",
    "hits",
    "intervisibility",
    "line_of_sight",
    "movement_range",
    "plan_movement",
    "reading_differences",
    "route",
    "soviet_artillery_dice",
    "step_loss_chance",
    "viewshed",
]

GAME = Game("SS Panzer errata", cites=("SS Panzer",), readings=READINGS)
