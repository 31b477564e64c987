"""The Pz 8 table panel as a stranger meets it (the checks of test_security): in the app it names
no path of the server and a save is a download; a table whose names are script reaches HTML
only escaped; a long paste in any box is one line."""

import base64
import html
from dataclasses import replace

import ipywidgets as widgets
from test_security import (
    PAYLOAD,
    all_widgets,
    answers_long_pastes_in_one_line,
    app_mode,  # noqa: F401 (a fixture, by name)
    shows_only_escaped,
)

from wbk.games import pz8
from wbk.games.pz8.panels import TablePanel
from wbk.widgets import panel as panel_module


def hostile_panel() -> TablePanel:
    """The table panel on a table whose name and a tank's are script."""
    table = replace(pz8.example_table(), name=PAYLOAD)
    tank = table.pieces[0]
    table = table.without_piece(tank.name).with_piece(replace(tank, name=PAYLOAD))
    return TablePanel(table, PAYLOAD, tank.name)


def test_in_the_app_no_widget_holds_a_path_of_the_server(app_mode):  # noqa: F811
    for w in all_widgets(TablePanel().widget):
        state = repr(w.get_state())
        for path in (str(app_mode), "/root", "~/", "wbk-pictures", "wbk-maps"):
            assert path not in state, w
        assert not isinstance(w, widgets.Text) or w.description != "file"


def test_in_the_app_a_save_downloads_and_writes_nothing_on_the_server(app_mode):  # noqa: F811
    panel = TablePanel()
    panel.save()
    downloaded = panel.file.links.value
    assert 'class="wbk-download"' in downloaded and ".toml" in downloaded
    data = base64.b64decode(downloaded.split("base64,", 1)[1].split('"', 1)[0]).decode()
    said = html.unescape(panel.message.value + panel.file.note.value + panel.pane.value)
    assert "name = " in data and "to your browser's downloads" in said
    assert list(app_mode.rglob("*")) == []


def test_text_from_a_strangers_file_reaches_html_only_escaped():
    shows_only_escaped({"table": hostile_panel()})


def test_the_typed_boxes_answer_a_long_paste_in_one_line(monkeypatch):
    """Every text box of the table panel, given 300,000 characters: an answer or one line."""
    monkeypatch.setattr(panel_module, "STATIC_DPI", 18)
    answers_long_pastes_in_one_line({"table": TablePanel(), "hostile table": hostile_panel()})
