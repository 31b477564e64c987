"""The Close Assault Bonus advisor (Streets of Stalingrad 9.67). Its pictures are drawn by
``wbk.games.stalingrad.draw.close_assault``, whose names are importable from here too."""

from __future__ import annotations

import functools
import html
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import ipywidgets as widgets
from matplotlib.figure import Figure

from wbk.dice import Dist
from wbk.errors import WbkError
from wbk.explain import steps_html
from wbk.games import stalingrad
from wbk.games.stalingrad import Crt, Unit
from wbk.games.stalingrad.close_assault import MOST_ATTACKING_UNITS
from wbk.games.stalingrad.draw.close_assault import (  # noqa: F401 (importable from here, as before)
    OTHER_READING,
    advisor_title,
    assault_bars,
    draw_assault,
    mark_other_reading,
)
from wbk.games.stalingrad.panels.crt import (
    _in_rows,
    _slider,
    choose_crt,
    code_label,
    code_order,
    dist_table,
    file_control,
    table_control,
)
from wbk.games.stalingrad.readings import ASSAULT_READINGS, READINGS
from wbk.readings import Reading
from wbk.widgets import (
    ChartPanel,
    chart_edge_cases,
    parse_optional_number,
    reports_errors,
    typed,
)
from wbk.widgets.readings import compare_words

# --- 9.67 the Close Assault Bonus advisor ----------------------------------------------------

#: What may follow a unit's AF in the advisor: pinned, spent, or not adjacent to the target.
ATTACK_FLAGS = ("pinned", "spent", "away")


def parse_attack(text: str) -> tuple[list[Unit], list[str]]:
    """Attacking units typed as "infantry 6, engineer 4, tank 5": a kind (any case) and its AF,
    then optionally "pinned", "spent" or "away" (not adjacent to the target hex). Returns the
    units (German, named "engineer 4") and the names of those not adjacent."""
    units: list[Unit] = []
    away: list[str] = []
    kinds = ", ".join(k for k in stalingrad.KINDS[:4])
    parts = [p.strip() for p in typed(text, "the attack").split(",") if p.strip()]
    most = MOST_ATTACKING_UNITS
    if len(parts) > most:  # before any unit is read: the box may hold anything pasted
        raise WbkError(f"the attack lists {len(parts):,} units: wbk advises on {most:,} at most")
    #: how many units of each name so far: the second "infantry 6" is "infantry 6 (2)"
    named: dict[str, int] = {}
    for part in parts:
        words = part.lower().split()
        kind = words[0]
        if kind not in stalingrad.KINDS[:4]:
            raise WbkError(f"{part!r} in the attack: {words[0]!r} is not one of {kinds}")
        if len(words) > 1 and words[1].startswith("-") and words[1][1:].isdigit():
            raise WbkError(f"{part!r} in the attack: AF {words[1]} is negative: an AF is 0 or more")
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
        named[name] = named.get(name, 0) + 1
        if named[name] > 1:
            name = f"{name} ({named[name]})"
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


def column_order(crt: Crt, columns: Dist) -> list[str]:
    """The columns ``columns`` may give, in the table's order (left to right), "no attack"
    last: never in the order of their names ("10-19" before "4-9")."""
    possible = [c for c in crt.columns if columns.probability(c)]
    return possible + [o for o in columns.outcomes() if o not in possible]


@dataclass(frozen=True)
class _Assault:
    advice: stalingrad.CloseAssault
    crt: Crt
    #: the settings whose other values give the same answer here
    no_difference: frozenset[str] = frozenset()
    readings: dict[str, str] = field(default_factory=dict)


#: The advisor's label and width of each reading's dropdown: short, so that its rows fit.
READING_LABELS = {
    "losses": ("losses", "21em"),
    "pinned_attack": ("pinned", "19em"),
    "fire_without_bonus": ("no bonus", "24em"),
    "column_after_fire": ("after fire", "24em"),
}
NO_DIFFERENCE = "makes no difference here"
READING_NAMES = [r.keyword for r in ASSAULT_READINGS]
#: The settings that say when they make no difference.
NOTED = [*READING_NAMES, "fire_drm"]
#: The readings of the text (not wbk's ``losses``) that "compare with" offers.
COMPARED = [r for r in ASSAULT_READINGS if r.keyword in READINGS]


def reading_dropdown(reading: Reading) -> widgets.Dropdown:
    """A 9.67 reading's dropdown, in its declared words, at its default, under the advisor's
    short label."""
    label, width = READING_LABELS[reading.keyword]
    return widgets.Dropdown(
        options=reading.options, description=label, tooltip=reading.asks, layout={"width": width}
    )


def _answer(a: stalingrad.CloseAssault) -> tuple:
    """What a reader sees of an advice: the verdict and every distribution."""
    bonus = None if a.with_bonus is None else a.with_bonus.exchange
    return (a.verdict, a.without.exchange, bonus)


def no_difference(
    advise: Callable[..., stalingrad.CloseAssault],
    advice: stalingrad.CloseAssault,
    readings: dict[str, str],
) -> frozenset[str]:
    """The settings whose other values give the same advice as ``advice``, made under
    ``readings``: each reading whose other values agree, and the fire's DRM when there is no
    first fire to modify."""
    same = set()
    for reading in ASSAULT_READINGS:
        name = reading.keyword
        others = [value for value in reading.values if value != readings[name]]
        answer = _answer(advice)
        if all(_answer(advise(**{**readings, name: value})) == answer for value in others):
            same.add(name)
    if advice.with_bonus is None or advice.fire_column is None:
        same.add("fire_drm")  # no first fire to modify
    return frozenset(same)


def advice_html(a: stalingrad.CloseAssault, crt: Crt) -> str:
    """The advice in the pane: the verdict, its steps, the attack's result without and with the
    bonus, and what the first fire leaves of the attack."""
    results = {"without the bonus": a.without.result}
    if a.with_bonus is not None:
        results["with the bonus"] = a.with_bonus.result
    labels = {code: code_label(crt, code) for code in crt.effects}
    order = [c for c in code_order(crt) if any(d.probability(c) for d in results.values())]
    order += [o for o in (stalingrad.NO_ATTACK,) if any(d.probability(o) for d in results.values())]
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
            dist_table(
                {"the attack's column": a.with_bonus.column},
                order=column_order(crt, a.with_bonus.column),
            ),
        ]
    return "".join(parts)


def _advisor_controls(table: str, crt_file) -> dict[str, widgets.Widget]:
    """The advisor's controls: the table, the attack, the defence, the readings, the DRMs."""
    return {
        "table": table_control(table),
        "file": crt_file,
        "attack": widgets.Text(
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
        "defence_df": widgets.Text(
            "3",
            description="DF",
            tooltip="the defence's total DF (0 if none)",
            continuous_update=False,
            layout={"width": "7em"},
        ),
        "defending_units": widgets.IntSlider(
            1,
            1,
            6,
            description="defenders",
            tooltip="defending units in the target hex",
            layout={"width": "15em"},
        ),
        **{r.keyword: reading_dropdown(r) for r in ASSAULT_READINGS},
        "drm": _slider(-3, 3, "DRM", "the attack's die roll modifier", "16em"),
        "fire_drm": _slider(-3, 3, "fire DRM", "die roll modifier of the defender's first fire"),
    }


def _lay_out(panel: ChartPanel, notes: dict[str, widgets.HTML]) -> None:
    """The advisor's controls in four rows, each setting's note beside it."""
    _in_rows(
        panel,
        [
            ["table", "file", "defence_df"],
            ["attack", "defending_units", "drm", "fire_drm", "fire_drm note"],
            ["losses", "losses note", "pinned_attack", "pinned_attack note"],
            [
                "fire_without_bonus",
                "fire_without_bonus note",
                "column_after_fire",
                "column_after_fire note",
            ],
        ],
        {f"{name} note": note for name, note in notes.items()},
    )


#: The seed's worked example of 9.67, one click away: 15 AF (a qualifying infantry unit
#: among them) against a defence of 3 DF.
PRESETS: dict[str, dict[str, object]] = {
    "9.67: 15 AF against 3 DF": {
        "table": "illustrative_1d6",
        "attack": "infantry 10, engineer 5",
        "defence_df": "3",
        "defending_units": 1,
        "drm": 0,
        "fire_drm": 0,
    },
}


@reports_errors
def _apply_preset(chart: ChartPanel, values: dict[str, object]) -> None:
    # a chart panel's controls are in its ``controls``, not its attributes
    for name, value in values.items():
        if name not in chart.controls:
            raise WbkError(f"worked example: the panel has no control {name!r}")
        chart.controls[name].value = value


@chart_edge_cases
def assault_advisor(table: str = "illustrative_1d6", path: str = "") -> ChartPanel:
    """9.67: type the attacking units, the defence's DF and number of units; see what the
    Close Assault Bonus buys and costs, side by side, with the verdict in the chart's title."""

    notes: dict[str, widgets.HTML] = {}  # "makes no difference here", beside each setting
    #: the answer on show, and how to advise under other readings (for the step and compare
    #: controls, which the panel gets after its first answer)
    last: dict[str, Any] = {}
    crt_file = file_control(path)

    def compute(table, file, attack, defence_df, defending_units, drm, fire_drm, **readings):
        crt = choose_crt(table, crt_file)
        units, away = parse_attack(attack)
        df = parse_optional_number(defence_df, "defence DF")
        if df is None:
            raise WbkError("defence DF is blank: type the defence's total DF (0 if none)")
        defence = [Unit(f"defender {i + 1}", "Soviet", "infantry") for i in range(defending_units)]
        advise = functools.partial(
            stalingrad.close_assault_bonus,
            units,
            defence,
            df,
            crt=crt,
            not_adjacent=away,
            drm=drm,
            fire_drm=fire_drm,
        )
        advice = advise(**readings)
        last["advise"] = advise
        return _Assault(advice, crt, no_difference(advise, advice, readings), readings)

    def draw(figure: Figure, result: _Assault) -> str:
        a, crt = result.advice, result.crt
        for name, note in notes.items():
            note.value = (
                f'<i style="white-space: nowrap">{NO_DIFFERENCE}</i>'
                if name in result.no_difference
                else ""
            )
        assault_bars(a, figure)
        figure.suptitle(advisor_title(a, crt, result.readings), fontsize=9)
        last["result"] = result
        if "panel" in last:
            last["panel"].show_steps(a.steps)
            last["panel"].compare.refresh()
        return advice_html(a, crt)

    panel = ChartPanel(
        compute,
        draw,
        size=(7.0, 3.8),
        rule="Streets of Stalingrad 9.67, the Close Assault Bonus",
        **_advisor_controls(table, crt_file),
    )
    notes.update({name: widgets.HTML(layout={"width": "13em"}) for name in NOTED})

    def draw_at_step(k: int) -> None:
        result: _Assault = last["result"]
        figure = panel.figure
        figure.clear()
        whole = panel.step_control.at_answer
        assault_bars(result.advice, figure, step=None if whole else k)
        if whole:
            figure.suptitle(advisor_title(result.advice, result.crt, result.readings), fontsize=9)
        panel.canvas.draw_idle()

    def mark(other: dict[str, str] | None) -> bool:
        result: _Assault = last["result"]
        draw_at_step(panel.step_control.index)
        if other is None:
            return False
        theirs = last["advise"](**{**result.readings, **other})
        (value,) = other.values()
        moved = mark_other_reading(panel.figure, result.advice, theirs, value)
        panel.canvas.draw_idle()
        return moved

    _lay_out(panel, notes)
    setattr(panel, "apply_preset", functools.partial(_apply_preset, panel))  # noqa: B010
    panel.step_control = panel.add_step_control(draw_at_step)
    words, questions = compare_words(COMPARED)
    compare = panel.add_compare_readings(
        words,
        mark=mark,
        current=lambda: {name: panel.controls[name].value for name in READING_NAMES},
        questions=questions,
    )
    setattr(panel, "compare", compare)  # noqa: B010 (the advisor's compare control)
    panel.add_presets(PRESETS)
    last["panel"] = panel
    panel.update()  # the notes beside the settings filled in
    return panel
