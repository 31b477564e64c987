"""Hex maps as printed: column-and-row numbering, terrain, hexside features and markers.

A ``HexMap`` is plain data read from (and written to) a small TOML format that users write by
hand; the README documents it. Hexes are ``wbk.hexgrid.Hex``; the map translates between them and
the printed labels ("1913", "1715/1816").

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
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Literal

from wbk.datafile import parse_toml, read_text
from wbk.errors import WbkError
from wbk.hexgrid import Corner, Hex, Hexside, Trace

LowColumns = Literal["odd", "even"]
UPHILL_FEATURE = "slope"
_TOP_KEYS = {"name", "columns", "rows", "low_columns", "terrain", "hexsides", "markers"}


@dataclass(frozen=True, eq=True, repr=False)
class HexMap:
    """A printed hex map: numbering, extent, terrain, hexside features and markers.

    ``terrain`` maps a terrain type to its hexes (a hex may carry several types; hexes not
    listed are clear). ``hexsides`` maps a feature to its hexsides. ``uphill_hexes`` gives, for
    each slope hexside, its uphill hex. ``markers`` maps a marker (victory star, ...) to hexes.
    """

    name: str
    columns: tuple[int, int]
    rows: tuple[int, int]
    low_columns: LowColumns = "odd"
    terrain_hexes: Mapping[str, frozenset[Hex]] = field(default_factory=dict)
    hexside_features: Mapping[str, frozenset[Hexside]] = field(default_factory=dict)
    uphill_hexes: Mapping[Hexside, Hex] = field(default_factory=dict)
    marker_hexes: Mapping[str, frozenset[Hex]] = field(default_factory=dict)

    def __post_init__(self):
        for key, (first, last) in (("columns", self.columns), ("rows", self.rows)):
            if first > last:
                raise WbkError(f"{key} [{first}, {last}]: the first number is above the last")
        if self.low_columns not in ("odd", "even"):
            raise WbkError(f"low_columns {self.low_columns!r}: expected 'odd' or 'even'")
        terrain_of: dict[Hex, set[str]] = {}
        for kind, hexes in self.terrain_hexes.items():
            for h in hexes:
                terrain_of.setdefault(h, set()).add(kind)
        features_of: dict[Hexside, set[str]] = {}
        for feature, sides in self.hexside_features.items():
            for side in sides:
                features_of.setdefault(side, set()).add(feature)
        object.__setattr__(self, "_terrain_of", {h: frozenset(t) for h, t in terrain_of.items()})
        object.__setattr__(self, "_features_of", {s: frozenset(f) for s, f in features_of.items()})
        self._check_on_map()

    def __repr__(self):
        return f"<HexMap {self.name!r}: {self.extent}, {len(self)} hexes>"

    def _check_on_map(self):
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

    def _require_on_map(self, h: Hex, where: str):
        if h not in self:
            raise WbkError(f"{where}: hex {self.label(h)} is off the map ({self.extent})")

    # --- numbering -------------------------------------------------------------------------

    @property
    def extent(self) -> str:
        (c0, c1), (r0, r1) = self.columns, self.rows
        return f"columns {c0}-{c1}, rows {r0}-{r1}"

    @property
    def _widths(self) -> tuple[int, int]:
        return max(2, len(str(self.columns[1]))), max(2, len(str(self.rows[1])))

    def offset(self, h: Hex) -> tuple[int, int]:
        """The printed (column, row) of a hex."""
        col = h.q
        shift = (col - (col & 1)) // 2 if self.low_columns == "odd" else (col + (col & 1)) // 2
        return col, h.r + shift

    def from_offset(self, col: int, row: int) -> Hex:
        shift = (col - (col & 1)) // 2 if self.low_columns == "odd" else (col + (col & 1)) // 2
        return Hex(col, row - shift)

    def hex(self, label: str | Hex) -> Hex:
        """The hex printed with ``label`` ("1913"); a ``Hex`` is checked and passed through."""
        if isinstance(label, Hex):
            if label not in self:
                raise WbkError(f"hex {self.label(label)} is off the map ({self.extent})")
            return label
        cw, rw = self._widths
        if not isinstance(label, str) or not re.fullmatch(rf"\d{{{cw + rw}}}", label):
            raise WbkError(
                f"{label!r} is not a hex label (expected {cw + rw} digits, column then row, "
                f"like {self.label(self.from_offset(self.columns[0], self.rows[0]))!r})"
            )
        col, row = int(label[:cw]), int(label[cw:])
        h = self.from_offset(col, row)
        if h not in self:
            raise WbkError(f"hex {label} is off the map ({self.extent})")
        return h

    def label(self, item: Hex | Hexside | Corner) -> str:
        """The printed label of a hex ("1913"), a hexside ("1715/1816", lower label first) or a
        corner ("1814/1913/1914")."""
        if isinstance(item, (Hexside, Corner)):
            return "/".join(sorted(self.label(h) for h in item.hexes))
        cw, rw = self._widths
        col, row = self.offset(item)
        return f"{col:0{cw}d}{row:0{rw}d}"

    def hexside(self, a: str | Hex, b: str | Hex | None = None) -> Hexside:
        """The hexside between two hexes: ``m.hexside("1715", "1816")`` or ``m.hexside("1715/1816")``."""
        if b is None:
            if not isinstance(a, str) or a.count("/") != 1:
                raise WbkError(f"{a!r} is not a hexside label (expected two hex labels like '1715/1816')")
            a, b = a.split("/")
        ha, hb = self.hex(a), self.hex(b)
        if not ha.is_adjacent(hb):
            raise WbkError(f"hexes {self.label(ha)} and {self.label(hb)} are not adjacent: no hexside")
        return Hexside(ha, hb)

    def describe(self, tr: Trace) -> list[str]:
        """A traced line in words, one line per thing it meets, in order.

        >>> from wbk.hexgrid import trace
        >>> m = HexMap("demo", (12, 24), (8, 18))
        >>> m.describe(trace(m.hex("1913"), m.hex("1815")))
        ['starts in 1913', 'through corner 1814/1913/1914', 'along hexside 1814/1914', 'through corner 1814/1815/1914', 'ends in 1815']
        """
        words = {"cross": "crosses hexside", "corner": "through corner", "along": "along hexside", "hex": "into"}
        lines = [f"{words[kind]} {self.label(item)}" for kind, item in tr.course]
        lines[0] = f"starts in {self.label(tr.a)}"
        if len(lines) > 1:
            lines[-1] = f"ends in {self.label(tr.b)}"
        return lines

    # --- contents --------------------------------------------------------------------------

    def __contains__(self, item: object) -> bool:
        if isinstance(item, str):
            try:
                self.hex(item)
            except WbkError:
                return False
            return True
        if not isinstance(item, Hex):
            return False
        col, row = self.offset(item)
        return self.columns[0] <= col <= self.columns[1] and self.rows[0] <= row <= self.rows[1]

    def __iter__(self) -> Iterator[Hex]:
        """The hexes column by column, each column top to bottom."""
        for col in range(self.columns[0], self.columns[1] + 1):
            for row in range(self.rows[0], self.rows[1] + 1):
                yield self.from_offset(col, row)

    def __len__(self) -> int:
        return (self.columns[1] - self.columns[0] + 1) * (self.rows[1] - self.rows[0] + 1)

    def neighbors(self, h: Hex) -> tuple[Hex, ...]:
        """The adjacent hexes that are on the map, in the order N, NE, SE, S, SW, NW."""
        return tuple(n for n in h.neighbors() if n in self)

    def terrain(self, h: str | Hex) -> frozenset[str]:
        """The terrain types in a hex (empty for clear)."""
        return self._terrain_of.get(self.hex(h), frozenset())

    def features(self, side: Hexside) -> frozenset[str]:
        """The features on a hexside (stream, slope, ...)."""
        return self._features_of.get(side, frozenset())

    def uphill(self, side: Hexside) -> Hex | None:
        """The uphill hex of a slope hexside, or None where the hexside has no slope."""
        return self.uphill_hexes.get(side)

    def markers(self, name: str) -> frozenset[Hex]:
        """The hexes carrying a marker (for example "star"); empty when there are none."""
        return self.marker_hexes.get(name, frozenset())

    # --- editing: each returns an edited copy ----------------------------------------------

    def with_terrain(self, h: str | Hex, terrain: Iterable[str]) -> HexMap:
        """This map with the terrain of one hex replaced (an empty ``terrain`` makes it clear)."""
        h, wanted = self.hex(h), set(terrain)
        kinds = set(self.terrain_hexes) | wanted
        new = {k: (self.terrain_hexes.get(k, frozenset()) - {h}) | ({h} if k in wanted else set()) for k in kinds}
        return replace(self, terrain_hexes={k: frozenset(v) for k, v in new.items() if v})

    def with_feature(self, side: Hexside, feature: str, *, present: bool = True, uphill: Hex | None = None) -> HexMap:
        """This map with ``feature`` added to (or, ``present=False``, removed from) a hexside.
        A slope needs its ``uphill`` hex, one of the hexside's two."""
        for h in side.hexes:
            self._require_on_map(h, f"hexside {self.label(side)}")
        sides = set(self.hexside_features.get(feature, frozenset()))
        uphill_hexes = dict(self.uphill_hexes)
        if present:
            sides.add(side)
            if feature == UPHILL_FEATURE:
                if uphill not in side:
                    raise WbkError(f"a slope on {self.label(side)} needs its uphill hex, one of the two")
                uphill_hexes[side] = uphill
        else:
            sides.discard(side)
            if feature == UPHILL_FEATURE:
                uphill_hexes.pop(side, None)
        features = {k: v for k, v in self.hexside_features.items() if k != feature}
        if sides:
            features[feature] = frozenset(sides)
        return replace(self, hexside_features=features, uphill_hexes=uphill_hexes)

    # --- TOML in and out -------------------------------------------------------------------

    @classmethod
    def load(cls, path: str | os.PathLike) -> HexMap:
        return cls.from_toml(read_text(path, "map"), source=str(path))

    @classmethod
    def from_toml(cls, text: str, *, source: str = "map") -> HexMap:
        return _MapReader(source).read(parse_toml(text, source))

    def to_toml(self) -> str:
        """The map in wbk's TOML format: sorted, one key a line, slopes written uphill hex first."""

        def side_label(side: Hexside) -> str:
            up = self.uphill(side)
            return self.label(side) if up is None else f"{self.label(up)}/{self.label(side.other(up))}"

        def section(title: str, items: Mapping[str, Iterable[str]]) -> list[str]:
            return [f"\n[{title}]"] + [f"{_toml_key(k)} = {_toml_list(sorted(v))}" for k, v in sorted(items.items())]

        lines = [
            "# wbk hex map; the format is described in wbk's README.",
            f"name = {_toml_string(self.name)}",
            f"columns = [{self.columns[0]}, {self.columns[1]}]",
            f"rows = [{self.rows[0]}, {self.rows[1]}]",
            f'low_columns = "{self.low_columns}"',
            *section("terrain", {k: map(self.label, v) for k, v in self.terrain_hexes.items()}),
            *section("hexsides", {k: map(side_label, v) for k, v in self.hexside_features.items()}),
            *section("markers", {k: map(self.label, v) for k, v in self.marker_hexes.items()}),
        ]
        return "\n".join(lines) + "\n"

    def save(self, path: str | os.PathLike) -> None:
        """Write the map as TOML; a failed save leaves any existing file untouched."""
        path = Path(path)
        text = self.to_toml()
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except BaseException:
            os.unlink(tmp)
            raise

    def _repr_png_(self) -> bytes:
        from wbk.plot import map_png

        return map_png(self)


def example_map(name: str) -> HexMap:
    """A map shipped with wbk, by file name without ".toml" (see ``example_maps()``)."""
    path = resources.files("wbk") / "data" / "maps" / f"{name}.toml"
    if not path.is_file():
        raise WbkError(f"no shipped map called {name!r} (there are: {', '.join(example_maps())})")
    return HexMap.from_toml(path.read_text(encoding="utf-8"), source=f"wbk/data/maps/{name}.toml")


def example_maps() -> list[str]:
    """The names of the maps shipped with wbk."""
    folder = resources.files("wbk") / "data" / "maps"
    return sorted(p.name.removesuffix(".toml") for p in folder.iterdir() if p.name.endswith(".toml"))


class _MapReader:
    """Turns parsed TOML into a HexMap, naming the file and key of anything wrong."""

    def __init__(self, source: str):
        self.source = source

    def fail(self, where: str, message: str):
        raise WbkError(f"{self.source}: {where}: {message}")

    def read(self, data: dict) -> HexMap:
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
            self.fail("low_columns", f"{low!r} (expected \"odd\" or \"even\")")
        frame = HexMap(name, columns, rows, low)

        terrain = {k: frozenset(self.hexes(frame, "terrain", k, v)) for k, v in self.table(data, "terrain")}
        markers = {k: frozenset(self.hexes(frame, "markers", k, v)) for k, v in self.table(data, "markers")}
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
                        self.fail(f"[hexsides] {feature}", f"{text} is listed twice with opposite uphill hexes")
                    uphill[side] = up
                sides.append(side)
            features[feature] = frozenset(sides)
        return HexMap(name, columns, rows, low, terrain, features, uphill, markers)

    def span(self, data: dict, key: str) -> tuple[int, int]:
        value = data[key]
        if not (
            isinstance(value, list) and len(value) == 2 and all(type(v) is int and v >= 0 for v in value)
        ):
            self.fail(key, f"{value!r} (expected [first, last], two whole numbers)")
        if value[0] > value[1]:
            self.fail(key, f"{value!r}: the first number is above the last")
        return value[0], value[1]

    def table(self, data: dict, key: str) -> list[tuple[str, object]]:
        value = data.get(key, {})
        if not isinstance(value, dict):
            self.fail(key, f"expected a table [{key}], found {value!r}")
        return list(value.items())

    def strings(self, section: str, key: str, values: object) -> list[str]:
        if not (isinstance(values, list) and all(isinstance(v, str) for v in values)):
            self.fail(f"[{section}] {key}", f"{values!r} (expected a list of quoted labels)")
        return values

    def hexes(self, frame: HexMap, section: str, key: str, values: object) -> list[Hex]:
        hexes = []
        for text in self.strings(section, key, values):
            try:
                hexes.append(frame.hex(text))
            except WbkError as e:
                self.fail(f"[{section}] {key}", str(e))
        return hexes


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
    rows, row = [], []
    for item in items:
        if row and len(", ".join(row + [item])) > width - 4:
            rows.append(", ".join(row))
            row = []
        row.append(item)
    rows.append(", ".join(row))
    return "[\n" + "".join(f"    {r},\n" for r in rows) + "]"
