"""Panels of a chart: ``ChartPanel`` (controls, a chart redrawn as they change, a pane of
HTML), ``DistPanel`` (a distribution's bar chart and exact table), and ``chart_edge_cases``, which
gives the panels a function makes an edge case to save and reopen."""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import ipywidgets as widgets
from matplotlib.figure import Figure

from wbk.dice import Dist
from wbk.draw.charts import bar_chart
from wbk.errors import WbkError
from wbk.explain import steps_html
from wbk.widgets.edge_cases import (
    checked_text,
    checked_toml,
    has_edge_cases,
    public_name,
    set_settings,
    toml_block,
    toml_value,
)
from wbk.widgets.files import FileInput
from wbk.widgets.panel import (
    ERROR_COLOUR,
    InPlacePicture,
    Panel,
    interactive_figure,
    reports_errors,
)

__all__ = ["ChartPanel", "DistPanel", "chart_edge_cases"]


class ChartPanel(Panel):
    """Controls, a chart and an HTML pane below it, redrawn whenever a control changes.

    ``compute(**values)`` turns the control values into a result and may raise ``WbkError``
    (shown as the panel's message, the last good chart staying up). The result is drawn as
    ``wbk.draw.picture`` draws it, on the panel's figure, and its steps listed in the pane;
    ``draw(figure, result)``, where a panel shows more than the result's picture, draws it on
    the cleared figure instead and returns the pane's HTML.

    Controls are given as ``ipywidgets.interact`` abbreviates them: ``(0, 30)`` a slider,
    ``["open", "woods"]`` a dropdown, ``True`` a checkbox, or a ready widget.
    """

    def __init__(
        self,
        compute: Callable[..., Any],
        draw: Callable[[Figure, Any], str] | None = None,
        /,
        *,
        size: tuple[float, float] = (6.0, 3.4),
        rule: str = "",
        **controls: Any,
    ):
        super().__init__()
        self.compute, self.draw = compute, draw or _picture_and_steps
        if rule:
            self.rule = rule
        self.controls = {
            name: widgets.interactive.widget_from_abbrev(abbrev)
            for name, abbrev in controls.items()
        }
        for name, control in self.controls.items():
            control.description = control.description or name.replace("_", " ")
            control.style = {"description_width": "initial"}
            control.observe(lambda _: self.update(), names="value")
        self.figure, self.canvas = interactive_figure(size)
        self.pane = widgets.HTML()
        #: the row of the controls, where notes beside them go; teaching parts (worked examples,
        #: compare readings) are laid around it, so it is found by name, never by position
        self.control_row = widgets.HBox(
            list(self.controls.values()), layout=widgets.Layout(flex_flow="row wrap")
        )
        self.widget = widgets.VBox(
            [
                self.control_row,
                self.message,
                self.canvas,
                self.picture_row,
                self.pane,
            ]
        )
        self.update()

    #: Whether ``draw`` changes the picture on show in place (it clears the figure itself when
    #: it must): then the figure is cleared only after the panel was dimmed out of date.
    draws_in_place = False
    #: What of the picture a panel that draws in place sends without a whole drawing
    #: (``InPlacePicture``), or None.
    in_place: InPlacePicture | None = None
    _dimmed = False

    @reports_errors
    def update(self) -> None:
        result = self.compute(**{name: control.value for name, control in self.controls.items()})
        if not self.draws_in_place or self._dimmed:
            self.figure.clear()
            self._dimmed = False
        self.pane.value = self.draw(self.figure, result)
        if self.in_place is None or not self.in_place.show():
            self.canvas.draw_idle()
        self.show_message("")

    def mark_stale(self) -> None:
        super().mark_stale()
        self._dimmed = True
        self.figure.suptitle(self.stale_title(), color=ERROR_COLOUR, fontsize=10)
        for ax in self.figure.axes:
            for artist in (*ax.patches, *ax.lines, *ax.collections):
                artist.set_alpha(0.25)
        self.canvas.draw_idle()


def _picture_and_steps(figure: Figure, result: Any) -> str:
    """The result as ``picture`` draws it, on ``figure``; its steps (or its own HTML) for the
    pane."""
    from wbk.draw import picture

    picture(result, figure=figure)
    steps = getattr(result, "steps", None)
    if steps:
        return steps_html(steps)
    shown = getattr(result, "_repr_html_", None)
    return shown() if callable(shown) else ""


class DistPanel(ChartPanel):
    """Controls for the parameters of ``procedure`` and, live, the bar chart and exact table of
    the distribution it returns.

    >>> from wbk.dice import d6
    >>> panel = DistPanel(lambda dice, need: dice @ (d6 >= need), dice=(1, 20), need=(2, 6))
    >>> panel.controls["dice"].value, panel.pane.value.count("<tr>")
    (10, 12)
    """

    def __init__(self, procedure: Callable[..., Dist], /, *, title: str | None = None, **controls):
        def compute(**values) -> Dist:
            dist = procedure(**values)
            if not isinstance(dist, Dist):
                raise WbkError(f"the procedure gave {type(dist).__name__}, not a Dist")
            return dist

        def draw(figure: Figure, dist: Dist) -> str:
            bar_chart(dist, ax=figure.add_subplot(), title=title)
            return dist._repr_html_()

        super().__init__(compute, draw, **controls)


def chart_edge_cases(make: Callable[[], ChartPanel]) -> Callable[[], ChartPanel]:
    """Decorate a function (of no arguments) that makes a chart panel, so that its panels have
    an edge case: the function's name, every control's value as TOML, and each file a
    ``FileInput`` control holds, inline. A saved PNG then carries it, and ``load_edge_case``
    calls the function and sets the controls again (each checked as a reader's choice)."""

    @functools.wraps(make)
    def made() -> ChartPanel:
        chart = make()
        chart.file_kind = make.__name__  # its files' names say which chart: "crt-explorer-..."

        def edge_case() -> str:
            lines = [f"panel = {toml_value(public_name(made))}", "", "[settings]"]
            files = []
            for key, control in chart.controls.items():
                if not isinstance(control, FileInput):
                    lines.append(f"{key} = {toml_value(control.value)}")
                    continue
                try:
                    text, _ = control.text()
                except WbkError:
                    continue  # no file, or one the panel says it cannot read: none to carry
                files += [
                    "",
                    f"[files.{key}]",
                    f"name = {toml_value(Path(control.value).name)}",
                    f"toml = {toml_block(text)}",
                ]
            return "\n".join(lines + files) + "\n" + chart.compare_toml()

        # an attribute of these charts only: a panel without one has no "Save edge case"
        setattr(chart, "edge_case", edge_case)  # noqa: B010
        return chart

    def from_edge_case(text: str, source: str) -> ChartPanel:
        from wbk.datafile import parse_toml

        data = parse_toml(text, source)
        if set(data) - {"panel", "settings", "files", "compare"}:
            key = sorted(set(data) - {"panel", "settings", "files", "compare"})[0]
            raise WbkError(
                f"{source}: {key}: unknown key (expected panel, settings, files, compare)"
            )
        chart = made()
        files = {k: c for k, c in chart.controls.items() if isinstance(c, FileInput)}
        given = data.get("files", {})
        if not isinstance(given, dict):
            raise WbkError(f"{source}: [files]: {given!r} is not a table of files")
        for key, file in given.items():
            if key not in files or not isinstance(file, dict):
                raise WbkError(f"{source}: [files] {key}: the panel reads no such file")
            where = f"{source}: [files.{key}]"
            files[key].carry(
                checked_text(file.get("name", key), f"{where} name"),
                checked_toml(file.get("toml"), f"{where} toml"),
            )
        declared = {k: c for k, c in chart.controls.items() if k not in files}
        set_settings(declared, data.get("settings", {}), source)
        chart.set_compare(data.get("compare"), source)
        return chart

    setattr(made, "from_edge_case", from_edge_case)  # noqa: B010
    return has_edge_cases(made)
