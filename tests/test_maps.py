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
    assert sorted(m.label(n) for n in m.neighbors(m.hex("0405")) if m.offset(n)[0] == 3) == ["0305", "0306"]
    assert sorted(m.label(n) for n in m.neighbors(m.hex("0505")) if m.offset(n)[0] == 4) == ["0404", "0405"]


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
        (("woods = [\"1815\", \"2012\"]", "woods = [\"1815\", \"1999\"]"), r"map.toml: \[terrain\] woods: hex 1999 is off"),
        (("star = [\"1913\"]", "star = [\"19x3\"]"), r"map.toml: \[markers\] star: '19x3' is not a hex label"),
        (("stream = [\"1609/1610\"]", "stream = [\"1609/1611\"]"), r"\[hexsides\] stream: hexes 1609 and 1611 are not adjacent"),
        (("low_columns = \"odd\"", "low_columns = \"left\""), r"map.toml: low_columns: 'left'"),
        (("rows = [8, 18]", "rows = [18, 8]"), r"map.toml: rows: \[18, 8\]: the first number is above the last"),
        (("[terrain]", "[terain]"), r"map.toml: terain: unknown key"),
        (("name = ", "title = "), r"map.toml: name: missing|title: unknown key"),
        (("columns = [12, 24]", "columns = [12, 24"), r"map.toml: not valid TOML"),
        (("woods = [\"1815\", \"2012\"]", "woods = \"1815\""), r"\[terrain\] woods: '1815' \(expected a list"),
        (("\"1816/1715\"]", "\"1816/1715\", \"1715/1816\"]"), r"1715/1816 is listed twice with opposite uphill"),
    ],
)
def test_malformed_files_name_file_and_key(tmp_path, change, where):
    path = tmp_path / "map.toml"
    path.write_text(ISSUE_EXAMPLE.replace(*change))
    with pytest.raises(WbkError, match=where):
        HexMap.load(path)


def test_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(WbkError, match="nothing.toml: cannot read the map"):
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
    with pytest.raises(OSError):
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
    terrain = draw(st.dictionaries(st.sampled_from(["woods", "town", "trench", "odd name"]), st.sets(labels)))
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
    with pytest.raises(WbkError, match="no shipped map called 'ss' \\(there are: ss_panzer_errata_9_4"):
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
