"""The Streets of Stalingrad chapter's CRT explorer, and the parts its panels share: the
choice of table, result colours, bars of a CRT's columns, distributions in words."""

from __future__ import annotations

import html
import math
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import ipywidgets as widgets
import numpy as np
from matplotlib.figure import Figure

from wbk.dice import Dist, chance, percent
from wbk.errors import WbkError
from wbk.explain import count
from wbk.games import stalingrad
from wbk.games.stalingrad import Crt
from wbk.plot import (
    BLOCKED_LINE,
    CLEAR_LINE,
    CROSSED,
)
from wbk.widgets import (
    ChartPanel,
    chart_edge_cases,
    parse_optional_number,
)

#: Okabe-Ito colours (colour-blind safe) for result codes from mild to severe; "none" is grey.
NO_EFFECT = "#d9d9d9"
#: Neighbours in this order differ in lightness as well as hue, for readers who cannot tell
#: orange from vermillion.
SEVERITY = ["#F0E442", "#56B4E9", "#E69F00", "#0072B2", "#CC79A7", "#D55E00", "#009E73", "#000000"]
GERMAN, SOVIET = CLEAR_LINE, BLOCKED_LINE
WITHOUT, WITH = CLEAR_LINE, CROSSED
FROM_FILE = "file"
TABLES = [
    ("illustrative 1d6 (not the published table)", "illustrative_1d6"),
    ("illustrative 2d6 (not the published table)", "illustrative_2d6"),
    ("my CRT file (path below)", FROM_FILE),
]


# --- CRTs -----------------------------------------------------------------------------------


def table_control(value: str = "illustrative_1d6") -> widgets.Dropdown:
    """The choice of table: a shipped one (each saying it is not the published table) or the
    user's file."""
    return widgets.Dropdown(
        options=TABLES,
        value=value,
        description="CRT",
        tooltip="the combat results table: one of wbk's illustrative ones, or your own file",
        layout={"width": "24.5em"},
    )


def file_control(path: str = "") -> widgets.Text:
    """The path of the user's CRT file, read when "my CRT file" is chosen."""
    return widgets.Text(
        path,
        description="CRT file",
        placeholder="path of your CRT's TOML file",
        tooltip='the TOML file of your CRT, read when the CRT is "my CRT file"',
        continuous_update=False,
        layout={"width": "22em"},
    )


def _slider(
    low: int, high: int, description: str, tooltip: str, width: str = "17em"
) -> widgets.IntSlider:
    return widgets.IntSlider(
        0, low, high, description=description, tooltip=tooltip, layout={"width": width}
    )


def _unshrunk(controls) -> None:
    """Controls keep their size in a row that wraps: a row too narrow moves a control to the
    next line instead of squeezing its slider or cutting its label off."""
    for control in controls:
        control.layout.flex = "0 0 auto"


def _in_rows(
    panel: ChartPanel, rows: list[list[str]], extras: dict[str, widgets.Widget] | None = None
) -> ChartPanel:
    """Lay a panel's controls (and ``extras``, by their names) out in these rows (each
    wrapping if the page is narrow), so that the controls and the picture fit on one screen."""
    for control in panel.controls.values():
        if isinstance(control, widgets.ToggleButtons):
            control.style.button_width = "auto"  # whole labels, never cut off
    parts = {**panel.controls, **(extras or {})}
    _unshrunk(parts.values())
    boxes = [
        widgets.HBox([parts[name] for name in row], layout=widgets.Layout(flex_flow="row wrap"))
        for row in rows
    ]
    panel.widget.children = (widgets.VBox(boxes), *panel.widget.children[1:])
    return panel


def choose_crt(table: str, path: str) -> Crt:
    """A shipped table by name, or the user's file (its errors name the file and the key)."""
    if table != FROM_FILE:
        return stalingrad.example_crt(table)
    path = path.strip()
    if not path:
        raise WbkError("CRT file is blank: type the path of your CRT's TOML file")
    return Crt.load(Path(path).expanduser())


def _severity(crt: Crt, code: str) -> tuple:
    effect = crt.effect(code)
    lost = math.inf if effect.eliminate == "all" else effect.eliminate
    return (lost, effect.pin, code)


def code_order(crt: Crt) -> list[str]:
    """The table's result codes from mild to severe ("-", "P", "1", ...)."""
    return sorted(crt.effects, key=lambda code: _severity(crt, code))


def code_colours(crt: Crt) -> dict[str, str]:
    """A colour per result code: grey for no effect, then Okabe-Ito colours by severity."""
    colours, i = {}, 0
    for code in code_order(crt):
        if crt.effect(code).hurts:
            colours[code] = SEVERITY[i % len(SEVERITY)]
            i += 1
        else:
            colours[code] = NO_EFFECT
    return colours


def code_label(crt: Crt, code: str) -> str:
    """A code and what it does: "P: pin", "no effect (-)"."""
    effect = crt.effect(code)
    return f"{code}: {effect}" if effect.hurts else f"no effect ({code})"


def _dark(colour: str) -> bool:
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return 0.299 * r + 0.587 * g + 0.114 * b < 110


def crt_bars(
    crt: Crt, *, ax, shift: int = 0, drm: int = 0, strength: int | None = None
) -> dict[str, Dist]:
    """Every column of ``crt`` as a 100% bar of its result codes, ``shift`` columns to the right
    and the roll modified by ``drm``; the column of ``strength`` is marked. Returns the
    distributions drawn, by column."""
    colours = code_colours(crt)
    marked = None if strength is None else crt.column_for(strength)
    names, dists = [], {}
    for column in crt.columns:
        read = crt.shift(column, shift)
        dists[column] = crt.on_column(read, drm=drm)
        name = column if read == column else f"{column} → {read}"
        names.append(f"{name}  ({strength} AF)" if column == marked else name)
    left = np.zeros(len(names))
    for code in code_order(crt):
        exact = [d.probability(code) for d in dists.values()]
        widths = np.array([float(p) for p in exact])
        if not widths.any():
            continue
        bars = ax.barh(
            names,
            widths,
            left=left,
            color=colours[code],
            edgecolor="white",
            linewidth=0.5,
            label=code_label(crt, code),
        )
        ax.bar_label(
            bars,
            labels=[percent(p) if p >= Fraction(1, 10) else "" for p in exact],
            label_type="center",
            fontsize=7,
            color="white" if _dark(colours[code]) else "black",
        )
        left += widths
    ax.set_xlim(0, 1)
    ax.invert_yaxis()
    ax.xaxis.set_major_formatter(lambda x, _: f"{x:.0%}")
    ax.set_ylabel("column (AF)" if not shift else "the attack's column → the column rolled on")
    for tick in ax.get_yticklabels():
        if "AF)" in tick.get_text():
            tick.set_fontweight("bold")
    ax.legend(
        ncols=min(len(crt.effects), 3),
        fontsize=7,
        loc="upper center",
        bbox_to_anchor=(0.5, -0.09),
        frameon=False,
    )
    ax.spines[["top", "right"]].set_visible(False)
    return dists


def _hurt(crt: Crt, dist: Dist) -> Fraction:
    return dist.map(lambda code: crt.effect(code).hurts).probability(True)


def _loss(crt: Crt, dist: Dist) -> Fraction:
    return dist.map(lambda code: crt.effect(code).losses(99) > 0).probability(True)


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


@dataclass(frozen=True)
class _Reading:
    crt: Crt
    strength: int
    shift: int
    drm: int


def crt_title(crt: Crt, strength: int, shift: int = 0, drm: int = 0) -> str:
    """The explorer's answer: what the strength's column gives, and what the shift and the DRM
    change, in two lines under the table's name."""
    column = crt.column_for(strength)
    read = crt.shift(column, shift)
    plain, changed = crt.on_column(column), crt.on_column(read, drm=drm)
    if not shift and not drm:
        return (
            f"{crt.name}\n{strength:,} AF on {column}: pin or worse {percent(_hurt(crt, plain))}, "
            f"a unit lost {percent(_loss(crt, plain))}"
        )
    moves = []
    if shift:
        moves.append(
            f"{count(abs(shift), 'column')} {'right' if shift > 0 else 'left'} ({column} → {read})"
        )
    if drm:
        moves.append(f"DRM {_signed(drm)}")
    return (
        f"{crt.name}\n{strength:,} AF, {' and '.join(moves)}: pin or worse "
        f"{percent(_hurt(crt, plain))} → {percent(_hurt(crt, changed))}, a unit lost "
        f"{percent(_loss(crt, plain))} → {percent(_loss(crt, changed))}"
    )


def in_words(dist: Dist, crt: Crt | None = None, *, what: str = "") -> str:
    """A distribution in one line, each outcome with its exact chance: "pinned: 1/2 (50%), ...",
    each outcome after ``what`` when given ("column 10-19: 1/2 (50%)"); given the ``crt`` its
    result codes, from mild to severe, say what they do."""
    chances = dist.probabilities()
    if crt is None:
        words = {stalingrad.NO_ATTACK, stalingrad.NO_FIRE}  # not a column: no "column no attack"
        return ", ".join(
            f"{what} {o}: {chance(p)}" if what and o not in words else f"{o}: {chance(p)}"
            for o, p in chances.items()
        )
    order = [code for code in code_order(crt) if code in chances]
    order += [o for o in chances if o not in order]
    described = {
        code: f"{code} ({crt.effect(code)})" if crt.effect(code).hurts else f"{code} (no effect)"
        for code in crt.effects
    }
    return ", ".join(f"{described.get(o, o)} {chance(chances[o])}" for o in order)


def draw_crt(crt: Crt, strength: int, *, shift: int = 0, drm: int = 0):
    """The CRT explorer's picture on a new figure: every column as a 100% bar, ``strength``'s
    column marked, the answer (with the table's name) in the title. Returns the figure."""
    import matplotlib.pyplot as plt

    figure, ax = plt.subplots(figsize=(6.4, 4.4), layout="constrained")
    crt_bars(crt, ax=ax, shift=shift, drm=drm, strength=strength)
    figure.suptitle(crt_title(crt, strength, shift, drm), fontsize=9)
    return figure


def dist_table(
    columns: dict[str, Dist], *, order: list | None = None, labels: dict | None = None
) -> str:
    """Several distributions side by side as an HTML table: exact fraction and percentage."""
    outcomes = order or sorted({o for d in columns.values() for o in d.outcomes()}, key=str)
    head = "".join(f"<th>{html.escape(name)}</th>" for name in columns)
    rows = []
    for o in outcomes:
        cells = "".join(f"<td>{chance(d.probability(o))}</td>" for d in columns.values())
        name = (labels or {}).get(o, str(o))
        rows.append(f"<tr><th>{html.escape(name)}</th>{cells}</tr>")
    return (
        f'<table class="wbk-dist"><thead><tr><th></th>{head}</tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


@chart_edge_cases
def crt_explorer(table: str = "illustrative_1d6", path: str = "") -> ChartPanel:
    """Every column of a CRT as a 100% bar of its results; choose an attack strength, a column
    shift and a die roll modifier and see what they change. Load your own table from a file."""

    def compute(table, file, strength, shift, drm):
        crt = choose_crt(table, file)
        af = parse_optional_number(strength, "attack strength")
        if af is None:
            raise WbkError("attack strength is blank: type the attack's total AF")
        if af < 0:  # named as the box is, as a strength that is not a number is
            raise WbkError(f"attack strength {af} is not a whole number of 0 or more")
        crt.column_for(af)  # a strength below the first column is named here
        return _Reading(crt, af, shift, drm)

    def draw(figure: Figure, r: _Reading) -> str:
        crt = r.crt
        crt_bars(crt, ax=figure.add_subplot(), shift=r.shift, drm=r.drm, strength=r.strength)
        figure.suptitle(crt_title(crt, r.strength, r.shift, r.drm), fontsize=9)
        column = crt.column_for(r.strength)
        read = crt.shift(column, r.shift)
        labels = {code: code_label(crt, code) for code in crt.effects}
        shown = {f"{column}": crt.on_column(column)}
        if r.shift or r.drm:
            shown[f"{read}, DRM {_signed(r.drm)}"] = crt.on_column(read, drm=r.drm)
        how = [f"<b>{r.strength:,} AF</b> rolls on the {column} column"]
        if r.shift:
            how.append(
                f"{count(abs(r.shift), 'column')} {'right' if r.shift > 0 else 'left'}: {read}"
            )
        if r.drm:
            how.append(f"the roll modified by {_signed(r.drm)}")
        order = [c for c in code_order(crt) if any(d.probability(c) for d in shown.values())]
        table = dist_table(shown, order=order, labels=labels)
        return f"<p>{', '.join(how)}.</p>{table}{crt._repr_html_()}"

    panel = ChartPanel(
        compute,
        draw,
        size=(6.4, 4.4),
        rule="a Streets of Stalingrad CRT (wbk's illustrative tables are not the published one)",
        table=table_control(table),
        file=file_control(path),
        strength=widgets.Text(
            "15",
            description="AF",
            tooltip="attack strength: the attack's total AF",
            continuous_update=False,
            layout={"width": "8em"},
        ),
        shift=_slider(-3, 3, "shift", "column shift: columns right (+) or left (-)"),
        drm=_slider(-3, 3, "DRM", "die roll modifier, added to the roll"),
    )
    return _in_rows(panel, [["table", "file"], ["strength", "shift", "drm"]])
