"""The dice are down: the hits rolled, and what armor, a leader's saving throws or the target's
kind take off, step by step to the damage (Blitz Combat, Armor Protection, Leader Saving
Throws, Damage)."""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets
from matplotlib.figure import Figure

from wbk.errors import WbkError
from wbk.explain import Step, steps_html
from wbk.games import blitz
from wbk.games.blitz import RolledHits, rolled_from_throws
from wbk.games.blitz.draw import draw_rolled, label
from wbk.games.blitz.panels.controls import (
    NO_LEADER_THROWS,
    NotedPanel,
    choices,
    keep_notes,
    leader_throws,
    narrow,
    reading_choices,
    slider,
)
from wbk.games.blitz.panels.stepped import SteppedPanel
from wbk.widgets import chart_edge_cases, parse_optional_number, parse_whole_numbers


def rolled_idle(*, fire: str, target: str, leader: str, hits: int, **_: Any) -> dict[str, str]:
    """The hits-rolled panel's controls that change nothing for these values, with the reason."""
    idle: dict[str, str] = {}
    if target != "armored_vehicle" or fire != "at":
        idle["armor"] = "armor counts against AT fire at an armored vehicle only"
    if not leader_throws(fire, target):
        idle["leader"] = NO_LEADER_THROWS
    if "leader" in idle or not leader.strip():
        idle["rolls"] = idle["save_bonus"] = "they count only when a leader makes saving throws"
    elif hits % 2 == 0:
        idle["save_bonus"] = "the readings differ only for an odd number of hits"
    return idle


def rolled_hits(
    hits: int,
    fire: str,
    target: str,
    armor: str,
    leader: str,
    rolls: str,
    save_bonus: str,
) -> RolledHits:
    """The dice are down: ``hits`` sixes of ``fire`` at ``target``; what armor, a leader's
    saving throws (his morale and 2d6 ``rolls``, one a hit) or the target's kind take off, and
    the damage, step by step."""
    kind = label(target)
    said = f"{blitz._hits(hits)} rolled: every 6 is a hit"
    steps = [Step(said, blitz.PROCEDURE, about=("rolled", hits))]
    marks = [""] * hits
    if fire == "assault":
        said = "assault combat: every hit counts, no armor, no saving throws"
        steps.append(Step(said, blitz.ASSAULT, about=blitz.COUNTED))
    elif fire == "at" and target in ("non_vehicle", "wagon"):
        marks = ["no effect"] * hits
        said = f"AT fire: only vehicles other than wagons take AT hits; a {kind} takes none"
        steps.append(Step(said, blitz.ARMOR, about=blitz.COUNTED))
    elif fire == "at" and target == "armored_vehicle":
        value = parse_optional_number(armor, "armor value")
        if value is None:
            raise WbkError("armor value is blank: an armored vehicle needs its armor value")
        off = min(blitz._check_count(value, "armor value"), hits)
        marks = ["armor"] * off + [""] * (hits - off)
        said = f"AT fire: armor {value} takes {blitz._hits(off)} off, {hits - off} left"
        steps.append(Step(said, blitz.ARMOR, about=("counted", "armor", value)))
    elif fire == "at":
        said = "AT fire on an unarmored vehicle: no armor takes hits off"
        steps.append(Step(said, blitz.ARMOR, about=blitz.COUNTED))
    elif target == "armored_vehicle":
        marks = ["ignored"] * hits
        said = f"an armored vehicle ignores {label(fire)} hits"
        steps.append(Step(said, blitz.ARMOR, about=blitz.COUNTED))
    else:
        morale = parse_optional_number(leader, "leader morale")
        if morale is not None:
            thrown = parse_whole_numbers(rolls, "leader's rolls")
            if len(thrown) != hits:
                raise WbkError(
                    f"leader's rolls {rolls.strip()!r}: {blitz._hits(hits)} need "
                    f"{hits} 2d6 rolls (one a hit), not {len(thrown)}"
                )
            throws = rolled_from_throws(blitz.saving_throws(morale, thrown, save_bonus=save_bonus))
            return RolledHits(throws.marks, throws.damage, (*steps, *throws.steps))
    remaining = sum(not mark for mark in marks)
    result = blitz.damage(remaining)
    said = f"{blitz._hits(remaining)} left: {result.effects}"
    steps.append(Step(said, blitz.DAMAGE, about=("damage", result)))
    return RolledHits(tuple(marks), result, tuple(steps))


#: The rules' worked examples of hits already rolled (Armor Protection, Leader Saving Throws).
ROLLED_START: dict[str, object] = {
    "hits": 3,
    "fire": "direct",
    "target": "non_vehicle",
    "armor": "1",
    "rolls": "",
    "leader": "",
    "save_bonus": "whole_pairs",
}
ROLLED_PRESETS: dict[str, dict[str, object]] = {
    "Blitz armor example: 3 AT hits on armor 1 -> 2 hits, demoralized": {
        **ROLLED_START,
        "fire": "at",
        "target": "armored_vehicle",
    },
    "Blitz leader example: 4 hits, morale 9, +2, rolls 5, 6, 7, 10 -> 1 hit, disrupted": {
        **ROLLED_START,
        "hits": 4,
        "rolls": "5, 6, 7, 10",
        "leader": "9",
    },
}


@chart_edge_cases
def hits_rolled_panel() -> NotedPanel:
    """The dice are down: type the hits rolled (and a leader's 2d6 rolls) and step through what
    armor, the saving throws or the target's kind take off, to the damage."""

    def draw(figure: Figure, result: object, step: int | None, other: object) -> str:
        assert isinstance(result, RolledHits)
        assert other is None or isinstance(other, tuple)
        changed, words = other if other is not None else (None, "")
        draw_rolled(figure, result, step=step, other=changed, other_said=words)
        return steps_html(result.steps)

    def other_answer(shown: RolledHits, other: RolledHits, words: str) -> object:
        flips = [bool(a) != bool(b) for a, b in zip(shown.marks, other.marks, strict=True)]
        return (other, f"“{words}”") if any(flips) else None

    panel = SteppedPanel(
        rolled_hits,
        draw,
        lambda rolled: rolled.steps,
        other_answer,
        ["save_bonus"],
        ROLLED_PRESETS,
        size=(5.6, 3.0),
        hits=slider(3, 0, 12, "hits rolled (6s)"),
        fire=choices(blitz.FIRE_TYPES, "fire"),
        target=choices(blitz.TARGETS, "target"),
        armor=widgets.Text("1", description="armor value (armored vehicle)"),
        rolls=widgets.Text("", description="leader's 2d6 rolls, one a hit"),
        leader=widgets.Text("", description="leader morale (blank: none)"),
        save_bonus=reading_choices("save_bonus"),
    )
    keep_notes(panel, ["armor", "leader", "rolls", "save_bonus"], rolled_idle)
    narrow(panel)
    return panel
