"""Time wbk's map drawing against hexalattice's on 20x20, 40x30 and 80x60 maps.

    .venv/bin/python benchmarks/draw_maps.py

"build" is making the figure and drawing it once; "recolour" is shading every hex with new
values and drawing again, what a widget does on each change. hexalattice is not a dependency of
wbk: it is timed only when installed (pip install hexalattice), and only through the calls that
work with numpy 2 (1-D coordinate arrays to plot_single_lattice_custom_colors).
"""

import statistics
import time
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

from wbk.draw.maps import draw_map
from wbk.maps import HexMap

SIZES = [(20, 20), (40, 30), (80, 60)]
REPEATS = 5


def median_ms(run, *, close: bool = True) -> float:
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1000)
        if close:
            plt.close("all")
    return statistics.median(times)


def wbk_build(m):
    view = draw_map(m, labels=False)
    view.figure.canvas.draw()
    return view


def wbk_recolour(view, m):
    values = {h: (h.q * 7 + h.r) % 11 for h in m}

    def run():
        view.shade(values)
        view.figure.canvas.draw()

    return run


def bare_build(m):
    """The peer: one bare PolyCollection of the map's hexes on a figure of the same size."""
    from matplotlib.collections import PolyCollection

    from wbk.draw.maps import _polygons, figure_size, map_axes

    fig = plt.figure(figsize=figure_size(m))
    ax = map_axes(fig)
    verts = _polygons(list(m))
    ax.add_collection(
        PolyCollection(verts, facecolors="#f4f1e4", edgecolors="#7d7668", linewidths=0.6)
    )
    ax.set_xlim(verts[..., 0].min(), verts[..., 0].max())
    ax.set_ylim(verts[..., 1].max(), verts[..., 1].min())
    ax.set_aspect("equal")
    ax.set_axis_off()
    fig.canvas.draw()


def hexalattice_in_subprocess(nx: int, ny: int) -> float | None:
    """hexalattice's build, median of 5, in a subprocess: it calls exit() on arguments it does not
    like, and its do_plot path fails with numpy 2 (the 1-D-coordinate call below works). None
    when it is not installed or fails."""
    import subprocess
    import sys

    code = (
        f"import sys; sys.path.insert(0, {str(Path(__file__).parent)!r}); import draw_maps; "
        f"print(draw_maps.median_ms(draw_maps.hexalattice_build({nx}, {ny})))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    try:
        return float(done.stdout.strip().splitlines()[-1]) / 1000
    except (ValueError, IndexError):
        return None


def hexalattice_build(nx, ny):
    from hexalattice.hexalattice import create_hex_grid, plot_single_lattice_custom_colors

    def run():
        centers, _ = create_hex_grid(nx=nx, ny=ny, do_plot=False, rotate_deg=90)
        colours = np.tile([0.9, 0.9, 0.8, 1.0], (len(centers), 1))
        ax = plot_single_lattice_custom_colors(
            centers[:, 0], centers[:, 1], colours, colours * 0.5, 1, 0, 90
        )
        ax.figure.canvas.draw()

    return run


def main():
    try:
        import hexalattice
    except ImportError:
        hexalattice = None
    print(f"{'map':>6} {'wbk build':>10} {'wbk recolour':>13} {'hexalattice build':>18}")
    for cols, rows in SIZES:
        m = HexMap(f"{cols}x{rows}", (1, cols), (1, rows))
        build = median_ms(lambda m=m: wbk_build(m))
        view = wbk_build(m)
        recolour = median_ms(wbk_recolour(view, m), close=False)
        plt.close(view.figure)
        other = (
            f"{median_ms(hexalattice_build(cols, rows)):.0f} ms" if hexalattice else "not installed"
        )
        print(f"{cols}x{rows:<3} {build:>8.0f} ms {recolour:>10.0f} ms {other:>18}")


if __name__ == "__main__":
    main()
