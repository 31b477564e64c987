"""Pz 8 on the table of ``wbk.table``: its table files (the piece class ``Tank``, the README's
"Pz 8 table files"), the shipped crossroads against the brute force of test_table, saved and
read back."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_table import GOOD, brute_visible_fraction

from wbk.errors import WbkError
from wbk.games import pz8
from wbk.games.pz8 import Tank
from wbk.table import FOOTPRINT, Table, Terrain


def test_the_shipped_table_against_the_brute_force():
    table = pz8.example_table()
    for firer, target in [
        ("Pz IV 1", "KV-1"),
        ("Tiger", "T-34 1"),
        ("Pz IV 2", "T-34 2"),
        ("Pz II", "T-34 2"),
    ]:
        exact = table.line_of_sight(firer, target).visible_fraction
        assert exact == pytest.approx(brute_visible_fraction(table, firer, target), abs=0.04), (
            firer,
            target,
        )


def test_a_table_file_reads_every_key():
    table = Table.from_toml(GOOD, source="good.toml", pieces=Tank)
    (a,) = table.pieces
    assert (a.name, a.side, a.tank_class, a.gun, a.crew, a.is_hq, a.position, a.facing) == (
        "A",
        "red",
        "heavy",
        "long",
        "veteran",
        True,
        (4.0, 4.0),
        90.0,
    )
    assert (a.width, a.length) == FOOTPRINT
    assert table.terrain[0].kind == "obstacle" and (table.width, table.depth) == (24, 24)


def test_load_and_the_footprint_setting(tmp_path):
    path = tmp_path / "t.toml"
    path.write_text(GOOD.replace("size = [24, 24]", "size = [24, 24]\nfootprint = [1, 2]"))
    a = Table.load(path, pieces=Tank).piece("A")
    assert (a.width, a.length) == (1, 2)


@pytest.mark.parametrize(
    "change, message",
    [
        (
            ("position = [4, 4]", "position = [23.5, 4]"),
            r"t\.toml: \[\[tanks\]\] 'A': 'A' at position \[23\.5, 4\.0\] facing 90: "
            "its footprint leaves the table",
        ),
        (
            ('gun = "long"', 'gun = "huge"'),
            r"t\.toml: \[\[tanks\]\] 'A': gun: 'huge' is not one of short, medium, long",
        ),
        (('class = "heavy"', 'class = "super"'), r"\[\[tanks\]\] 'A': class: 'super'"),
        (
            ("position = [4, 4]", "position = [12, 12]"),
            r"\[\[tanks\]\] 'A': 'A' at position \[12\.0, 12\.0\] is inside obstacle 'house'",
        ),
        (
            ("facing = 90", "facing = 90\nturret = 0"),
            r"t\.toml: \[\[tanks\]\] 'A' turret: unknown key",
        ),
        (('name = "test"', 'name = "test"\ncolour = "green"'), r"t\.toml: colour: unknown key"),
        (
            ('kind = "obstacle"', 'kind = "lava"'),
            r"t\.toml: \[\[terrain\]\] 'house': terrain kind 'lava' is not one of "
            "rough, obstacle, hill",
        ),
        (
            ('kind = "obstacle"', 'kind = "obstacle"\nheight = 2'),
            r"\[\[terrain\]\] 'house' height: unknown key",
        ),
        (("size = [24, 24]", "size = [24]"), r"t\.toml: size: \[24\] is not two numbers"),
        (("size = [24, 24]", ""), r"t\.toml: size: missing"),
        (
            ("position = [4, 4]", 'position = "here"'),
            r"\[\[tanks\]\] 'A': position of 'A' 'here' is not a point",
        ),
        (("hq = true", 'hq = "yes"'), r"\[\[tanks\]\] 'A': hq: 'yes' is not true or false"),
        (
            (
                "points = [[10, 10], [14, 10], [14, 14], [10, 14]]",
                "points = [[10, 10], [14, 14], [14, 10], [10, 14]]",
            ),
            r"\[\[terrain\]\] 'house': terrain points .* are not a simple polygon",
        ),
        (("[[tanks]]", "tanks = 3\n[[x]]"), r"t\.toml: x: unknown key"),
    ],
)
def test_bad_table_files_name_the_file_key_and_value(tmp_path, change, message):
    path = tmp_path / "t.toml"
    path.write_text(GOOD.replace(*change))
    with pytest.raises(WbkError, match=message):
        Table.load(path, pieces=Tank)


def test_overlapping_tanks_are_named(tmp_path):
    path = tmp_path / "t.toml"
    path.write_text(GOOD + '\n[[tanks]]\nname = "B"\nposition = [4.5, 5]\n')
    with pytest.raises(
        WbkError,
        match=r"t\.toml: \[\[tanks\]\] 'B': 'B' at position \[4\.5, 5\.0\] overlaps "
        r"'A' at position \[4\.0, 4\.0\]",
    ):
        Table.load(path, pieces=Tank)
    path.write_text(GOOD + '\n[[tanks]]\nname = "A"\nposition = [20, 20]\n')
    with pytest.raises(WbkError, match=r"two pieces are called 'A'"):
        Table.load(path, pieces=Tank)


def test_the_reference_example_table_loads():
    import re
    from pathlib import Path

    page = Path(__file__).parent.parent / "wbk/site/reference/pz8-tables.md"
    text = re.search(r"```toml\n(.*?)```", page.read_text(), re.S).group(1)
    table = Table.from_toml(text, source=page.name, pieces=Tank)
    assert [p.name for p in table.pieces] == ["Tiger", "T-34"]
    assert [t.kind for t in table.terrain] == ["hill", "obstacle", "obstacle"]
    assert [t.blocks_sight for t in table.terrain] == [True, True, False]
    assert table.piece("Tiger").is_hq and table.piece("T-34").crew == "regular"
    assert (table.piece("Tiger").platoon, table.piece("T-34").platoon) == ("1", "")


def test_the_shipped_table_saved_and_loaded_is_equal(tmp_path):
    table = pz8.example_table()
    path = tmp_path / "saved.toml"
    table.save(path)
    assert pz8.load_table(path) == table
    assert Table.from_toml(table.to_toml(), pieces=Tank) == table
    assert "hq = true" in path.read_text() and "points = [[30, 18], [40, 20]" in path.read_text()


tanks_on_a_grid = st.lists(
    st.tuples(
        st.integers(0, 7),
        st.integers(0, 5),
        st.sampled_from([0.0, 90.0, 180.0, 270.0, 37.5]),
        st.sampled_from(["light", "medium", "heavy"]),
        st.sampled_from(["short", "medium", "long"]),
        st.booleans(),
        st.text(alphabet='ab"\\ é', max_size=3),
    ),
    max_size=6,
    unique_by=lambda t: (t[0], t[1]),
)


@settings(max_examples=40, deadline=None)
@given(tanks_on_a_grid, st.text(max_size=12), st.sampled_from(["rough", "obstacle", "hill"]))
def test_a_table_saved_and_read_back_is_equal(cells, name, kind):
    # tanks on cells 5" apart cannot overlap whatever their facing; terrain stays out of their way
    tanks = [
        Tank(
            f"T{i}{suffix}",
            (3 + 5 * cx, 3 + 5 * cy),
            facing=f,
            side=suffix,
            tank_class=c,
            gun=g,
            is_hq=hq,
        )
        for i, (cx, cy, f, c, g, hq, suffix) in enumerate(cells)
    ]
    terrain = [Terrain(kind, ((40.5, 1.25), (47, 1), (46.5, 30.125)), name=name)]
    table = Table(48, 36, terrain=terrain, pieces=tanks, name=name)
    assert Table.from_toml(table.to_toml(), pieces=Tank) == table
