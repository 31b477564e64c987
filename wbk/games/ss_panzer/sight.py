"""SS Panzer errata 9.4, line of sight: one line explained (``line_of_sight``, ``has_los``),
what one hex sees (``viewshed``), every pair of hexes at once (``intervisibility``), and where a
reading decides the answer (``reading_differences``). The readings are declared in
``wbk.games.ss_panzer.readings``; the whole-map answers come from ``sightlines``, imported when
they are asked for (``import wbk.games.ss_panzer`` stays free of numpy)."""

from __future__ import annotations

import html
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from wbk.checks import Input, known_keywords, known_keywords_like
from wbk.checks import choice as _choice
from wbk.errors import WbkError
from wbk.explain import Step, count, steps_html
from wbk.games.ss_panzer.data import _map, _names, _names_or_hexes, _rule
from wbk.games.ss_panzer.readings import (
    EDGE,
    SIGHT_READINGS,
    SLOPE_END,
    SLOPE_HEX,
    SLOPE_HEX_OF,
)
from wbk.hexgrid import Corner, Hex, Hexside, Trace, trace
from wbk.maps import HexMap

if TYPE_CHECKING:
    from wbk.games.ss_panzer.sightlines import Intervisibility

SLOPE = "slope"
EdgeReading = Literal["both", "either"]
SlopeHexReading = Literal["enter_not_beyond", "hexsides_only"]
SlopeHexOfReading = Literal["both", "firer"]
SlopeEndReading = Literal["crosses", "touches"]

#: The longest line of sight in hexes, where a visibility limits it (None: no limit).
VISIBILITY = Input.whole(0)


def _reading_said(keyword: str, value: str) -> str:
    """A reading as a step names it, in the words its control shows: "(slope hexside needed
    in: the firer's hex)"; the code names stay in code."""
    reading = SIGHT_READINGS[keyword]
    return f"({reading.question}: {reading.values[value]})"


@dataclass(frozen=True)
class LosResult:
    """Whether a line of sight is clear, what blocks it, and why (each step cites its rule)."""

    firer: Hex
    target: Hex
    clear: bool
    blocking: tuple[Hex | Hexside, ...]
    steps: tuple[Step, ...]
    trace: Trace
    verdict: str  # in a wargamer's words: "clear", "blocked by slope hexside 1813/1913"
    reasons: tuple[str, ...] = ()  # what blocks, each as the verdict names it
    #: the map the result was read off, for its picture
    map: HexMap | None = field(default=None, repr=False, compare=False)
    #: the step the verdict rests on: the first that blocks, else the first exception that
    #: lets the line pass (its picture says it under the verdict)
    deciding_step: Step | None = field(default=None, repr=False, compare=False)

    def short_verdict(self, most: int = 3) -> str:
        """The verdict naming at most ``most`` of the things that block, and how many more."""
        if len(self.reasons) <= most:
            return self.verdict
        return f"blocked by {', '.join(self.reasons[:most])} and {len(self.reasons) - most} more"

    def __bool__(self) -> bool:
        return self.clear

    def _repr_html_(self) -> str:
        return f"<b>line of sight {html.escape(self.verdict)}</b>{steps_html(self.steps)}"


def _blocking_names(m: HexMap, blocking_terrain: object) -> frozenset[str]:
    """The map's terrain names meant by ``blocking_terrain``, matched in any case."""
    known = {name.lower(): name for name in m.terrain_hexes}
    chosen = set()
    for name in _names(blocking_terrain, "blocking terrain"):
        if name.lower() not in known:
            have = ", ".join(sorted(known.values())) or "none"
            raise WbkError(
                f"blocking terrain {name!r} is not a terrain of this map (it has: {have})"
            )
        chosen.add(known[name.lower()])
    return frozenset(chosen)


def _los_options(
    m: HexMap,
    *,
    blocking_terrain: Iterable[str] = (),
    edge: object = EDGE.default,
    slope_hex: object = SLOPE_HEX.default,
    slope_hex_of: object = SLOPE_HEX_OF.default,
    slope_end: object = SLOPE_END.default,
    visibility: object = None,
) -> dict[str, Any]:
    """``line_of_sight``'s options checked, the blocking terrain as the map's names."""
    if visibility is not None:
        VISIBILITY.check(visibility, "visibility (in hexes)")
    return {
        "edge": EDGE.check(edge, "edge reading"),
        "slope_hex": SLOPE_HEX.check(slope_hex, "slope hex reading"),
        "slope_hex_of": SLOPE_HEX_OF.check(slope_hex_of, "reading of whose hex"),
        "slope_end": SLOPE_END.check(slope_end, "slope end reading"),
        "visibility": visibility,
        "blocking_terrain": _blocking_names(m, blocking_terrain),
    }


def _has_slope_hexside(m: HexMap, h: Hex) -> bool:
    return h in m.hexes_beside(SLOPE)


@known_keywords
def line_of_sight(
    m: HexMap,
    firer: Hex | str,
    target: Hex | str,
    *,
    blocking_terrain: Iterable[str] = (),
    edge: EdgeReading = "both",
    slope_hex: SlopeHexReading = "enter_not_beyond",
    slope_hex_of: SlopeHexOfReading = "both",
    slope_end: SlopeEndReading = "crosses",
    visibility: int | None = None,
) -> LosResult:
    """Errata 9.4: can a unit in ``firer`` trace a line of sight to ``target``?

    What all four of the errata's examples support, and the defaults:

    - a slope hexside the line crosses or runs along blocks, unless it is a side of the firer's
      or the target's hex (1913 sees 1816 over 1816's own slope; not 1716 along 1715/1816);
    - ``slope_hex="enter_not_beyond"``: a line between two hexes that have no slope hexside may
      enter a hex with slope symbols (the uphill hex of a slope hexside) but not pass beyond it
      (1712 sees 1913, not 2113 through the top of 1913). ``"hexsides_only"``: only slope
      hexsides block.
    - ``slope_hex_of="both"``: that sentence holds a line only when neither unit's hex has a
      slope hexside, so a line of sight is the same both ways (1808 sees 1914 over 1913, and 1914
      sees 1808). ``"firer"``: it speaks of the firer's hex alone (units whose hexes lack a
      slope hexside), so 1808 does not see 1914 while 1914 still sees 1808. The text does
      not settle it: its example (1712 into 1913) has neither end on a slope hexside.
    - ``slope_end="crosses"``: a line through the end point of a slope hexside, going from one
      of its two hexes into the other, crosses it. ``"touches"``: it only touches the slope's
      end, and that does not block. The examples do not settle this one.

    ``blocking_terrain``: hex terrain types that block a line passing through them (woods, town;
    none by default: that is SS Panzer's terrain chart, not the errata). ``edge``: where the line
    runs along a hexside between a blocking and a clear hex, or grazes a blocking hex at a corner,
    "both" (default) blocks only when the hexes on both sides block, "either" when either does.
    ``visibility``: the longest line in hexes, or None for no limit.

    >>> from wbk.maps import example_map
    >>> m = example_map("ss_panzer_errata_9_4")
    >>> [has_los(m, "1712", "2113", slope_hex=reading) for reading in SLOPE_HEX.values]
    [False, True]
    """
    m = _map(m)
    options = _los_options(
        m,
        blocking_terrain=blocking_terrain,
        edge=edge,
        slope_hex=slope_hex,
        slope_hex_of=slope_hex_of,
        slope_end=slope_end,
        visibility=visibility,
    )
    line = _Line(m, m.hex(firer), m.hex(target), options)
    line.beyond_visibility()
    previous = None
    for kind, item in line.trace.course:
        # cross and along pass a hexside, hex a hex, corner a corner
        if isinstance(item, Hexside) and SLOPE in line.m.features(item):
            line.slope_hexside(kind, item, at_end=kind == "cross" and previous == "corner")
        if isinstance(item, Hex) and item in line.slope_hexes and item not in line.ends:
            line.slope_hex(item)
        previous = kind
        if line.blocking_names:
            line.blocking_terrain(kind, item)
    return line.result()


class _Line:
    """One line of sight being traced (``line_of_sight``): the steps found so far and what
    blocks, each stage of 9.4 adding to them in the order the line meets things."""

    def __init__(self, m: HexMap, a: Hex, b: Hex, options: dict[str, Any]):
        self.m, self.a, self.b, self.trace = m, a, b, trace(a, b)
        self.ends = frozenset((a, b))
        self.options = options
        self.blocking_names: frozenset[str] = options["blocking_terrain"]
        self.rule = _rule("9.4")
        self.steps = [
            Step(
                f"from {m.label(a)} to {m.label(b)}, {count(a.distance(b), 'hex', 'hexes')}",
                self.rule,
                about=(a, b),
            )
        ]
        self.blocking: list[Hex | Hexside] = []
        self.first_block = 0  # the index of the first step that blocks, once one does
        self.reasons: list[str] = []  # what blocks, as the verdict names it
        # errata 9.4's general sentence binds only lines from (reading "firer") or between
        # (reading "both") hexes without a slope hexside
        looked_at = (a,) if options["slope_hex_of"] == "firer" else (a, b)
        self.with_slope_side = [h for h in looked_at if _has_slope_hexside(m, h)]
        # a hex with slope symbols matters only when a line may enter it and not see beyond
        self.slope_hexes = (
            m.hexes_uphill() if options["slope_hex"] == "enter_not_beyond" else frozenset()
        )
        self.along_pairs = {h for s in self.trace.along for h in s.hexes}

    def blocked_by(self, item: Hex | Hexside, reason: str) -> None:
        if not self.blocking:  # each stage adds its step right after saying what blocks
            self.first_block = len(self.steps)
        self.blocking.append(item)
        if reason not in self.reasons:
            self.reasons.append(reason)

    def blocks(self, h: Hex) -> bool:
        """Whether the terrain of ``h`` blocks; a line along the map's edge may pass hexes off
        the map, and nothing there blocks."""
        return h in self.m and bool(self.m.terrain(h) & self.blocking_names)

    def beyond_visibility(self) -> None:
        """Errata 9.4 with a visibility: a target farther away than it is not seen."""
        visibility, a, b = self.options["visibility"], self.a, self.b
        if visibility is not None and a.distance(b) > visibility:
            self.blocked_by(b, f"visibility ({count(visibility, 'hex', 'hexes')})")
            self.steps.append(
                Step(
                    f"beyond visibility ({count(visibility, 'hex', 'hexes')})",
                    self.rule,
                    about=(a, b),
                )
            )

    def slope_hexside(self, kind: str, item: Hexside, *, at_end: bool) -> None:
        """Errata 9.4: a slope hexside the line crosses or runs along blocks, unless it is a
        side of either unit's hex; through its end point, reading ``slope_end`` decides."""
        m, a, b = self.m, self.a, self.b
        how = (
            "passes through the end of"
            if at_end
            else "crosses"
            if kind == "cross"
            else "runs along"
        )
        if a in item or b in item:  # a side of either unit's own hex
            whose = "firer's" if a in item else "target's"
            text = f"{how} slope hexside {m.label(item)}, a side of the {whose} hex: no block"
        elif at_end and self.options["slope_end"] == "touches":
            text = (
                f"{how} slope hexside {m.label(item)}: only touches it "
                f"{_reading_said('slope_end', 'touches')}: no block"
            )
        else:
            self.blocked_by(
                item, f"slope hexside {m.label(item)}" + (" at its end" if at_end else "")
            )
            reading = f" {_reading_said('slope_end', 'crosses')}" if at_end else ""
            text = f"{how} slope hexside {m.label(item)}, between the two units{reading}: blocked"
        self.steps.append(Step(text, self.rule, about=(item,)))

    def slope_hex(self, item: Hex) -> None:
        """Errata 9.4's general sentence (reading ``slope_hex="enter_not_beyond"``): a line may
        enter a hex with slope symbols but not pass beyond it, unless the hexes the sentence
        looks at (reading ``slope_hex_of``) have a slope hexside."""
        m, slope_hex_of = self.m, self.options["slope_hex_of"]
        whose_reading = _reading_said("slope_hex_of", slope_hex_of)
        if not self.with_slope_side:
            self.blocked_by(item, f"slope hex {m.label(item)}")
            nobody = (
                f"the firer's hex {m.label(self.a)} has no slope hexside"
                if slope_hex_of == "firer"
                else "neither unit's hex has a slope hexside"
            )
            self.steps.append(
                Step(
                    f"passes through {m.label(item)}, a hex with slope symbols, and beyond it; "
                    f"{nobody} {whose_reading}: blocked",
                    self.rule,
                    about=(item,),
                )
            )
            return
        whose = ", ".join(m.label(h) for h in self.with_slope_side)
        self.steps.append(
            Step(
                f"passes through {m.label(item)}, a hex with slope symbols; {whose} has a "
                f"slope hexside {whose_reading}, so the line may go beyond it",
                self.rule,
                about=(item, *self.with_slope_side),
            )
        )

    def blocking_terrain(self, kind: str, item: Hex | Hexside | Corner) -> None:
        """SS Panzer's terrain chart: blocking terrain in a hex the line passes through blocks;
        beside a hexside it runs along, or at a corner it grazes, reading ``edge`` decides."""
        m, edge = self.m, self.options["edge"]
        if isinstance(item, Hex) and item not in self.ends and self.blocks(item):
            terrain = ", ".join(sorted(m.terrain(item) & self.blocking_names))
            self.blocked_by(item, f"{terrain} in {m.label(item)}")
            self.steps.append(
                Step(f"passes through {m.label(item)} ({terrain})", "terrain chart", about=(item,))
            )
        elif kind == "along" and isinstance(item, Hexside):
            sides = [self.blocks(h) for h in item.hexes]
            if all(sides) or (edge == "either" and any(sides)):
                for h in item.hexes:
                    if self.blocks(h):
                        self.blocked_by(h, f"terrain along hexside {m.label(item)}")
                self.steps.append(
                    Step(
                        f"runs along {m.label(item)} with blocking terrain on "
                        f"{'both sides' if all(sides) else 'one side'} "
                        + _reading_said("edge", edge),
                        "terrain chart",
                        about=(item,),
                    )
                )
        elif isinstance(item, Corner) and edge == "either":
            for h in item.hexes:
                if h not in self.trace.hexes and h not in self.along_pairs and self.blocks(h):
                    self.blocked_by(h, f"terrain at corner {m.label(item)}")
                    self.steps.append(
                        Step(
                            f"grazes {m.label(h)} at a corner {_reading_said('edge', 'either')}",
                            "terrain chart",
                            about=(h, item),
                        )
                    )

    def result(self) -> LosResult:
        """Errata 9.4's verdict: clear when nothing blocks; the verdict step is about what
        blocks the line (nothing: the whole line, unmarked)."""
        clear = not self.blocking
        verdict_step = "line of sight clear" if clear else "line of sight blocked"
        # on a clear line every step after the first lets it pass (no block, only touches,
        # may go beyond): the first of them decides; none, and nothing was in the way
        passing = self.steps[1:2] if clear else [self.steps[self.first_block]]
        deciding = passing[0] if passing else Step("nothing on the line blocks it", self.rule)
        # a block cites the rule it comes from: a wood is the terrain chart's, not the errata's
        blocked_by = [s.rule for s in self.steps if set(s.about) & set(self.blocking)]
        rule = " and ".join(dict.fromkeys(blocked_by)) or self.rule
        self.steps.append(Step(verdict_step, rule, about=tuple(self.blocking)))
        verdict = "clear" if clear else "blocked by " + ", ".join(self.reasons)
        return LosResult(
            self.a,
            self.b,
            clear,
            tuple(self.blocking),
            tuple(self.steps),
            self.trace,
            verdict,
            tuple(self.reasons),
            self.m,
            deciding,
        )


@known_keywords_like(line_of_sight)
def has_los(m: HexMap, firer: Hex | str, target: Hex | str, **options: Any) -> bool:
    """Errata 9.4: True when ``line_of_sight`` finds the line clear (same options)."""
    return line_of_sight(m, firer, target, **options).clear


@known_keywords_like(_los_options)
def viewshed(m: HexMap, firer: Hex | str, **options: Any) -> set[Hex]:
    """Errata 9.4: every hex of the map that a unit in ``firer`` can see (its own hex included);
    the options are those of ``line_of_sight``, whose answer this is for every target.

    The lines are not traced one by one: ``sightlines`` has every line's course by its
    offset, compiled once per map size, and answers with one gather over what blocks (about a
    millisecond on an 80×60 map; tests check it against ``line_of_sight`` pair by pair).

    >>> from wbk.maps import example_map
    >>> m = example_map("ss_panzer_errata_9_4")
    >>> len(viewshed(m, "1712")), len(viewshed(m, "1712", slope_hex="hexsides_only"))
    (123, 127)
    """
    m = _map(m)
    checked = _los_options(m, **options)
    from wbk.games.ss_panzer.sightlines import sightlines

    return sightlines(m, **checked).viewshed(m.hex(firer))


@known_keywords_like(_los_options)
def intervisibility(m: HexMap, **options: Any) -> Intervisibility:
    """Errata 9.4 for every pair of hexes of the map at once: an ``Intervisibility``
    (``sightlines``) that says which hexes see which (``sees``, ``seen_from``), how many
    hexes each hex sees (``counts``: the best observation posts), the dead ground of a hex
    (``dead_ground``), and the hexes that see one hex but are not seen from another
    (``sees_but_not_seen_from``). The options are those of ``line_of_sight``.

    >>> from wbk.maps import example_map
    >>> m = example_map("ss_panzer_errata_9_4")
    >>> seen = intervisibility(m)
    >>> seen.sees("1913", "1816"), seen.sees("1913", "1716"), len(seen.dead_ground("1712"))
    (True, False, 20)
    """
    m = _map(m)
    checked = _los_options(m, **options)
    from wbk.games.ss_panzer.sightlines import Intervisibility, sightlines

    return Intervisibility(m, checked, sightlines(m, **checked).matrix())


_OPTIONS = ("blocking_terrain", "edge", "slope_hex", "slope_hex_of", "slope_end", "visibility")


def reading_differences(
    m: HexMap,
    reading: str,
    *,
    firers: Iterable[Hex | str] | None = None,
    **options: Any,
) -> list[tuple[Hex, Hex]]:
    """The pairs of hexes whose line of sight one ``reading`` of 9.4 decides: clear under one of
    its two values, blocked under the other (the other ``options`` of ``line_of_sight`` held).
    Each pair once, firer first (the earlier hex of the map first, unless the reading decides
    only the line the other way: ``slope_hex_of`` does so); ``firers`` limits the firers
    (default: every hex of the map).

    >>> from wbk.maps import example_map
    >>> m = example_map("ss_panzer_errata_9_4")
    >>> [m.label(b) for a, b in reading_differences(m, "slope_hex", firers=["1712"])]
    ['1817', '1917', '1918', '2113']
    >>> len(reading_differences(m, "slope_hex_of"))
    91
    """
    m = _map(m)
    values = tuple(SIGHT_READINGS[_choice(reading, tuple(SIGHT_READINGS), "reading")].values)
    if reading in options:
        raise WbkError(f"{reading!r} is the reading compared: leave it out of the options")
    for key in options:
        if key not in _OPTIONS:
            raise WbkError(f"option {key!r} is not one of {', '.join(_OPTIONS)}")
    hexes = list(m)
    if firers is None:
        under: list[dict[str, Any]] = [{**options, reading: v} for v in values]
        one, other = (intervisibility(m, **o).seen for o in under)
        differ = one != other
        return [
            (hexes[i], hexes[j]) if differ[i, j] else (hexes[j], hexes[i])
            for i in range(len(hexes))
            for j in ((differ[i, i + 1 :] | differ[i + 1 :, i]).nonzero()[0] + i + 1).tolist()
        ]
    chosen = [m.hex(f) for f in _names_or_hexes(firers, "firers")]
    under = [{**options, reading: v} for v in values]
    return [
        (a, b)
        for a in chosen
        for one, other in [[viewshed(m, a, **o) for o in under]]
        for b in hexes
        if b != a and (b in one) != (b in other)
    ]
