"""Time the Blitz Combat fire procedure as exact distributions, wbk.dice against icepool.

    .venv/bin/python benchmarks/blitz_procedure.py

The procedure: N dice, every 6 a hit, less the armor, then a 2d6 leader save per hit (plus one
per two hits, saved at or under the morale), then the damage level (1-3 hits, 4 or more the most).
"""

import statistics
import time

import icepool

from wbk.dice import d6

ARMOR, MORALE = 1, 8


def with_wbk(n: int):
    hits = (n @ (d6 >= 6)).map(lambda h: max(0, h - ARMOR))
    unsaved = hits.map(lambda h: h @ ((2 @ d6) + h // 2 > MORALE))
    return unsaved.map(lambda u: min(u, 4))


def with_icepool(n: int):
    hits = (n @ (icepool.d6 >= 6)).map(lambda h: max(0, h - ARMOR))
    unsaved = hits.map(lambda h: h @ ((2 @ icepool.d6) + h // 2 > MORALE))
    return unsaved.map(lambda u: min(u, 4))


def median_ms(f, n: int, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        f(n)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


if __name__ == "__main__":
    for n in (60, 400):
        ours = with_wbk(n)
        theirs = with_icepool(n)
        assert ours.probabilities() == {o: theirs.probability(o) for o in theirs.outcomes()}
        print(
            f"N = {n:3}: wbk {median_ms(with_wbk, n, 9):7.1f} ms   "
            f"icepool {median_ms(with_icepool, n, 3):7.1f} ms"
        )
