"""wbk's speed against its peers, as one table (``make bench``): each row wbk's time, the peer's
time in the same run, their ratio, and issue 13's target where it sets one. Times are medians of
repeated runs. The table is printed and kept in benchmarks/RESULTS.md with the date and machine.

    .venv/bin/python benchmarks/bench.py [--quick]

``--quick`` skips the browser and the notebooks (the two slow rows).
"""

from __future__ import annotations

import datetime
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

HERE = Path(__file__).parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))

import blitz_procedure  # noqa: E402
import draw_maps  # noqa: E402
from float_line import FloatLines  # noqa: E402
from machine import machine  # noqa: E402
from ss_panzer_80x60 import big_map, random_map  # noqa: E402

from wbk.games.ss_panzer import example_data, intervisibility, movement_range, viewshed  # noqa: E402
from wbk.hexgrid import Hexside  # noqa: E402
from wbk.maps import HexMap  # noqa: E402

ROWS: list[tuple[str, str, str, str, str]] = []


def median_s(run, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def show(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.2f} s"
    return f"{seconds * 1000:.1f} ms" if seconds < 0.1 else f"{seconds * 1000:.0f} ms"


def row(what: str, ours: float, theirs: float | None, peer: str, target: str = "") -> None:
    ratio = f"{ours / theirs:.3g}" if theirs else ""
    ROWS.append((what, show(ours), f"{show(theirs)} ({peer})" if theirs else peer, ratio, target))
    print(f"  {what}: {show(ours)}" + (f" vs {show(theirs)}" if theirs else ""), flush=True)


def map_40x30(seed: int = 1) -> HexMap:
    """big_map's mix (woods, towns, streams, slopes) on a 40x30 map."""
    return random_map(40, 30, woods=175, towns=62, streams=150, slopes=150, seed=seed)


def lines_of_sight() -> None:
    m = big_map()
    centre = m.hex("4030")
    for terrain, label in (((), "slopes"), (("woods", "town"), "slopes, woods and towns")):
        options = {"blocking_terrain": terrain}
        start = time.perf_counter()
        exact = viewshed(m, centre, **options)
        first = time.perf_counter() - start
        ours = median_s(lambda options=options: viewshed(m, centre, **options), 21)
        peer = FloatLines(m, terrain)
        theirs = median_s(lambda peer=peer: peer.viewshed(m, centre), 3)
        wrong = len(exact ^ peer.viewshed(m, centre))
        row(
            f"viewshed 80×60 ({label}; first call {show(first)}: line templates)",
            ours,
            theirs,
            f"float line; {wrong} of {len(m)} answers wrong",
        )

    small = map_40x30()
    start = time.perf_counter()
    seen = intervisibility(small)
    first = time.perf_counter() - start
    ours = median_s(lambda: intervisibility(small), 5)
    peer = FloatLines(small)
    hexes = list(small)
    sample = hexes[:: len(hexes) // 40][:40]  # 40 firers, to every hex after them
    pairs = [(a, b) for a in sample for b in hexes[hexes.index(a) + 1 :]]
    start = time.perf_counter()
    answers = [peer.has_los((a.q, a.r), (b.q, b.r)) for a, b in pairs]
    per_pair = (time.perf_counter() - start) / len(pairs)
    wrong = sum(answer != seen.sees(a, b) for answer, (a, b) in zip(answers, pairs, strict=False))
    n = len(hexes) * (len(hexes) - 1) // 2
    row(
        f"all pairs 40×30 ({n:,} pairs; first call {show(first)})",
        ours,
        per_pair * n,
        f"float line, timed on {len(pairs):,} pairs; {wrong} of them wrong",
        "< 0.5 s",
    )

    start = time.perf_counter()
    big_seen = intervisibility(m)
    ours = time.perf_counter() - start
    n = len(m) * (len(m) - 1) // 2
    peer = FloatLines(m)
    hexes = list(m)
    rng = random.Random(13)
    pairs = [
        (hexes[i], hexes[j]) for i, j in (rng.sample(range(len(hexes)), 2) for _ in range(20000))
    ]
    start = time.perf_counter()
    answers = [peer.has_los((a.q, a.r), (b.q, b.r)) for a, b in pairs]
    per_pair = (time.perf_counter() - start) / len(pairs)
    wrong = sum(
        answer != big_seen.sees(a, b) for answer, (a, b) in zip(answers, pairs, strict=False)
    )
    row(
        f"all pairs 80×60 ({n:,} pairs, one run, templates included)",
        ours,
        per_pair * n,
        f"float line, timed on 20,000 pairs; {wrong} of them wrong",
        "< 15 s",
    )


def movement() -> None:
    """The movement range against a bare Dijkstra, timed in turns (one of each, 15 times) so
    that a change in the machine's load falls on both. Alone:
    ``cd benchmarks && ../.venv/bin/python -c "import bench; bench.movement()"``."""
    import heapq

    m = big_map()
    centre = m.hex("4030")
    pz = example_data().units["Pz IV"]
    # the first call works out the map's table of entry costs for the unit, kept for the next
    start = time.perf_counter()
    reached = movement_range(m, pz, centre, mp=200)
    first = time.perf_counter() - start
    # the peer: a bare Dijkstra over a precomputed table of entry costs, errata 8.3's for the
    # Pz IV (MCF 3 for each of woods, town and a stream hexside; 1 MP with none)
    costs = {}
    for h in m:
        costs[h] = {}
        for n in m.neighbors(h):
            mcf = len(m.terrain(n) & {"woods", "town"}) + ("stream" in m.features(Hexside(h, n)))
            costs[h][n] = 3 * mcf if mcf else 1

    def dijkstra(start, budget):
        best, queue = {start: 0}, [(0, 0, start)]
        tie = 0
        while queue:
            cost, _, h = heapq.heappop(queue)
            if cost > best[h]:
                continue
            for n, c in costs[h].items():
                total = cost + c
                if total <= budget and total < best.get(n, budget + 1):
                    best[n] = total
                    tie += 1
                    heapq.heappush(queue, (total, tie, n))
        return best

    same = reached == dijkstra(centre, 200)
    ours_s, theirs_s = [], []
    for _ in range(15):
        ours_s.append(median_s(lambda: movement_range(m, pz, centre, mp=200), 1))
        theirs_s.append(median_s(lambda: dijkstra(centre, 200), 1))
    row(
        f"movement range 80×60, the whole map (Pz IV, 200 MP, {len(reached)} hexes; first call "
        f"{show(first)}: cost table)",
        statistics.median(ours_s),
        statistics.median(theirs_s),
        "bare heapq Dijkstra over a precomputed cost table; "
        + ("the same costs" if same else "COSTS DIFFER"),
        "< 2× the peer",
    )


def blitz() -> None:
    for n in (10, 60, 400):
        ours = median_s(lambda n=n: blitz_procedure.with_wbk(n), 5 if n < 400 else 3)
        theirs = median_s(lambda n=n: blitz_procedure.with_icepool(n), 5 if n < 400 else 3)
        row(f"Blitz fire procedure, {n} dice (exact)", ours, theirs, "icepool 2.1")
    # the times the Blitz tests once asserted: at the limit answered exactly, past it refused
    # before any work, and the calculator panel at the limit (5,000 strength at range 1)
    from wbk.errors import WbkError
    from wbk.games.blitz import MAX_DICE, fire_procedure
    from wbk.games.blitz.panels import fire_calculator

    def refuse() -> None:
        try:
            fire_procedure(MAX_DICE + 2_000, leader_morale=8)
        except WbkError:
            return
        raise AssertionError("12,000 dice were not refused")

    refused = median_s(refuse, 5)
    row("Blitz: 12,000 dice refused (over the limit)", refused, None, "", "< 0.1 s")
    at_limit = median_s(lambda: fire_procedure(MAX_DICE, leader_morale=8), 3)
    row("Blitz fire procedure at the limit, 10,000 dice (exact)", at_limit, None, "", "< 5 s")
    calculator = fire_calculator()

    def panel_at_limit() -> None:
        calculator.controls["strengths"].value = "5000"
        calculator.controls["range_hexes"].value = "1"
        assert "<b>10,000 dice</b>" in calculator.pane.value
        calculator.controls["strengths"].value = "5"

    panel = median_s(panel_at_limit, 3)
    row(
        "Blitz calculator panel: 5,000 strength at range 1 (10,000 dice)", panel, None, "", "< 10 s"
    )


def drawing() -> None:
    import matplotlib.pyplot as plt

    m = HexMap("80x60", (1, 80), (1, 60))
    bare = median_s(lambda: (draw_maps.bare_build(m), plt.close("all")), 9)
    build = median_s(lambda: (draw_maps.wbk_build(m), plt.close("all")), 9)
    view = draw_maps.wbk_build(m)
    recolour = median_s(draw_maps.wbk_recolour(view, m), 9)
    plt.close("all")
    lattice = draw_maps.hexalattice_in_subprocess(80, 60)
    row("map 80×60: build and first draw", build, bare, "bare PolyCollection", "< 50 ms")
    if lattice is not None:
        ROWS.append(
            ("", "", f"{show(lattice)} (hexalattice 1.3.0 build)", f"{build / lattice:.3g}", "")
        )
    row(
        "map 80×60: recolour every hex and draw",
        recolour,
        bare,
        "bare PolyCollection build",
        "< 30 ms",
    )


def browser() -> None:
    results = ROOT / "build" / "bench" / "click_to_picture.json"
    results.unlink(missing_ok=True)
    subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "tests/test_browser_speed.py"],
        cwd=ROOT,
        env={**os.environ, "WBK_BENCH": "1"},
    )
    if not results.exists():
        ROWS.append(("click to picture in the browser", "not measured (no chromium?)", "", "", ""))
        return
    for key, result in json.loads(results.read_text()).items():
        panel, where = key.split(" ", 1)
        if where == "checkbox":  # a chart panel: no map, the errata map's target
            target, what = "< 150 ms", f"checkbox to picture, {panel} panel"
        else:
            target = "< 150 ms" if where == "errata" else "< 250 ms"
            panel = panel.replace("+viewshed", " (viewshed on)")
            on = "errata map" if where == "errata" else where
            what = f"click to picture, {panel} panel, {on}"
        ROWS.append(
            (
                f"{what} (median of 20; first click {result['first_ms']:.0f} ms)",
                f"{result['median_ms']:.0f} ms",
                "",
                "",
                target,
            )
        )


def notebooks() -> None:
    import nbformat
    from nbclient import NotebookClient

    from wbk.games import chapters

    def run(nb, folder: Path):
        NotebookClient(
            nb, kernel_name="python3", timeout=600, resources={"metadata": {"path": str(folder)}}
        ).execute()

    baseline = median_s(
        lambda: run(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1")]), ROOT), 3
    )
    for path in chapters():  # each run in its own folder, as a reader's kernel is
        nb = nbformat.read(path, as_version=4)
        start = time.perf_counter()
        run(nb, path.parent)
        ours = time.perf_counter() - start
        row(f"notebook {path.name}, fresh kernel, run whole", ours, baseline, "a one-cell notebook")


def table() -> str:
    head = ("what", "wbk", "peer (same run)", "wbk / peer", "target")
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(r) + " |" for r in ROWS]
    return "\n".join(lines)


#: Where RESULTS.md's section on the app begins: written from tests/bench_app.py's figures
#: (build/app-figures.json), kept when the table above it is measured again.
APP_SECTION = "## The app"


def main() -> None:
    quick = "--quick" in sys.argv
    started = time.perf_counter()
    header = f"{datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC, {machine()}"
    print(header, flush=True)
    for part in (lines_of_sight, movement, blitz, drawing) + (
        () if quick else (browser, notebooks)
    ):
        print(part.__name__.replace("_", " ") + ":", flush=True)
        part()
    text = table()
    print(text)
    took = time.perf_counter() - started
    print(f"({took:.0f} s)")
    if not quick:
        results = HERE / "RESULTS.md"
        # the app's section (tests/bench_app.py's figures, which make bench measures next) stays
        kept = results.read_text(encoding="utf-8").partition(APP_SECTION)
        app = kept[1] + kept[2] if kept[1] else ""
        results.write_text(
            f"# make bench\n\n{header}; the whole run took {took:.0f} s.\n\n{text}\n\n{app}",
            encoding="utf-8",
        )


if __name__ == "__main__":
    main()
