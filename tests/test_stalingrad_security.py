"""Streets of Stalingrad's panels and files as a stranger meets them (test_security's doors, its
helpers and its fixture): a CRT or a situation read only from the reader, never a path of the
server; a stranger's text only escaped; an attack, a CRT or a crowd of units refused before the
work they would cost."""

import base64
import html
import json
import re
from dataclasses import replace
from importlib import resources

import ipywidgets as widgets
import pytest
from test_security import (
    PAYLOAD,
    all_widgets,
    answers_long_pastes_in_one_line,
    app_mode,  # noqa: F401 (a fixture, found by its name)
    link,
    refused,
    shows_only_escaped,
    upload,
)

from wbk.errors import WbkError
from wbk.games.stalingrad import Situation, Unit, example_situation, panels
from wbk.widgets import edge_case_panel
from wbk.widgets import panel as panel_module
from wbk.widgets.app import linked_situation

SHIPPED = resources.files("wbk.games.stalingrad") / "crts"


def file_panels():
    """The panels that read or write a data file of the reader's."""
    return {
        "retreat planner": panels.RetreatPlanner(),
        "CRT explorer": panels.crt_explorer(),
        "bonus advisor": panels.assault_advisor(),
    }


def test_in_the_app_no_widget_holds_a_path_of_the_server(app_mode):  # noqa: F811
    for name, panel in file_panels().items():
        for w in all_widgets(panel.widget):
            state = repr(w.get_state())
            for path in (
                str(app_mode),
                "/root",
                "~/",
                "wbk-pictures",
                "wbk-maps",
                "wbk-situations",
            ):
                assert path not in state, (name, w)
            assert not isinstance(w, widgets.Text) or w.description not in ("file", "CRT file")


def test_in_the_app_a_save_downloads_and_a_load_reads_the_readers_upload(app_mode):  # noqa: F811
    planner = panels.RetreatPlanner()
    planner.save()
    downloaded = planner.file.links.value
    assert 'class="wbk-download"' in downloaded and ".toml" in downloaded
    data = base64.b64decode(downloaded.split("base64,", 1)[1].split('"', 1)[0]).decode()
    said = html.unescape(planner.message.value + planner.file.note.value + planner.pane.value)
    assert "name = " in data and "to your browser's downloads" in said
    assert list(app_mode.rglob("*")) == []
    # a file that names a server path is not read: an upload must carry its map inline
    upload(planner.file.upload, "s.toml", b'name = "s"\nmap = "/etc/passwd"\n[units]\n')
    assert "names a file" in planner.message.value and "root:" not in planner.message.value
    explorer = panels.crt_explorer()
    explorer.controls["table"].value = panels.FROM_FILE
    assert "no CRT loaded" in explorer.message.value
    crt = (SHIPPED / "illustrative_2d6.toml").read_bytes()
    upload(explorer.controls["file"].upload, "my_crt.toml", crt)
    assert explorer.message.value == "" and "2d6" in explorer.figure.texts[0].get_text() + str(
        [ax.get_title() for ax in explorer.figure.axes]
    )


def test_a_link_never_names_a_file_of_the_server():
    explorer = panels.crt_explorer()
    case = explorer.edge_case().replace("[settings]\n", '[settings]\nfile = "/etc/passwd"\n')
    assert "[settings] file: the panel has no such setting" in refused(case)
    for named in ("../../../../etc/passwd", "/some/secret_map.toml", "map.toml"):
        case = (
            f'panel = "stalingrad.RetreatPlanner"\nname = "s"\nmap = {named!r}\n'
            '[units]\n"1313" = [{ name = "1/42 Rifle", side = "Soviet", kind = "infantry" }]\n'
        )
        assert "names a file, but this one came without a folder" in refused(case), named


def test_an_edge_case_carries_its_crt_inline_and_reopens_on_it(tmp_path):
    mine = tmp_path / "my_crt.toml"
    shipped = (SHIPPED / "illustrative_2d6.toml").read_text()
    mine.write_text(shipped.replace("Illustrative 2d6", "My own 2d6"))
    explorer = panels.crt_explorer()
    explorer.controls["file"].value = str(mine)
    explorer.controls["table"].value = panels.FROM_FILE
    case = explorer.edge_case()
    assert str(tmp_path) not in case and 'name = "my_crt.toml"' in case
    mine.unlink()  # the case needs the file no more
    again = edge_case_panel(case, "the case")
    assert again.message.value == "" and "My own 2d6" in again.pane.value
    assert again.edge_case() == case


def test_a_situation_names_only_a_map_file_in_its_own_folder(tmp_path):
    secret = tmp_path / "secret.toml"
    secret.write_text(example_situation("one_way_out").map.to_toml())
    folder = tmp_path / "shared"
    folder.mkdir()
    (folder / "link.toml").symlink_to(secret)
    for named, why in (
        ("../secret.toml", "expected the name of a .toml file in the same folder"),
        (str(secret), "expected the name of a .toml file in the same folder"),
        ("link.toml", "leads out of its folder"),
        ("/etc/passwd", "expected the name of a .toml file"),
    ):
        text = f'name = "s"\nmap = {named!r}\n[units]\n"1208" = []\n'
        with pytest.raises(WbkError, match=why):
            Situation.from_toml(text, folder=folder)


def hostile_panels():
    """The chapter's panels, their data full of script where a stranger's file may put text."""
    s = example_situation("one_way_out")
    units = {
        h: [replace(u, name=f"{PAYLOAD}{s.map.label(h)}{i}") for i, u in enumerate(here)]
        for h, here in s.units.items()
    }
    s = replace(s, name=PAYLOAD, note=PAYLOAD, map=replace(s.map, name=PAYLOAD), units=units)
    made = {"planner": panels.RetreatPlanner(s)}
    for name in ("crt_explorer", "assault_advisor"):
        chart = getattr(panels, name)()
        text = (SHIPPED / "illustrative_1d6.toml").read_text()
        text = text.replace(
            'name = "Illustrative CRT (not the published table)"', f'name = "{PAYLOAD}"'
        )
        text = text.replace('"P"', f'"{PAYLOAD}"')  # a result code
        chart.controls["file"].carry(f"{PAYLOAD}.toml", text)
        chart.controls["table"].value = panels.FROM_FILE
        assert chart.message.value == "", chart.message.value  # the CRT was read
        made[name] = chart
    return made


def test_text_from_a_strangers_file_reaches_html_only_escaped():
    shows_only_escaped(hostile_panels())


def test_an_attack_of_thousands_of_units_is_refused_before_it_is_read():
    advisor = panels.assault_advisor()
    units = ", ".join(["infantry 99"] * 2000)
    case = re.sub(r'^attack = ".*"$', f'attack = "{units}"', advisor.edge_case(), flags=re.M)
    assert len(link(case)) < 500
    # the box takes as much as a reader may type; the attack is refused for its units
    units = ", ".join(["infantry 9"] * 60)
    case = re.sub(r'^attack = ".*"$', f'attack = "{units}"', case, flags=re.M)
    shown = linked_situation(link(case))
    assert len(shown) == 2
    advisor.controls["attack"].value = ", ".join(["tank 1"] * 2000)
    assert "the attack lists 2,000 units: wbk advises on 1,000 at most" in advisor.message.value
    advisor.controls["attack"].value = "infantry 6, " * 5000
    assert "the attack: 60,000 characters is longer than a box takes" in advisor.message.value
    units, _ = panels.parse_attack(", ".join(["infantry 99"] * 1000))
    assert units[-1].name == "infantry 99 (1000)" and len({u.name for u in units}) == 1000


def test_a_unit_name_a_stranger_writes_is_short():
    with pytest.raises(WbkError, match="unit name"):
        Unit("x" * 81, "German", "infantry")


def test_the_typed_boxes_answer_a_long_paste_in_one_line(monkeypatch):
    """Every text box of the chapter's panels, given 300,000 characters: an answer or one
    line."""
    monkeypatch.setattr(panel_module, "STATIC_DPI", 18)  # the words are what is looked at here
    answers_long_pastes_in_one_line({**file_panels(), **hostile_panels()})


def test_a_crt_of_many_columns_and_a_crowd_of_units_are_refused_unread():
    """The attacker's review (issue 27): short links whose data cost seconds to draw."""
    crt = panels.crt_explorer()
    columns = [str(i) for i in range(1, 1500)] + ["1500+"]
    rows = "\n".join(f"{r} = {json.dumps(['P'] * 1500)}" for r in range(2, 13))
    text = f'name = "c"\ndie = "2d6"\ncolumns = {json.dumps(columns)}\n[results]\n{rows}\n'
    text += '[effects]\n"P" = "pin"\n'
    crt.controls["file"].carry("c.toml", text)
    crt.controls["table"].value = panels.FROM_FILE
    assert "1,500 columns is more than wbk takes (30)" in crt.message.value
    units = "".join(
        f'"{c:02d}{r:02d}" = [{{ name = "u{c}-{r}", side = "Soviet", kind = "infantry" }}]\n'
        for c in range(1, 41)
        for r in range(1, 41)
    )
    case = (
        'panel = "stalingrad.RetreatPlanner"\nname = "s"\n'
        f'[map]\nname = "m"\ncolumns = [1, 40]\nrows = [1, 40]\nlow_columns = "odd"\n'
        f"[units]\n{units}"
    )
    with pytest.raises(WbkError, match=r"units: 1,600 units is more than wbk takes \(200\)"):
        edge_case_panel(case, "an upload")
