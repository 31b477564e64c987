"""SS Panzer errata 3.3, victory: does the Soviet player hold enough of the star hexes for a
geographic victory (``geographic_victory``)?"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from wbk.errors import WbkError
from wbk.explain import Step, steps_html
from wbk.games.ss_panzer.data import _map, _names_or_hexes, _rule
from wbk.hexgrid import Hex
from wbk.maps import HexMap

STAR_HEXES = 9
STARS_TO_WIN = 7


@dataclass(frozen=True)
class Victory:
    """Errata 3.3's verdict: whether the Soviet player won, how many of the star hexes he
    holds, and which (``held``) of which (``star_hexes``)."""

    won: bool
    controlled: int
    stars: int
    steps: tuple[Step, ...]
    held: tuple[Hex, ...] = ()
    star_hexes: tuple[Hex, ...] = ()
    #: the map the result was read off, for its picture
    map: HexMap | None = field(default=None, repr=False, compare=False)

    def _repr_html_(self) -> str:
        verdict = "Soviet geographic victory" if self.won else "no geographic victory"
        return f"<b>{verdict}</b>{steps_html(self.steps)}"


def geographic_victory(
    m: HexMap, soviet_controlled: Iterable[Hex | str], *, marker: str = "star"
) -> Victory:
    """Errata 3.3: a Soviet geographic victory needs control of 7 or more of the 9 circled-star
    hexes (the map's ``star`` marker)."""
    m = _map(m)
    if not isinstance(marker, str):
        raise WbkError(f"marker {marker!r} is not a marker's name")
    stars = m.markers(marker)
    if len(stars) != STAR_HEXES:
        have = ", ".join(f"{k} ({len(v)})" for k, v in sorted(m.marker_hexes.items())) or "none"
        raise WbkError(
            f"errata 3.3 counts {STAR_HEXES} star hexes; this map has {len(stars)} marked "
            f"{marker!r} (its markers: {have})"
        )
    held: set[Hex] = {
        m.hex(h) for h in _names_or_hexes(soviet_controlled, "Soviet-controlled hexes")
    } & stars
    won = len(held) >= STARS_TO_WIN
    in_order = tuple(sorted(stars, key=m.label))
    held_in_order = tuple(h for h in in_order if h in held)
    steps = (
        Step(
            f"the {len(stars)} hexes with a circled star: "
            + ", ".join(m.label(h) for h in in_order),
            _rule("3.3"),
            about=in_order,
        ),
        Step(
            f"the Soviet player controls {len(held)} of the {len(stars)} star hexes"
            + (f": {', '.join(m.label(h) for h in held_in_order)}" if held else ""),
            _rule("3.3"),
            about=held_in_order,
        ),
        Step(
            f"{'at least' if won else 'fewer than'} {STARS_TO_WIN}: "
            f"{'a geographic victory' if won else 'no geographic victory'}",
            _rule("3.3"),
            about=held_in_order,  # the stars that count toward it
        ),
    )
    return Victory(won, len(held), len(stars), steps, held_in_order, in_order, m)
