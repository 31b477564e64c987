"""The fast path of errata 9.4 (wbk.games.ss_panzer.sightlines) against its reference,
ss_panzer.line_of_sight: the line templates against trace offset by offset, and every answer
against line_of_sight on every pair of hexes of several maps under every option set."""

import itertools
import random

import numpy as np
import pytest

from wbk.games.ss_panzer import has_los, intervisibility, sightlines, viewshed
from wbk.games.ss_panzer.readings import SLOPE_END, SLOPE_HEX, SLOPE_HEX_OF
from wbk.hexgrid import Hex, Hexside, trace
from wbk.maps import HexMap, example_map

M = example_map("ss_panzer_errata_9_4")


def random_map(columns, rows, low_columns, seed, *, slopes=8, woods=6, towns=12) -> HexMap:
    """A map with woods and towns on one hex in ``woods`` and ``towns``, slope hexsides on one
    hexside in ``slopes`` (uphill either way) and some streams."""
    rng = random.Random(seed)
    frame = HexMap(f"random {seed}", columns, rows, low_columns)
    hexes = list(frame)
    terrain = {
        "woods": frozenset(rng.sample(hexes, len(hexes) // woods)),
        "town": frozenset(rng.sample(hexes, len(hexes) // towns)),
    }
    sides = sorted({Hexside(h, n) for h in hexes for n in frame.neighbors(h)})
    slope = rng.sample(sides, len(sides) // slopes)
    uphill = {s: s.hexes[rng.randrange(2)] for s in slope}
    features = {"slope": frozenset(slope), "stream": frozenset(rng.sample(sides, len(sides) // 15))}
    return HexMap(frame.name, columns, rows, low_columns, terrain, features, uphill)


def course_events(a: Hex, b: Hex) -> set:
    """What ``courses`` should find on the line a-b, read off ``trace``: (kind, item) pairs."""
    tr = trace(a, b)
    own = {Hexside(h, n) for h in (a, b) for n in h.neighbors()}
    passed = set(tr.hexes) | {h for s in tr.along for h in s.hexes}
    events, previous = set(), None
    for kind, item in tr.course:
        if kind == "hex" and item not in (a, b):
            events.add((sightlines.HEX, item))
        elif kind == "cross" and item not in own:
            events.add(
                (sightlines.CROSSED_AT_CORNER if previous == "corner" else sightlines.CROSSED, item)
            )
        elif kind == "along":
            events.add((sightlines.ALONG_OWN if item in own else sightlines.ALONG, item))
        elif kind == "corner":
            events |= {(sightlines.GRAZED, h) for h in item.hexes if h not in passed}
        previous = kind
    return events


def test_courses_are_trace_for_every_offset():
    offsets = [(q, r) for q in range(-18, 19) for r in range(-18, 19)]
    found = sightlines.courses(np.array(offsets))
    units = [tuple(u) for u in sightlines.UNITS.tolist()]
    for i, (q, r) in enumerate(offsets):
        got = set()
        for e in range(found.start[i], found.start[i + 1]):
            kind, h = int(found.kind[e]), Hex(int(found.q[e]), int(found.r[e]))
            if kind in (sightlines.HEX, sightlines.GRAZED):
                got.add((kind, h))
            else:
                dq, dr = units[int(found.direction[e])]
                got.add((kind, Hexside(h, Hex(h.q + dq, h.r + dr))))
        assert got == course_events(Hex(0, 0), Hex(q, r)), (q, r)


def test_no_line_runs_along_a_side_of_its_own_ends():
    offsets = np.array([(q, r) for q in range(-30, 31) for r in range(-30, 31)])
    assert sightlines.ALONG_OWN not in sightlines.courses(offsets).kind


MAPS = {
    "errata": M,
    "odd 9x8": random_map((3, 11), (2, 9), "odd", 1),
    "even 8x9": random_map((4, 11), (1, 9), "even", 2, slopes=5, woods=4),
}
OPTION_SETS = [
    dict(blocking_terrain=terrain, edge=edge, slope_hex=slope_hex, slope_end=slope_end)
    for terrain, edge, slope_hex, slope_end in itertools.product(
        [(), ("woods", "town")], ["both", "either"], SLOPE_HEX.values, SLOPE_END.values
    )
    if terrain or edge == "both"  # without blocking terrain the edge reading changes nothing
] + [
    dict(blocking_terrain=("woods",), edge="either", visibility=4),
    # whose hex the general sentence looks at changes only the lines that pass beyond a slope
    # hex, whatever the other readings: two option sets with slope hexes holding lines
    dict(slope_hex_of="firer"),
    dict(blocking_terrain=("town",), edge="either", slope_hex_of="firer", slope_end="touches"),
]


@pytest.mark.slow  # an exhaustive sweep: left out by make test-fast
@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(f"{v}" for v in o.values()))
@pytest.mark.parametrize("name", MAPS)
def test_intervisibility_is_line_of_sight_on_every_pair(name, options):
    m = MAPS[name]
    seen = intervisibility(m, **options)
    hexes = list(m)
    symmetric = options.get("slope_hex_of", "both") == "both"
    wrong = [
        (m.label(a), m.label(b))
        for i, a in enumerate(hexes)
        for b in (hexes[i:] if symmetric else hexes)
        if has_los(m, a, b, **options) != seen.sees(a, b)
    ]
    assert wrong == []
    assert (seen.seen == seen.seen.T).all() == symmetric


@pytest.mark.slow
@pytest.mark.parametrize("slope_hex_of", SLOPE_HEX_OF.values)
def test_viewsheds_on_an_80x60_map_are_line_of_sight(slope_hex_of):
    """Long lines, both column parities, the ragged edges and the corners of a big map."""
    m = random_map((1, 80), (1, 60), "odd", 3, slopes=20, woods=8, towns=30)
    options = dict(
        blocking_terrain=("woods",), edge="either", slope_end="touches", slope_hex_of=slope_hex_of
    )
    # every hex of the edges, where lines end ragged, and one in three of the rest
    edges = {h for h in m if len(m.neighbors(h)) < 6}
    targets = sorted(edges | set(list(m)[::3]))
    for firer in ("4030", "0101", "8060"):
        seen = viewshed(m, firer, **options)
        assert {h for h in targets if h in seen} == {
            h for h in targets if has_los(m, firer, h, **options)
        }, firer


def test_viewshed_is_every_clear_line():
    for firer in ("1913", "1712", "1208", "2418"):
        assert viewshed(M, firer) == {h for h in M if has_los(M, firer, h)}


def test_intervisibility_answers_the_chapter_questions():
    seen = intervisibility(M)
    counts = seen.counts()
    assert counts[M.hex("1913")] == len(seen.seen_from("1913")) == len(viewshed(M, "1913"))
    assert seen.dead_ground("1913") == {M.hex("1716"), M.hex("1618")}
    assert seen.sees("1913", "1816") and not seen.sees("1716", "1913")
    hidden = seen.sees_but_not_seen_from("1716", "1913")
    assert hidden == seen.seen_from("1716") - seen.seen_from("1913")
    assert M.hex("1716") in hidden and M.hex("1913") not in hidden
    assert seen.pairs() == sum(has_los(M, a, b) for i, a in enumerate(M) for b in list(M)[i + 1 :])


def test_whose_hex_the_general_sentence_looks_at_sees_one_way_only():
    """Errata 9.4 under slope_hex_of="firer": 1808 (no slope hexside) does not see past 1913 to
    1914, while 1914 (on a slope hexside) sees 1808; the matrix says so both ways."""
    seen = intervisibility(M, slope_hex_of="firer")
    assert not seen.sees("1808", "1914") and seen.sees("1914", "1808")
    assert M.hex("1914") in seen.sees_but_not_seen_from("1808", "1808")
    both = intervisibility(M)
    assert both.sees("1808", "1914") and both.sees("1914", "1808")
    differ = (seen.seen != both.seen).sum()
    assert differ == 91 and seen.pairs() == both.pairs() - 91  # none of them seen both ways
    assert not (seen.seen & ~both.seen).any()  # the firer reading only takes lines away


def test_a_one_hex_map_and_a_map_without_slopes():
    one = HexMap("one", (5, 5), (5, 5))
    assert viewshed(one, "0505") == {one.hex("0505")}
    assert intervisibility(one).counts() == {one.hex("0505"): 1}
    plain = HexMap("plain", (1, 6), (1, 5), "even")
    assert intervisibility(plain).pairs() == 30 * 29 // 2
