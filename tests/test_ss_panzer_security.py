"""SS Panzer's panels facing a stranger (the checks of tests/test_security.py, for this rule set):
a LOS edge case sets only what the panel declares, each as its control takes it; the map
editor reads the reader's upload and writes nothing on the server in the app; text from a
stranger's map reaches HTML only escaped; a large map's numbers are left out; a quiz file's
map named with a NUL and a save that fails are one line."""

import base64
import html
import re

import ipywidgets as widgets
import pytest
from test_security import (
    PAYLOAD,
    all_widgets,
    answers_long_pastes_in_one_line,
    app_mode,  # noqa: F401 (a fixture, by name)
    hostile_map,
    refused,
    shows_only_escaped,
    upload,
)

from wbk.datafile import LONGEST_FILE
from wbk.errors import WbkError
from wbk.games.ss_panzer import panels
from wbk.maps import HexMap, example_map
from wbk.widgets import edge_case_panel, load_edge_case
from wbk.widgets import panel as panel_module

M = example_map("ss_panzer_errata_9_4")


def los_case(**sections: str) -> str:
    """A LOS panel's edge case as "Save edge case" writes it, with ``sections`` put in."""
    text = panels.LosPanel(M, "1712", "2014").edge_case()
    for head, body in sections.items():
        text = text.replace(f"[{head}]\n", f"[{head}]\n{body}\n", 1)
    return text


def test_a_los_case_sets_only_the_settings_its_panel_declares_each_as_its_control_takes_it():
    assert edge_case_panel(los_case(), "a link").boxes["target"].value == "2014"
    for setting in ("no_difference", "readings", "compare_marks"):
        text = refused(los_case(settings=f'{setting} = "{PAYLOAD}"'))
        assert f"[settings] {setting}: the panel has no such setting" in text
    case = los_case()
    for name, value, why in (
        ("slope_hex", '"sometimes"', "slope_hex: 'sometimes' is not one of"),
        ("slope_hex", "3", "slope_hex: 3 is not one of"),
        ("blocking", f'["woods", "{PAYLOAD}"]', f"blocking: ('woods', '{PAYLOAD}') is not one"),
        ("show_viewshed", '"yes"', "show_viewshed: 'yes' is not true or false"),
    ):
        bad = re.sub(rf"^{name} = .*$", f"{name} = {value}", case, count=1, flags=re.M)
        assert why in refused(bad)


# --- the map editor in the app: the reader's files, never the server's ------------------------


def test_in_the_app_the_map_editor_holds_no_path_of_the_server(app_mode):  # noqa: F811
    editor = panels.MapEditor(M)
    for w in all_widgets(editor.widget):
        state = repr(w.get_state())
        for path in (str(app_mode), "/root", "~/", "wbk-pictures", "wbk-maps"):
            assert path not in state, w
        assert not isinstance(w, widgets.Text) or w.description != "file"


def test_in_the_app_the_map_editor_downloads_and_reads_uploads_only(app_mode):  # noqa: F811
    editor = panels.MapEditor(M)
    editor.save()
    downloaded = editor.file.links.value
    assert 'class="wbk-download"' in downloaded and ".toml" in downloaded
    data = base64.b64decode(downloaded.split("base64,", 1)[1].split('"', 1)[0]).decode()
    said = html.unescape(editor.message.value + editor.file.note.value + editor.pane.value)
    assert "name = " in data and "to your browser's downloads" in said
    assert list(app_mode.rglob("*")) == []
    edited = M.with_name("The reader's own map")
    upload(editor.file.upload, "mine.toml", edited.to_toml().encode())
    assert editor.map.name == "The reader's own map" and "loaded mine.toml" in editor.pane.value


def test_an_upload_too_large_or_not_text_is_one_line_before_it_is_read(app_mode):  # noqa: F811
    editor = panels.MapEditor(M)
    upload(editor.file.upload, "huge.toml", b"#" * (LONGEST_FILE + 1))
    assert "larger than wbk reads (1,000,000 bytes at most)" in editor.file.note.value
    upload(editor.file.upload, "picture.toml", b"\x89PNG\x00\xff")
    assert "is not UTF-8 text" in editor.file.note.value
    assert editor.map == M


# --- text from a stranger reaches HTML only escaped --------------------------------------------


def hostile_panels():
    """Every SS Panzer panel on a map full of script where a stranger's file may put text."""
    m = hostile_map()
    return {
        "los": panels.LosPanel(m, "1712", "2014"),
        "intervisibility": panels.IntervisibilityPanel(m, "1712", "2014"),
        "movement": panels.MovementPanel(m, "1610", "1609"),
        "victory": panels.VictoryPanel(m, "1913 2013"),
        "map editor": panels.MapEditor(m),
    }


def test_text_from_a_strangers_map_reaches_html_only_escaped():
    shows_only_escaped(hostile_panels())


def test_the_typed_boxes_answer_a_long_paste_in_one_line(monkeypatch):
    """Every text box of every panel, given 300,000 characters: an answer or one line."""
    monkeypatch.setattr(panel_module, "STATIC_DPI", 18)  # the words matter here, not pixels
    answers_long_pastes_in_one_line(hostile_panels())


# --- limits before work -------------------------------------------------------------------------


def test_numbers_on_a_large_map_are_left_out_and_the_legend_says_so():
    m = HexMap("large", (1, 80), (1, 62))
    panel = panels.MovementPanel(m, m.label(next(iter(m))), "8062")
    panel.mp.value = "999"
    shown = [t for t in panel.view.value_texts.values() if t.get_visible()]
    legend = [t.get_text() for t in panel.view.ax.get_legend().get_texts()]
    assert shown == [] and "MP spent to get there: not printed on 4,960 hexes" in legend


def test_a_nul_in_a_quiz_files_map_name_is_one_line(tmp_path):
    from wbk import quiz
    from wbk.games import game

    base = game("ss_panzer").shipped_quiz.read_text()
    text = base.replace('firer = "1813"', 'map = "a\\u0000.toml"\nfirer = "1813"', 1)
    with pytest.raises(WbkError, match=r"expected the name of a \.toml file"):
        quiz.from_toml(text, folder=tmp_path)
    with pytest.raises(WbkError, match="holds a NUL"):
        load_edge_case(tmp_path / "a\0b.png")


def test_a_map_editor_save_that_fails_leaves_the_old_file_whole(tmp_path, monkeypatch):
    import os

    path = tmp_path / "p.toml"
    path.write_text("the old map")

    def full_disk(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full_disk)
    editor = panels.MapEditor(M, str(path))
    editor.save()
    assert "No space left on device" in editor.file.note.value
    assert path.read_text() == "the old map"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.toml"]
