"""Whole-map lines of sight by line templates: the fast path of SS Panzer's errata 9.4.

What a straight line from the centre of ``a`` to the centre of ``b`` passes depends only on
``b - a`` in cube coordinates: which hexes it enters, which hexsides it crosses (away from a
corner or at one) or runs along, which hexes it grazes at a corner. ``courses(offsets)`` works
those out once per offset with ``trace``'s integer method written for numpy arrays (a test checks
it against ``trace`` offset by offset). ``Sightlines`` compiles the courses for a map's extent
into index arrays; a line of sight is then one gather over a "what blocks" code array and an
OR over the line's events, and a viewshed or a whole map's intervisibility is a few array
operations. ``wbk.games.ss_panzer.line_of_sight`` (in ``sight``) stays the explained reference:
tests check that this module answers as it does on every pair of several maps under every
option set.

``sight`` imports this module lazily (its ``viewshed`` and ``intervisibility``), so that
``import wbk.games.ss_panzer`` stays free of numpy.
"""

from __future__ import annotations

import functools
import html
from dataclasses import dataclass

import numpy as np

from wbk.checks import choice
from wbk.explain import Step, count
from wbk.hexgrid import Hex
from wbk.maps import HexMap

#: The six unit vectors (q, r) in hexgrid's order: N, NE, SE, S, SW, NW.
UNITS = np.array([(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)], dtype=np.int64)
_UQ, _UR = UNITS[:, 0], UNITS[:, 1]
_US = -_UQ - _UR
_DIRECTION = {(int(q), int(r)): k for k, (q, r) in enumerate(UNITS)}
_DIRECTION_OF = np.full(9, -1, dtype=np.int64)
for (_q, _r), _k in _DIRECTION.items():
    _DIRECTION_OF[(_q + 1) * 3 + (_r + 1)] = _k

# Kinds of event on a line's course, each read from its own code array.
HEX = 0  # a hex the line enters between its two ends
GRAZED = 1  # a hex at a corner the line passes, which it neither enters nor runs along
CROSSED = 2  # a hexside crossed away from a corner, not a side of either end hex
CROSSED_AT_CORNER = 3  # a hexside crossed where the line passes a corner, not a side of an end hex
ALONG = 4  # a hexside run along, not a side of either end hex
ALONG_OWN = 5  # a hexside run along that is a side of an end hex (a check: the tracer makes none)
KINDS = 6


@dataclass(frozen=True)
class Courses:
    """The events of the lines to a list of offsets from the origin, in CSR form: offset ``i``
    owns ``kind[start[i]:start[i + 1]]``, ``q``, ``r`` (the hex, or for a hexside the hex it is
    the side ``direction`` of)."""

    offsets: np.ndarray  # (n, 2) of (dq, dr)
    start: np.ndarray  # (n + 1,)
    kind: np.ndarray
    q: np.ndarray
    r: np.ndarray
    direction: np.ndarray


def courses(offsets: np.ndarray) -> Courses:
    """The courses of the lines from Hex(0, 0) to each offset (dq, dr), as ``trace`` finds them.

    Half of them are traced: the line to -d is the line to d run backwards and moved by -d (a
    trace reversed is the reverse trace, and what it passes does not depend on the direction).
    """
    offsets = np.asarray(offsets, dtype=np.int64).reshape(-1, 2)
    backwards = (offsets[:, 0] < 0) | ((offsets[:, 0] == 0) & (offsets[:, 1] < 0))
    forwards = np.where(backwards[:, None], -offsets, offsets)
    traced, which = np.unique(forwards, axis=0, return_inverse=True)
    which = which.reshape(-1)
    c = _traced_courses(traced)
    length = np.diff(c.start)[which]
    start = np.zeros(len(offsets) + 1, np.int64)
    np.cumsum(length, out=start[1:])
    owner = np.repeat(np.arange(len(offsets)), length)
    where = np.repeat(c.start[which] - start[:-1], length) + np.arange(start[-1])
    shift = np.where(backwards[:, None], forwards, 0)[owner]
    return Courses(
        offsets,
        start,
        c.kind[where],
        c.q[where] - shift[:, 0],
        c.r[where] - shift[:, 1],
        c.direction[where],
    )


def _traced_courses(offsets: np.ndarray) -> Courses:
    """``courses`` for each offset, every line traced.

    Every line advances a step at a time, all lines at once (``_Walk``): from the current hex p
    it leaves through the hexside of least parameter t = (1 + p·u) / (d·u) among the directions
    u with d·u > 0 (compared as integer cross products); two at once is a corner, and the line's
    lean d·(u_j - u_i) says whether it runs along the hexside between the two hexes beyond the
    corner (lean 0) or crosses into one of them.
    """
    walk = _Walk(np.asarray(offsets, dtype=np.int64).reshape(-1, 2))
    while len(walk.active):
        walk.step()
    return walk.courses()


class _Walk:
    """The lines to a list of offsets, traced together a step at a time (``_traced_courses``),
    and the events found so far."""

    def __init__(self, offsets: np.ndarray):
        self.offsets = offsets
        self.n = n = len(offsets)
        self.dq, self.dr = dq, dr = offsets[:, 0], offsets[:, 1]
        self.ds = ds = -dq - dr
        self.slopes = (
            dq[None, :] * _UQ[:, None] + dr[None, :] * _UR[:, None] + ds[None, :] * _US[:, None]
        )
        self.pq, self.pr = np.zeros(n, np.int64), np.zeros(n, np.int64)
        self.found: list[tuple[np.ndarray, ...]] = []  # (offset id, kind, q, r, direction) arrays
        self.grazed: list[tuple[np.ndarray, ...]] = []
        self.active = np.nonzero((dq != 0) | (dr != 0))[0]

    def side(
        self,
        ids: np.ndarray,
        xq: np.ndarray,
        xr: np.ndarray,
        k: np.ndarray,
        yq: np.ndarray,
        yr: np.ndarray,
        plain_kind: int,
    ) -> None:
        """Record hexsides (x, x + u_k), sorting out those that are a side of an end hex."""
        dq, dr = self.dq[ids], self.dr[ids]
        own = (
            ((xq == 0) & (xr == 0))
            | ((yq == 0) & (yr == 0))
            | ((xq == dq) & (xr == dr))
            | ((yq == dq) & (yr == dr))
        )
        keep = ~own
        if plain_kind == ALONG:
            self.found.append((ids[own], np.full(own.sum(), ALONG_OWN), xq[own], xr[own], k[own]))
        self.found.append((ids[keep], np.full(keep.sum(), plain_kind), xq[keep], xr[keep], k[keep]))

    def leaving(self, aq: np.ndarray, ar: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The direction each active line leaves its hex (aq, ar) by, and the second one where
        it leaves through a corner (-1 where it does not)."""
        active, a_s = self.active, -aq - ar
        best_num = np.ones(len(active), np.int64)
        best_den = np.zeros(len(active), np.int64)
        first = np.full(len(active), -1, np.int64)
        second = np.full(len(active), -1, np.int64)
        for k in range(6):
            slope = self.slopes[k, active]
            num = 1 + aq * _UQ[k] + ar * _UR[k] + a_s * _US[k]
            lhs, rhs = num * best_den, best_num * slope
            valid = slope > 0
            less = valid & (lhs < rhs)
            tie = valid & ~less & (lhs == rhs) & (best_den > 0)
            best_num = np.where(less, num, best_num)
            best_den = np.where(less, slope, best_den)
            second = np.where(less, -1, np.where(tie, k, second))
            first = np.where(less, k, first)
        return first, second

    def through_corners(
        self,
        c: np.ndarray,
        aq: np.ndarray,
        ar: np.ndarray,
        first: np.ndarray,
        second: np.ndarray,
    ) -> tuple[np.ndarray, np.ndarray]:
        """The lines ``c`` (indices into the active ones) that leave their hex through a corner:
        the hexside they run along or cross there, the hex they graze, and the hex they go on
        into."""
        dq, dr, ds = self.dq, self.dr, self.ds
        ids = self.active[c]
        i, j = first[c], second[c]
        cq, cr = aq[c], ar[c]
        lean = (
            dq[ids] * (_UQ[j] - _UQ[i]) + dr[ids] * (_UR[j] - _UR[i]) + ds[ids] * (_US[j] - _US[i])
        )
        iq, ir = cq + _UQ[i], cr + _UR[i]
        jq, jr = cq + _UQ[j], cr + _UR[j]
        run = lean == 0
        if run.any():  # along the hexside between the two hexes beyond the corner
            rid = ids[run]
            k_along = _DIRECTION_OF[(jq[run] - iq[run] + 1) * 3 + (jr[run] - ir[run] + 1)]
            self.side(rid, iq[run], ir[run], k_along, jq[run], jr[run], ALONG)
        cross = ~run
        pick = np.where(lean > 0, j, i)
        other = np.where(lean > 0, i, j)
        if cross.any():  # through the corner into one hex, grazing the other
            xid = ids[cross]
            pk, ok = pick[cross], other[cross]
            xq, xr = cq[cross], cr[cross]
            self.side(xid, xq, xr, pk, xq + _UQ[pk], xr + _UR[pk], CROSSED_AT_CORNER)
            self.grazed.append((xid, xq + _UQ[ok], xr + _UR[ok]))
        return (
            np.where(run, iq + _UQ[j], cq + _UQ[pick]),
            np.where(run, ir + _UR[j], cr + _UR[pick]),
        )

    def step(self) -> None:
        """Every active line into its next hex; a line that reaches its end stops."""
        active = self.active
        aq, ar = self.pq[active], self.pr[active]
        first, second = self.leaving(aq, ar)
        nq, nr = aq + _UQ[first], ar + _UR[first]  # a clean crossing
        corner = second >= 0
        if corner.any():
            c = np.nonzero(corner)[0]
            nq[c], nr[c] = self.through_corners(c, aq, ar, first, second)
        clean = np.nonzero(~corner)[0]
        if len(clean):
            leave = first[clean]
            self.side(active[clean], aq[clean], ar[clean], leave, nq[clean], nr[clean], CROSSED)
        self.pq[active], self.pr[active] = nq, nr
        inside = (nq != self.dq[active]) | (nr != self.dr[active])
        self.found.append(
            (
                active[inside],
                np.full(inside.sum(), HEX),
                nq[inside],
                nr[inside],
                np.zeros(inside.sum(), np.int64),
            )
        )
        self.active = active[inside]

    def courses(self) -> Courses:
        """The events found, in CSR form by offset."""
        found = list(self.found)
        # A hex grazed at a corner is never one the line enters or runs along (a straight line
        # meets a convex hex in one segment): tests check this against trace, which looks.
        for gid, gq, gr in self.grazed:
            found.append((gid, np.full(len(gid), GRAZED), gq, gr, np.zeros(len(gid), np.int64)))
        ids, kind, q, r, direction = (
            (np.concatenate(x) for x in zip(*found, strict=False))
            if found
            else (np.zeros(0, np.int64),) * 5
        )
        order = np.argsort(ids, kind="stable")
        start = np.zeros(self.n + 1, np.int64)
        np.cumsum(np.bincount(ids, minlength=self.n), out=start[1:])
        return Courses(self.offsets, start, kind[order], q[order], r[order], direction[order])


class Grid:
    """A map's extent in a padded axial box: hex (q, r) at flat index (q - q0) * R + (r - r0).

    A hex a + d is at flat(a) + flat offset of d, whatever a's column: this is what lets one
    template serve every firer (offset maps' two column parities need no cases). Two hexes of
    padding hold what a line along the map's ragged edge passes off the map (nothing blocks).
    """

    PAD = 2

    def __init__(self, m: HexMap):
        self.hexes = list(m)
        q = np.array([h.q for h in self.hexes], np.int64)
        r = np.array([h.r for h in self.hexes], np.int64)
        self.q0, self.r0 = int(q.min()) - self.PAD, int(r.min()) - self.PAD
        self.Q = int(q.max()) - self.q0 + 1 + self.PAD
        self.R = int(r.max()) - self.r0 + 1 + self.PAD
        self.q, self.r = q, r
        self.flat = (q - self.q0) * self.R + (r - self.r0)
        self.cells = self.Q * self.R
        self.index = {h: i for i, h in enumerate(self.hexes)}
        # the offsets between two hexes of the map: for each dq, a range of dr
        cols: dict[int, tuple[int, int]] = {}
        for qq, rr in zip(q.tolist(), r.tolist(), strict=False):
            lo, hi = cols.get(qq, (rr, rr))
            cols[qq] = (min(lo, rr), max(hi, rr))
        spans = []
        for dq in range(min(cols) - max(cols), max(cols) - min(cols) + 1):
            pairs = [(cols[c], cols[c + dq]) for c in cols if c + dq in cols]
            lowest = min(b[0] - a[1] for a, b in pairs)
            spans.append((dq, lowest, max(b[1] - a[0] for a, b in pairs)))
        self.spans = tuple(spans)

    def flat_of(self, h: Hex) -> int:
        return (h.q - self.q0) * self.R + (h.r - self.r0)


# a map's templates take up to 100 MB (5,000 hexes): few are kept, whoever sends maps of
# many shapes
@functools.lru_cache(maxsize=2)
def _templates(spans: tuple, R: int) -> tuple:
    """The courses for every offset of ``spans``, compiled for a box of column height R: per
    offset a slice of event indices into the code array (kind-major regions of 6 slots per
    cell, all relative to the firer's slot), and a lookup from (dq, dr) to the offset."""
    offsets = np.array([(dq, dr) for dq, lo, hi in spans for dr in range(lo, hi + 1)], np.int64)
    c = courses(offsets)
    dq0 = spans[0][0]
    dr0 = min(lo for _, lo, _ in spans)
    width = max(hi for _, _, hi in spans) - dr0 + 1
    lookup = np.full((len(spans), width), -1, np.int64)
    lookup[offsets[:, 0] - dq0, offsets[:, 1] - dr0] = np.arange(len(offsets))
    slot = 6 * (c.q * R + c.r) + c.direction
    distance = np.maximum(
        np.maximum(np.abs(offsets[:, 0]), np.abs(offsets[:, 1])),
        np.abs(offsets[:, 0] + offsets[:, 1]),
    )
    return c, slot, lookup, dq0, dr0, distance


@dataclass(frozen=True)
class _Compiled:
    """The events of every offset for one set of kinds: CSR over offsets."""

    start: np.ndarray
    length: np.ndarray
    slot: np.ndarray  # relative slot + kind region base


@functools.lru_cache(maxsize=4)
def _compiled(spans: tuple, R: int, region: int, kinds: tuple[int, ...]) -> _Compiled:
    c, slot, *_ = _templates(spans, R)
    keep = np.isin(c.kind, kinds)
    ids = np.repeat(np.arange(len(c.start) - 1), np.diff(c.start))[keep]
    length = np.bincount(ids, minlength=len(c.start) - 1)
    start = np.zeros(len(length) + 1, np.int64)
    np.cumsum(length, out=start[1:])
    return _Compiled(start, length, slot[keep] + region * c.kind[keep])


BLOCK = 1  # blocks the line whoever fires
BEYOND = 2  # a hex with slope symbols: blocks only a line from or between hexes without a slope
# hexside (the reading ``slope_hex_of``)


class Sightlines:
    """SS Panzer errata 9.4 for one map and one set of options, answered by templates.

    The options are ``line_of_sight``'s, already checked; ``blocking_terrain`` is the set of the
    map's terrain names that block.
    """

    def __init__(
        self,
        m: HexMap,
        *,
        blocking_terrain: frozenset,
        edge: str,
        slope_hex: str,
        slope_hex_of: str,
        slope_end: str,
        visibility: int | None,
    ):
        self.map = m
        self.grid = g = Grid(m)
        self.visibility = visibility
        self.firer_only = slope_hex_of == "firer"
        region = 6 * g.cells
        self.region = region
        codes = np.zeros(KINDS * region, np.uint8)  # what blocks, per kind of event: BLOCK, BEYOND
        terrain = np.zeros(g.cells, bool)
        for name in blocking_terrain:
            for h in m.terrain_hexes.get(name, ()):
                terrain[g.flat_of(h)] = True
        slopes = m.hexside_features.get("slope", frozenset())
        slope_side = np.zeros(6 * g.cells, bool)
        has_slope_side = np.zeros(g.cells, bool)
        for s in slopes:
            x, y = s.hexes
            fx, fy = g.flat_of(x), g.flat_of(y)
            k = _DIRECTION[(y.q - x.q, y.r - x.r)]
            slope_side[6 * fx + k] = slope_side[6 * fy + (k + 3) % 6] = True
            has_slope_side[fx] = has_slope_side[fy] = True
        slope_hex_cells = np.zeros(g.cells, bool)
        for up in m.hexes_uphill():
            slope_hex_cells[g.flat_of(up)] = True
        # the terrain on both sides of each hexside (slot 6 * cell + k: a cell, its k-th neighbour)
        step = _UQ * g.R + _UR
        cell = np.arange(g.cells)
        neighbour = (cell[:, None] + step[None, :]).clip(0, g.cells - 1)
        here = np.repeat(terrain, 6)
        there = terrain[neighbour].reshape(-1)
        side_terrain = (here & there) if edge == "both" else (here | there)

        hexes = codes[HEX * region : (HEX + 1) * region : 6]
        hexes[terrain] |= BLOCK
        if slope_hex == "enter_not_beyond":
            hexes[slope_hex_cells] |= BEYOND
        if edge == "either":
            codes[GRAZED * region : (GRAZED + 1) * region : 6][terrain] = BLOCK
        codes[CROSSED * region : (CROSSED + 1) * region][slope_side] = BLOCK
        if slope_end == "crosses":
            codes[CROSSED_AT_CORNER * region : (CROSSED_AT_CORNER + 1) * region][slope_side] = BLOCK
        codes[ALONG * region : (ALONG + 1) * region] = (slope_side | side_terrain) * BLOCK
        codes[ALONG_OWN * region : (ALONG_OWN + 1) * region] = side_terrain * BLOCK
        self.codes = codes
        self.kinds = tuple(k for k in range(KINDS) if codes[k * region : (k + 1) * region].any())
        self.has_slope_side = has_slope_side[g.flat]  # per map hex, in map order
        self.flat = g.flat

    def _blocks(self, i: int, targets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """What blocks the line between map hex ``i`` and each map hex of ``targets`` (indices),
        in either direction: whether it is blocked whoever fires, and whether it passes beyond
        a hex with slope symbols (which blocks a firer, or two ends, without a slope hexside)."""
        g = self.grid
        _, _, lookup, dq0, dr0, distance = _templates(g.spans, g.R)
        compiled = _compiled(g.spans, g.R, self.region, self.kinds)
        oid = lookup[g.q[targets] - g.q[i] - dq0, g.r[targets] - g.r[i] - dr0]
        length = compiled.length[oid]
        total = int(length.sum())
        first = np.zeros(len(targets), np.int64)
        np.cumsum(length[:-1], out=first[1:])
        where = np.repeat(compiled.start[oid] - first, length) + np.arange(total)
        slots = compiled.slot[where] + 6 * self.flat[i]
        values = np.append(self.codes[slots], np.uint8(0))
        starts = np.minimum(first, total)
        bits = np.bitwise_or.reduceat(values, starts) if len(targets) else values[:0]
        bits[length == 0] = 0
        blocked = (bits & BLOCK) != 0
        if self.visibility is not None:
            blocked |= distance[oid] > self.visibility
        return blocked, (bits & BEYOND) != 0

    def _clear_to(self, i: int, targets: np.ndarray) -> np.ndarray:
        """Whether the line from map hex ``i`` to each map hex of ``targets`` (indices) is clear."""
        blocked, beyond = self._blocks(i, targets)
        if beyond.any():
            blocked |= beyond & ~self._slope_side_at(i, targets)
        return ~blocked

    def _slope_side_at(self, firer: int | np.ndarray, target: int | np.ndarray) -> np.ndarray:
        """Whether the hex (or hexes) 9.4's general sentence looks at has a slope hexside: the
        firer's, or under reading "both" either end's."""
        has = self.has_slope_side
        return np.asarray(has[firer] if self.firer_only else has[firer] | has[target])

    def viewshed(self, origin: Hex) -> set[Hex]:
        """The map's hexes a unit in ``origin`` sees, its own included."""
        i = self.grid.index[origin]
        clear = self._clear_to(i, np.arange(len(self.grid.hexes)))
        clear[i] = True
        hexes = self.grid.hexes
        return {hexes[j] for j in np.flatnonzero(clear).tolist()}

    def matrix(self) -> np.ndarray:
        """Intervisibility of every pair of map hexes in map order: row a, column b says whether
        a unit in a sees b.

        A traced line reversed is the reverse line, so what a line passes is worked out once per
        pair, from the earlier hex of the two; only whose hex 9.4's general sentence looks at
        can tell the two directions apart (reading ``slope_hex_of="firer"``).
        """
        n = len(self.grid.hexes)
        seen = np.zeros((n, n), bool)
        for i in range(n - 1):
            targets = np.arange(i + 1, n)
            blocked, beyond = self._blocks(i, targets)
            if beyond.any():
                seen[i, i + 1 :] = ~(blocked | beyond & ~self._slope_side_at(i, targets))
                seen[i + 1 :, i] = ~(blocked | beyond & ~self._slope_side_at(targets, i))
            else:
                seen[i, i + 1 :] = seen[i + 1 :, i] = ~blocked
        np.fill_diagonal(seen, True)
        return seen


@dataclass(frozen=True, eq=False)
class Intervisibility:
    """Which hexes of a map see which (SS Panzer errata 9.4 under one set of options); hexes
    are ``Hex`` or printed labels.

    ``sees(a, b)``; ``seen_from(x)``: the hexes a unit in x sees (its own included);
    ``counts()``: how many hexes each hex sees, the best observation posts having the most;
    ``dead_ground(x)``: the hexes x does not see; ``sees_but_not_seen_from(x, y)``: the hexes
    from which a unit sees x and that no unit in y sees; ``ask(question, x, y)``: one of these
    as a result to draw (``Sighting``). Lines of sight are symmetric (a hex that sees x is seen
    from x) except under ``slope_hex_of="firer"``. ``seen`` is the matrix itself, in the map's
    order: row a, column b says whether a unit in a sees b.
    """

    map: HexMap
    options: dict
    seen: np.ndarray

    def _row(self, h: Hex | str) -> np.ndarray:
        return self.seen[_index(self.map)[self.map.hex(h)]]

    def _hexes(self, row: np.ndarray) -> set[Hex]:
        hexes = _hexes(self.map)
        return {hexes[j] for j in np.flatnonzero(row).tolist()}

    def sees(self, a: Hex | str, b: Hex | str) -> bool:
        """Does a unit in ``a`` see ``b``?"""
        return bool(self._row(a)[_index(self.map)[self.map.hex(b)]])

    def seen_from(self, x: Hex | str) -> set[Hex]:
        return self._hexes(self._row(x))

    def dead_ground(self, x: Hex | str) -> set[Hex]:
        return self._hexes(~self._row(x))

    def sees_but_not_seen_from(self, x: Hex | str, y: Hex | str) -> set[Hex]:
        column = self.seen[:, _index(self.map)[self.map.hex(x)]]
        return self._hexes(column & ~self._row(y))

    def counts(self) -> dict[Hex, int]:
        return dict(zip(_hexes(self.map), self.seen.sum(axis=1).tolist(), strict=False))

    def pairs(self) -> int:
        """How many pairs of different hexes see each other (each the other)."""
        return int(((self.seen & self.seen.T).sum() - len(self.seen)) // 2)

    def ask(self, question: str, x: Hex | str, y: Hex | str) -> Sighting:
        """One of ``QUESTIONS`` about hexes X and Y, as a result that says and draws its
        answer."""
        choice(question, tuple(QUESTIONS), "question")
        return Sighting(self, question, self.map.hex(x), self.map.hex(y))


#: What ``Intervisibility.ask`` answers, each in words.
QUESTIONS = {
    "counts": "how many hexes each hex sees",
    "dead_ground": "dead ground from X",
    "sees_not_seen": "hexes that see X, not seen from Y",
}
#: The most best observation posts a sighting names (the rest it counts).
NAMED_POSTS = 6


@dataclass(frozen=True, eq=False)
class Sighting:
    """A question of ``QUESTIONS`` asked of a whole map's lines of sight (``seen``) about hexes
    ``x`` and ``y``, and its ``answer``: how many hexes each hex sees (the best observation
    posts, ``posts``, seeing the most), the dead ground of X, or the hexes that see X and are
    not seen from Y."""

    seen: Intervisibility
    question: str
    x: Hex
    y: Hex
    steps: tuple[Step, ...] = ()

    @property
    def map(self) -> HexMap:
        return self.seen.map

    @functools.cached_property
    def answer(self) -> dict[Hex, int] | set[Hex]:
        if self.question == "counts":
            return self.seen.counts()
        if self.question == "dead_ground":
            return self.seen.dead_ground(self.x)
        return self.seen.sees_but_not_seen_from(self.x, self.y)

    @property
    def posts(self) -> list[str]:
        """The best observation posts: the labels of the hexes that see the most."""
        counts = self.seen.counts()
        best = max(counts.values())
        return sorted(self.map.label(h) for h, c in counts.items() if c == best)

    @property
    def posts_named(self) -> str:
        """The first few best observation posts, and how many more there are, in words."""
        posts = self.posts
        more = f" and {len(posts) - NAMED_POSTS} more" if len(posts) > NAMED_POSTS else ""
        return ", ".join(posts[:NAMED_POSTS]) + more

    def _repr_html_(self) -> str:
        n, label = len(self.map), self.map.label
        x, y = label(self.x), label(self.y)
        if self.question == "counts":
            counts = self.seen.counts()
            return (
                "<p>Each hex is shaded by how many hexes a unit there sees (its own included): "
                f"from {min(counts.values())} to {max(counts.values())} of {n}. The best "
                f"observation posts: {html.escape(self.posts_named)}. {self.seen.pairs()} of "
                f"{n * (n - 1) // 2} pairs of hexes see each other.</p>"
            )
        if self.question == "dead_ground":
            dead = len(self.answer)
            return (
                f"<p>A unit in {x} sees {n - dead} of {n} hexes; "
                f"{count(dead, 'other is', 'others are')} dimmed.</p>"
            )
        listed = ", ".join(sorted(label(h) for h in self.answer)) or "none"
        return (
            f"<p>The hexes from which a unit sees X = {x}, while a unit in Y = {y} does not see "
            f"them: {listed}.</p>"
        )


@functools.lru_cache(maxsize=8)
def _hexes(m: HexMap) -> tuple[Hex, ...]:
    return tuple(m)


@functools.lru_cache(maxsize=8)
def _index(m: HexMap) -> dict[Hex, int]:
    return {h: i for i, h in enumerate(m)}


def sightlines(m: HexMap, **options: object) -> Sightlines:
    """``Sightlines(m, **options)``, kept for the next call with an equal map and options (a
    panel clicking targets, a notebook asking twice)."""
    return _sightlines(m, tuple(sorted(options.items())))


@functools.lru_cache(maxsize=4)
def _sightlines(m: HexMap, options: tuple) -> Sightlines:
    return Sightlines(m, **dict(options))
