"""A hex map's TOML file, the small format users write by hand (the README documents it):
reading one, every error naming the file and the key, and writing one back, sorted, one key a
line, its notes as the head comments. ``HexMap.load``, ``from_toml``, ``to_toml`` and ``save``
(``wbk.maps``) are the doors; the map class is handed in, so that this module needs none."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any, NoReturn

from wbk.datafile import parse_toml
from wbk.errors import WbkError
from wbk.hexgrid import Hex, Hexside
from wbk.mapchecks import MOST_KINDS, UPHILL_FEATURE

__all__ = ["FORMAT_NOTE", "MapReader", "head_comments", "map_toml", "read_map"]

_TOP_KEYS = {"name", "columns", "rows", "low_columns", "terrain", "hexsides", "markers"}
#: The head comment written on a map that has no notes of its own.
FORMAT_NOTE = "wbk hex map; the format is described in wbk's README."


def read_map(text: str, source: str, make: Callable[..., Any]) -> Any:
    """The map that TOML ``text`` describes, made with ``make`` (the map class, ``HexMap``);
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
    """Turns parsed TOML into a map made with ``make`` (``HexMap``), naming the file and key of
    anything wrong."""

    def __init__(self, source: str, make: Callable[..., Any]) -> None:
        self.source = source
        self.make = make

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
