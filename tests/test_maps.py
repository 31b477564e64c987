import os
import re
import stat

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wbk.errors import WbkError
from wbk.hexgrid import Hex, Hexside, trace
from wbk.maps import HexMap, example_map

ISSUE_EXAMPLE = """
name = "SS Panzer errata 9.4 example"
columns = [12, 24]          # first and last printed column number
rows = [8, 18]              # first and last printed row number
low_columns = "odd"         # which columns sit half a hex lower
[terrain]
woods = ["1815", "2012"]
trench = ["2012"]
[hexsides]
stream = ["1609/1610"]
slope = ["1913/1813", "1913/1814", "1913/1914", "1816/1715"]   # for slopes the first hex is uphill
[markers]
star = ["1913"]
"""


@pytest.fixture
def m() -> HexMap:
    return HexMap.from_toml(ISSUE_EXAMPLE)


def shipped() -> HexMap:
    return example_map("ss_panzer_errata_9_4")


def test_printed_numbering(m):
    h = m.hex("1913")
    assert m.label(h) == "1913"
    assert [m.label(n) for n in h.neighbors()] == ["1912", "2013", "2014", "1914", "1814", "1813"]
    assert m.label(m.hexside("1816", "1715")) == "1715/1816"
    assert m.hexside("1715/1816") == m.hexside("1816", "1715")


def test_even_low_columns_shift_the_other_way():
    m = HexMap("even", (1, 10), (1, 10), "even")
    assert sorted(m.label(n) for n in m.neighbors(m.hex("0405")) if m.offset(n)[0] == 3) == [
        "0305",
        "0306",
    ]
    assert sorted(m.label(n) for n in m.neighbors(m.hex("0505")) if m.offset(n)[0] == 4) == [
        "0404",
        "0405",
    ]


def test_contents(m):
    assert m.terrain("2012") == {"woods", "trench"}
    assert m.terrain("1913") == frozenset()
    assert m.features(m.hexside("1609/1610")) == {"stream"}
    assert m.features(m.hexside("1813/1913")) == {"slope"}
    assert m.uphill(m.hexside("1813/1913")) == m.hex("1913")
    assert m.uphill(m.hexside("1715/1816")) == m.hex("1816")
    assert m.uphill(m.hexside("1609/1610")) is None
    assert m.markers("star") == {m.hex("1913")}
    assert m.markers("bridge") == frozenset()


def test_extent_and_iteration(m):
    hexes = list(m)
    assert len(hexes) == len(m) == 13 * 11
    assert m.label(hexes[0]) == "1208" and m.label(hexes[-1]) == "2418"
    assert m.hex("1208") in m and "1208" in m
    assert "1999" not in m and "19x3" not in m and Hex(0, 0) not in m
    assert len(m.neighbors(m.hex("1208"))) == 2  # a low-column corner hex: S and SE only


@pytest.mark.parametrize(
    "label, message",
    [
        ("1999", "hex 1999 is off the map (columns 12-24, rows 8-18)"),
        ("19x3", "'19x3' is not a hex label"),
        ("191", "'191' is not a hex label"),
    ],
)
def test_bad_labels_are_named(m, label, message):
    with pytest.raises(WbkError, match=message.replace("(", r"\(").replace(")", r"\)")):
        m.hex(label)


def test_hexside_between_non_adjacent_hexes(m):
    with pytest.raises(WbkError, match="1913 and 1915 are not adjacent"):
        m.hexside("1913", "1915")
    with pytest.raises(WbkError, match="'1913-1914' is not a hexside label"):
        m.hexside("1913-1914")


@pytest.mark.parametrize(
    "change, where",
    [
        (
            ('woods = ["1815", "2012"]', 'woods = ["1815", "1999"]'),
            r"map.toml: \[terrain\] woods: hex 1999 is off",
        ),
        (
            ('star = ["1913"]', 'star = ["19x3"]'),
            r"map.toml: \[markers\] star: '19x3' is not a hex label",
        ),
        (
            ('stream = ["1609/1610"]', 'stream = ["1609/1611"]'),
            r"\[hexsides\] stream: hexes 1609 and 1611 are not adjacent",
        ),
        (('low_columns = "odd"', 'low_columns = "left"'), r"map.toml: low_columns: 'left'"),
        (
            ("rows = [8, 18]", "rows = [18, 8]"),
            r"map.toml: rows: \[18, 8\]: the first number is above the last",
        ),
        (("[terrain]", "[terain]"), r"map.toml: terain: unknown key"),
        (("name = ", "title = "), r"map.toml: name: missing|title: unknown key"),
        (("columns = [12, 24]", "columns = [12, 24"), r"map.toml: not valid TOML"),
        (
            ('woods = ["1815", "2012"]', 'woods = "1815"'),
            r"\[terrain\] woods: '1815' \(expected a list",
        ),
        (
            ('"1816/1715"]', '"1816/1715", "1715/1816"]'),
            r"1715/1816 is listed twice with opposite uphill",
        ),
        (
            ('woods = ["1815", "2012"]', "woods = 5"),
            r"map.toml: \[terrain\] woods: 5 \(expected a list",
        ),
        (('woods = ["1815", "2012"]', '"" = ["1815"]'), r"map.toml: \[terrain\]: an empty name"),
        (
            ('[markers]\nstar = ["1913"]', "ford = 1"),
            r"map.toml: \[hexsides\] ford: 1 \(expected a list",
        ),
        (
            ("columns = [12, 24]", "columns = [12, true]"),
            r"map.toml: columns: \[12, True\] \(expected",
        ),
        (
            ('name = "SS Panzer errata 9.4 example"', "name = 94"),
            r"map.toml: name: 94 is not a string",
        ),
    ],
)
def test_malformed_files_name_file_and_key(tmp_path, change, where):
    path = tmp_path / "map.toml"
    text = ISSUE_EXAMPLE.replace(*change)
    assert text != ISSUE_EXAMPLE
    path.write_text(text)
    with pytest.raises(WbkError, match=where):
        HexMap.load(path)


def test_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(WbkError, match=r"nothing\.toml: cannot read the map"):
        HexMap.load(tmp_path / "nothing.toml")


def test_round_trip_of_the_shipped_map(tmp_path):
    m = shipped()
    path = tmp_path / "copy.toml"
    m.save(path)
    assert HexMap.load(path) == m
    assert "slope = [" in path.read_text()


def test_a_failed_save_keeps_the_old_file(tmp_path, m, monkeypatch):
    path = tmp_path / "map.toml"
    path.write_text("old contents")

    def broken_fsync(fd):
        raise OSError("disk full")

    monkeypatch.setattr("os.fsync", broken_fsync)
    with pytest.raises(WbkError, match=r"map.toml: cannot save the map \(disk full\); nothing was"):
        m.save(path)
    assert path.read_text() == "old contents"
    assert [p.name for p in tmp_path.iterdir()] == ["map.toml"]


def test_shipped_map_has_the_errata_9_4_hexes():
    m = shipped()
    for label in ("1913", "1813", "1814", "1914", "1712", "1915", "1816", "1716", "1715"):
        assert label in m
    slopes = {m.label(s) for s in m.hexside_features["slope"]}
    assert {"1813/1913", "1814/1913", "1913/1914", "1715/1816"} <= slopes
    for side in ("1813/1913", "1814/1913", "1913/1914"):
        assert m.label(m.uphill(m.hexside(side))) == "1913"


def test_describe_a_trace(m):
    words = m.describe(trace(m.hex("1712"), m.hex("2014")))
    assert words == [
        "starts in 1712",
        "crosses hexside 1712/1813",
        "into 1813",
        "crosses hexside 1813/1913",
        "into 1913",
        "crosses hexside 1913/2014",
        "ends in 2014",
    ]


labels = st.builds(lambda c, r: f"{c:02d}{r:02d}", st.integers(12, 24), st.integers(8, 18))


@st.composite
def maps(draw):
    base = HexMap.from_toml(ISSUE_EXAMPLE)
    terrain = draw(
        st.dictionaries(st.sampled_from(["woods", "town", "trench", "odd name"]), st.sets(labels))
    )
    sides = {}
    for a in draw(st.sets(labels, max_size=6)):
        h = base.hex(a)
        n = draw(st.sampled_from(base.neighbors(h)))
        sides.setdefault(draw(st.sampled_from(["slope", "stream"])), set()).add(Hexside(h, n))
    uphill = {}
    for s in sides.get("slope", ()):
        uphill[s] = draw(st.sampled_from(s.hexes))
    return HexMap(
        draw(st.text(min_size=1, max_size=20)),
        (12, 24),
        (8, 18),
        "odd",
        {k: frozenset(map(base.hex, v)) for k, v in terrain.items()},
        {k: frozenset(v) for k, v in sides.items()},
        uphill,
        {"star": frozenset(map(base.hex, draw(st.sets(labels, max_size=9))))},
    )


@settings(max_examples=60)
@given(maps())
def test_any_map_saved_and_loaded_is_equal(m):
    assert HexMap.from_toml(m.to_toml()) == m


def test_a_hex_off_the_map_is_named_by_its_label(m):
    with pytest.raises(WbkError, match=r"hex 1107 is off the map \(columns 12-24"):
        m.hex(m.from_offset(11, 7))
    with pytest.raises(WbkError, match=r"woods: hex 2519 is off the map"):
        HexMap("x", (12, 24), (8, 18), terrain_hexes={"woods": frozenset({m.from_offset(25, 19)})})


def test_unknown_example_map_lists_the_shipped_ones():
    with pytest.raises(
        WbkError, match="no shipped map called 'ss' \\(there are: ss_panzer_errata_9_4"
    ):
        example_map("ss")


def test_editing_returns_an_edited_copy(m):
    h = m.hex("1913")
    edited = m.with_terrain(h, {"woods", "town"})
    assert edited.terrain(h) == {"woods", "town"} and m.terrain(h) == frozenset()
    assert edited.with_terrain(h, ()) == m
    side = m.hexside("1913/2013")
    sloped = m.with_feature(side, "slope", uphill=m.hex("2013"))
    assert sloped.uphill(side) == m.hex("2013") and "slope" in sloped.features(side)
    assert sloped.with_feature(side, "slope", present=False) == m
    assert HexMap.from_toml(sloped.to_toml()) == sloped
    with pytest.raises(WbkError, match="needs its uphill hex"):
        m.with_feature(side, "slope")
    stream_gone = m.with_feature(m.hexside("1609/1610"), "stream", present=False)
    assert "stream" not in stream_gone.hexside_features


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_a_saved_map_gets_the_usual_permissions(tmp_path, m, umask, mode):
    old = os.umask(umask)
    try:
        m.save(tmp_path / "new.toml")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.toml").stat().st_mode) == mode


def test_saving_over_a_map_keeps_its_permissions(tmp_path, m):
    path = tmp_path / "map.toml"
    path.write_text("old contents")
    path.chmod(0o640)
    m.save(path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert HexMap.load(path) == m


def test_saving_where_it_cannot_is_named(tmp_path, m):
    with pytest.raises(WbkError, match=r"nowhere/map\.toml: cannot save the map"):
        m.save(tmp_path / "nowhere" / "map.toml")
    with pytest.raises(WbkError, match="is a folder, not a map file"):
        m.save(tmp_path)


@pytest.mark.parametrize(
    "make, message",
    [
        (lambda: HexMap(7, (1, 2), (1, 2)), "map name 7 is not text"),
        (
            lambda: HexMap("x", "1-9", (1, 2)),
            "columns '1-9' is not a pair (first, last) of whole numbers",
        ),
        (lambda: HexMap("x", (1, 2.5), (1, 2)), "columns (1, 2.5) is not a pair"),
        (lambda: HexMap("x", (1, 2), (True, 2)), "rows (True, 2) is not a pair"),
        (
            lambda: HexMap("x", (1, 2), (-1, 2)),
            "rows (-1, 2) is not a pair (first, last) of whole numbers of 0 or more",
        ),
        (
            lambda: HexMap("x", (1, 2), (1, 2), "left"),
            "low_columns 'left': expected 'odd' or 'even'",
        ),
        (
            lambda: HexMap("x", (1, 2), (1, 2), terrain_hexes=["woods"]),
            "terrain_hexes ['woods'] is not a table",
        ),
        (
            lambda: HexMap("x", (1, 2), (1, 2), terrain_hexes={"woods": "0101"}),
            "terrain_hexes 'woods' '0101' is not a collection",
        ),
        (
            lambda: HexMap("x", (1, 2), (1, 2), terrain_hexes={"woods": ["0101"]}),
            "terrain_hexes 'woods': '0101' is not a Hex",
        ),
        (
            lambda: HexMap("x", (1, 2), (1, 2), terrain_hexes={"": [Hex(1, 0)]}),
            "terrain_hexes: name '' is not a name",
        ),
        (
            lambda: HexMap("x", (1, 2), (1, 2), hexside_features={"stream": [Hex(1, 0)]}),
            "hexside_features 'stream': Hex(1, 0, -1) is not a Hexside",
        ),
        (
            lambda: HexMap("x", (1, 2), (1, 2), marker_hexes={"star": Hex(1, 0)}),
            "marker_hexes 'star' Hex(1, 0, -1) is not a collection",
        ),
        (
            lambda: HexMap("x", (1, 2), (1, 2), uphill_hexes={Hex(1, 0): Hex(1, 1)}),
            "uphill_hexes: Hex(1, 0, -1) is not a Hexside",
        ),
    ],
)
def test_a_map_checks_what_it_is_made_of(make, message):
    with pytest.raises(WbkError, match=re.escape(message)):
        make()


def test_slopes_and_uphill_hexes_go_together():
    side = Hexside(Hex(1, 1), Hex(1, 2))
    with pytest.raises(WbkError, match="slope hexside 0101/0102 has no uphill hex"):
        HexMap("x", (1, 2), (1, 2), hexside_features={"slope": {side}})
    with pytest.raises(WbkError, match="hexside 0101/0102 has an uphill hex but no slope"):
        HexMap(
            "x", (1, 2), (1, 2), hexside_features={"stream": {side}}, uphill_hexes={side: Hex(1, 1)}
        )


def test_a_map_keeps_its_own_copy_of_the_tables():
    woods = {Hex(1, 1)}
    m = HexMap("x", [1, 2], [1, 2], terrain_hexes={"woods": woods})
    woods.add(Hex(1, 2))
    assert (
        m.terrain_hexes == {"woods": frozenset({Hex(1, 1)})} and m.terrain(Hex(1, 2)) == frozenset()
    )
    assert m.columns == (1, 2) and m == HexMap(
        "x", (1, 2), (1, 2), terrain_hexes={"woods": [Hex(1, 1)]}
    )


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda m: m.hex(1913), "hex label 1913 is not text"),
        (lambda m: m.hex("١٩١٣"), "'١٩١٣' is not a hex label"),
        (lambda m: m.with_terrain("1913", "woods"), "terrain for 1913 'woods' is not a collection"),
        (lambda m: m.with_terrain("1913", [None]), "terrain for 1913: None is not a str"),
        (
            lambda m: m.with_feature(m.hex("1913"), "stream"),
            "hexside Hex(19, 4, -23) is not a Hexside",
        ),
        (
            lambda m: m.with_feature("1913/1914", "stream", present="yes"),
            "present 'yes' is not True or False",
        ),
        (lambda m: m.with_feature("1913/1914", ""), "feature '' is not a name"),
        (lambda m: m.features(m.hex("1913")), "is not a Hexside"),
        (lambda m: m.uphill("1913"), "'1913' is not a hexside label"),
        (lambda m: m.neighbors(m.from_offset(30, 30)), "hex 3030 is off the map"),
        (lambda m: m.offset("1913"), "offset: '1913' is not a Hex"),
        (lambda m: m.from_offset(19, "13"), "row '13' is not a whole number"),
        (lambda m: m.label("1913"), "label: '1913' is not a Hex, Hexside or Corner"),
        (lambda m: m.describe([m.hex("1913")]), "is not a Trace"),
        (lambda m: m.markers(["star"]), "marker ['star'] is not a name"),
        (lambda m: HexMap.from_toml(b"name = 'x'"), "is not TOML text"),
        (lambda m: HexMap.load(None), "map file None is not a file path"),
        (lambda m: example_map(None), "example map name None is not text"),
    ],
)
def test_bad_arguments_are_named(m, call, message):
    with pytest.raises(WbkError, match=re.escape(message)):
        call(m)


def test_hexsides_may_be_given_by_label(m):
    assert m.features("1609/1610") == {"stream"}
    assert m.uphill("1913/1813") == m.hex("1913")
    assert m.with_feature("1913/2013", "stream").features("1913/2013") == {"stream"}


def test_a_section_that_is_not_a_table_is_named():
    with pytest.raises(WbkError, match=r"map: markers: expected a table \[markers\], found 3"):
        HexMap.from_toml(
            'markers = 3\nname = "x"\ncolumns = [1, 2]\nrows = [1, 2]\nlow_columns = "odd"'
        )


def test_a_map_file_that_is_not_utf8_is_named(tmp_path):
    path = tmp_path / "latin1.toml"
    path.write_bytes(
        ISSUE_EXAMPLE.replace("demo", "démo").encode("utf-8").replace(b"SS Panzer", b"\xe9")
    )
    with pytest.raises(WbkError, match=r"latin1\.toml: the map is not UTF-8 text"):
        HexMap.load(path)


def test_equal_maps_hash_alike(m):
    again = HexMap.from_toml(ISSUE_EXAMPLE)
    assert hash(again) == hash(m) and len({m, again}) == 1
    assert m.with_terrain("1913", {"town"}) not in {m}


def test_numpy_whole_numbers_are_whole_numbers(m):
    np = pytest.importorskip("numpy")
    assert m.from_offset(np.int64(19), np.int64(13)) == m.hex("1913")
    assert HexMap("x", (np.int64(1), 2), [1, np.int32(2)]).columns == (1, 2)
    assert Hex(np.int64(3), np.int16(-1)) == Hex(3, -1)
    assert type(Hex(np.int64(3), 1).q) is int


def test_notes_are_the_files_head_comments_and_survive_editing_and_saving(tmp_path):
    m = example_map("ss_panzer_errata_9_4")
    assert m.notes.startswith("A section of an SS Panzer map for the unofficial errata's rule 9.4")
    assert "ILLUSTRATIVE, not from the rules" in m.notes
    edited = m.with_terrain("1208", {"woods"}).with_marker("1208", "star").with_name("mine")
    edited.save(tmp_path / "mine.toml")
    again = HexMap.load(tmp_path / "mine.toml")
    assert again == edited and again.notes == m.notes and again.name == "mine"
    assert again.markers("star") == m.markers("star") | {m.hex("1208")}
    assert again.with_marker("1208", "star", present=False).markers("star") == m.markers("star")
    plain = HexMap("plain", (1, 3), (1, 3))
    assert plain.to_toml().startswith(
        "# wbk hex map; the format is described in wbk's reference (Map files).\n"
    )
    assert HexMap.from_toml(plain.to_toml()) == plain
