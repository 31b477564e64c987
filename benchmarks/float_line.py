"""The peer for wbk's lines of sight: the per-pair float line most people would write.

Each line is sampled at its N + 1 evenly spaced points, nudged by a small epsilon so that points
on a hexside fall to one side, and rounded to hexes (the usual cube-rounding recipe). A slope
hexside between two consecutive hexes blocks unless it is a side of the firer's or the target's
hex; a hex with slope symbols between them blocks a line between two hexes without a slope
hexside (errata 9.4's default reading); so does blocking terrain in a hex between them. It
knows nothing of lines along hexsides or through corners, and gets those wrong.
"""

from __future__ import annotations

import itertools

from wbk.maps import HexMap

EPSILON = (1e-6, 2e-6, -3e-6)


def _round(q: float, r: float, s: float) -> tuple[int, int]:
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return rq, rr


def float_line(a: tuple[int, int], b: tuple[int, int]) -> list[tuple[int, int]]:
    (aq, ar), (bq, br) = a, b
    n = max(abs(aq - bq), abs(ar - br), abs(aq + ar - bq - br))
    if n == 0:
        return [a]
    eq, er, es = EPSILON
    aq, ar, as_ = aq + eq, ar + er, -aq - ar + es
    bq, br, bs = bq + eq, br + er, -bq - br + es
    return [
        _round(aq + (bq - aq) * i / n, ar + (br - ar) * i / n, as_ + (bs - as_) * i / n)
        for i in range(n + 1)
    ]


class FloatLines:
    """A map read once into plain sets, then ``has_los(a, b)`` per pair, on (q, r) tuples."""

    def __init__(self, m: HexMap, blocking_terrain=()):
        self.slope_sides = {
            frozenset(((x.q, x.r), (y.q, y.r)))
            for x, y in (s.hexes for s in m.hexside_features.get("slope", ()))
        }
        self.slope_hexes = {(h.q, h.r) for h in m.uphill_hexes.values()}
        self.has_slope_side = {h for side in self.slope_sides for h in side}
        self.blocking = {
            (h.q, h.r) for name in blocking_terrain for h in m.terrain_hexes.get(name, ())
        }

    def has_los(self, a: tuple[int, int], b: tuple[int, int]) -> bool:
        line = float_line(a, b)
        ends = {a, b}
        beyond = a not in self.has_slope_side and b not in self.has_slope_side
        for x, y in itertools.pairwise(line):
            if x in ends or y in ends:
                continue
            if frozenset((x, y)) in self.slope_sides:
                return False
        for h in line[1:-1]:
            if h in self.blocking or (beyond and h in self.slope_hexes):
                return False
        return True

    def viewshed(self, m: HexMap, origin) -> set:
        a = (origin.q, origin.r)
        return {h for h in m if self.has_los(a, (h.q, h.r))}
