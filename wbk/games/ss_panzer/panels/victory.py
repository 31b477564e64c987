"""Errata 3.3's victory panel (``VictoryPanel``): the star hexes the Soviet player holds; and
its worked examples. Its picture is ``wbk.games.ss_panzer.draw``'s ``draw_victory``."""

from __future__ import annotations

import ipywidgets as widgets

from wbk.games import ss_panzer
from wbk.games.ss_panzer.draw import draw_victory
from wbk.hexgrid import Hex
from wbk.maps import HexMap
from wbk.widgets import Panel, map_canvas, reports_errors, typed

#: Errata 3.3's example, each the Soviet-controlled hexes of the victory panel: the stars of
#: the example map (illustrative: not the game map's) all but two, then all but three.
VICTORY_PRESETS: dict[str, dict[str, object]] = {
    "3.3: 7 of the 9 star hexes: a Soviet geographic victory": {
        "controlled": "1310 1412 1715 1816 1913 2013 2118",
    },
    "3.3: 6 of the 9 star hexes: no geographic victory": {
        "controlled": "1310 1412 1715 1816 1913 2013",
    },
}


class VictoryPanel(Panel):
    """Errata 3.3: type the hexes the Soviet player controls (or click the map to add or take
    away one) and see whether he holds the 7 of the 9 star hexes a geographic victory needs."""

    rule = "SS Panzer errata 3.3"

    def __init__(self, m: HexMap, controlled: str = "", *, width: float = 6.0):
        super().__init__()
        self.map = m
        self.controlled = widgets.Text(
            controlled,
            description="Soviet-controlled hexes",
            placeholder="labels, e.g. 1913 2013",
            continuous_update=False,
            style={"description_width": "initial"},
            layout=widgets.Layout(width="460px"),
        )
        self.controlled.observe(lambda _: self.update(), names="value")
        self.pane = widgets.HTML()
        self.figure, self.canvas, self.view = map_canvas(m, width, self.on_click)
        self.widget = widgets.VBox(
            [self.controlled, self.message, self.canvas, self.picture_row, self.pane]
        )
        self.held: list[Hex] = []
        self.step_control = self.add_step_control(self.draw_at_step)
        self.add_presets(VICTORY_PRESETS)
        self.update()

    def hexes(self) -> list[Hex]:
        """The typed labels as hexes (each checked against the map)."""
        text = typed(self.controlled.value, "Soviet-controlled hexes")
        return [self.map.hex(label) for label in text.replace(",", " ").split()]

    @reports_errors
    def on_click(self, event) -> None:
        h = self.view.hex_at(event.xdata, event.ydata)
        if h is None:
            self.show_message("that click is off the map")
            return
        hexes = self.hexes()
        hexes = [x for x in hexes if x != h] if h in hexes else [*hexes, h]
        self.controlled.value = " ".join(self.map.label(x) for x in hexes)

    @reports_errors
    def update(self) -> None:
        m = self.map
        result = ss_panzer.geographic_victory(m, self.hexes())
        self.held = list(result.held)
        draw_victory(self.view, result)
        # the steps are listed once, by the step control (a static page lists them under it)
        verdict = "Soviet geographic victory" if result.won else "no geographic victory"
        self.pane.value = f"<b>{verdict}</b>"
        self.show_steps(result.steps)
        self.view.redraw()
        self.show_message("")

    def highlight_held(self) -> None:
        self.view.highlight(self.held, label="star hex the Soviet player holds")

    def draw_at_step(self, k: int) -> None:
        """Step ``k`` marked (the held stars outlined); the last step is the whole answer, the
        held stars shaded again (the steps' dimming shares their layer)."""
        from wbk.draw import clear_step, show_step

        if self.step_control.at_answer:
            clear_step(self.view)
            self.highlight_held()
            self.view.set_title(self._answer_title)
        else:
            show_step(self.view, self.step_control.steps, k)
        self.view.redraw()

    def mark_stale(self) -> None:
        super().mark_stale()
        self.view.set_title(self.stale_title())
        self.view.redraw()
