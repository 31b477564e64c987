"""Widget panels of the Streets of Stalingrad chapter: a CRT explorer, the Close Assault Bonus
advisor (9.67) and a retreat planner on the map (9.87-9.89).

Controls show plain words ("eliminate 1", "attacked", "keep a qualifying unit"); their values
are the option names of ``wbk.games.stalingrad``. Every view of an illustrative table names it,
and its name says it is not the published table.
"""

from __future__ import annotations

import html
import math
import re
import textwrap
from dataclasses import dataclass, replace
from fractions import Fraction
from pathlib import Path

import ipywidgets as widgets
import numpy as np
from matplotlib import patheffects
from matplotlib.collections import PolyCollection
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from wbk.dice import Dist, chance, percent
from wbk.errors import WbkError
from wbk.explain import count, steps_html
from wbk.games import stalingrad
from wbk.games.stalingrad import Crt, Situation, Unit
from wbk.hexgrid import Hex
from wbk.plot import (
    BLOCKED_LINE,
    CLEAR_LINE,
    CROSSED,
    SKY_BLUE,
    MapView,
    center,
    draw_map,
    figure_size,
    map_axes,
)
from wbk.widgets import (
    LIVE_ONLY,
    ChartPanel,
    MapPanel,
    parse_optional_number,
    reports_errors,
    toml_path,
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


def _in_rows(panel: ChartPanel, rows: list[list[str]]) -> ChartPanel:
    """Lay a panel's controls out in these rows (each wrapping if the page is narrow), so that
    the controls and the picture fit on one screen."""
    for control in panel.controls.values():
        if isinstance(control, widgets.ToggleButtons):
            control.style.button_width = "auto"  # whole labels, never cut off
    _unshrunk(panel.controls.values())
    boxes = [
        widgets.HBox(
            [panel.controls[name] for name in row], layout=widgets.Layout(flex_flow="row wrap")
        )
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
            f"{crt.name}\n{strength} AF on {column}: pin or worse {percent(_hurt(crt, plain))}, "
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
        f"{crt.name}\n{strength} AF, {' and '.join(moves)}: pin or worse "
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
    words = {
        code: f"{code} ({crt.effect(code)})" if crt.effect(code).hurts else f"{code} (no effect)"
        for code in crt.effects
    }
    return ", ".join(f"{words.get(o, o)} {chance(chances[o])}" for o in order)


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
    return f'<table class="wbk-dist"><thead><tr><th></th>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>'


def crt_explorer(table: str = "illustrative_1d6", path: str = "") -> ChartPanel:
    """Every column of a CRT as a 100% bar of its results; choose an attack strength, a column
    shift and a die roll modifier and see what they change. Load your own table from a file."""

    def compute(table, file, strength, shift, drm):
        crt = choose_crt(table, file)
        af = parse_optional_number(strength, "attack strength")
        if af is None:
            raise WbkError("attack strength is blank: type the attack's total AF")
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
        how = [f"<b>{r.strength} AF</b> rolls on the {column} column"]
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


# --- 9.67 the Close Assault Bonus advisor ----------------------------------------------------

#: What may follow a unit's AF in the advisor: pinned, spent, or not adjacent to the target.
ATTACK_FLAGS = ("pinned", "spent", "away")


def parse_attack(text: str) -> tuple[list[Unit], list[str]]:
    """Attacking units typed as "infantry 6, engineer 4, tank 5": a kind (any case) and its AF,
    then optionally "pinned", "spent" or "away" (not adjacent to the target hex). Returns the
    units (German, named "engineer 4") and the names of those not adjacent."""
    units, away = [], []
    kinds = ", ".join(k for k in stalingrad.KINDS[:4])
    for part in (p.strip() for p in text.split(",")):
        if not part:
            continue
        words = part.lower().split()
        kind = words[0]
        if kind not in stalingrad.KINDS[:4]:
            raise WbkError(f"{part!r} in the attack: {words[0]!r} is not one of {kinds}")
        if len(words) < 2 or not (words[1].isascii() and words[1].isdigit()):
            raise WbkError(
                f"{part!r} in the attack: give the unit's AF after its kind, like 'infantry 6'"
            )
        flags = words[2:]
        for flag in flags:
            if flag not in ATTACK_FLAGS:
                raise WbkError(
                    f"{part!r} in the attack: {flag!r} is not one of pinned, spent, away"
                )
        name = f"{kind} {words[1]}"
        n = 2
        while name in {u.name for u in units}:
            name, n = f"{kind} {words[1]} ({n})", n + 1
        units.append(
            Unit(
                name,
                "German",
                kind,
                int(words[1]),
                pinned="pinned" in flags,
                spent="spent" in flags,
            )
        )
        if "away" in flags:
            away.append(name)
    if not units:
        raise WbkError("the attack is blank: type units like 'infantry 6, engineer 4, tank 5'")
    return units, away


def _grouped_bars(ax, dists: dict[str, Dist], colours: dict[str, str], title: str) -> None:
    outcomes = sorted({o for d in dists.values() for o in d.outcomes()})
    width = 0.8 / len(dists)
    for i, (name, dist) in enumerate(dists.items()):
        xs = [j + (i - (len(dists) - 1) / 2) * width for j in range(len(outcomes))]
        ps = [dist.probability(o) for o in outcomes]
        bars = ax.bar(
            xs,
            [float(p) for p in ps],
            width=width,
            color=colours[name],
            label=name,
            hatch="//" if i else None,
            edgecolor="white",
        )
        ax.bar_label(bars, labels=[percent(p) if p else "" for p in ps], fontsize=7, padding=1)
    ax.set_xticks(range(len(outcomes)), [str(o) for o in outcomes])
    ax.set_ylim(0, 1.15)
    ax.yaxis.set_major_formatter(lambda y, _: f"{y:.0%}")
    ax.set_title(title, fontsize=9)
    ax.spines[["top", "right"]].set_visible(False)


def advisor_title(a: stalingrad.CloseAssault, crt: Crt) -> str:
    """The verdict, wrapped, above the table's name."""
    return "\n".join(textwrap.wrap(a.verdict, 95)) + f"\non the {crt.name}"


def assault_bars(a: stalingrad.CloseAssault, figure: Figure) -> None:
    """Defending and attacking units lost, without and with the bonus, side by side."""
    left, right = figure.subplots(1, 2)
    without, with_ = "without the bonus", "with the Close Assault Bonus"
    colours = {without: WITHOUT, with_: WITH}
    defenders = {without: a.without.defender_losses}
    attackers = {without: a.without.attacker_losses}
    if a.with_bonus is not None:
        defenders[with_] = a.with_bonus.defender_losses
        attackers[with_] = a.with_bonus.attacker_losses
    _grouped_bars(left, defenders, colours, "defending units eliminated")
    _grouped_bars(right, attackers, colours, "attacking units lost to the first fire")
    handles, names = left.get_legend_handles_labels()
    figure.legend(handles, names, loc="outside lower center", ncols=2, fontsize=8, frameon=False)


def draw_assault(a: stalingrad.CloseAssault, crt: Crt):
    """The advisor's picture on a new figure: units lost without and with the bonus, side by
    side, the verdict in the title. Returns the figure."""
    import matplotlib.pyplot as plt

    figure = plt.figure(figsize=(7.0, 3.8), layout="constrained")
    assault_bars(a, figure)
    figure.suptitle(advisor_title(a, crt), fontsize=9)
    return figure


@dataclass(frozen=True)
class _Assault:
    advice: stalingrad.CloseAssault
    crt: Crt


def assault_advisor(table: str = "illustrative_1d6", path: str = "") -> ChartPanel:
    """9.67: type the attacking units, the defence's DF and number of units; see what the
    Close Assault Bonus buys and costs, side by side, with the verdict in the chart's title."""

    def compute(
        table, file, attack, defence_df, defending_units, losses, pinned_attack, drm, fire_drm
    ):
        crt = choose_crt(table, file)
        units, away = parse_attack(attack)
        df = parse_optional_number(defence_df, "defence DF")
        if df is None:
            raise WbkError("defence DF is blank: type the defence's total DF (0 if none)")
        defence = [Unit(f"defender {i + 1}", "Soviet", "infantry") for i in range(defending_units)]
        advice = stalingrad.close_assault_bonus(
            units,
            defence,
            df,
            crt=crt,
            not_adjacent=away,
            drm=drm,
            fire_drm=fire_drm,
            losses=losses,
            pinned_attack=pinned_attack,
        )
        return _Assault(advice, crt)

    def draw(figure: Figure, result: _Assault) -> str:
        a, crt = result.advice, result.crt
        assault_bars(a, figure)
        figure.suptitle(advisor_title(a, crt), fontsize=9)
        results = {"without the bonus": a.without.result}
        if a.with_bonus is not None:
            results["with the bonus"] = a.with_bonus.result
        labels = {code: code_label(crt, code) for code in crt.effects}
        order = [c for c in code_order(crt) if any(d.probability(c) for d in results.values())]
        order += [
            o for o in (stalingrad.NO_ATTACK,) if any(d.probability(o) for d in results.values())
        ]
        parts = [
            f"<p><b>{html.escape(a.verdict)}</b></p>",
            steps_html(a.steps),
            "<p>The attack's result:</p>",
            dist_table(results, order=order, labels=labels),
        ]
        if a.with_bonus is not None:
            parts += [
                "<p>The defender's first fire, and what it leaves of the attack:</p>",
                dist_table({"the attacking units": a.with_bonus.attacker}),
                dist_table({"the attack's column": a.with_bonus.column}),
            ]
        return "".join(parts)

    panel = ChartPanel(
        compute,
        draw,
        size=(7.0, 3.8),
        table=table_control(table),
        file=file_control(path),
        attack=widgets.Text(
            "infantry 6, engineer 4, tank 5",
            continuous_update=False,
            description="attack",
            placeholder="kind AF, ...: infantry 6, engineer 4 pinned",
            tooltip=(
                "the attacking units: a kind and its AF each, then optionally pinned, spent or "
                "away (not adjacent to the target)"
            ),
            layout={"width": "23em"},
        ),
        defence_df=widgets.Text(
            "3",
            description="DF",
            tooltip="the defence's total DF (0 if none)",
            continuous_update=False,
            layout={"width": "7em"},
        ),
        defending_units=widgets.IntSlider(
            1,
            1,
            6,
            description="defenders",
            tooltip="defending units in the target hex",
            layout={"width": "15em"},
        ),
        losses=widgets.Dropdown(
            options=[
                ("keep a qualifying unit", "keep_bonus"),
                ("keep the best column", "best_column"),
            ],
            description="losses",
            tooltip=(
                "which attacking units the defender's first fire takes (wbk's reading): keep an "
                "infantry or engineer unit that qualifies for the bonus, or the highest column"
            ),
            layout={"width": "21em"},
        ),
        pinned_attack=widgets.Dropdown(
            options=[("still add their AF", "counts"), ("drop out", "drops_out")],
            description="pinned",
            tooltip="do attacking units pinned by the first fire still attack? (wbk's reading)",
            layout={"width": "19em"},
        ),
        drm=_slider(-3, 3, "DRM", "the attack's die roll modifier", "16em"),
        fire_drm=_slider(-3, 3, "fire DRM", "die roll modifier of the defender's first fire"),
    )
    return _in_rows(
        panel,
        [
            ["table", "file", "defence_df"],
            ["attack", "defending_units", "losses"],
            ["pinned_attack", "drm", "fire_drm"],
        ],
    )


# --- 9.87-9.89 the retreat planner ------------------------------------------------------------

CLICKS = [
    ("defending hex", "target"),
    ("place a unit", "place"),
    ("attacked", "attacked"),
    ("bombarded", "bombarded"),
    ("clear the hex", "clear"),
]
BOMBARDED = "#CC79A7"
#: The retreat chosen: sky blue, outlined, over the green of the legal hexes.
RETREAT = SKY_BLUE
#: The hatching of the hexes in the enemy's ZOC.
ZOC = "#8c8c8c"


def _moves(r: stalingrad.Retreat) -> str:
    """Where the retreating units go: "1/42 Rifle retreats to 1314", "A to 1314, B to 1315"."""
    moves = [(name, r.map.label(h)) for name, h in r.best.items() if h is not None]
    if len(moves) == 1:
        return f"{moves[0][0]} retreats to {moves[0][1]}"
    return "retreat: " + ", ".join(f"{name} to {label}" for name, label in moves)


def retreat_title(r: stalingrad.Retreat) -> str:
    """The answer in the picture's title: the terrain, the verdict, who goes where and who is
    eliminated."""
    where = r.map.label(r.target)
    if r.terrain == "other":
        kinds = ", ".join(sorted(r.map.terrain(r.target)))
        return (
            f'"P" in {kinds} {where}: the units are only pinned, no retreat\n'
            "(9.87-9.89 cover clear, balka, forest and suburb/village hexes)"
        )
    lost = lost_units(r)
    total = len(r.eliminated) + len(r.best)
    if r.may_stay:
        stay, go = len(r.eliminated) + 1, len(lost)
        if stay < go:
            verdict = f"stay: it costs {count(stay, 'unit')}, a retreat {go}"
        elif go < stay:
            verdict = f"retreat: it costs {count(go, 'unit') if go else 'nothing'}, staying {stay}"
        else:
            verdict = f"stay or retreat: each costs {count(go, 'unit')}"
        first = f'"P" in {r.terrain} {where}: {verdict}'
        second = f"staying gives up {r.stay_eliminates}"
        if lost:
            second = f"retreating loses {', '.join(lost)}; {second}"
        return "\n".join([first, *textwrap.wrap(second, 75)])
    first = f'"P" in clear {where}: {stalingrad.eliminated_words(len(lost), total)}'
    if lost:
        first += f" ({', '.join(lost)})"
    details = []
    if len(lost) < total:
        details.append(_moves(r))
    if r.unaffected:
        details.append(f"untouched (9.89): {', '.join(sorted(r.unaffected))}")
    if len(lost) == 0 and len(details) == 1 and len(first) + len(details[0]) < 75:
        return f"{first}: {details[0]}"
    return "\n".join([first, *textwrap.wrap("; ".join(details), 75)])


def lost_units(r: stalingrad.Retreat) -> list[str]:
    """The units a retreat eliminates: those that never retreat, then those left without room."""
    return sorted(r.eliminated) + [name for name, h in r.best.items() if h is None]


def retreat_arrows(target: Hex, hexes) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    """(start, end) of an arrow from ``target`` into each of ``hexes``: from the edge of the
    defending hex to the middle of the next, clear of the markers, the unit counts below them,
    the cross of the units lost and the hex labels at the top (an arrow north or south, along
    the labels, is moved to their left)."""
    x0, y0 = center(target)
    arrows = []
    for x, y in (center(h) for h in sorted(hexes)):
        dx, dy = x - x0, y - y0
        side = -0.45 if abs(dx) < 0.01 else 0.0
        arrows.append(
            (
                (x0 + 0.4 * dx + side, y0 + 0.4 * dy),
                (x0 + 0.78 * dx + side, y0 + 0.78 * dy),
            )
        )
    return arrows


class RetreatOverlay:
    """A situation and its retreat drawn over a ``MapView``: the units (a marker per side, the
    number of units printed), attacked and bombarded hexes hatched, the defending hex outlined,
    the legal retreat hexes shaded, the retreat chosen drawn, the units lost crossed; the answer
    in the title and every mark in the legend."""

    def __init__(self, view: MapView):
        self.view = view
        ax = view.ax
        self.attacked = PolyCollection(
            [], facecolors="none", edgecolors=CROSSED, hatch="//", linewidths=1.5, zorder=4
        )
        self.bombarded = PolyCollection(
            [], facecolors="none", edgecolors=BOMBARDED, hatch="xx", linewidths=1.5, zorder=4
        )
        self.target = PolyCollection(
            [], facecolors="none", edgecolors="black", linewidths=3, zorder=5
        )
        self.zoc = PolyCollection(
            [], facecolors="none", edgecolors=ZOC, hatch="\\", linewidths=0.5, zorder=3
        )
        for artist in (self.zoc, self.attacked, self.bombarded, self.target):
            ax.add_collection(artist)
        self.zoc_hexes: set[Hex] = set()
        self.arrows: list = []
        self.arrow_key = Line2D(
            [], [], color=RETREAT, linestyle="none", marker=r"$\rightarrow$", markersize=14
        )
        (self.german,) = ax.plot(
            [], [], "o", color=GERMAN, markeredgecolor="white", markersize=11, zorder=7
        )
        (self.soviet,) = ax.plot(
            [], [], "s", color=SOVIET, markeredgecolor="white", markersize=10, zorder=7
        )
        (self.lost,) = ax.plot(
            [], [], "X", color="black", markeredgecolor="white", markersize=12, zorder=8
        )

    def _polygons(self, hexes) -> list:
        view = self.view
        return [view.polygons[view.index[h]] for h in sorted(hexes)]

    def show_situation(self, s: Situation) -> None:
        view = self.view
        self.attacked.set_verts(self._polygons(s.attacked))
        self.bombarded.set_verts(self._polygons(s.bombarded))
        points = {"German": [], "Soviet": []}
        for h, here in s.units.items():
            x, y = center(h)
            sides = sorted({u.side for u in here})
            for i, side in enumerate(sides):
                points[side].append((x + (0.3 * (2 * i - 1) if len(sides) == 2 else 0), y))
        lines = {"German": self.german, "Soviet": self.soviet}
        for side, line in lines.items():
            line.set_data([p[0] for p in points[side]], [p[1] for p in points[side]])
        view.show_numbers({h: len(here) for h, here in s.units.items()}, label="units in the hex")
        entries = {f"{side} units": line for side, line in lines.items() if points[side]}
        if s.attacked:
            entries["being attacked"] = self.attacked
        if s.bombarded:
            entries["being bombarded"] = self.bombarded
        view.set_overlay_legend("situation", entries)

    def show(self, s: Situation, target: Hex | str | None = None) -> stalingrad.Retreat:
        """Draw ``s`` and the retreat of a "P" result on ``target`` (the situation's own by
        default); return the retreat."""
        self.show_situation(s)
        self.clear_retreat()
        r = s.retreat(target)
        view, t = self.view, r.target
        self.target.set_verts(self._polygons([t]))
        open_hexes = set().union(*r.options.values())
        view.shade(
            {h: 1 for h in open_hexes},
            cmap="Greens",
            vmin=0,
            vmax=1.4,
            label="legal retreat hex (9.87)",
        )
        self.zoc_hexes = r.zoc & set(view.index)
        self.zoc.set_verts(self._polygons(self.zoc_hexes))
        moves = retreat_arrows(t, set(r.best.values()) - {None})
        for start, end in moves:
            self.arrows.append(
                view.ax.annotate(
                    "",
                    end,
                    start,
                    zorder=9,
                    arrowprops={
                        "arrowstyle": "-|>,head_length=0.5,head_width=0.3",
                        "color": RETREAT,
                        "linewidth": 3,
                        "shrinkA": 0,
                        "shrinkB": 0,
                        "path_effects": [patheffects.withStroke(linewidth=5, foreground="black")],
                    },
                )
            )
        lost = lost_units(r)
        x, y = center(t)
        self.lost.set_data([x + 0.5] if lost else [], [y - 0.05] if lost else [])
        entries = {"defending hex": self.target}
        if r.zoc:
            entries["enemy ZOC (6.0): closed"] = self.zoc
        if moves:
            entries["retreat chosen"] = self.arrow_key
        if lost:
            entries["units eliminated there"] = self.lost
        view.set_overlay_legend("retreat", entries)
        view.set_title(retreat_title(r))
        return r

    def clear_retreat(self) -> None:
        self.target.set_verts([])
        self.zoc.set_verts([])
        self.zoc_hexes = set()
        for arrow in self.arrows:
            arrow.remove()
        self.arrows.clear()
        self.lost.set_data([], [])
        self.view.shade({})
        self.view.set_overlay_legend("retreat", {})


def draw_retreat(
    s: Situation, target: Hex | str | None = None, *, ax=None, width: float | None = None
) -> MapView:
    """A situation and the retreat of a "P" result on ``target`` drawn on its map, the answer
    in the title (a new figure when ``ax`` is omitted)."""
    view = draw_map(s.map, ax=ax, width=width)
    RetreatOverlay(view).show(s, target)
    return view


def retreat_table(r: stalingrad.Retreat) -> str:
    """Each defending unit, its legal hexes and where it goes, as an HTML table."""
    m = r.map
    rows = "".join(
        f"<tr><th>{html.escape(name)}</th><td>{', '.join(sorted(m.label(h) for h in r.options[name])) or 'none'}"
        f"</td><td>{m.label(r.best[name]) if r.best[name] is not None else 'eliminated'}</td></tr>"
        for name in r.best
    )
    rows += "".join(
        f"<tr><th>{html.escape(n)}</th><td>never retreats (9.89)</td><td>eliminated</td></tr>"
        for n in sorted(r.eliminated)
    )
    rows += "".join(
        f"<tr><th>{html.escape(n)}</th><td>not affected (9.89)</td><td>stays</td></tr>"
        for n in sorted(r.unaffected)
    )
    return (
        "<table><thead><tr><th>unit</th><th>legal hexes</th><th>goes to</th></tr></thead>"
        f"<tbody>{rows}</tbody></table>"
    )


def _home_short(path: Path) -> str:
    """A path in the user's home folder written from "~", short enough to read in its box."""
    try:
        return str(Path("~") / path.relative_to(Path.home()))
    except ValueError:
        return str(path)


def default_situation_path(s: Situation) -> Path:
    """Where the planner saves unless told otherwise: a folder of the user's, never the
    workbook's own notebooks/ folder."""
    slug = re.sub(r"[^a-z0-9]+", "_", s.name.lower()).strip("_") or "situation"
    return Path.home() / "wbk-situations" / f"{slug}.toml"


#: The key naming the panel on the first line of a saved edge case (see ``load_edge_case``).
EDGE_CASE_PANEL = "panel"


def _situation_text(text: str) -> str:
    """A situation file's text without the line naming the panel that an edge case starts with."""
    first, _, rest = text.partition("\n")
    return rest if first.startswith(f"{EDGE_CASE_PANEL} =") else text


def _limits(limit: int) -> list[int]:
    """The stacking limits to choose from: 1 to 6, and a situation's own if it is higher."""
    return sorted({*range(1, 7), limit})


class RetreatPlanner(MapPanel):
    """9.87-9.89 on the map: click to place units, mark hexes attacked or bombarded, and click
    the defending hex of a "P" result; the legal retreat hexes are shaded, the retreat chosen is
    drawn, and the title says who is eliminated. Load and save the situation as TOML.

    ``planner.situation`` is the situation on show."""

    def __init__(
        self, situation: Situation | None = None, path: str | None = None, *, width: float = 5.0
    ):
        self.situation = situation or stalingrad.example_situation("retreat_clear_hex")
        wide = {"description_width": "initial"}
        buttons_fit = {"description_width": "initial", "button_width": "auto"}
        self.click = widgets.ToggleButtons(
            options=CLICKS, tooltip="what a click on the map does", style=buttons_fit
        )
        self.side = widgets.ToggleButtons(
            options=list(stalingrad.SIDES),
            value="Soviet",
            style=buttons_fit,
            tooltip="the side of the unit a click places",
        )
        self.kind = widgets.Dropdown(
            options=list(stalingrad.KINDS), layout={"width": "7.5em"}, tooltip="its kind"
        )
        self.strength = widgets.IntText(
            3,
            description="strength",
            style=wide,
            layout={"width": "8.5em"},
            tooltip="its strength (0 or more)",
        )
        self.strength.observe(self._check_strength, names="value")
        self.unit_name = widgets.Text(
            "",
            placeholder="name (optional)",
            layout={"width": "10em"},
            tooltip="its name, unique on the map; left blank, one is made up",
        )
        self.pinned = widgets.Checkbox(
            False, description="pinned", indent=False, layout={"width": "5.5em"}
        )
        self.immobilized = widgets.Checkbox(
            False, description="immobilized", indent=False, layout={"width": "8em"}
        )
        limit = self.situation.stacking_limit or 3
        self.stacking = widgets.Dropdown(
            options=_limits(limit),
            value=limit,
            description="stacking limit",
            style=wide,
            tooltip="how many units of a side a hex may hold (5.0)",
            layout={"width": "12.5em"},
        )
        self.path = widgets.Text(
            str(path or _home_short(default_situation_path(self.situation))),
            description="situation file",
            tooltip="the TOML file Load reads and Save writes",
            style=wide,
            layout={"width": "35em"},
        )
        # what the next click does means nothing on a static page, nor does a file of the user's
        for control in (
            self.click,
            self.side,
            self.kind,
            self.strength,
            self.unit_name,
            self.pinned,
            self.immobilized,
            self.path,
        ):
            control.add_class(LIVE_ONLY)
        self.buttons = {"Load": self.load, "Save": self.save}
        buttons = [
            widgets.Button(description=label, layout={"width": "60px"}) for label in self.buttons
        ]
        for button in buttons:
            button.on_click(lambda b: self.buttons[b.description]())
        s = self.situation
        target = s.target if s.target is not None else next(iter(s.units))
        super().__init__(
            s.map, {"defending hex": s.map.label(target)}, [self.stacking], width=width
        )
        self.width = width
        box = self.boxes["defending hex"]
        box.style, box.layout.width = wide, "13em"
        self.overlay = RetreatOverlay(self.view)
        _unshrunk(
            [
                self.click,
                box,
                self.side,
                self.kind,
                self.strength,
                self.unit_name,
                self.pinned,
                self.immobilized,
                self.stacking,
                self.path,
                *buttons,
            ]
        )
        row = widgets.Layout(flex_flow="row wrap")
        clicks, placing = widgets.Label("a click sets"), widgets.Label("placing")
        for words in (clicks, placing):
            words.add_class(LIVE_ONLY)
        self.widget = widgets.VBox(
            [
                widgets.HBox([clicks, self.click, box], layout=row),
                widgets.HBox(
                    [
                        placing,
                        self.side,
                        self.kind,
                        self.strength,
                        self.unit_name,
                        self.pinned,
                        self.immobilized,
                    ],
                    layout=row,
                ),
                widgets.HBox([self.stacking, self.path, *buttons], layout=row),
                self.message,
                self.canvas,
                self.picture_row,
                self.pane,
            ]
        )
        self.update()

    # --- what a click does ------------------------------------------------------------------

    @reports_errors
    def on_click(self, event) -> None:
        h = self.view.hex_at(event.xdata, event.ydata)
        if h is None:
            self.show_message("that click is off the map")
            return
        mode, s = self.click.value, self.situation
        if mode == "target":
            self.boxes["defending hex"].value = self.map.label(h)
            return
        if mode == "place":
            units = {k: list(v) for k, v in s.units.items()}
            units.setdefault(h, []).append(self.new_unit())
            s = replace(s, units=units)
        elif mode in ("attacked", "bombarded"):
            s = replace(s, **{mode: getattr(s, mode) ^ {h}})
        else:
            s = replace(
                s,
                units={k: v for k, v in s.units.items() if k != h},
                attacked=s.attacked - {h},
                bombarded=s.bombarded - {h},
            )
        self.situation = s
        self.update()

    def _check_strength(self, change) -> None:
        if change["new"] < 0:
            self.show_message(
                f"strength {change['new']} is not a whole number of 0 or more: "
                "a unit's strength is its AF"
            )
        elif "strength" in self.message.value:
            self.show_message("")

    def new_unit(self) -> Unit:
        """The unit the controls describe, its name made up when the box is blank."""
        taken = {u.name for here in self.situation.units.values() for u in here}
        name = self.unit_name.value.strip()
        if name in taken:
            raise WbkError(f"unit name {name!r} is taken: names must be unique")
        if not name:
            n = 1
            while (name := f"{self.side.value} {self.kind.value} {n}") in taken:
                n += 1
        return Unit(
            name,
            self.side.value,
            self.kind.value,
            self.strength.value,
            pinned=self.pinned.value,
            immobilized=self.immobilized.value,
        )

    # --- the answer -------------------------------------------------------------------------

    def show(self, **hexes: Hex) -> str:
        s = self.situation = replace(self.situation, stacking_limit=self.stacking.value)
        try:
            r = self.overlay.show(s, hexes["defending hex"])
        except WbkError:
            self.overlay.show_situation(s)  # the units stay on show while the message explains
            raise
        parts = [
            f"<p><b>{html.escape(s.name)}</b>"
            + (f": {html.escape(s.note)}" if s.note else "")
            + "</p>"
        ]
        if r.terrain != "other":
            open_hexes = set().union(*r.options.values())
            listed = ", ".join(sorted(self.map.label(h) for h in open_hexes)) or "none"
            parts.append(
                f"<p>{count(len(open_hexes), 'hex', 'hexes')} open for the retreat: {listed}.</p>"
            )
            parts.append(retreat_table(r))
        parts.append(r._repr_html_())
        return "".join(parts)

    def mark_stale(self) -> None:
        super().mark_stale()
        self.overlay.clear_retreat()
        self.view.redraw()

    # --- files ------------------------------------------------------------------------------

    def edge_case(self) -> str:
        """The situation on show as a situation file, the defending hex as its target, the
        planner named on its first line: "Save edge case" writes it, and the planner's Load or
        ``wbk.widgets.load_edge_case`` brings back the same picture."""
        target = self.map.hex(self.boxes["defending hex"].value.strip())
        panel = f"{type(self).__module__}.{type(self).__qualname__}"
        return f'{EDGE_CASE_PANEL} = "{panel}"\n' + replace(self.situation, target=target).to_toml()

    @classmethod
    def from_edge_case(cls, text: str, source: str) -> RetreatPlanner:
        """The planner showing a saved edge case (see ``edge_case``)."""
        return cls(Situation.from_toml(_situation_text(text), source=source))

    @reports_errors(stale=False)
    def load(self) -> None:
        path = toml_path(self.path)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as e:
            raise WbkError(f"{path}: cannot read the situation ({e.strerror})") from None
        s = Situation.from_toml(_situation_text(text), source=str(path), folder=path.parent)
        if not s.units:
            raise WbkError(f"{path}: units: the situation has no units")
        if list(s.map) != list(self.map):
            self.figure.clear()
            self.figure.set_size_inches(*figure_size(s.map, self.width))
            self.view = MapView(s.map, map_axes(self.figure))
            self.overlay = RetreatOverlay(self.view)
        else:
            self.view.show_contents(s.map)
        self.map, self.situation = s.map, s
        target = s.target if s.target is not None else next(iter(s.units))
        box = self.boxes["defending hex"]
        limit = s.stacking_limit or 3
        if limit not in self.stacking.options:
            with self.stacking.hold_trait_notifications():  # the new list keeps the value on show
                self.stacking.options = _limits(limit)
        with box.hold_trait_notifications(), self.stacking.hold_trait_notifications():
            self.stacking.value = limit
            box.value = s.map.label(target)
        self.update()
        if not self.message.value:
            self.pane.value = (
                html.escape(f"loaded {s.name!r} from {path}", quote=False) + self.pane.value
            )

    @reports_errors(stale=False)
    def save(self) -> None:
        path = toml_path(self.path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise WbkError(f"{path}: cannot save the situation ({e.strerror})") from None
        self.situation.save(path)
        self.show_message("")
        units = sum(len(here) for here in self.situation.units.values())
        done = f"saved {self.situation.name!r} ({count(units, 'unit')}) to {path}"
        self.pane.value = html.escape(done, quote=False) + self.pane.value
