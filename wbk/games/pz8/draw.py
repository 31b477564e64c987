"""Pz 8's results drawn, each registered with ``wbk.draw`` so that ``picture(result, step=k)``
draws it, in a notebook as in a panel: a shot, a reach, a platoon move and a rally on their
table (``on_board``: ``wbk.draw.tables``' ``TableView``, their verdicts in the title); a duel
and every gun against every class of tank as charts (``in_figure``); the kinds of quiz question
on their table (``question_drawing``). Beside them, what "compare with" marks on these
pictures: the cells and bars that move under another reading, and on the table the other
verdict in a box and what changes hatched.

``shot_title``, ``platoon_title`` and ``rally_title`` put an answer in words as its picture's
title; ``fit_suptitle`` titles a chart with its answer.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.collections import PathCollection
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle
from matplotlib.path import Path
from matplotlib.text import Text
from matplotlib.ticker import PercentFormatter

from wbk.dice import percent
from wbk.draw import in_figure, on_board
from wbk.draw.charts import heatmap
from wbk.draw.quiz import CHOSEN, RIGHT, QuestionDrawing, legend_key, question_drawing, rings
from wbk.draw.tables import TableView, say_chance, say_inches, shape_paths
from wbk.draw.view import STEP_COLOUR, fit_title, stamp_texts, step_index, text_width
from wbk.errors import WbkError
from wbk.explain import Step
from wbk.table import seen_share

from . import quiz
from .duel import Duel, duel_curve
from .movement import MovementReach, reach_changes
from .platoons import PlatoonMove
from .readings import READINGS
from .shaken import Rally
from .shooting import AttackTable, Shot, attack_table
from .tanks import GUN_RANGES, GUNS, PLATOON_RADIUS, RALLY_RADIUS, TANK_CLASSES, Tank

# --- on the table -------------------------------------------------------------------------


def shot_title(shot: Shot) -> str:
    """A shot's answer as a title, e.g.
    "Pz IV → T-34, 14": in cover (62% seen), destroyed 91/216 (42.13%)"."""
    where = f"{shot.firer} → {shot.target}, {shot.distance_words or say_inches(shot.distance)}"
    sight = shot.sight
    if sight is None:
        raise WbkError(f"the shot {shot.firer} → {shot.target} has no line of sight to draw")
    if sight.all_seen:
        seen = "in the open"
    elif shot.in_cover:
        seen = f"in cover ({seen_share(shot.visible_fraction)} seen)"
    elif sight.has_los:
        seen = f"in the open ({seen_share(shot.visible_fraction)} seen)"
    else:
        seen = "not seen"
    if shot.outcome is None:
        why = "; ".join(
            s.text.removeprefix("no shot: ") for s in shot.steps if s.text.startswith("no shot: ")
        )
        return f"{where}: {seen}, no shot ({why})"
    destroyed = shot.outcome.map(lambda o: o.destroyed).probability(True)
    return f"{where}: {seen}, destroyed {say_chance(destroyed)}"


def platoon_title(move: PlatoonMove) -> str:
    """A platoon move's answer as a title, e.g. "Platoon move of Pz IV 1's platoon: not
    allowed, 'Tiger' is 11.7" from the HQ 'Pz IV 1', more than 3"" ."""
    whose = f"{move.hq}'s platoon" if move.hq else "a platoon"
    if move.allowed and move.movement is not None:
        base = min(m.inches for m in move.movement.outcomes()) - 1
        return (
            f"Platoon move of {whose}: allowed, {len(move.tanks)} tanks move 1D6 + {base}, "
            "then the turn passes"
        )
    reasons = [s.text for s in move.steps if "more than" in s.text or "shaken" in s.text] or [
        move.steps[-1].text
    ]
    return f"Platoon move of {whose}: not allowed, " + "; ".join(reasons)


def rally_title(rally: Rally) -> str:
    """A rally's answer as a title, e.g. "Rally of KV-1: its HQ 'T-34 1' 2.5" away, it
    rallies 1/3 (33.33%)"."""
    if rally.hq is not None and rally.hq != rally.tank and rally.distance is not None:
        where = f"its HQ {rally.hq!r} {rally.distance_words or say_inches(rally.distance)} away, "
    elif rally.hq == rally.tank:
        return f"Rally of {rally.tank}: the HQ rallies itself on 4-6, {say_chance(rally.chance)}"
    else:
        where = ""
    why = [
        words
        for words, applies in (
            (f"more than {say_inches(RALLY_RADIUS)}", rally.hq_within_12 is False),
            ("its HQ is destroyed", any(s.text.endswith(" is destroyed") for s in rally.steps)),
            ("its HQ is itself shaken", any("itself shaken" in s.text for s in rally.steps)),
        )
        if applies
    ]
    verdict = (
        f"it rallies {say_chance(rally.chance)}"
        if rally.chance
        else "it cannot rally" + (f" ({'; '.join(why)})" if why else "")
    )
    return f"Rally of {rally.tank}: {where}{verdict}"


@on_board.register
def _shot(subject: Shot, view: TableView) -> Sequence[Step]:
    """The firer's gun ranges (its own gun's solid), the line of sight and what hides the
    target, the answer in the title."""
    gun = getattr(view.table.piece(subject.firer), "gun", "")
    view.show_ranges(subject.firer, GUN_RANGES, gun=gun)
    view.show_sight(subject.sight)
    view.set_title(shot_title(subject))
    return subject.steps


@on_board.register
def _reach(subject: MovementReach, view: TableView) -> Sequence[Step]:
    """The places the tank can reach by the chance of each band, titled with how far, and the
    readings it assumes where they are not the defaults."""
    view.show_reach(subject)
    tags = [READINGS[k].tag(v) for k, v in subject.readings if READINGS[k].tag(v)]
    read = f" [{'; '.join(tags)}]" if tags else ""
    if subject.bands:
        low, high = subject.bands[0].inches, subject.bands[-1].inches
        view.set_title(
            f"Where can {subject.tank} move? {say_inches(low)} to {say_inches(high)} by the roll;"
            f" the darker, the likelier{read}"
        )
    else:
        view.set_title(f"Where can {subject.tank} move? Nowhere: it cannot move")
    return subject.steps


@on_board.register
def _platoon_move(subject: PlatoonMove, view: TableView) -> Sequence[Step]:
    """The 3" around the HQ, a line from the HQ to each tank that would move, its length; the
    verdict in the title."""
    measured = [
        name
        for name in subject.platoon_tanks
        if not getattr(view.table.piece(name), "destroyed", False)
        and not getattr(view.table.piece(name), "shaken", False)
    ]
    view.show_links(subject.hq, measured, PLATOON_RADIUS, "platoon move")
    view.set_title(platoon_title(subject))
    return subject.steps


@on_board.register
def _rally(subject: Rally, view: TableView) -> Sequence[Step]:
    """The 12" around the tank's HQ and the line from the HQ to the tank, its length; the
    verdict in the title."""
    view.show_links(subject.hq, [subject.tank], RALLY_RADIUS, "rally")
    view.set_title(rally_title(subject))
    return subject.steps


# --- charts ---------------------------------------------------------------------------------


def fit_suptitle(figure: Figure, text: str) -> None:
    """A chart's title with its answer, wrapped at word breaks to the figure's width (two lines
    at most, smaller type rather than cut off; two lines break after the question rather than
    inside the answer)."""
    width = figure.get_figwidth() * 72 * 0.96
    lines, size = fit_title(text, width, cut=False, break_after=("; ", ": "))
    figure.suptitle("\n".join(lines), fontsize=size)


#: The gun-against-armour chart's size, inches.
ATTACK_TABLE_SIZE = (8.0, 3.6)
#: Where a figure keeps the gun-against-armour heatmaps it shows, to change them in place.
_HEATMAPS = "_wbk_pz8_heatmaps"


@in_figure.register
def _attack_table(subject: AttackTable, figure: Figure, *, step: int | None = None) -> None:
    """Every gun against every class of tank: who destroys whom on the left, who hands over the
    turn on the right, the title the best and the worst of it; at a step, the step in words.

    A figure that shows the heatmaps already (a panel's) has them changed in place: their cells,
    numbers and titles, nothing made anew and nothing laid out again, so that a click is
    answered at once. Laid out once, with room for the longest titles any modifiers give."""
    shown = getattr(figure, _HEATMAPS, None)  # each heatmap's axes and its cells' numbers
    if shown is None or list(figure.axes[:2]) != [ax for ax, _ in shown]:
        figure.clear()
        _sized(figure, ATTACK_TABLE_SIZE)
        figure.set_layout_engine("constrained")
        _draw_heatmaps(figure, subject)
        _lay_out_for_the_longest_titles(figure, figure.axes[:2])
        stamp_texts(figure)  # its texts drawn from stamps: most of a draw's cost
        setattr(figure, _HEATMAPS, [(ax, list(ax.texts)) for ax in figure.axes[:2]])
    else:
        drawn = _heatmaps_drawn(
            (subject.cover, subject.veteran, subject.shaken, subject.natural_six)
        )
        for (ax, texts), grid, numbers, title in zip(
            shown, drawn.grids, drawn.numbers, drawn.titles, strict=True
        ):
            ax.images[0].set_data(grid)
            for text, (words, colour) in zip(texts, numbers, strict=True):
                text.set_text(words)
                text.set_color(colour)
            ax.set_title(title, fontsize=10)
        words, size = drawn.suptitle
        figure.suptitle(words, fontsize=size)
    if step is not None:
        k = step_index(subject.steps, step)
        at = subject.steps[k]
        fit_suptitle(figure, f"Step {k + 1} of {len(subject.steps)}: {at.text} ({at.rule})")


#: ``picture`` hands a panel's figure over uncleared: the heatmaps on show are changed in place
_attack_table.keeps_figure = True  # type: ignore[attr-defined]


def heatmap_artists(figure: Figure) -> list[Artist] | None:
    """What a change of modifiers changes on the gun-against-armour chart ``figure`` shows:
    each heatmap's cells, the frame drawn over them and their numbers, then the titles, in the
    order they are drawn; None when it shows no such chart."""
    shown = getattr(figure, _HEATMAPS, None)
    if shown is None or list(figure.axes[:2]) != [ax for ax, _ in shown]:
        return None
    top = getattr(figure, "_suptitle", None)  # matplotlib keeps it only there
    cells = [a for ax, _ in shown for a in (ax.images[0], *ax.spines.values(), *ax.texts)]
    return [*cells, *(ax.title for ax, _ in shown), *([top] if top is not None else [])]


def _sized(figure: Figure, size: tuple[float, float]) -> None:
    """``figure`` at ``size`` (inches), unless it is on show in a panel, whose page sizes it."""
    if figure.canvas.manager is None:
        figure.set_size_inches(*size)


def _draw_heatmaps(figure: Figure, table: AttackTable) -> None:
    left, right = figure.subplots(1, 2)
    guns, classes = list(GUNS), list(TANK_CLASSES)
    words = table.modifiers
    heatmap(
        lambda g, c: table.chances[str(g), str(c)].destroyed,
        guns,
        classes,
        ax=left,
        xlabel="firer's gun",
        ylabel="target",
        title="Which gun kills which tank?\ndestroyed by one attack"
        + ("\n" if text_width(f"destroyed by one attack ({words})", 10) > 250 else " ")
        + f"({words})",
    )
    kills = {key: one.destroyed for key, one in table.chances.items()}
    best = max(kills, key=lambda key: kills[key])
    worst = min(kills, key=lambda key: kills[key])
    useless = [g for g in guns if all(kills[g, c] == 0 for c in classes)]
    if useless:
        worst_words = f"a {' or '.join(useless)} gun cannot destroy any tank (it needs a 7)"
    else:
        worst_words = f"at worst a {worst[0]} gun a {worst[1]} tank {percent(kills[worst])}"
    fit_suptitle(
        figure,
        f"At best a {best[0]} gun destroys a {best[1]} tank {percent(kills[best])} of the "
        f"time; {worst_words}",
    )
    heatmap(
        lambda g, c: table.chances[str(g), str(c)].turn_passes,
        guns,
        classes,
        ax=right,
        xlabel="firer's gun",
        title="Does the attack hand over the turn?\na gun die showing 1 or 2",
    )
    for ax in (left, right):
        ax.set_xticks(range(3), [f"{g}\n({say_inches(GUN_RANGES[g])})" for g in guns])
        ax.set_yticks(range(3), classes)


@dataclass(frozen=True)
class _Heatmaps:
    """What the heatmaps show under one set of modifiers, taken from a drawing of them: their
    grids, their cells' numbers and colours, and the titles."""

    grids: tuple[np.ndarray, np.ndarray]
    numbers: tuple[tuple[tuple[str, object], ...], tuple[tuple[str, object], ...]]
    titles: tuple[str, str]
    suptitle: tuple[str, float]


@functools.lru_cache(maxsize=64)
def _heatmaps_drawn(key: tuple[bool, bool, bool, str]) -> _Heatmaps:
    """The heatmaps under the modifiers ``key``, drawn once on a figure of their own."""
    cover, veteran, shaken, natural_six = key
    figure = Figure(figsize=ATTACK_TABLE_SIZE)
    table = attack_table(cover=cover, veteran=veteran, shaken=shaken, natural_six=natural_six)
    _draw_heatmaps(figure, table)
    left, right = figure.axes[:2]
    top = getattr(figure, "_suptitle", None)
    return _Heatmaps(
        grids=(np.asarray(left.images[0].get_array()), np.asarray(right.images[0].get_array())),
        numbers=(
            tuple((t.get_text(), t.get_color()) for t in left.texts),
            tuple((t.get_text(), t.get_color()) for t in right.texts),
        ),
        titles=(left.get_title(), right.get_title()),
        suptitle=(top.get_text(), float(top.get_fontsize())) if top else ("", 10.0),
    )


def _lay_out_for_the_longest_titles(figure: Figure, axes: Sequence[Axes]) -> None:
    """Lay the figure out once, with room for the longest titles any modifiers give (the
    chart's title on two lines, the left heatmap's on three), and keep that layout: a change
    then moves no axes, and costs no layout."""
    top = getattr(figure, "_suptitle", None)
    shown = (top.get_text() if top is not None else "", *(ax.get_title() for ax in axes))
    size = float(top.get_fontsize()) if top is not None else 10.0
    figure.suptitle("Xy\nXy", fontsize=max(size, 10.0))
    axes[0].set_title("Xy\nXy\nXy", fontsize=10)
    axes[1].set_title("Xy\nXy", fontsize=10)
    figure.draw_without_rendering()
    figure.set_layout_engine("none")
    if top is not None:
        figure.suptitle(shown[0], fontsize=size)
    for ax, title in zip(axes, shown[1:], strict=True):
        ax.set_title(title, fontsize=10)


#: The two duellists' colours (Okabe-Ito blue and vermillion), the grey of "neither".
DUEL_COLOURS = {"first": "#0072B2", "second": "#D55E00", "neither": "#999999"}
#: The grey bar and line of the duel: a state from which neither tank can destroy the other.
NEITHER = "neither can ever win\n(out of range, or no hit possible)"
#: How a step fades what it is not about.
FADED = 0.18
#: The odds-by-range chart's vertical limits: headroom above 100% for the legend, which then
#: covers no line at any range.
CURVE_BOTTOM, CURVE_TOP = -0.02, 1.42
#: Where 100% sits on the odds-by-range chart, as a share of its height.
CURVE_FULL = (1.02 - CURVE_BOTTOM) / (CURVE_TOP - CURVE_BOTTOM)

#: A drawn part of the duel: (what it is about, the tank's role or None for both, the artist).
Part = tuple[str, str | None, Artist]


def named_tank(t: Tank) -> str:
    """A duellist by its name, class, gun and crew: "Tiger (heavy, long gun, veteran)"."""
    return f"{t.name} ({t.tank_class}, {t.gun} gun{', veteran' if t.is_veteran else ''})"


@in_figure.register
def _duel(subject: Duel, figure: Figure, *, step: int | None = None) -> None:
    """A duel in three charts: one attack of each tank (the chance it destroys, and hits
    without destroying; the chance it passes the turn), who wins at the duel's range, and how
    that changes with the range (``duel_curve``). The title is the verdict.

    At ``step``, what the step is about (``Step.about``: a tank's gun range, its attack, the
    turnover, the shaken rule, who wins) outlined in sky blue, the rest faded, the step in
    words with its rule as the title."""
    _sized(figure, (9.0, 3.8))
    figure.set_layout_engine("constrained")
    curve = duel_curve(subject)
    k = None if step is None else step_index(subject.steps, step)
    a, b = subject.tanks
    grid = figure.add_gridspec(1, 3, width_ratios=(0.9, 1, 1.6))
    # made in this order so that the chart of who wins stays the figure's first axes
    left, right, attacks = (figure.add_subplot(grid[i]) for i in (1, 2, 0))
    parts = _draw_attacks(attacks, subject.one_attack_each)
    parts += _draw_who_wins(left, subject)
    parts += _draw_odds_by_range(right, subject, curve)
    if k is None:
        name_a, name_b = named_tank(a), named_tank(b)
        if any(subject.range_inches <= GUN_RANGES[t.gun] for t in (a, b)):
            verdict = f"the first wins {say_chance(subject.first_wins)}"
            fit_suptitle(figure, f"{name_a} shooting first against {name_b}: {verdict}")
        else:
            fit_suptitle(
                figure,
                f"Out of range: neither gun reaches {say_inches(subject.range_inches)} "
                f"({name_a} against {name_b})",
            )
        return
    _mark_step(subject, k, parts, {"attack": attacks, "wins": left, "curve": right}, max(curve))
    at = subject.steps[k]
    fit_suptitle(figure, f"Step {k + 1} of {len(subject.steps)}: {at.text} ({at.rule})")


def _percent_axis(ax: Axes) -> None:
    ax.set_yticks([0, 0.25, 0.5, 0.75, 1])
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))


def _draw_attacks(ax: Axes, each: tuple) -> list[Part]:
    """One attack of each tank (``Duel.one_attack_each``): the chance it destroys, the chance it
    hits and the target saves (hatched), and the chance it passes the turn; "out of range" for
    a gun that does not reach."""
    parts: list[Part] = []
    for i, (role, one) in enumerate(zip(("first", "second"), each, strict=True)):
        colour = DUEL_COLOURS[role]
        if one is None:
            note = ax.text(i, 0.05, "out of\nrange", ha="center", fontsize=7)
            parts.append(("attack", role, note))
            continue
        (kill,) = ax.bar(i, float(one.destroyed), color=colour)
        (saved,) = ax.bar(
            i,
            float(one.shaken),
            bottom=float(one.destroyed),
            color=colour,
            alpha=0.35,
            hatch="//",
            edgecolor=colour,
        )
        kill_label = ax.text(
            i, float(one.hit) + 0.02, percent(one.destroyed), ha="center", fontsize=8
        )
        passes = ax.text(
            i,
            -0.2,
            f"turn passes\n{percent(one.turn_passes)}",
            ha="center",
            va="top",
            fontsize=7,
        )
        parts += [("attack", role, kill), ("attack", role, kill_label), ("attack", role, saved)]
        parts += [("shaken", role, saved), ("turns", role, passes), ("attack", role, passes)]
    ax.set_xticks(range(2), ["first\nshoots", "second\nshoots"])
    ax.set_xlim(-0.6, 1.6)
    ax.set_ylim(0, 1.1)
    _percent_axis(ax)
    ax.set_title("One attack each", fontsize=10)
    ax.legend(
        handles=[
            Patch(color="#777777", label="destroys"),
            Patch(facecolor="#cccccc", edgecolor="#777777", hatch="//", label="hits, saved"),
        ],
        fontsize=7,
        loc="upper left",
        frameon=False,
    )
    return parts


def _draw_who_wins(ax: Axes, d: Duel) -> list[Part]:
    """Who wins at the duel's range: a bar each, and one for "neither" when a stalemate can
    come."""
    kinds = [  # (tick, legend words, chance, role)
        ("first\nwins", "the first wins", d.first_wins, "first"),
        ("second\nwins", "the second wins", d.second_wins, "second"),
    ]
    if d.stalemate:
        kinds.append(("neither\never wins", NEITHER, d.stalemate, "neither"))
    parts: list[Part] = []
    for i, (_tick, said, p, role) in enumerate(kinds):
        (bar,) = ax.bar(i, float(p), color=DUEL_COLOURS[role], label=said)
        label_of = ax.text(i, float(p) + 0.02, percent(p), ha="center", fontsize=8)
        part = "neither" if role == "neither" else "wins"
        parts += [(part, role if part == "wins" else None, bar), (part, None, label_of)]
    ax.set_xticks(range(len(kinds)), [kind[0] for kind in kinds])
    ax.set_ylim(0, 1.1)
    _percent_axis(ax)
    ax.set_title(f"Who wins at {say_inches(d.range_inches)}?", fontsize=10)
    return parts


def _draw_odds_by_range(ax: Axes, d: Duel, curve: dict[int, Duel]) -> list[Part]:
    """How the odds change with range (``curve``: the duel at each range), and the duel's own
    range marked."""
    ranges = list(curve)
    parts: list[Part] = []
    for role, attribute, style in (
        ("first", "first_wins", "-"),
        ("second", "second_wins", "--"),
        ("neither", "stalemate", ":"),
    ):
        values = [float(getattr(one, attribute)) for one in curve.values()]
        if role == "neither" and not any(values):
            continue
        (line,) = ax.plot(
            ranges,
            values,
            color=DUEL_COLOURS[role],
            linestyle=style,
            drawstyle="steps-mid",
            label=NEITHER if role == "neither" else f"the {role} wins",
        )
        parts.append(("neither", None, line) if role == "neither" else ("wins", role, line))
    chosen = ax.axvline(
        d.range_inches,
        ymax=CURVE_FULL,  # up to 100%, short of the legend
        color="black",
        linewidth=0.8,
        linestyle="-.",
        label=f"chosen range {say_inches(d.range_inches)}",
    )
    parts.append(("range", None, chosen))
    ax.set_ylim(CURVE_BOTTOM, CURVE_TOP)
    _percent_axis(ax)
    ax.set_xlabel("range (inches)")
    ax.set_title("How the odds change with range", fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7, loc="upper left", ncols=2)
    return parts


def _mark_step(d: Duel, k: int, parts: list[Part], charts: dict[str, Axes], longest: int) -> None:
    """Step ``k``: what it is about outlined (bars and lines thicker, words bold, the gun
    ranges shaded, the charts it is about framed), the rest faded."""
    about = set(d.steps[k].about)
    roles = {role for role in ("first", "second") if role in about}
    shown = {
        id(artist)
        for part, role, artist in parts
        if part in about and (role is None or not roles or role in roles)
    }
    for artist in {id(artist): artist for _, _, artist in parts}.values():
        if id(artist) not in shown:
            artist.set_alpha(FADED)
        elif isinstance(artist, Text):
            artist.set_fontweight("bold")
        elif isinstance(artist, Rectangle):  # a bar
            artist.set_edgecolor(STEP_COLOUR)
            artist.set_linewidth(3)
        elif isinstance(artist, Line2D):
            artist.set_linewidth(3)
    if "range" in about:
        for role_of in sorted(roles or {"first", "second"}):
            gun = d.tanks[role_of == "second"].gun
            charts["curve"].axvspan(
                0.5,
                min(GUN_RANGES[gun], longest) + 0.5,
                ymax=CURVE_FULL,
                color=STEP_COLOUR,
                alpha=0.2,
                zorder=0,
            )
    chart_of = {"attack": "attack", "shaken": "attack", "turns": "attack", "wins": "wins"}
    for part, chart in chart_of.items():
        if part in about:
            for spine in charts[chart].spines.values():
                spine.set(color=STEP_COLOUR, linewidth=3)


# --- what another reading changes -------------------------------------------------------------

#: The colour of what another reading changes (Okabe-Ito vermillion).
OTHER = "#D55E00"


def mark_other_cells(ax: Axes, cells: Iterable[tuple[int, int, Fraction]]) -> list[Artist]:
    """Each heatmap cell (column, row, the other reading's chance) outlined, dashed, with the
    other chance in words; the marks, box then words, cell by cell."""
    marks: list[Artist] = []
    for i, j, there in cells:
        box = Rectangle(
            (i - 0.47, j - 0.47),
            0.94,
            0.94,
            fill=False,
            edgecolor=OTHER,
            linewidth=2.5,
            linestyle="--",
            zorder=5,
        )
        ax.add_patch(box)
        note = ax.text(
            i,
            j - 0.3,
            f"other: {percent(there)}",
            ha="center",
            fontsize=7,
            color="white",
            zorder=5,
        )
        marks += [box, note]
    return marks


def mark_other_bars(ax: Axes, pairs: Sequence[tuple[Fraction, Fraction]]) -> list[Artist]:
    """Over bar i of ``ax``, the other reading's chance (each pair: the chance on show, the
    other) as a dashed outline with its words, where the two differ; the marks, bar then
    words."""
    marks: list[Artist] = []
    for i, (now, then) in enumerate(pairs):
        if now != then:
            (bar,) = ax.bar(
                i, float(then), fill=False, edgecolor="black", linestyle="--", linewidth=1.5
            )
            note = ax.text(
                i + 0.42, float(then), f"other: {percent(then)}", fontsize=7, rotation=90
            )
            marks += [bar, note]
    return marks


class TableComparison:
    """What "compare with" marks on a table: how the answer under another reading differs from
    the one on show, its verdict in a box at the top and what changes hatched (the tanks a
    platoon move takes or leaves, the places a reach gains or loses). Hidden until used."""

    def __init__(self, view: TableView) -> None:
        self.view = view
        self.verdict = view.ax.text(
            0.5,
            0.985,
            "",
            transform=view.ax.transAxes,
            ha="center",
            va="top",
            fontsize=8,
            zorder=6,
            bbox={"facecolor": "#fff3d6", "edgecolor": OTHER, "boxstyle": "round"},
            visible=False,
        )
        self.hatch = PathCollection(
            [], facecolors="none", edgecolors=OTHER, hatch="xx", linewidths=1.5, zorder=4.4
        )
        view.ax.add_collection(self.hatch)

    def clear(self) -> None:
        """Take the marks off."""
        self.verdict.set_visible(False)
        self.hatch.set_paths([])

    def say(self, words: str, verdict: str) -> None:
        """The other reading's ``verdict`` in the box, ``words`` naming the reading."""
        self.verdict.set_text(f"under '{words}': {verdict}")
        self.verdict.set_visible(True)

    def show(self, here: Shot | PlatoonMove | MovementReach, there, words: str) -> bool:
        """Mark how ``there``, the answer under the reading ``words``, differs from ``here``,
        the answer on show: a shot's verdict, a platoon move's (the tanks that would move under
        one and not the other hatched), a reach's places (hatched); whether they differ."""
        if isinstance(here, Shot):
            if shot_title(there) == shot_title(here):
                return False
            self.say(words, shot_title(there).split(": ", 1)[1])
        elif isinstance(here, PlatoonMove):
            if (there.allowed, there.tanks) == (here.allowed, here.tanks):
                return False
            moving = (set(here.tanks) if here.allowed else set()) ^ (
                set(there.tanks) if there.allowed else set()
            )
            table = self.view.table
            self.hatch.set_paths(
                [
                    Path(list(table.piece(n).footprint.exterior.coords), closed=True)
                    for n in sorted(moving)
                ]
            )
            self.say(words, platoon_title(there).split(": ", 1)[1])
        else:
            changes = reach_changes(here, there)
            if changes.area < 0.01:
                return False
            self.hatch.set_paths(shape_paths(changes))
            self.say(words, f"the reach changes where hatched ({changes.area:.0f} sq in)")
        return True


# --- quiz questions ---------------------------------------------------------------------------


def _ring(view: TableView, position: tuple[float, float]) -> Line2D:
    """A black ring around the tank at ``position``: the one the question is about."""
    x, y = position
    ring = Line2D(
        [x],
        [y],
        marker="o",
        markersize=24,
        markerfacecolor="none",
        markeredgecolor="black",
        markeredgewidth=2,
        linestyle="none",
        zorder=9,
    )
    view.ax.add_line(ring)
    return ring


def _on_the_table(view: TableView, q, answer, chosen) -> None:
    """The shooter ringed; the learner's tanks in orange; revealed, a shot as ``picture``
    draws it, or the tanks that can be shot."""
    table, firer = q.board, q.settings.get("firer")
    shot_drawn = answer is not None and isinstance(answer.result, Shot)
    if shot_drawn:
        on_board(answer.result, view)
    marks = {}
    if chosen:
        points = [table.piece(name).position for name in chosen]
        picked = rings(view.ax, points, "o", size=22, colour=CHOSEN, edge_width=3)
        marks["your tanks"] = legend_key(picked)
    if answer is not None and q.form == "tanks":
        points = [table.piece(name).position for name in answer.value]
        right = rings(view.ax, points, "s", size=26, colour=RIGHT, edge_width=2)
        marks["can be shot"] = legend_key(right)
    if firer is not None and not shot_drawn:
        marks["the shooter"] = legend_key(_ring(view, table.piece(firer).position))
    view.set_overlay_legend("quiz", marks)


def _the_move(view: TableView, q, answer, chosen) -> None:
    """The tank ringed and the point it would end its move at crossed; revealed, its reach by
    the roll under the question's readings."""
    if answer is not None:
        view.show_reach(answer.result)
    mover = _ring(view, q.board.piece(q.settings["tank"]).position)
    px, py = q.settings["point"]
    point = Line2D(
        [px],
        [py],
        marker="X",
        markersize=11,
        color=CHOSEN,
        markeredgecolor="black",
        linestyle="none",
        zorder=9,
    )
    view.ax.add_line(point)
    view.set_overlay_legend(
        "quiz", {"the tank": legend_key(mover), "where it would end": legend_key(point)}
    )


def _shooting_at(q) -> str:
    return f"{q.settings['firer']} → {q.settings['target']}"


question_drawing(
    quiz.Shot,
    QuestionDrawing(
        title=lambda q: f"{_shooting_at(q)}: does it reach? in cover?",
        draw=_on_the_table,
        own_title=True,
    ),
)
question_drawing(
    quiz.Targets,
    QuestionDrawing(
        title=lambda q: f"Which tanks can {q.settings['firer']} shoot?", draw=_on_the_table
    ),
)
question_drawing(
    quiz.DestroyChance,
    QuestionDrawing(
        title=lambda q: f"{_shooting_at(q)}: chance to destroy?",
        draw=_on_the_table,
        own_title=True,
    ),
)
question_drawing(
    quiz.Platoon,
    QuestionDrawing(title=lambda q: f"May the {q.settings['side']} platoon move together?"),
)
question_drawing(
    quiz.Reach,
    QuestionDrawing(
        title=lambda q: (
            f"Can {q.settings['tank']} end its move at "
            f"({q.settings['point'][0]:g}, {q.settings['point'][1]:g})?"
        ),
        draw=_the_move,
    ),
)
