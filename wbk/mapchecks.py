"""What a hex map may hold, and the checks of its parts: shared by ``wbk.maps`` (a map made in
code or edited) and ``wbk.mapfile`` (a map read from its TOML file), so that both refuse the
same things in the same words."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from numbers import Integral
from pathlib import Path

from wbk.checks import short_text
from wbk.errors import WbkError
from wbk.hexgrid import Hex, Hexside

__all__ = [
    "LARGEST_MAP",
    "MOST_KINDS",
    "UPHILL_FEATURE",
    "check_size",
    "checked_collection",
    "checked_name",
    "checked_path",
    "checked_span",
    "checked_table",
    "checked_uphill_hexes",
]

#: The hexside feature whose hexsides each have an uphill hex (drawn with hachures uphill,
#: written uphill hex first in a map's file).
UPHILL_FEATURE = "slope"
#: The most hexes a map may have: 5,000 (80 x 62, say), more than the largest board games' maps
#: laid side by side (five 34 x 22 maps are 3,740 hexes). A map comes from strangers too (a file,
#: a link, a picture), and every hex costs drawing and whole-map analysis (a viewshed on the
#: largest: a second and 250 MB at first): past this it is refused before any work.
LARGEST_MAP = 5_000
#: The most kinds of terrain, of hexside feature and of marker a map may have (each is a
#: legend entry and a control): more than any terrain chart has.
MOST_KINDS = 24


def checked_name(value, what: str) -> str:
    """``value`` if it is a name: non-empty text, short enough to draw."""
    if not isinstance(value, str) or not value:
        raise WbkError(f"{what} {value!r} is not a name (expected non-empty text)")
    return short_text(value, what)


def checked_span(value, key: str) -> tuple[int, int]:
    """A map's columns or rows: (first, last), whole numbers of 0 or more, first not above last."""
    if not (
        isinstance(value, (tuple, list))
        and len(value) == 2
        and all(isinstance(v, Integral) and not isinstance(v, bool) and int(v) >= 0 for v in value)
    ):
        raise WbkError(f"{key} {value!r} is not a pair (first, last) of whole numbers of 0 or more")
    first, last = value
    if first > last:
        raise WbkError(f"{key} [{first}, {last}]: the first number is above the last")
    return int(first), int(last)


def check_size(columns: tuple[int, int], rows: tuple[int, int]) -> None:
    """A map of these columns and rows has at most ``LARGEST_MAP`` hexes."""
    width, depth = columns[1] - columns[0] + 1, rows[1] - rows[0] + 1
    if width * depth > LARGEST_MAP:
        raise WbkError(
            f"columns {columns[0]}-{columns[1]}, rows {rows[0]}-{rows[1]}: {width:,} x "
            f"{depth:,} hexes is larger than wbk takes ({LARGEST_MAP:,} hexes at most, such "
            "as 80 x 62)"
        )


def checked_collection(values, kind: type, what: str) -> frozenset:
    """The items of a list or set of ``kind``; a str (which would split into letters), a single
    item or anything else is a WbkError naming ``what``."""
    if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, Iterable):
        raise WbkError(f"{what} {values!r} is not a collection (a list or set) of {kind.__name__}")
    items = list(values)
    for item in items:
        if not isinstance(item, kind):
            raise WbkError(f"{what}: {item!r} is not a {kind.__name__}")
    return frozenset(items)


def checked_table(value, what: str, kind: type) -> dict[str, frozenset]:
    """A map's table of ``kind`` (Hex, Hexside) by name: at most ``MOST_KINDS`` names, each
    with a collection of its items."""
    if not isinstance(value, Mapping):
        raise WbkError(f"{what} {value!r} is not a table of {kind.__name__}s by name")
    if len(value) > MOST_KINDS:
        raise WbkError(f"{what}: {len(value):,} kinds is more than wbk takes ({MOST_KINDS})")
    return {
        checked_name(k, f"{what}: name"): checked_collection(v, kind, f"{what} {k!r}")
        for k, v in value.items()
    }


def checked_uphill_hexes(value) -> dict[Hexside, Hex]:
    """A map's uphill hex of each slope hexside, as a dict (whether each is on its hexside, and
    on the map, the map checks)."""
    if not isinstance(value, Mapping):
        raise WbkError(f"uphill_hexes {value!r} is not a table of uphill hexes by hexside")
    for side, up in value.items():
        if not isinstance(side, Hexside):
            raise WbkError(f"uphill_hexes: {side!r} is not a Hexside")
        if not isinstance(up, Hex):
            raise WbkError(f"uphill_hexes: uphill hex {up!r} of {side!r} is not a Hex")
    return dict(value)


def checked_path(value, what: str) -> Path:
    """A file path given as text or a ``pathlib.Path`` (bytes are refused)."""
    if isinstance(value, bytes) or not isinstance(value, (str, os.PathLike)):
        raise WbkError(f"{what} {value!r} is not a file path (expected text or a pathlib.Path)")
    return Path(value)
