from fractions import Fraction

import matplotlib.pyplot as plt
import pytest

from wbk.draw.tables import draw_table, say_chance, say_inches, table_png
from wbk.table import Piece, Table, Terrain


def legend_of(view) -> list[str]:
    return [t.get_text() for t in view.ax.get_legend().get_texts()]


def test_clicks_find_points_and_pieces():
    view = draw_table(Table(48, 48, pieces=[Piece("Tiger", (30, 8))]))
    assert view.point_at(10, 10) == (10.0, 10.0)
    assert view.point_at(-1, 10) is None and view.point_at(None, None) is None
    assert view.piece_at(30, 8) == "Tiger" and view.piece_at(2, 2) is None
    plt.close(view.figure)


def test_a_generic_table_draws_and_shows_itself():
    table = Table(24, 12, terrain=[Terrain("hill", ((1, 1), (5, 1), (3, 4)))], name="plain")
    assert table._repr_png_().startswith(b"\x89PNG") and table_png(table).startswith(b"\x89PNG")


@pytest.mark.parametrize(
    "value, said",
    [
        (Fraction(91, 216), "91/216 (42.13%)"),
        (Fraction(0), "0%"),
        (Fraction(1), "100%"),
        (Fraction(1, 100000), "1/100000 (<0.01%)"),
        (Fraction(99999, 100000), "99999/100000 (>99.99%)"),
    ],
)
def test_chances_are_said_as_a_wargamer_says_them(value, said):
    assert say_chance(value) == said


def test_inches():
    assert say_inches(14) == '14"' and say_inches(7.5) == '7.5"' and say_inches(17.08) == '17.1"'
