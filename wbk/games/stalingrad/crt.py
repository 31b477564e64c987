"""Streets of Stalingrad: combat results tables (CRTs) read from TOML files, and their lookups."""

from __future__ import annotations

import functools
import html
import os
import re
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from numbers import Integral
from typing import Literal, NoReturn

from wbk.checks import LONGEST_NOTE, Input, short_text, whole
from wbk.datafile import parse_toml, read_text
from wbk.dice import Dist, chance, d6
from wbk.errors import WbkError
from wbk.explain import Step, count, steps_html

from .units import ASSUMED, HOME, check_path, shipped, shipped_text

_DICE = {"1d6": d6, "2d6": 2 @ d6}
_CRT_KEYS = ("name", "die", "columns", "results", "effects", "note")


#: The most columns a CRT may have (a published CRT has 8 to 12), and the most result codes:
#: a CRT may come from a stranger, and each column and code is drawn.
MOST_COLUMNS = 30
MOST_CODES = 20
#: A total strength (AF or DF) the table is read with: at most 1,000 units of 1,000.
TOTAL = Input.whole(0, 1_000_000)


@dataclass(frozen=True)
class Effect:
    """What one CRT result does to the units fired on: ``eliminate`` units lost (a number, or
    "all"), and whether the rest are pinned. "none" is ``Effect()``."""

    eliminate: int | Literal["all"] = 0
    pin: bool = False

    def __post_init__(self):
        if self.eliminate != "all":
            whole(self.eliminate, "units eliminated")
        if not isinstance(self.pin, bool):
            raise WbkError(f"pin {self.pin!r} is not True or False")

    def losses(self, units: int) -> int:
        """How many of ``units`` units this effect eliminates."""
        units = whole(units, "number of units")
        return units if self.eliminate == "all" else min(self.eliminate, units)

    @property
    def hurts(self) -> bool:
        """Does it do anything at all (pin or eliminate)?"""
        return self.pin or self.eliminate != 0

    def __str__(self) -> str:
        parts = []
        if self.eliminate:
            parts.append(f"eliminate {self.eliminate}")
        if self.pin:
            parts.append("pin")
        return ", ".join(parts) or "none"


_EFFECT_WORD = re.compile(r"none|pin|eliminate (all|\d+)")


def _parse_effect(text) -> Effect:
    """An effect in words: "none", "pin", "eliminate N", "eliminate all", or several joined by
    commas ("eliminate 1, pin")."""
    if not isinstance(text, str) or not text.strip():
        raise WbkError(f"{text!r} is not an effect (expected words like 'pin' or 'eliminate 1')")
    eliminate: int | Literal["all"] = 0
    pin = False
    parts = [p.strip() for p in text.split(",")]
    seen: set[str] = set()
    for part in parts:
        match = _EFFECT_WORD.fullmatch(part)
        if not match:
            raise WbkError(
                f"{text!r}: unknown effect {part!r} "
                "(expected none, pin, eliminate N, eliminate all)"
            )
        word = part.split()[0]
        if word in seen:
            raise WbkError(f"{text!r}: {word!r} is given twice (write each effect once)")
        seen.add(word)
        if word == "none" and len(parts) > 1:
            raise WbkError(f"{text!r}: 'none' cannot be joined with other effects")
        if part == "pin":
            pin = True
        elif match.group(1) == "all":
            eliminate = "all"
        elif match.group(1):
            eliminate = int(match.group(1))
    return Effect(eliminate, pin)


def _band(text) -> tuple[int, int | None] | None:
    """A column heading as (lowest, highest) strength, highest None for "30+"."""
    if not isinstance(text, str):
        return None
    if m := re.fullmatch(r"(\d+)", text):
        return int(m[1]), int(m[1])
    if m := re.fullmatch(r"(\d+)-(\d+)", text):
        return (int(m[1]), int(m[2])) if int(m[1]) <= int(m[2]) else None
    if m := re.fullmatch(r"(\d+)\+", text):
        return int(m[1]), None
    return None


@dataclass(frozen=True, eq=True)
class Crt:
    """A combat results table: columns of strength, one row of result codes per die roll, and
    what each code does. Read one with ``Crt.load(path)``; the format is in wbk's reference.

    ``results`` maps each roll (1-6 for "1d6", 2-12 for "2d6") to one code per column;
    ``effects`` maps each code to its effect in words ("pin", "eliminate 1", ...). A strength
    above the last column reads the last column, as CRTs usually say.
    """

    name: str
    die: str
    columns: tuple[str, ...]
    results: Mapping[int, tuple[str, ...]]
    effects: Mapping[str, str]
    note: str = ""
    source: str = "CRT"
    #: each column's (lowest, highest) strength, highest None for an open column ("30+")
    _bands: tuple[tuple[int, int | None], ...] = field(init=False, repr=False, compare=False)
    _effects: Mapping[str, Effect] = field(init=False, repr=False, compare=False)

    def __post_init__(self):
        source = self.source if isinstance(self.source, str) else "CRT"

        def fail(key: str, message: str) -> NoReturn:
            raise WbkError(f"{source}: {key}: {message}")

        if not isinstance(self.name, str) or not self.name.strip():
            fail("name", f"{self.name!r} is not a name")
        if not isinstance(self.note, str):
            fail("note", f"{self.note!r} is not text")
        try:
            short_text(self.name, "name")
            short_text(self.note, "note", LONGEST_NOTE, drawn=False)
        except WbkError as e:
            raise WbkError(f"{source}: {e}") from None
        if not isinstance(self.die, str) or self.die not in _DICE:
            fail("die", f'{self.die!r} (expected "1d6" or "2d6")')
        columns = self.columns
        if isinstance(columns, str) or not isinstance(columns, Sequence) or not columns:
            fail("columns", f'{columns!r} (expected a list of column headings like "5-9")')
        if len(columns) > MOST_COLUMNS:  # each is drawn as a bar and a column of the table
            fail("columns", f"{len(columns):,} columns is more than wbk takes ({MOST_COLUMNS})")
        bands = []
        for text in columns:
            band = _band(text)
            if band is None:
                fail("columns", f"{text!r} is not a column heading (expected '4', '5-9' or '30+')")
            bands.append(band)
        pairs = list(zip(columns, bands, columns[1:], bands[1:], strict=False))
        for before, (low, _), text, (start, _) in pairs:
            if start < low:
                fail("columns", f"{text!r} comes after {before!r}: columns go from low to high")
        for before, (_, high), text, _ in pairs:
            if high is None:
                fail("columns", f"{text!r} comes after the open column {before!r}")
        for before, (_, high), text, (start, _) in pairs:
            if high is None:  # refused above
                continue
            if start <= high:
                fail("columns", f"{text!r} overlaps {before!r}")
            if start > high + 1:
                gap = f"{text!r} after {before!r} leaves strength {high + 1} in no column"
                fail("columns", gap)
        object.__setattr__(self, "columns", tuple(columns))
        object.__setattr__(self, "_bands", tuple(bands))

        if not isinstance(self.effects, Mapping):
            fail("effects", f"{self.effects!r} (expected a table of code = effect)")
        if len(self.effects) > MOST_CODES:
            fail("effects", f"{len(self.effects):,} codes is more than wbk takes ({MOST_CODES})")
        parsed = {}
        for code, text in self.effects.items():
            try:
                short_text(code, "code")
            except WbkError as e:
                fail("[effects]", str(e))
            try:
                parsed[code] = _parse_effect(text)
            except WbkError as e:
                fail(f"[effects] {code}", str(e))
        object.__setattr__(self, "effects", dict(self.effects))
        object.__setattr__(self, "_effects", parsed)

        if not isinstance(self.results, Mapping):
            fail("results", f"{self.results!r} (expected a table of roll = [codes])")
        outcomes = _DICE[self.die].outcomes()
        span = f"{outcomes[0]}-{outcomes[-1]}"
        rows: dict[int, tuple[str, ...]] = {}
        for key, row in self.results.items():
            roll = int(key) if isinstance(key, str) and key.isdigit() else key
            if isinstance(roll, bool) or roll not in outcomes:
                fail(f"[results] {key}", f"unknown key: not a roll of {self.die} ({span})")
            if roll in rows:
                fail(f"[results] {key}", "roll given twice")
            if isinstance(row, str) or not isinstance(row, Sequence):
                fail(f"[results] {key}", f"{row!r} (expected a list of result codes)")
            if len(row) != len(columns):
                count = f"{len(row)} results for {len(columns)} columns"
                fail(f"[results] {key}", f"{list(row)!r} has {count}")
            for code in row:
                if not isinstance(code, str):
                    fail(f"[results] {key}", f"{code!r} is not a quoted result code")
                if code not in parsed:
                    fail(f"[results] {key}", f"code {code!r} has no entry in [effects]")
            rows[roll] = tuple(row)
        for roll in outcomes:
            if roll not in rows:
                fail("[results]", f"roll {roll} is missing (a {self.die} table needs rows {span})")
        object.__setattr__(self, "results", {r: rows[r] for r in outcomes})

    # --- reading it ------------------------------------------------------------------------

    @classmethod
    def load(cls, path: str | os.PathLike) -> Crt:
        """A CRT from a TOML file (format in wbk's reference)."""
        check_path(path, "CRT")
        return cls.from_toml(read_text(path, "CRT"), source=str(path))

    @classmethod
    def from_toml(cls, text: str, *, source: str = "CRT") -> Crt:
        """A CRT from TOML text; anything wrong is a ``WbkError`` naming ``source`` and the key."""
        if not isinstance(text, str):
            raise WbkError(f"{source}: {text!r} is not TOML text")
        data = parse_toml(text, source)
        unknown = sorted(set(data) - set(_CRT_KEYS))
        if unknown:
            raise WbkError(f"{source}: {unknown[0]}: unknown key (expected {', '.join(_CRT_KEYS)})")
        for key in ("name", "die", "columns", "results", "effects"):
            if key not in data:
                raise WbkError(f"{source}: {key}: missing")
        if not isinstance(data["columns"], list):
            columns = data["columns"]
            raise WbkError(f"{source}: columns: {columns!r} (expected a list of column headings)")
        return cls(
            data["name"],
            data["die"],
            tuple(data["columns"]),
            data["results"],
            data["effects"],
            data.get("note", ""),
            source,
        )

    @property
    def rolls(self) -> Dist:
        """The distribution of the die roll the table is read with (1d6 or 2d6)."""
        return _DICE[self.die]

    def column_for(self, strength: int) -> str:
        """The column a total strength (AF or DF) is rolled on.

        >>> crt = example_crt("illustrative_1d6")
        >>> crt.column_for(15), crt.column_for(3), crt.column_for(45)
        ('10-19', '3', '30+')
        """
        strength = TOTAL.check(strength, "strength")
        if strength < self._bands[0][0]:
            first = self.columns[0]
            raise WbkError(f"strength {strength} is below the CRT's first column {first!r}")
        for column, (_low, high) in zip(self.columns, self._bands, strict=False):
            if high is None or strength <= high:
                return column
        return self.columns[-1]

    def shift(self, column: str, n: int) -> str:
        """The column ``n`` columns to the right (left if negative), clamped at the table's ends.

        >>> example_crt("illustrative_1d6").shift("10-19", 1)
        '20-29'
        """
        self._check_column(column)
        i = self.columns.index(column) + signed_whole(n, "column shift")
        return self.columns[max(0, min(i, len(self.columns) - 1))]

    def _check_column(self, column) -> None:
        if column not in self.columns:
            known = ", ".join(self.columns)
            raise WbkError(f"column {column!r} is not one of the CRT's columns ({known})")

    def on_column(self, column: str, *, drm: int = 0) -> Dist:
        """The distribution of result codes rolled on ``column``, the roll modified by ``drm``; a
        modified roll past the table's rows reads its first or last row."""
        self._check_column(column)
        drm = signed_whole(drm, "die roll modifier")
        i = self.columns.index(column)
        low, high = min(self.results), max(self.results)
        return self.rolls.map(lambda r: self.results[max(low, min(r + drm, high))][i])

    def resolve(self, strength: int, *, shift: int = 0, drm: int = 0) -> Dist:
        """The exact distribution of result codes for an attack of ``strength``, ``shift``
        columns right of its own, the roll modified by ``drm`` (``lookup(...).dist``).

        >>> example_crt("illustrative_1d6").resolve(15).probabilities()
        {'-': Fraction(1, 6), '1': Fraction(1, 3), '2': Fraction(1, 6), 'P': Fraction(1, 3)}
        """
        return self.lookup(strength, shift=shift, drm=drm).dist

    def lookup(
        self, strength: int, *, shift: int = 0, drm: int = 0, shift_rule: str = ""
    ) -> CrtLookup:
        """An attack of ``strength`` looked up on the table step by step: the column its
        strength reads, ``shift`` columns right (left if negative; a shift off the table's edge
        stays on the edge), each roll modified by ``drm`` (a modified roll past the first or
        last row reads that row), and the chances of each result. ``shift_rule``: the rule the
        shift comes from, cited in its step (e.g. "Streets of Stalingrad 9.67" for the Close
        Assault Bonus); blank, the table's own.

        >>> a = example_crt("illustrative_1d6").lookup(12, shift=1, drm=1)
        >>> a.column, a.read_column, a.rows[1], a.rows[6]
        ('10-19', '20-29', 2, 6)
        >>> print(a.steps[3].text)
        a DRM of +1: a roll of 1 reads row 2; a roll of 6 would read row 7, past the last row, and reads row 6
        >>> print(a.verdict)
        12 AF on the 20-29 column, DRM +1: P (pin) 1/6 (16.67%), 1 (eliminate 1) 1/3 (33.33%), 2 (eliminate 2) 1/2 (50.00%)
        """  # noqa: E501 (a doctest's output is one line)
        column = self.column_for(strength)
        strength = int(strength)
        shift = signed_whole(shift, "column shift")
        drm = signed_whole(drm, "die roll modifier")
        if not isinstance(shift_rule, str):
            raise WbkError(f"shift rule {shift_rule!r} is not text (a rule like 'Streets of ...')")
        read = self.shift(column, shift)
        low, high = min(self.results), max(self.results)
        rows = {roll: max(low, min(roll + drm, high)) for roll in self.results}
        dist = self.on_column(read, drm=drm)
        source = _crt_source(self)
        steps = [_column_step(self, strength, column, source)]
        if shift:
            steps.append(_shift_step(self, column, shift, read, shift_rule or source))
        steps.append(_roll_step(self, read, source))
        if drm:
            steps.append(_drm_step(self, read, drm, rows, source))
        moves = f", DRM {drm:+d}" if drm else ""
        steps.append(
            Step(
                f"{strength:,} AF on the {read} column{moves}: {chances_in_words(self, dist)}",
                source,
                about=(
                    CrtColumn(read),
                    *(CrtRow(r) for r in sorted(set(rows.values()))),
                    *(CrtCode(c) for c in dist.outcomes()),
                ),
            )
        )
        return CrtLookup(self, strength, column, shift, read, drm, rows, dist, tuple(steps))

    def effect(self, code: str) -> Effect:
        """What a result code does ("P" -> pin)."""
        if not isinstance(code, str) or code not in self._effects:
            known = ", ".join(self._effects)
            raise WbkError(f"result code {code!r} is not in the CRT's effects ({known})")
        return self._effects[code]

    def _repr_html_(self) -> str:
        return self._table_html()

    def _table_html(self, read_column: str | None = None, read_rows: Collection[int] = ()) -> str:
        """The table as HTML: its name, its cells and what each code does; ``read_column`` and
        the cells of ``read_rows`` in it shaded (a lookup's)."""
        shade = _cell("background:#cfe8f7;font-weight:bold")
        head = "".join(
            f"<th{shade if c == read_column else _CELL}>{html.escape(c)}</th>" for c in self.columns
        )
        body = "".join(
            f"<tr><th{_CELL}>{r}</th>"
            + "".join(
                f"<td{shade if c == read_column and r in read_rows else _CELL}>"
                f"{html.escape(code)}</td>"
                for c, code in zip(self.columns, row, strict=True)
            )
            + "</tr>"
            for r, row in self.results.items()
        )
        key = "; ".join(f"{html.escape(c)} = {e}" for c, e in self._effects.items())
        return (
            f"<b>{html.escape(self.name)}</b> ({self.die})"
            f"<table{_TABLE}><thead><tr><th{_CELL}>roll</th>{head}</tr>"
            f"</thead><tbody>{body}</tbody></table><small>{key}</small>"
        )


def signed_whole(value: object, what: str) -> int:
    """A whole number of either sign (a column shift, a die roll modifier)."""
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise WbkError(f"{what} {value!r} is not a whole number")
    return int(value)


#: A CRT as HTML: its own borders and padding, whatever page or panel shows it (a widget's HTML
#: has no table style, so the header ran together and a one-digit column was its digit wide).
_TABLE = ' style="border-collapse:collapse;margin:0.3em 0;table-layout:auto"'


def _cell(extra: str = "") -> str:
    """A CRT cell's style: bordered, padded, centred, at least wide enough to read."""
    style = "border:1px solid #bbb;padding:2px 8px;min-width:2.2em;text-align:center"
    return f' style="{style};{extra}"' if extra else f' style="{style}"'


_CELL = _cell()


#: The name of a CRT wbk ships: both ILLUSTRATIVE, not the published table.
SHIPPED = shipped("crts", "CRTs")


def example_crt(name: str = "illustrative_1d6") -> Crt:
    """A CRT shipped with wbk (in the rule set's ``crts/``): "illustrative_1d6" or
    "illustrative_2d6", both ILLUSTRATIVE, not the published table."""
    return _shipped_crt(SHIPPED.check(name, "CRT name"))


@functools.cache
def _shipped_crt(name: str) -> Crt:
    text, source = shipped_text("crts", name)
    return Crt.from_toml(text, source=source)


def _crt_source(crt: Crt) -> str:
    """Where a CRT comes from, for the steps: the file of wbk's own table (its name already says
    it is not the published one), or the user's."""
    if crt.source.startswith(f"{HOME}/crts/"):
        return crt.source
    return "user data"


# --- a lookup, step by step -------------------------------------------------------------------


@dataclass(frozen=True)
class CrtColumn:
    """A step is about this column of the CRT (its heading, "10-19")."""

    heading: str


@dataclass(frozen=True)
class CrtRow:
    """A step is about this row of the CRT (the die roll printed at its left)."""

    roll: int


@dataclass(frozen=True)
class CrtCode:
    """A step is about the cells holding this result code ("P")."""

    code: str


@dataclass(frozen=True)
class CrtLookup:
    """An attack looked up on a CRT (``Crt.lookup``): its ``strength``, the ``column`` that
    strength reads, the ``shift`` and the column read after it (``read_column``), the die roll
    modifier ``drm``, which row each roll reads (``rows``: roll -> row), the result codes'
    exact distribution ``dist``, and the ``steps`` of the working, each citing its rule and
    saying what on the table it is about (``CrtColumn``, ``CrtRow``, ``CrtCode``)."""

    crt: Crt
    strength: int
    column: str
    shift: int
    read_column: str
    drm: int
    rows: Mapping[int, int]
    dist: Dist
    steps: tuple[Step, ...]

    @property
    def verdict(self) -> str:
        """The answer in one line: the column read and the chance of each result."""
        return self.steps[-1].text

    def _repr_html_(self) -> str:
        """How the attack reads the table, the chances on its own column and, where a shift or
        a DRM moves it, on the column read; the steps; the table with the cells read shaded."""
        crt, column, read = self.crt, self.column, self.read_column
        how = [f"<b>{self.strength:,} AF</b> rolls on the {html.escape(column)} column"]
        if self.shift:
            way = "right" if self.shift > 0 else "left"
            how.append(f"{count(abs(self.shift), 'column')} {way}: {html.escape(read)}")
        if self.drm:
            how.append(f"the roll modified by {self.drm:+d}")
        shown = {column: crt.on_column(column)}
        if self.shift or self.drm:
            shown[f"{read}, DRM {self.drm:+d}" if self.drm else read] = self.dist
        order = [
            c for c in codes_mild_to_severe(crt) if any(d.probability(c) for d in shown.values())
        ]
        labels = {code: code_label(crt, code) for code in crt.effects}
        return (
            f"<p>{', '.join(how)}.</p>{dist_table(shown, order=order, labels=labels)}"
            f"{steps_html(self.steps)}{crt._table_html(read, set(self.rows.values()))}"
        )


def _severity(crt: Crt, code: str) -> tuple[float, bool, str]:
    effect = crt.effect(code)
    lost = float("inf") if effect.eliminate == "all" else float(effect.eliminate)
    return (lost, effect.pin, code)


def codes_mild_to_severe(crt: Crt) -> list[str]:
    """The table's result codes from mild to severe ("-", "P", "1", ...): by units eliminated,
    then a pin.

    >>> codes_mild_to_severe(example_crt("illustrative_2d6"))
    ['-', 'P', '1P', '2P', 'X']
    """
    if not isinstance(crt, Crt):
        raise WbkError(f"{crt!r} is not a Crt")
    return sorted(crt.effects, key=lambda code: _severity(crt, code))


def chances_in_words(crt: Crt, dist: Dist) -> str:
    """A distribution of ``crt``'s result codes in a wargamer's words, mild to severe, each code
    saying what it does and its exact chance: "- (no effect) 1/6 (16.67%), P (pin) 1/3 ...".
    Outcomes that are not codes ("no attack") follow, as they are."""
    if not isinstance(crt, Crt):
        raise WbkError(f"{crt!r} is not a Crt")
    if not isinstance(dist, Dist):
        raise WbkError(f"{dist!r} is not a Dist of result codes")
    chances = dist.probabilities()
    order = [code for code in codes_mild_to_severe(crt) if code in chances]
    order += [o for o in chances if o not in order]
    described = {
        code: f"{code} ({crt.effect(code)})" if crt.effect(code).hurts else f"{code} (no effect)"
        for code in crt.effects
    }
    return ", ".join(f"{described.get(o, o)} {chance(chances[o])}" for o in order)


def code_label(crt: Crt, code: str) -> str:
    """A result code and what it does, as a legend says it: "P: pin", "no effect (-)"."""
    effect = crt.effect(code)
    return f"{code}: {effect}" if effect.hurts else f"no effect ({code})"


def dist_table(
    columns: Mapping[str, Dist], *, order: Sequence | None = None, labels: Mapping | None = None
) -> str:
    """Distributions side by side as an HTML table, each chance exact and in per cent;
    ``order``: the outcomes' rows (by default sorted), ``labels``: their words."""
    outcomes = order or sorted({o for d in columns.values() for o in d.outcomes()}, key=str)
    head = "".join(f"<th>{html.escape(name)}</th>" for name in columns)
    rows = []
    for o in outcomes:
        cells = "".join(f"<td>{chance(d.probability(o))}</td>" for d in columns.values())
        name = (labels or {}).get(o, str(o))
        rows.append(f"<tr><th>{html.escape(name)}</th>{cells}</tr>")
    return (
        f'<table class="wbk-dist"><thead><tr><th></th>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def _column_step(crt: Crt, strength: int, column: str, source: str) -> Step:
    low, high = crt._bands[-1]
    if column == crt.columns[-1] and high is None and strength > low:
        text = (
            f"{strength:,} AF reads the last column, {column} (open: every strength from {low} up)"
        )
    elif column == crt.columns[-1] and high is not None and strength > high:
        # the table stops at its last column: wbk reads that column, as CRTs usually say
        text = f"{strength:,} AF is past the last column, {column}, and reads it"
        source = ASSUMED
    else:
        text = f"{strength:,} AF reads the {column} column"
    return Step(text, source, about=(CrtColumn(column),))


def _shift_step(crt: Crt, column: str, shift: int, read: str, rule: str) -> Step:
    way = "right" if shift > 0 else "left"
    moved = f"a shift of {shift:+d} ({count(abs(shift), 'column')} {way})"
    wanted = crt.columns.index(column) + shift
    if 0 <= wanted < len(crt.columns):
        text = f"{moved} moves from {column} to {read}"
    elif read == column:
        text = f"{moved}: {column} is already the {'last' if shift > 0 else 'first'} column"
        text += ", the attack stays on it"
    else:
        edge = "last" if shift > 0 else "first"
        text = f"{moved} runs off the table's edge: it stops at the {edge} column, {read}"
    if not 0 <= wanted < len(crt.columns) and rule == _crt_source(crt):
        rule = ASSUMED  # the table says nothing past its edge: wbk stops there
    return Step(text, rule, about=(CrtColumn(column), CrtColumn(read)))


def _roll_step(crt: Crt, read: str, source: str) -> Step:
    rolls = crt.rolls.probabilities()
    chances = sorted(set(rolls.values()))
    if len(chances) == 1:
        each = f"each row {min(rolls)}-{max(rolls)} {chance(chances[0])}"
        text = f"roll {crt.die} on the {read} column: {each}"
    else:
        likely = [r for r, p in rolls.items() if p == chances[-1]]
        rarest = [str(r) for r, p in rolls.items() if p == chances[0]]
        text = (
            f"roll {crt.die} on the {read} column: row {likely[0]} most likely, "
            f"{chance(chances[-1])}; "
            f"rows {' and '.join(rarest)} least, {chance(chances[0])} each"
        )
    return Step(text, source, about=(CrtColumn(read), *(CrtRow(r) for r in crt.results)))


def _drm_step(crt: Crt, read: str, drm: int, rows: Mapping[int, int], source: str) -> Step:
    first, last = min(rows), max(rows)
    side, edge = ("last", last) if drm > 0 else ("first", first)
    pushed = [r for r in rows if r + drm != rows[r]]
    if len(pushed) == len(rows):
        text = f"a DRM of {drm:+d} pushes every roll past the {side} row: all read row {edge}"
    else:
        kept = first if drm > 0 else last
        text = f"a DRM of {drm:+d}: a roll of {kept} reads row {rows[kept]}"
        if len(pushed) == 1:
            (roll,) = pushed
            text += f"; a roll of {roll} would read row {roll + drm}, past the {side} row, and "
            text += f"reads row {edge}"
        elif pushed:
            rolls = " and ".join([", ".join(str(r) for r in pushed[:-1]), str(pushed[-1])])
            wanted = " and ".join(
                [", ".join(str(r + drm) for r in pushed[:-1]), str(pushed[-1] + drm)]
            )
            text += f"; rolls {rolls} would read rows {wanted}, past the {side} row, and read "
            text += f"row {edge}"
    about = (CrtColumn(read), *(CrtRow(r) for r in sorted(set(rows.values()))))
    # the table has no rows past its first and last: reading those is wbk's assumption
    return Step(text, ASSUMED if pushed else source, about=about)
