"""Hex maps as printed: column-and-row numbering, terrain, hexside features and markers.

A ``HexMap`` is plain data read from (and written to) a small TOML format that users write by
hand (the site's reference documents it): reading one, every error naming the file and the key,
and writing one back, sorted, one key a line, its notes as the head comments. A map made in
code or edited and a map read from its file are checked alike, in the same words. Hexes are
``wbk.hexgrid.Hex``; the map translates between them and the printed labels ("1913",
"1715/1816").

>>> m = HexMap.from_toml('''
... name = "demo"
... columns = [12, 24]
... rows = [8, 18]
... low_columns = "odd"
... [hexsides]
... slope = ["1913/1813"]
... ''')
>>> m.label(m.hex("1913").neighbors()[5])
'1813'
>>> m.label(m.uphill(m.hexside("1813/1913")))
'1913'
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from importlib import resources
from numbers import Integral
from pathlib import Path
from typing import Any, Literal, NoReturn

from wbk.checks import LONGEST_NOTE, short_text
from wbk.datafile import parse_toml, read_text, write_atomically
from wbk.errors import WbkError
from wbk.hexgrid import Corner, Hex, Hexside, Trace

__all__ = [
    "FORMAT_NOTE",
    "LARGEST_MAP",
    "MOST_KINDS",
    "UPHILL_FEATURE",
    "HexMap",
    "LowColumns",
    "example_map",
    "example_maps",
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


_TOP_KEYS = {"name", "columns", "rows", "low_columns", "terrain", "hexsides", "markers"}


#: The head comment written on a map that has no notes of its own.
FORMAT_NOTE = "wbk hex map; the format is described in wbk's reference (Map files)."


def read_map(text: str, source: str, make: Callable[..., Any] | None = None) -> Any:
    """The map that TOML ``text`` describes, made with ``make`` (``HexMap``, or a subclass);
    ``source`` names the file in every error. The notes are left to the caller
    (``head_comments``)."""
    if not isinstance(source, str):
        raise WbkError(f"source {source!r} is not text")
    if not isinstance(text, str):
        raise WbkError(
            f"{source}: the map {text!r} is not TOML text (to read a file, use HexMap.load)"
        )
    return MapReader(source, make).read(parse_toml(text, source))


class MapReader:
    """Turns parsed TOML into a map made with ``make`` (``HexMap`` unless given: another file's
    map inline, as a situation's [map] table, is read so too), naming the file and key of
    anything wrong."""

    def __init__(self, source: str, make: Callable[..., Any] | None = None) -> None:
        self.source = source
        self.make = make or HexMap

    def fail(self, where: str, message: str) -> NoReturn:
        raise WbkError(f"{self.source}: {where}: {message}")

    def read(self, data: dict) -> Any:
        unknown = sorted(set(data) - _TOP_KEYS)
        if unknown:
            self.fail(unknown[0], f"unknown key (expected one of {', '.join(sorted(_TOP_KEYS))})")
        for key in ("name", "columns", "rows", "low_columns"):
            if key not in data:
                self.fail(key, "missing")
        name = data["name"]
        if not isinstance(name, str):
            self.fail("name", f"{name!r} is not a string")
        columns, rows = self.span(data, "columns"), self.span(data, "rows")
        low = data["low_columns"]
        if low not in ("odd", "even"):
            self.fail("low_columns", f'{low!r} (expected "odd" or "even")')
        try:
            frame = self.make(name, columns, rows, low)
        except WbkError as e:  # too large
            raise WbkError(f"{self.source}: {e}") from None

        terrain = {
            k: frozenset(self.hexes(frame, "terrain", k, v)) for k, v in self.table(data, "terrain")
        }
        markers = {
            k: frozenset(self.hexes(frame, "markers", k, v)) for k, v in self.table(data, "markers")
        }
        features, uphill = self.hexsides(frame, data)
        try:
            return self.make(name, columns, rows, low, terrain, features, uphill, markers)
        except WbkError as e:  # the checks above should leave nothing for HexMap to find
            raise WbkError(f"{self.source}: {e}") from None

    def hexsides(
        self, frame: Any, data: dict
    ) -> tuple[dict[str, frozenset[Hexside]], dict[Hexside, Hex]]:
        """The [hexsides] table: each feature's hexsides, and each slope's uphill hex (the first
        of its two labels)."""
        features: dict[str, frozenset[Hexside]] = {}
        uphill: dict[Hexside, Hex] = {}
        for feature, values in self.table(data, "hexsides"):
            sides = []
            for text in self.strings("hexsides", feature, values):
                try:
                    side = frame.hexside(text)
                except WbkError as e:
                    self.fail(f"[hexsides] {feature}", str(e))
                if feature == UPHILL_FEATURE:
                    up = frame.hex(text.split("/")[0])
                    if uphill.get(side, up) != up:
                        self.fail(
                            f"[hexsides] {feature}",
                            f"{text} is listed twice with opposite uphill hexes",
                        )
                    uphill[side] = up
                sides.append(side)
            features[feature] = frozenset(sides)
        return features, uphill

    def span(self, data: dict, key: str) -> tuple[int, int]:
        value = data[key]
        if not (
            isinstance(value, list)
            and len(value) == 2
            and all(type(v) is int and v >= 0 for v in value)
        ):
            self.fail(key, f"{value!r} (expected [first, last], two whole numbers)")
        if value[0] > value[1]:
            self.fail(key, f"{value!r}: the first number is above the last")
        return value[0], value[1]

    def table(self, data: dict, key: str) -> list[tuple[str, object]]:
        value = data.get(key, {})
        if not isinstance(value, dict):
            self.fail(key, f"expected a table [{key}], found {value!r}")
        if "" in value:
            self.fail(f"[{key}]", 'an empty name "" (expected a name like woods)')
        if len(value) > MOST_KINDS:  # before a hex of them is read
            self.fail(f"[{key}]", f"{len(value):,} kinds is more than wbk takes ({MOST_KINDS})")
        return list(value.items())

    def strings(self, section: str, key: str, values: object) -> list[str]:
        if not (isinstance(values, list) and all(isinstance(v, str) for v in values)):
            self.fail(f"[{section}] {key}", f"{values!r} (expected a list of quoted labels)")
        return values

    def hexes(self, frame: Any, section: str, key: str, values: object) -> list[Hex]:
        hexes = []
        for text in self.strings(section, key, values):
            try:
                hexes.append(frame.hex(text))
            except WbkError as e:
                self.fail(f"[{section}] {key}", str(e))
        return hexes


def map_toml(m: Any) -> str:
    """``m`` (a ``HexMap``) in wbk's TOML format: its notes as the head comments, then sorted,
    one key a line, slopes written uphill hex first."""

    def side_label(side: Hexside) -> str:
        up = m.uphill(side)
        return m.label(side) if up is None else f"{m.label(up)}/{m.label(side.other(up))}"

    def section(title: str, items: Mapping[str, Iterable[str]]) -> list[str]:
        return [f"\n[{title}]"] + [
            f"{_toml_key(k)} = {_toml_list(sorted(v))}" for k, v in sorted(items.items())
        ]

    head = m.notes.splitlines() if m.notes else [FORMAT_NOTE]
    lines = [
        *(f"# {line}".rstrip() for line in head),
        f"name = {_toml_string(m.name)}",
        f"columns = [{m.columns[0]}, {m.columns[1]}]",
        f"rows = [{m.rows[0]}, {m.rows[1]}]",
        f'low_columns = "{m.low_columns}"',
        *section("terrain", {k: map(m.label, v) for k, v in m.terrain_hexes.items()}),
        *section("hexsides", {k: map(side_label, v) for k, v in m.hexside_features.items()}),
        *section("markers", {k: map(m.label, v) for k, v in m.marker_hexes.items()}),
    ]
    return "\n".join(lines) + "\n"


def head_comments(text: str) -> str:
    """The comment lines before a file's first key, without their "#" (the note wbk writes on a
    map without notes is left out, so that such a map reads back as it was)."""
    head = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            break
        if stripped.startswith("#"):
            head.append(stripped[1:].removeprefix(" ").rstrip())
        elif head:
            head.append("")
    while head and not head[-1]:
        head.pop()
    return "" if head == [FORMAT_NOTE] else "\n".join(head)


def _toml_string(text: str) -> str:
    # JSON's escapes are TOML's, but TOML also forbids a raw DEL character
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def _toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else _toml_string(key)


def _toml_list(values: list[str], width: int = 96) -> str:
    """An inline TOML array of strings, wrapped so that a line stays readable."""
    items = [_toml_string(v) for v in values]
    one_line = "[" + ", ".join(items) + "]"
    if len(one_line) <= width:
        return one_line
    rows: list[str] = []
    row: list[str] = []
    for item in items:
        if row and len(", ".join([*row, item])) > width - 4:
            rows.append(", ".join(row))
            row = []
        row.append(item)
    rows.append(", ".join(row))
    return "[\n" + "".join(f"    {r},\n" for r in rows) + "]"


LowColumns = Literal["odd", "even"]


@dataclass(frozen=True, eq=True, repr=False)
class HexMap:
    """A printed hex map: numbering, extent, terrain, hexside features and markers.

    ``terrain`` maps a terrain type to its hexes (a hex may carry several types; hexes not
    listed are clear). ``hexsides`` maps a feature to its hexsides. ``uphill_hexes`` gives, for
    each slope hexside, its uphill hex (and only for those). ``markers`` maps a marker (victory
    star, ...) to hexes. ``notes`` are the comment lines at the head of the map's file (what
    the map is, what on it is illustrative), kept when the map is edited and saved. Everything
    is checked when the map is made; the tables are stored as dicts of frozensets.
    """

    name: str
    columns: tuple[int, int]
    rows: tuple[int, int]
    low_columns: LowColumns = "odd"
    terrain_hexes: Mapping[str, frozenset[Hex]] = field(default_factory=dict)
    hexside_features: Mapping[str, frozenset[Hexside]] = field(default_factory=dict)
    uphill_hexes: Mapping[Hexside, Hex] = field(default_factory=dict)
    marker_hexes: Mapping[str, frozenset[Hex]] = field(default_factory=dict)
    notes: str = ""
    # worked out from the fields above when the map is made (not arguments, not compared)
    _odd: bool = field(init=False, repr=False, compare=False)
    _widths: tuple[int, int] = field(init=False, repr=False, compare=False)
    _terrain_of: dict[Hex, frozenset[str]] = field(init=False, repr=False, compare=False)
    _features_of: dict[Hexside, frozenset[str]] = field(init=False, repr=False, compare=False)
    _beside: dict[str, frozenset[Hex]] = field(init=False, repr=False, compare=False)
    _uphill: frozenset[Hex] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        short_text(self.name, "map name")
        short_text(self.notes, "map notes", LONGEST_NOTE, drawn=False)
        columns, rows = checked_span(self.columns, "columns"), checked_span(self.rows, "rows")
        check_size(columns, rows)
        if not isinstance(self.low_columns, str) or self.low_columns not in ("odd", "even"):
            raise WbkError(f"low_columns {self.low_columns!r}: expected 'odd' or 'even'")
        setattr_ = object.__setattr__
        setattr_(self, "columns", columns)
        setattr_(self, "rows", rows)
        setattr_(self, "_odd", self.low_columns == "odd")
        setattr_(self, "_widths", (max(2, len(str(columns[1]))), max(2, len(str(rows[1])))))
        for key, item_type in (
            ("terrain_hexes", Hex),
            ("hexside_features", Hexside),
            ("marker_hexes", Hex),
        ):
            setattr_(self, key, checked_table(getattr(self, key), key, item_type))
        setattr_(self, "uphill_hexes", checked_uphill_hexes(self.uphill_hexes))
        setattr_(self, "_uphill", frozenset(self.uphill_hexes.values()))
        setattr_(self, "_terrain_of", _kinds_of_each(self.terrain_hexes))
        setattr_(self, "_features_of", _kinds_of_each(self.hexside_features))
        setattr_(
            self,
            "_beside",
            {
                f: frozenset(h for s in sides for h in s.hexes)
                for f, sides in self.hexside_features.items()
            },
        )
        self._check_on_map()

    def __repr__(self) -> str:
        return f"<HexMap {self.name!r}: {self.extent}, {len(self)} hexes>"

    def __hash__(self) -> int:
        # the generated hash would fail on the dict fields; hash the contents instead, once (a
        # map is a key of the caches of its sightlines, asked for on every line)
        if "_hash" not in self.__dict__:
            tables = (
                self.terrain_hexes,
                self.hexside_features,
                self.uphill_hexes,
                self.marker_hexes,
            )
            contents = tuple(frozenset(t.items()) for t in tables)
            key = (self.name, self.columns, self.rows, self.low_columns, contents, self.notes)
            object.__setattr__(self, "_hash", hash(key))
        return self.__dict__["_hash"]

    def __getstate__(self) -> dict:
        # a str's hash differs from process to process: another process hashes the map anew
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}

    def _check_on_map(self) -> None:
        for kind, hexes in {**self.terrain_hexes, **self.marker_hexes}.items():
            for h in hexes:
                self._require_on_map(h, kind)
        for feature, sides in self.hexside_features.items():
            for side in sides:
                for h in side.hexes:
                    self._require_on_map(h, feature)
        for side, up in self.uphill_hexes.items():
            if up not in side:
                raise WbkError(f"uphill hex {self.label(up)} is not on hexside {self.label(side)}")
        slopes = self.hexside_features.get(UPHILL_FEATURE, frozenset())
        for side in sorted(slopes - self.uphill_hexes.keys()):
            raise WbkError(f"slope hexside {self.label(side)} has no uphill hex in uphill_hexes")
        for side in sorted(self.uphill_hexes.keys() - slopes):
            raise WbkError(
                f"uphill_hexes: hexside {self.label(side)} has an uphill hex but no slope"
            )

    def _require_on_map(self, h: Hex, where: str) -> None:
        if h not in self:
            raise WbkError(f"{where}: hex {self.label(h)} is off the map ({self.extent})")

    # --- numbering -------------------------------------------------------------------------

    @property
    def extent(self) -> str:
        (c0, c1), (r0, r1) = self.columns, self.rows
        return f"columns {c0}-{c1}, rows {r0}-{r1}"

    def offset(self, h: Hex) -> tuple[int, int]:
        """The printed (column, row) of a hex (on the map or not)."""
        if not isinstance(h, Hex):
            raise WbkError(f"offset: {h!r} is not a Hex")
        return self._offset(h)

    def _offset(self, h: Hex) -> tuple[int, int]:
        col = h.q
        shift = (col - (col & 1)) // 2 if self._odd else (col + (col & 1)) // 2
        return col, h.r + shift

    def from_offset(self, col: int, row: int) -> Hex:
        """The hex at a printed (column, row), on the map or not."""
        for value, what in ((col, "column"), (row, "row")):
            if isinstance(value, bool) or not isinstance(value, Integral):
                raise WbkError(f"{what} {value!r} is not a whole number")
        return self._from_offset(int(col), int(row))

    def _from_offset(self, col: int, row: int) -> Hex:
        shift = (col - (col & 1)) // 2 if self._odd else (col + (col & 1)) // 2
        return Hex(col, row - shift)

    def hex(self, label: str | Hex) -> Hex:
        """The hex printed with ``label`` ("1913"); a ``Hex`` is checked and passed through."""
        if isinstance(label, Hex):
            if label not in self:
                raise WbkError(f"hex {self.label(label)} is off the map ({self.extent})")
            return label
        cw, rw = self._widths
        if not isinstance(label, str):
            raise WbkError(
                f"hex label {label!r} is not text (expected {cw + rw} digits in quotes, "
                f"column then row, like {self._first_label()!r})"
            )
        if len(label) != cw + rw or not label.isascii() or not label.isdigit():
            raise WbkError(
                f"{label!r} is not a hex label (expected {cw + rw} digits, column then row, "
                f"like {self._first_label()!r})"
            )
        col, row = int(label[:cw]), int(label[cw:])
        h = self._from_offset(col, row)
        if h not in self:
            raise WbkError(f"hex {label} is off the map ({self.extent})")
        return h

    def _first_label(self) -> str:
        return self.label(self._from_offset(self.columns[0], self.rows[0]))

    def label(self, item: Hex | Hexside | Corner) -> str:
        """The printed label of a hex ("1913"), a hexside ("1715/1816", lower label first) or a
        corner ("1814/1913/1914"), on the map or not."""
        if isinstance(item, (Hexside, Corner)):
            return "/".join(sorted(self.label(h) for h in item.hexes))
        if not isinstance(item, Hex):
            raise WbkError(f"label: {item!r} is not a Hex, Hexside or Corner")
        cw, rw = self._widths
        col, row = self._offset(item)
        return f"{col:0{cw}d}{row:0{rw}d}"

    def hexside(self, a: str | Hex, b: str | Hex | None = None) -> Hexside:
        """The hexside between two hexes: ``m.hexside("1715", "1816")`` or
        ``m.hexside("1715/1816")``."""
        if b is None:
            if not isinstance(a, str) or a.count("/") != 1:
                raise WbkError(
                    f"{a!r} is not a hexside label (expected two hex labels like '1715/1816')"
                )
            a, b = a.split("/")
        ha, hb = self.hex(a), self.hex(b)
        if not ha.is_adjacent(hb):
            raise WbkError(
                f"hexes {self.label(ha)} and {self.label(hb)} are not adjacent: no hexside"
            )
        return Hexside(ha, hb)

    def _side(self, side: Hexside | str) -> Hexside:
        """A Hexside as given, or the one a label names ("1715/1816"); anything else is an error."""
        if isinstance(side, Hexside):
            return side
        if isinstance(side, str):
            return self.hexside(side)
        raise WbkError(f"hexside {side!r} is not a Hexside (or a hexside label like '1715/1816')")

    def describe(self, tr: Trace) -> list[str]:
        """A traced line in words, one line per thing it meets, in order.

        >>> from wbk.hexgrid import trace
        >>> m = HexMap("demo", (12, 24), (8, 18))
        >>> for line in m.describe(trace(m.hex("1913"), m.hex("1815"))):
        ...     print(line)
        starts in 1913
        through corner 1814/1913/1914
        along hexside 1814/1914
        through corner 1814/1815/1914
        ends in 1815
        """
        if not isinstance(tr, Trace):
            raise WbkError(
                f"describe: {tr!r} is not a Trace (make one with wbk.hexgrid.trace(a, b))"
            )
        words = {
            "cross": "crosses hexside",
            "corner": "through corner",
            "along": "along hexside",
            "hex": "into",
        }
        lines = [f"{words[kind]} {self.label(item)}" for kind, item in tr.course]
        lines[0] = f"starts in {self.label(tr.a)}"
        if len(lines) > 1:
            lines[-1] = f"ends in {self.label(tr.b)}"
        return lines

    # --- contents --------------------------------------------------------------------------

    def __contains__(self, item: object) -> bool:
        if not isinstance(item, Hex):
            if isinstance(item, str):
                try:
                    self.hex(item)
                except WbkError:
                    return False
                return True
            return False
        col = item.q
        row = item.r + ((col - (col & 1)) // 2 if self._odd else (col + (col & 1)) // 2)
        (c0, c1), (r0, r1) = self.columns, self.rows
        return c0 <= col <= c1 and r0 <= row <= r1

    def __iter__(self) -> Iterator[Hex]:
        """The hexes column by column, each column top to bottom."""
        for col in range(self.columns[0], self.columns[1] + 1):
            for row in range(self.rows[0], self.rows[1] + 1):
                yield self._from_offset(col, row)

    def __len__(self) -> int:
        return (self.columns[1] - self.columns[0] + 1) * (self.rows[1] - self.rows[0] + 1)

    def neighbors(self, h: str | Hex) -> tuple[Hex, ...]:
        """The adjacent hexes that are on the map, in the order N, NE, SE, S, SW, NW."""
        if not isinstance(h, Hex) or h not in self:
            h = self.hex(h)
        return tuple([n for n in h.neighbors() if n in self])

    def terrain(self, h: str | Hex) -> frozenset[str]:
        """The terrain types in a hex (empty for clear)."""
        if not isinstance(h, Hex) or h not in self:
            h = self.hex(h)
        return self._terrain_of.get(h, _NOTHING)

    def hexes_beside(self, feature: str) -> frozenset[Hex]:
        """The hexes with ``feature`` on one of their hexsides (on the map or not).

        >>> m = example_map("ss_panzer_errata_9_4")
        >>> m.hex("1913") in m.hexes_beside("slope"), m.hex("1808") in m.hexes_beside("slope")
        (True, False)
        """
        return self._beside.get(checked_name(feature, "hexes_beside: feature"), _NOTHING)

    def hexes_uphill(self) -> frozenset[Hex]:
        """The uphill hex of every slope hexside (drawn with slope symbols), asked on every line.

        >>> m = example_map("ss_panzer_errata_9_4")
        >>> m.hex("1913") in m.hexes_uphill(), m.hex("1716") in m.hexes_uphill()
        (True, False)
        """
        return self._uphill

    def features(self, side: Hexside | str) -> frozenset[str]:
        """The features on a hexside (stream, slope, ...); a hexside may reach off the map."""
        if type(side) is not Hexside:
            side = self._side(side)
        return self._features_of.get(side, _NOTHING)

    def uphill(self, side: Hexside | str) -> Hex | None:
        """The uphill hex of a slope hexside, or None where the hexside has no slope."""
        if type(side) is not Hexside:
            side = self._side(side)
        return self.uphill_hexes.get(side)

    def markers(self, name: str) -> frozenset[Hex]:
        """The hexes carrying a marker (for example "star"); empty when there are none."""
        return self.marker_hexes.get(checked_name(name, "marker"), _NOTHING)

    # --- editing: each returns an edited copy ----------------------------------------------

    def with_terrain(self, h: str | Hex, terrain: Iterable[str]) -> HexMap:
        """This map with the terrain of one hex replaced (an empty ``terrain`` makes it clear)."""
        h = self.hex(h)
        wanted = checked_collection(terrain, str, f"terrain for {self.label(h)}")
        for kind in wanted:
            checked_name(kind, f"terrain for {self.label(h)}: terrain type")
        kinds = set(self.terrain_hexes) | wanted
        new = {
            k: (self.terrain_hexes.get(k, frozenset()) - {h}) | ({h} if k in wanted else set())
            for k in kinds
        }
        return replace(self, terrain_hexes={k: frozenset(v) for k, v in new.items() if v})

    def with_feature(
        self,
        side: Hexside | str,
        feature: str,
        *,
        present: bool = True,
        uphill: Hex | str | None = None,
    ) -> HexMap:
        """This map with ``feature`` added to (or, ``present=False``, removed from) a hexside.
        A slope needs its ``uphill`` hex, one of the hexside's two; other features ignore it."""
        side = self._side(side)
        checked_name(feature, "feature")
        if not isinstance(present, bool):
            raise WbkError(f"present {present!r} is not True or False")
        for h in side.hexes:
            self._require_on_map(h, f"hexside {self.label(side)}")
        uphill_hex = None if uphill is None else self.hex(uphill)
        sides = set(self.hexside_features.get(feature, frozenset()))
        uphill_hexes = dict(self.uphill_hexes)
        if present:
            sides.add(side)
            if feature == UPHILL_FEATURE:
                if uphill_hex is None or uphill_hex not in side:
                    given = (
                        "none was given" if uphill_hex is None else f"not {self.label(uphill_hex)}"
                    )
                    raise WbkError(
                        f"a slope on {self.label(side)} needs its uphill hex, one of the two "
                        f"({given})"
                    )
                uphill_hexes[side] = uphill_hex
        else:
            sides.discard(side)
            if feature == UPHILL_FEATURE:
                uphill_hexes.pop(side, None)
        features = {k: v for k, v in self.hexside_features.items() if k != feature}
        if sides:
            features[feature] = frozenset(sides)
        return replace(self, hexside_features=features, uphill_hexes=uphill_hexes)

    def with_marker(self, h: str | Hex, marker: str, *, present: bool = True) -> HexMap:
        """This map with ``marker`` (a victory star, say) put in (or, ``present=False``, taken
        out of) one hex."""
        h = self.hex(h)
        checked_name(marker, "marker")
        if not isinstance(present, bool):
            raise WbkError(f"present {present!r} is not True or False")
        hexes = set(self.marker_hexes.get(marker, frozenset()))
        if present:
            hexes.add(h)
        else:
            hexes.discard(h)
        markers = {k: v for k, v in self.marker_hexes.items() if k != marker}
        if hexes:
            markers[marker] = frozenset(hexes)
        return replace(self, marker_hexes=markers)

    def with_name(self, name: str) -> HexMap:
        """This map under another name."""
        return replace(self, name=checked_name(name, "map name"))

    # --- TOML in and out -------------------------------------------------------------------

    @classmethod
    def load(cls, path: str | os.PathLike) -> HexMap:
        """The map in a TOML file (its format: the site's reference, "Maps")."""
        path = checked_path(path, "map file")
        return cls.from_toml(read_text(path, "map"), source=str(path))

    @classmethod
    def from_toml(cls, text: str, *, source: str = "map") -> HexMap:
        """The map that TOML ``text`` describes, its head comments as its notes; an error names
        ``source`` and the key."""
        made: HexMap = read_map(text, source, cls)
        return replace(made, notes=head_comments(text))

    def to_toml(self) -> str:
        """The map in wbk's TOML format: its notes as the head comments, then sorted, one key a
        line, slopes written uphill hex first."""
        return map_toml(self)

    def save(self, path: str | os.PathLike) -> None:
        """Write the map as TOML; a failed save leaves any existing file untouched. A new file
        gets the usual permissions (0o666 less the umask), a replaced file keeps its own."""
        write_atomically(checked_path(path, "map file"), self.to_toml(), "map")

    def _repr_png_(self) -> bytes:
        from wbk.draw.maps import map_png

        return map_png(self)


_NOTHING: frozenset = frozenset()


def _kinds_of_each(table: Mapping[str, frozenset]) -> dict:
    """A table of items by kind turned round: each item's kinds (a hex's terrain types)."""
    kinds: dict[object, set[str]] = {}
    for kind, items in table.items():
        for item in items:
            kinds.setdefault(item, set()).add(kind)
    return {item: frozenset(found) for item, found in kinds.items()}


def example_map(name: str) -> HexMap:
    """A map shipped with wbk, by file name without ".toml" (see ``example_maps()``)."""
    short_text(name, "example map name")
    names = example_maps()
    if name not in names:
        raise WbkError(f"no shipped map called {name!r} (there are: {', '.join(names)})")
    path = resources.files("wbk") / "data" / "maps" / f"{name}.toml"
    return HexMap.from_toml(path.read_text(encoding="utf-8"), source=f"wbk/data/maps/{name}.toml")


def example_maps() -> list[str]:
    """The names of the maps shipped with wbk."""
    folder = resources.files("wbk") / "data" / "maps"
    return sorted(
        p.name.removesuffix(".toml") for p in folder.iterdir() if p.name.endswith(".toml")
    )
