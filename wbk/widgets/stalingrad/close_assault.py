"""The Close Assault Bonus advisor (Streets of Stalingrad 9.67)."""

from __future__ import annotations

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
from wbk.widgets import (
    ChartPanel,
    chart_edge_cases,
    parse_optional_number,
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
    _grouped_bars(right, attackers, colours, "attacking units lost to the defender's fire")
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
#: The settings that say when they make no difference.
NOTED = [name for name, *_ in READING_CONTROLS] + ["fire_drm"]


def _answer(a: stalingrad.CloseAssault) -> tuple:
    """What a reader sees of an advice: the verdict and every distribution."""
    bonus = None if a.with_bonus is None else a.with_bonus.exchange
    return (a.verdict, a.without.exchange, bonus)


@chart_edge_cases
def assault_advisor(table: str = "illustrative_1d6", path: str = "") -> ChartPanel:
    """9.67: type the attacking units, the defence's DF and number of units; see what the
    Close Assault Bonus buys and costs, side by side, with the verdict in the chart's title."""

    notes: dict[str, widgets.HTML] = {}  # "makes no difference here", beside each setting

    def compute(table, file, attack, defence_df, defending_units, drm, fire_drm, **readings):
        crt = choose_crt(table, file)
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
        rule="Streets of Stalingrad 9.67, the Close Assault Bonus",
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
    panel.update()  # the notes beside the settings filled in
    return _in_rows(
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
