"""Pz 8, the postcard-sized WW2 armour skirmish game, as code.

Each side has a platoon of light, medium and heavy tanks, one of them its HQ, with regular or
veteran crews, on a table measured in inches (``wbk.table``). A side activates one tank at a time
to move or to shoot; a movement or gun die showing 1 or 2 passes the turn to the other side.
Paragraphs are cited by the names wbk gives them: Movement, Shooting, Penetration and Damage,
and Optional Rule: Shaken.

Public names:

- ``Tank``: a ``wbk.table.Piece`` with ``tank_class``, ``gun``, ``crew``, ``is_hq``, ``shaken``,
  ``destroyed`` (a wreck stays on the table and blocks like any tank) and ``platoon``;
  ``gun_for_calibre(calibre, calibre_gaps=...)``: the gun class of a calibre;
- ``movement(tank_class)``: a ``Dist`` of ``Movement(inches, turn_passes)``;
  ``movement_reach(table, tank)``: where the tank can get on each roll, as bands with their
  chances, and ``chance_to_reach(point)`` decided exactly; ``platoons(table, side)``: a
  side's platoons; ``platoon_movement(table, side, platoon=...)``: the platoon move;
  ``platoon_warnings(table)``: platoons unlike the card's;
- ``attack(gun, target_class, ...)``: the exact ``Dist`` of ``AttackOutcome(hits, destroyed,
  shaken, turn_passes)``; ``attack_procedure(...)``: the same with its working;
  ``attack_chances(...)``: its chances of a hit, a kill, a shaken target and the turn passing;
  ``attack_table(...)``: those of every gun at every class of tank;
  ``shot(table, firer, target)``: range, line of sight, cover and the attack on the table;
- ``rally_chance(...)``: the chance to remove a shaken marker; ``rally(table, tank)``: the same
  read off the table (the tank's own platoon's HQ, its distance and state);
- ``keep_initiative(activations)``: the chance a side still has the initiative after them;
- ``duel(first, second, range_inches, ...)``: two tanks trading shots to the end, exactly, and
  each one's attack at the other (``Duel.one_attack_each``);
- ``load_table(path)``, ``example_table()``: table files with Pz 8 tanks (the example is the
  illustrative crossroads, ``crossroads.toml`` in this folder);
- ``duel_curve(duel)``: the same duel at every range of ``DUEL_RANGES``;
- the rule values ``MOVE_VALUES``, ``GUN_RANGES``, ``GUN_DICE``, ``HIT_NUMBERS``,
  ``SAVE_NUMBERS``, ``CALIBRE_LIMITS``, ``CARD_CALIBRE_LIMITS``, the limit
  ``MAX_ACTIVATIONS``, the kinds of ``ACTIVATIONS``, the ranges ``DUEL_RANGES``; the readings
  declared once in ``wbk.games.pz8.readings`` (``READINGS`` by keyword: a reading's values
  are ``READINGS[keyword].values``).

The rules live by topic: ``tanks`` (the card's numbers, what each input takes, ``Tank``, table
files), ``movement``, ``platoons``, ``shooting``, ``shaken``, ``initiative`` and ``duel``; this
module gathers them and registers the game. Beside them: ``quiz`` (its kinds of question) and
``quiz.toml`` (the quiz it ships), ``draw`` (its pictures) and ``panels``, and the chapter
``pz8.ipynb``.

The readings wbk takes where the card is silent (each is stated where it is used):

- A gun die hits when the die plus its modifiers reaches the hit number: a natural 6 is no
  automatic hit (a short gun needs 5: a shaken firer shooting at a tank in cover needs a 7 and
  cannot hit), and a modified 7 hits like a 6. ``natural_six="always_hits"`` is the other reading.
- "The turn passes" reads the unmodified die: every gun die rolled counts, the unused die of a
  medium gun included; armour saves never pass the turn; a rally roll never does either (the
  card gives it no turnover).
- The veteran +1 applies to the rally roll of a tank near its HQ; the HQ rallies itself on
  4-6, veteran or not (the card gives the HQ's own roll no bonus): ``veteran_hq_rally="bonus"``
  is the other reading, 3-6.
- Distances are centre to centre; "within 12 inches of its HQ" and "within 3 inches of the HQ"
  too. Every limit the card states (the guns' 12", 18" and 24", the 3" and 12" from the HQ, the
  45° pivot, a move's inches and its 3" penalties) includes the limit and is met exactly
  (``wbk.tableexact``): positions are the decimals they are written as, distances are compared
  by their squares, angles by the signs of cross products. A target is in cover when part of
  it is hidden (``wbk.table`` says how that is measured).
- A tank's HQ is the HQ of its own platoon (``Tank.platoon``); a side may field several.

Named readings (a keyword each, the default first): ``natural_six``, ``cover_reading`` and
``obstacle_sight`` (``shot``), ``rough_terrain`` and ``pivot`` (``movement_reach``),
``shaken_hq`` and ``shaken_member`` and ``platoon_pace`` (``platoon_movement``), ``turns``
(``duel``), ``veteran_hq_rally`` (``rally_chance``, ``rally``), ``calibre_gaps``
(``gun_for_calibre``).

>>> movement("heavy").probability(Movement(4, True))
Fraction(1, 6)
>>> attack("short", "medium").probability(AttackOutcome(0, False, False, False))
Fraction(1, 27)
"""

from __future__ import annotations

from wbk.games import Game

from .duel import DUEL_RANGES, duel, duel_curve
from .initiative import ACTIVATIONS, MAX_ACTIVATIONS, keep_initiative
from .movement import Movement, movement, movement_reach
from .platoons import platoon_movement, platoon_warnings, platoons
from .readings import READINGS
from .shaken import rally, rally_chance
from .shooting import (
    AttackOutcome,
    attack,
    attack_chances,
    attack_procedure,
    attack_table,
    shot,
)
from .tanks import (
    CALIBRE_LIMITS,
    CARD_CALIBRE_LIMITS,
    GUN_DICE,
    GUN_RANGES,
    HIT_NUMBERS,
    MOVE_VALUES,
    SAVE_NUMBERS,
    Tank,
    example_table,
    gun_for_calibre,
    load_table,
)

__all__ = [
    "ACTIVATIONS",
    "CALIBRE_LIMITS",
    "CARD_CALIBRE_LIMITS",
    "DUEL_RANGES",
    "GUN_DICE",
    "GUN_RANGES",
    "HIT_NUMBERS",
    "MAX_ACTIVATIONS",
    "MOVE_VALUES",
    "READINGS",
    "SAVE_NUMBERS",
    "AttackOutcome",
    "Movement",
    "Tank",
    "attack",
    "attack_chances",
    "attack_procedure",
    "attack_table",
    "duel",
    "duel_curve",
    "example_table",
    "gun_for_calibre",
    "keep_initiative",
    "load_table",
    "movement",
    "movement_reach",
    "platoon_movement",
    "platoon_warnings",
    "platoons",
    "rally",
    "rally_chance",
    "shot",
]

GAME = Game("Pz 8", cites=("Pz 8",), readings=READINGS)
