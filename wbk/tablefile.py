"""A table's TOML file, the small format users write by hand (the reference's "Pz 8 table
files"): reading it, each error naming the file, the key and the bad value, and writing it back.
``wbk.table.Table.load``, ``from_toml``, ``to_toml`` and ``save`` are the doors; the table class
is handed in, so that this module needs none."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path
from typing import Any, NoReturn

from wbk.datafile import parse_toml, write_atomically
from wbk.errors import WbkError
from wbk.tableparts import FOOTPRINT, MAX_PIECES, MOST_TERRAIN, Piece, Terrain, _Placed


def read_table(text: str, *, source: str, pieces: type[Piece], make: Any) -> Any:
    """The table that TOML ``text`` describes, made with ``make`` (the table class, ``Table``)
    and its pieces of class ``pieces``; errors name ``source``."""
    return _TableReader(source, pieces, make).read(parse_toml(text, source))


def table_toml(table) -> str:
    """``table`` in wbk's table format (see ``wbk.table.Table.to_toml``)."""
    sizes = {(p.width, p.length) for p in table.pieces}
    if len(sizes) > 1:
        listed = ", ".join(f"{w:g} × {length:g}" for w, length in sorted(sizes))
        raise WbkError(f"the pieces have different footprints ({listed}): a table file has one")
    width, length = sizes.pop() if sizes else FOOTPRINT
    lines = [
        "# wbk table; the format is described in wbk's reference (Pz 8 table files).",
        f"name = {_toml_value(table.name)}",
        f"size = {_toml_value([table.width, table.depth])}",
        f"footprint = {_toml_value([width, length])}",
    ]
    for t in table.terrain:
        lines += ["", "[[terrain]]"]
        if t.name:
            lines.append(f"name = {_toml_value(t.name)}")
        lines += [
            f"kind = {_toml_value(t.kind)}",
            f"points = {_toml_value([list(p) for p in t.points])}",
        ]
        if t.kind == "obstacle" and not t.blocks_sight:
            lines.append("blocks_sight = false")
    for p in table.pieces:
        lines += ["", "[[tanks]]"]
        generic = {
            "name": p.name,
            "side": p.side,
            "position": list(p.position),
            "facing": p.facing,
        }
        extra = {key: getattr(p, field) for key, field in type(p).toml_keys.items()}
        lines += [f"{key} = {_toml_value(value)}" for key, value in {**generic, **extra}.items()]
    text = "\n".join(lines) + "\n"
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        bad = e.object[e.start : e.end]
        raise WbkError(
            f"the table cannot be written: {bad!r} in {_line_at(text, e.start)!r} is not a "
            "character (a lone surrogate); rename it"
        ) from None
    return text


def save_table(table, path: str | os.PathLike) -> None:
    """Write ``table`` to ``path`` (see ``wbk.table.Table.save``)."""
    if isinstance(path, bytes) or not isinstance(path, (str, os.PathLike)):
        raise WbkError(f"table file {path!r} is not a file path (expected text or a pathlib.Path)")
    path = Path(checked_file_name(path))
    if path.suffix != ".toml":
        raise WbkError(f"table file name {path.name!r} should end in .toml")
    write_atomically(path, table.to_toml(), "table")


def checked_file_name(path: str | os.PathLike) -> str | os.PathLike:
    """``path``, refused in one line if the system cannot spell it (a lone surrogate)."""
    if isinstance(path, (str, os.PathLike)):
        try:
            os.fsencode(path)
        except UnicodeEncodeError:
            raise WbkError(
                f"table file {str(path)!r} is not a file name the system can spell "
                "(it holds a lone surrogate)"
            ) from None
    return path


def _line_at(text: str, index: int) -> str:
    """The line of ``text`` holding ``index``."""
    start = text.rfind("\n", 0, index) + 1
    end = text.find("\n", index)
    return text[start : end if end >= 0 else len(text)]


def _toml_value(value) -> str:
    """A TOML value: a string, a true/false, a number (whole numbers without a point), a list."""
    if isinstance(value, str):
        # JSON's escapes are TOML's, but TOML also forbids a raw DEL character
        return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return (
            str(int(value))
            if float(value).is_integer() and abs(value) < 2**53
            else repr(float(value))
        )
    return "[" + ", ".join(_toml_value(v) for v in value) + "]"


class _TableReader:
    """Reads a table file, each error naming the file, the key and the bad value."""

    def __init__(self, source: str, pieces: type[Piece], make: Any):
        self.source, self.pieces, self.make = source, pieces, make

    def fail(self, where: str, message: str) -> NoReturn:
        raise WbkError(f"{self.source}: {where}: {message}")

    def read(self, data: dict) -> Any:
        allowed = ("name", "size", "footprint", "terrain", "tanks")
        for key in data:
            if key not in allowed:
                self.fail(key, f"unknown key (expected {', '.join(allowed)})")
        if "size" not in data:
            self.fail("size", "missing (expected [width, depth] in inches)")
        width, depth = self.pair("size", data["size"], positive=True)
        footprint = self.pair("footprint", data.get("footprint", list(FOOTPRINT)), positive=True)
        name = data.get("name", "")
        if not isinstance(name, str):
            self.fail("name", f"{name!r} is not a quoted string")
        for key, most in (("terrain", MOST_TERRAIN), ("tanks", MAX_PIECES)):
            if len(self.entries(data, key)) > most:  # before a piece is read
                self.fail(key, f"{len(self.entries(data, key)):,} pieces is more than wbk takes")
        terrain = [
            self.terrain(i, entry) for i, entry in enumerate(self.entries(data, "terrain"), 1)
        ]
        pieces = [self.piece(entry, footprint) for entry in self.entries(data, "tanks")]
        try:
            table = self.make(width, depth, tuple(terrain), (), name)
        except WbkError as e:
            self.fail("size", str(e))
        if len(pieces) > MAX_PIECES:
            self.fail("tanks", f"{len(pieces)} tanks is more than wbk.table.MAX_PIECES")
        placed = _Placed(table.width, table.depth, pieces)
        for piece in pieces:  # one at a time, so an error names the piece that breaks the table
            if piece.name in placed.names:
                self.fail(f"[[tanks]] {piece.name!r} name", f"two pieces are called {piece.name!r}")
            try:
                table._check_piece(piece, placed)
            except WbkError as e:
                self.fail(f"[[tanks]] {piece.name!r}", str(e))
        return replace(table, pieces=tuple(pieces))

    def pair(self, key: str, value, *, positive: bool) -> tuple[float, float]:
        if not (
            isinstance(value, list)
            and len(value) == 2
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
        ):
            self.fail(key, f"{value!r} is not two numbers")
        if positive and min(value) <= 0:
            self.fail(key, f"{value!r}: both numbers must be positive")
        return float(value[0]), float(value[1])

    def entries(self, data: dict, key: str) -> list[dict]:
        value = data.get(key, [])
        if not (isinstance(value, list) and all(isinstance(v, dict) for v in value)):
            self.fail(key, f"expected [[{key}]] tables, got {value!r}")
        return value

    def terrain(self, number: int, entry: dict) -> Terrain:
        where = f"[[terrain]] {entry.get('name', number)!r}"
        for key in entry:
            if key not in ("name", "kind", "points", "blocks_sight"):
                self.fail(
                    f"{where} {key}", "unknown key (expected name, kind, points, blocks_sight)"
                )
        for key in ("kind", "points"):
            if key not in entry:
                self.fail(f"{where} {key}", "missing")
        try:
            return Terrain(
                entry["kind"], entry["points"], entry.get("name", ""), entry.get("blocks_sight")
            )
        except WbkError as e:
            self.fail(where, str(e))

    def piece(self, entry: dict, footprint: tuple[float, float]) -> Piece:
        name = entry.get("name")
        if not isinstance(name, str) or not name:
            self.fail("[[tanks]] name", f"{name!r}: every tank needs a quoted name")
        where = f"[[tanks]] {name!r}"
        generic = {"name": "name", "side": "side", "position": "position", "facing": "facing"}
        keys = {**generic, **self.pieces.toml_keys}
        for key in entry:
            if key not in keys:
                self.fail(f"{where} {key}", f"unknown key (expected {', '.join(keys)})")
        if "position" not in entry:
            self.fail(f"{where} position", "missing (expected [x, y] in inches)")
        values = {keys[k]: v for k, v in entry.items()}
        values.setdefault("width", footprint[0])
        values.setdefault("length", footprint[1])
        try:
            return self.pieces(**values)
        except WbkError as e:
            self.fail(where, str(e))
