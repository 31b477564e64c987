"""Time wbk's map drawing against hexalattice's on 20x20, 40x30 and 80x60 maps.

    .venv/bin/python benchmarks/draw_maps.py

"build" is making the figure and drawing it once; "recolour" is shading every hex with new
values and drawing again, what a widget does on each change. hexalattice is not a dependency of
wbk: it is timed only when installed (pip install hexalattice), and only through the calls that
work with numpy 2 (1-D coordinate arrays to plot_single_lattice_custom_colors).
"""

import statistics
import time

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

from wbk.maps import HexMap  # noqa: E402
from wbk.plot import draw_map  # noqa: E402

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
        import hexalattice  # noqa: F401
    except ImportError:
        hexalattice = None
    print(f"{'map':>6} {'wbk build':>10} {'wbk recolour':>13} {'hexalattice build':>18}")
    for cols, rows in SIZES:
        m = HexMap(f"{cols}x{rows}", (1, cols), (1, rows))
        build = median_ms(lambda: wbk_build(m))
        view = wbk_build(m)
        recolour = median_ms(wbk_recolour(view, m), close=False)
        plt.close(view.figure)
        other = f"{median_ms(hexalattice_build(cols, rows)):.0f} ms" if hexalattice else "not installed"
        print(f"{cols}x{rows:<3} {build:>8.0f} ms {recolour:>10.0f} ms {other:>18}")


if __name__ == "__main__":
    main()
