"""Pz 8's results on their table: a shot, a reach, a platoon move, a rally (drawn on
``wbk.draw.tables``' ``TableView``).

``draw_shot(table, shot, step=k)`` and ``draw_reach(table, reach, step=k)`` draw the whole
answer, then, with ``step``, mark what step ``k`` is about and title the picture with it
(``TableView.show_step``); ``draw_platoon`` and ``draw_rally`` do the same for a platoon move
and a rally. ``show_shot``, ``show_reach``, ``show_platoon`` and ``show_rally`` draw one on a
table already drawn (``wbk.draw.picture`` draws them so); ``shot_title``,
``platoon_title`` and ``rally_title`` put an answer in words as the picture's title.
"""

from __future__ import annotations

from collections.abc import Mapping

from wbk.draw.tables import TableView, draw_table, say_chance, say_inches
from wbk.errors import WbkError
from wbk.games import pz8
from wbk.table import Table, seen_share

__all__ = [
    "draw_platoon",
    "draw_rally",
    "draw_reach",
    "draw_shot",
    "platoon_title",
    "rally_title",
    "shot_title",
    "show_platoon",
    "show_rally",
    "show_reach",
    "show_shot",
]


def shot_title(shot) -> str:
    """A shot's answer as a title, e.g.
    "Pz IV → T-34, 14": in cover (62% seen), destroyed 91/216 (42.13%)"."""
    where = f"{shot.firer} → {shot.target}, {shot.distance_words or say_inches(shot.distance)}"
    sight = shot.sight
    if sight is None:
        raise WbkError(f"the shot {shot.firer} → {shot.target} has no line of sight to draw")
    if sight.all_seen:
        seen = "in the open"
    elif shot.in_cover:
        seen = f"in cover ({seen_share(shot.visible_fraction)} seen)"
    elif sight.has_los:
        seen = f"in the open ({seen_share(shot.visible_fraction)} seen)"
    else:
        seen = "not seen"
    if shot.outcome is None:
        why = "; ".join(
            s.text.removeprefix("no shot: ") for s in shot.steps if s.text.startswith("no shot: ")
        )
        return f"{where}: {seen}, no shot ({why})"
    destroyed = shot.outcome.map(lambda o: o.destroyed).probability(True)
    return f"{where}: {seen}, destroyed {say_chance(destroyed)}"


def platoon_title(move) -> str:
    """A platoon move's answer as a title, e.g. "Platoon move of Pz IV 1's platoon: not
    allowed, 'Tiger' is 11.7" from the HQ 'Pz IV 1', more than 3"" ."""
    whose = f"{move.hq}'s platoon" if move.hq else "a platoon"
    if move.allowed:
        base = min(m.inches for m in move.movement.outcomes()) - 1
        return (
            f"Platoon move of {whose}: allowed, {len(move.tanks)} tanks move 1D6 + {base}, "
            "then the turn passes"
        )
    reasons = [s.text for s in move.steps if "more than" in s.text or "shaken" in s.text] or [
        move.steps[-1].text
    ]
    return f"Platoon move of {whose}: not allowed, " + "; ".join(reasons)


def rally_title(rally) -> str:
    """A rally's answer as a title, e.g. "Rally of KV-1: its HQ 'T-34 1' 2.5" away, it
    rallies 1/3 (33.33%)"."""
    if rally.hq is not None and rally.hq != rally.tank and rally.distance is not None:
        where = f"its HQ {rally.hq!r} {rally.distance_words or say_inches(rally.distance)} away, "
    elif rally.hq == rally.tank:
        return f"Rally of {rally.tank}: the HQ rallies itself on 4-6, {say_chance(rally.chance)}"
    else:
        where = ""
    why = [
        words
        for words, applies in (
            (
                f"more than {say_inches(pz8.RALLY_RADIUS)}",
                rally.hq_within_12 is False,
            ),
            ("its HQ is destroyed", any(s.text.endswith(" is destroyed") for s in rally.steps)),
            ("its HQ is itself shaken", any("itself shaken" in s.text for s in rally.steps)),
        )
        if applies
    ]
    verdict = (
        f"it rallies {say_chance(rally.chance)}"
        if rally.chance
        else "it cannot rally" + (f" ({'; '.join(why)})" if why else "")
    )
    return f"Rally of {rally.tank}: {where}{verdict}"


def draw_platoon(
    table: Table, move, *, ax=None, width: float | None = None, step: int | None = None
) -> TableView:
    """A platoon move (a ``pz8.PlatoonMove``) on its table: the 3" around the HQ, a line from
    the HQ to each tank that would move, its length; the verdict in the title. ``step``: at that
    step of ``move.steps`` (see the module docstring)."""
    view = draw_table(table, ax=ax, width=width)
    show_platoon(view, move)
    if step is not None:
        view.show_step(move.steps, step)
    return view


def show_platoon(view: TableView, move) -> None:
    """A platoon move on a drawn table: the 3" around the HQ, a line from the HQ to each tank
    that would move, its length; the verdict in the title."""
    measured = [
        name
        for name in move.platoon_tanks
        if not getattr(view.table.piece(name), "destroyed", False)
        and not getattr(view.table.piece(name), "shaken", False)
    ]
    view.show_links(move.hq, measured, pz8.PLATOON_RADIUS, "platoon move")
    view.set_title(platoon_title(move))


def draw_rally(
    table: Table, rally, *, ax=None, width: float | None = None, step: int | None = None
) -> TableView:
    """A rally (a ``pz8.Rally``) on its table: the 12" around the tank's HQ and the line from
    the HQ to the tank, its length; the verdict in the title. ``step``: at that step of
    ``rally.steps`` (see the module docstring)."""
    view = draw_table(table, ax=ax, width=width)
    show_rally(view, rally)
    if step is not None:
        view.show_step(rally.steps, step)
    return view


def show_rally(view: TableView, rally) -> None:
    """A rally on a drawn table: the 12" around the tank's HQ and the line from the HQ to the
    tank, its length; the verdict in the title."""
    view.show_links(rally.hq, [rally.tank], pz8.RALLY_RADIUS, "rally")
    view.set_title(rally_title(rally))


def show_shot(view: TableView, shot: pz8.Shot) -> None:
    """A shot on a drawn table: its line of sight drawn and its answer in the title, e.g. "Pz IV
    → T-34, 14": in cover (62% seen), destroyed 91/216 (42.13%)"."""
    view.show_sight(shot.sight)
    view.set_title(shot_title(shot))


def draw_shot(
    table: Table,
    shot,
    *,
    ax=None,
    width: float | None = None,
    ranges: Mapping[str, float] | None = None,
    gun: str = "",
    step: int | None = None,
) -> TableView:
    """A shot (a ``pz8.Shot``) drawn on its table: the firer's gun ranges (``ranges``, its own
    ``gun`` solid), the line of sight and what hides the target, the answer in the title;
    ``step``: at that step of ``shot.steps`` (see the module docstring)."""
    view = draw_table(table, ax=ax, width=width)
    if ranges:
        view.show_ranges(shot.firer, ranges, gun=gun)
    show_shot(view, shot)
    if step is not None:
        view.show_step(shot.steps, step)
    return view


def draw_reach(
    table: Table, reach, *, ax=None, width: float | None = None, step: int | None = None
) -> TableView:
    """A tank's reach (a ``pz8.MovementReach``) drawn on its table, by the chance of each band,
    the readings it assumes in the title where they are not the defaults; ``step``: at that
    step of ``reach.steps`` (see the module docstring)."""
    view = draw_table(table, ax=ax, width=width)
    show_reach(view, reach)
    if step is not None:
        view.show_step(reach.steps, step)
    return view


def show_reach(view: TableView, reach) -> None:
    """A tank's reach on a drawn table, by the chance of each band, titled with how far."""
    view.show_reach(reach)
    tags = [pz8.READINGS[k].tag(v) for k, v in reach.readings if pz8.READINGS[k].tag(v)]
    read = f" [{'; '.join(tags)}]" if tags else ""
    if reach.bands:
        low, high = reach.bands[0].inches, reach.bands[-1].inches
        view.set_title(
            f"Where can {reach.tank} move? {say_inches(low)} to {say_inches(high)} by the roll;"
            f" the darker, the likelier{read}"
        )
    else:
        view.set_title(f"Where can {reach.tank} move? Nowhere: it cannot move")
