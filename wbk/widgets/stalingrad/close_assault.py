"""The Close Assault Bonus advisor (Streets of Stalingrad 9.67)."""

from __future__ import annotations

import functools
import html
import textwrap
from dataclasses import dataclass, field
from typing import Any

import ipywidgets as widgets
from matplotlib.figure import Figure

from wbk.dice import Dist, percent
from wbk.errors import WbkError
from wbk.explain import steps_html
from wbk.games import stalingrad
from wbk.games.stalingrad import Crt, Unit
from wbk.games.stalingrad.close_assault import (
    ABOUT_ATTACK,
    ABOUT_FIRE,
    ABOUT_WITH,
    ABOUT_WITHOUT,
    MOST_ATTACKING_UNITS,
)
from wbk.pictures import STEP_COLOUR, step_index
from wbk.widgets import (
    ChartPanel,
    chart_edge_cases,
    parse_optional_number,
    reports_errors,
    typed,
)
from wbk.widgets.stalingrad.crt import (
    WITH,
    WITHOUT,
    _in_rows,
    _slider,
    choose_crt,
    code_label,
    code_order,
    dist_table,
    file_control,
    table_control,
)

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


def _grouped_bars(ax, dists: dict[str, Dist], colours: dict[str, str], title: str) -> None:
    outcomes = sorted({o for d in dists.values() for o in d.outcomes()})
    width = 0.8 / len(dists)
    # past three outcomes a pair of bars is narrower than "41.67%": the numbers stand upright
    upright = len(outcomes) > 3
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
        ax.bar_label(
            bars,
            labels=[percent(p) if p else "" for p in ps],
            fontsize=7,
            padding=1,
            rotation=90 if upright else 0,
        )
    ax.set_xticks(range(len(outcomes)), [str(o) for o in outcomes])
    ax.set_ylim(0, 1.3 if upright else 1.15)
    ax.set_yticks([step / 5 for step in range(6)])  # the room above 100% is for the numbers
    ax.yaxis.set_major_formatter(lambda y, _: f"{y:.0%}")
    ax.set_title(title, fontsize=9)
    ax.spines[["top", "right"]].set_visible(False)


def advisor_title(
    a: stalingrad.CloseAssault, crt: Crt, readings: dict[str, str] | None = None
) -> str:
    """The verdict, wrapped, above the table's name and the readings that differ from the
    defaults ("[no fire without the bonus]")."""
    words = [
        short
        for name, _, options, _, _, short in READING_CONTROLS
        if (readings or {}).get(name, options[0][1]) != options[0][1]
    ]
    tag = f" [{'; '.join(words)}]" if words else ""
    return "\n".join(textwrap.wrap(a.verdict, 95)) + f"\non the {crt.name}{tag}"


def assault_bars(a: stalingrad.CloseAssault, figure: Figure, step: int | None = None) -> None:
    """Defending and attacking units lost, without and with the bonus, side by side.

    ``step``: the advice at that step of its ``steps``: the chart the step is about (the
    attack's result or the defender's fire) framed in sky blue, the bars it is not about faded,
    and the step in words as the figure's title; None draws the whole answer."""
    left, right = figure.subplots(1, 2)
    without, with_ = "without the bonus", "with the Close Assault Bonus"
    colours = {without: WITHOUT, with_: WITH}
    defenders = {without: a.without.defender_losses}
    attackers = {without: a.without.attacker_losses}
    if a.with_bonus is not None:
        defenders[with_] = a.with_bonus.defender_losses
        attackers[with_] = a.with_bonus.attacker_losses
    _grouped_bars(left, defenders, colours, "defending units eliminated")
    _grouped_bars(right, attackers, colours, "attacking units lost to the defender's fire")
    handles, names = left.get_legend_handles_labels()
    figure.legend(handles, names, loc="outside lower center", ncols=2, fontsize=8, frameon=False)
    if step is not None:
        k = step_index(a.steps, step)
        about = set(a.steps[k].about)
        for ax, kind in ((left, ABOUT_ATTACK), (right, ABOUT_FIRE)):
            charts = about & {ABOUT_ATTACK, ABOUT_FIRE}
            groups = about & {ABOUT_WITHOUT, ABOUT_WITH}
            if kind in charts:
                for spine in ax.spines.values():
                    spine.set_visible(True)
                    spine.set(color=STEP_COLOUR, linewidth=3)
            for container in ax.containers:
                label = container.get_label()
                group = ABOUT_WITHOUT if label == without else ABOUT_WITH
                if (charts and kind not in charts) or (groups and group not in groups):
                    for bar in container:
                        bar.set_alpha(0.2)
        words = f"Step {k + 1} of {len(a.steps)}: {a.steps[k].text} ({a.steps[k].rule})"
        figure.suptitle("\n".join(textwrap.wrap(words, 95)), fontsize=9)


def draw_assault(a: stalingrad.CloseAssault, crt: Crt):
    """The advisor's picture on a new figure: units lost without and with the bonus, side by
    side, the verdict in the title. Returns the figure."""
    import matplotlib.pyplot as plt

    figure = plt.figure(figsize=(7.0, 3.8), layout="constrained")
    assault_bars(a, figure)
    figure.suptitle(advisor_title(a, crt), fontsize=9)
    return figure


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


#: The advisor's readings of 9.67: keyword, label, (words, value) choices (the default first),
#: tooltip, width, and the words a title adds when the reading is not the default.
READING_CONTROLS = [
    (
        "losses",
        "losses",
        [("keep a qualifying unit", "keep_bonus"), ("keep the best column", "best_column")],
        "which attacking units the defender's first fire takes (wbk's reading): keep an "
        "infantry or engineer unit that qualifies for the bonus, or the highest column",
        "21em",
        "losses keep the best column",
    ),
    (
        "pinned_attack",
        "pinned",
        [("still add their AF", "counts"), ("drop out", "drops_out")],
        "do attacking units pinned by the first fire still attack? (wbk's reading)",
        "19em",
        "pinned attackers drop out",
    ),
    (
        "fire_without_bonus",
        "no bonus",
        [("he fires on his own column", "own_column"), ("he does not fire", "none")],
        "9.67: without the bonus, does the defender fire anyway (on his own column, not first)? "
        "The text does not settle it",
        "24em",
        "no fire without the bonus",
    ),
    (
        "column_after_fire",
        "after fire",
        [("one above the AF left", "af_left"), ("the announced column", "announced")],
        "9.67: while a qualifying unit is left after the fire, is the attack one column above "
        "the AF left, or the column announced? The text does not settle it",
        "24em",
        "the announced column after the fire",
    ),
]
NO_DIFFERENCE = "makes no difference here"
READING_NAMES = [name for name, *_ in READING_CONTROLS]
#: The settings that say when they make no difference.
NOTED = [name for name, *_ in READING_CONTROLS] + ["fire_drm"]


def _answer(a: stalingrad.CloseAssault) -> tuple:
    """What a reader sees of an advice: the verdict and every distribution."""
    bonus = None if a.with_bonus is None else a.with_bonus.exchange
    return (a.verdict, a.without.exchange, bonus)


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
#: The other reading's chances, drawn over the bars: a black dash where a bar would move.
OTHER_READING = "#1a1a1a"


def mark_other_reading(
    figure: Figure, a: stalingrad.CloseAssault, other: stalingrad.CloseAssault, value: str
) -> bool:
    """Over the bars of ``a`` drawn by ``assault_bars``, a black dash at each chance that
    ``other`` (the advice under another reading, ``value``) moves, and its verdict under the
    title if it differs; returns whether anything a reader sees changes."""
    groups = {
        ABOUT_WITHOUT: (a.without, other.without),
        ABOUT_WITH: (a.with_bonus, other.with_bonus),
    }
    moved = False
    for ax, losses in zip(figure.axes[:2], ("defender_losses", "attacker_losses"), strict=True):
        outcomes = [tick.get_text() for tick in ax.get_xticklabels()]
        for container in ax.containers:
            group = ABOUT_WITHOUT if container.get_label() == "without the bonus" else ABOUT_WITH
            mine, theirs = groups[group]
            if mine is None or theirs is None:
                moved |= (mine is None) != (theirs is None)
                continue
            dist_mine, dist_theirs = getattr(mine, losses), getattr(theirs, losses)
            moved |= dist_mine != dist_theirs
            for bar, outcome in zip(container, outcomes, strict=False):
                key = next((o for o in dist_mine.outcomes() if str(o) == outcome), None)
                p = dist_theirs.probability(key) if key is not None else 0
                if key is not None and p != dist_mine.probability(key):
                    x = bar.get_x() + bar.get_width() / 2
                    ax.plot(
                        [x],
                        [float(p)],
                        marker="_",
                        markersize=16,
                        markeredgewidth=2.5,
                        color=OTHER_READING,
                        zorder=5,
                        label=f"under '{value}'",
                    )
    if other.verdict != a.verdict:
        moved = True
        title = figure.get_suptitle()
        verdict = "\n".join(textwrap.wrap(f"under '{value}': {other.verdict}", 95))
        figure.suptitle(f"{title}\n{verdict}", fontsize=9)
    dashes = [line for ax in figure.axes for line in ax.lines][:1]
    if dashes:  # the bars' legend again, the other reading's dash beside its two entries
        handles, names = figure.axes[0].get_legend_handles_labels()
        for legend in figure.legends:
            legend.remove()
        figure.legend(
            [*handles, *dashes],
            [*names, f"under '{value}'"],
            loc="outside lower center",
            ncols=3,
            fontsize=8,
            frameon=False,
        )
    return moved


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

        def advise(**chosen: Any) -> stalingrad.CloseAssault:
            return stalingrad.close_assault_bonus(
                units,
                defence,
                df,
                crt=crt,
                not_adjacent=away,
                drm=drm,
                fire_drm=fire_drm,
                **chosen,
            )

        advice = advise(**readings)
        same = set()
        for name, _, options, _, _, _ in READING_CONTROLS:
            others = [value for _, value in options if value != readings[name]]
            answer = _answer(advice)
            if all(_answer(advise(**{**readings, name: value})) == answer for value in others):
                same.add(name)
        if advice.with_bonus is None or advice.fire_column is None:
            same.add("fire_drm")  # no first fire to modify
        last["advise"] = advise
        return _Assault(advice, crt, frozenset(same), readings)

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
                dist_table(
                    {"the attack's column": a.with_bonus.column},
                    order=column_order(crt, a.with_bonus.column),
                ),
            ]
        return "".join(parts)

    panel = ChartPanel(
        compute,
        draw,
        size=(7.0, 3.8),
        rule="Streets of Stalingrad 9.67, the Close Assault Bonus",
        table=table_control(table),
        file=crt_file,
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
        **{
            name: widgets.Dropdown(
                options=options, description=label, tooltip=tooltip, layout={"width": width}
            )
            for name, label, options, tooltip, width, _ in READING_CONTROLS
        },
        drm=_slider(-3, 3, "DRM", "the attack's die roll modifier", "16em"),
        fire_drm=_slider(-3, 3, "fire DRM", "die roll modifier of the defender's first fire"),
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

    @reports_errors
    def apply_preset(chart: ChartPanel, values: dict[str, object]) -> None:
        # a chart panel's controls are in its ``controls``, not its attributes
        for name, value in values.items():
            if name not in chart.controls:
                raise WbkError(f"worked example: the panel has no control {name!r}")
            chart.controls[name].value = value

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
    setattr(panel, "apply_preset", functools.partial(apply_preset, panel))  # noqa: B010
    panel.step_control = panel.add_step_control(draw_at_step)
    setattr(  # noqa: B010 (the advisor's compare control)
        panel,
        "compare",
        panel.add_compare_readings(
            {
                name: stalingrad.READING_WORDS[name]
                for name in stalingrad.READING_WORDS
                if name in panel.controls
            },
            mark=mark,
            current=lambda: {name: panel.controls[name].value for name in READING_NAMES},
        ),
    )
    panel.add_presets(PRESETS)
    last["panel"] = panel
    panel.update()  # the notes beside the settings filled in
    return panel
