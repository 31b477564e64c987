"""SS Panzer's results drawn (see ``wbk.draw``): a line of sight, a route and a victory on
their map, a fire's dice as a chart (``fire_picture``), and what a compared reading changes,
marked over them (``hatched_hexes``, ``mark_compared_line``, ``outline_other_effect``). The
panels (``wbk.games.ss_panzer.panels``) draw with these."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.figure import Figure

from wbk.dice import Dist, chance
from wbk.draw import in_figure, on_board
from wbk.draw.charts import bar_chart
from wbk.draw.maps import Z_NUMBERS, MapView, hex_polygons, hexside_segment
from wbk.draw.quiz import QuestionDrawing, mark_chosen_hexes, question_drawing
from wbk.draw.view import PictureView, step_index, step_title
from wbk.errors import WbkError
from wbk.explain import Step, count
from wbk.games.ss_panzer import FireDice, FireEffect, LosResult, Route, Victory, quiz
from wbk.hexgrid import Hex, Hexside

#: A chart of the dice: what gives dice (each condition, the base, the artillery's side) in
#: orange, the fires rolled in blue (Okabe-Ito); what a step is not about is faded to this.
DICE_SOURCE_COLOUR = "#E69F00"
FIRE_COLOUR = "#0072B2"
NOT_THIS_STEP_ALPHA = 0.25
#: The effects in the order the chart draws them, whichever can come up.
EFFECTS = tuple(FireEffect)


def fire_title(fires: FireDice, effect: Dist, hit_number: int) -> str:
    """A fire's picture title: the dice, the hit number, and the chance of each effect."""
    dice = " and ".join(count(n, "die", "dice") for n in fires.fires)
    fired = f"{dice} ({'separate fires' if len(fires.fires) > 1 else 'one fire'})"
    chances = ", ".join(
        _whole_phrase(f"{name} {chance(effect.probability(e))}")
        for e, name in (
            (FireEffect.STEP_LOSS, "step loss"),
            (FireEffect.SUPPRESSED, "suppressed"),
            (FireEffect.NO_EFFECT, "no effect"),
        )
    )
    return f"{fired}, hitting on {hit_number} or less\n{chances}"


def _whole_phrase(text: str) -> str:
    """``text`` kept on one line of a wrapped title (its spaces made non-breaking)."""
    return text.replace(" ", "\u00a0")


def fire_picture(
    fires: FireDice,
    *,
    effect: Dist | None = None,
    hit_number: int | None = None,
    step: int | None = None,
    figure: Figure | None = None,
) -> Figure:
    """Errata 9.5's dice as a chart: a bar for what gives dice (each condition, or the base, or
    the Soviet artillery's side) and one for each fire rolled, each bar's dice written beside
    it; with ``effect`` (and its ``hit_number``), the chance of each effect on the target under
    it. At ``step`` (an index into ``fires.steps``) the bars the step is about stand out, the
    rest (the effect too) faded, and the title says the step; None: the whole answer, titled
    with the dice and the chances. Drawn on ``figure`` (cleared) or a new one."""
    if not isinstance(fires, FireDice):
        raise WbkError(f"fire_picture: {fires!r} is not a FireDice (fire_dice's answer)")
    at = None if step is None else step_index(fires.steps, step)
    about = set(fires.steps[at].about) if at is not None else None
    rows = [*fires.rolled_by, *zip(fires.fire_names, fires.fires, strict=True)]
    if figure is None:
        figure = Figure(figsize=(5.2, 4.6 if effect is not None else 2.6), layout="constrained")
    else:
        figure.clear()
    if effect is not None:
        dice_ax, effect_ax = figure.subplots(
            2, 1, gridspec_kw={"height_ratios": [max(2, len(rows)), 3]}
        )
    else:
        dice_ax, effect_ax = figure.add_subplot(), None
    sources = len(fires.rolled_by)
    positions = list(range(len(rows)))[::-1]  # the first row on top
    for (name, dice), y, k in zip(rows, positions, range(len(rows)), strict=True):
        on_show = about is None or name in about
        bar = dice_ax.barh(
            y,
            dice,
            height=0.6,
            color=DICE_SOURCE_COLOUR if k < sources else FIRE_COLOUR,
            edgecolor="#1a1a1a" if about is not None and on_show else "none",
            linewidth=2.0,
            alpha=1.0 if on_show else NOT_THIS_STEP_ALPHA,
        )
        dice_ax.bar_label(
            bar,
            labels=[count(dice, "die", "dice")],
            padding=3,
            fontsize=8,
            alpha=1.0 if on_show else 0.5,
        )
    dice_ax.set_yticks(positions, [name for name, _ in rows], fontsize=8)
    for label, (name, _) in zip(dice_ax.get_yticklabels(), rows, strict=True):
        if about is not None and name not in about:
            label.set_color("#999999")
    most = max(dice for _, dice in rows)
    dice_ax.set_xlim(0, most + 1.2)
    dice_ax.xaxis.get_major_locator().set_params(integer=True)
    dice_ax.set_xlabel("dice", fontsize=8)
    dice_ax.tick_params(axis="x", labelsize=7)
    dice_ax.spines[["top", "right"]].set_visible(False)
    handles = [
        dice_ax.bar([0], [0], color=DICE_SOURCE_COLOUR, label="gives dice"),
        dice_ax.bar([0], [0], color=FIRE_COLOUR, label="fire rolled"),
    ]
    dice_ax.legend(
        handles=handles, fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0), frameon=False
    )
    if effect_ax is not None and effect is not None:
        bar_chart(effect, ax=effect_ax, title="", xlabel="", outcomes=EFFECTS)
        effect_ax.set_title(
            f"effect on the target, hitting on {hit_number} or less", fontsize=8, loc="left"
        )
        if about is not None and not about & set(fires.fire_names):
            for artist in (*effect_ax.patches, *effect_ax.texts):
                artist.set_alpha(NOT_THIS_STEP_ALPHA)
    view = PictureView(dice_ax)
    if at is None:
        if effect is not None and hit_number is not None:
            title = fire_title(fires, effect, hit_number)
        else:
            title = " and ".join(count(n, "die", "dice") for n in fires.fires)
    else:
        done = fires.steps[at]
        title = f"Step {at + 1} of {len(fires.steps)}: {done.text} ({done.rule})"
    step_title(view, title)
    return figure


def draw_victory(view: MapView, victory: Victory) -> None:
    """Errata 3.3's answer on its map (whose star markers show the star hexes): the stars the
    Soviet player holds shaded, the verdict in the title."""
    if not isinstance(victory, Victory):
        raise WbkError(f"draw_victory: {victory!r} is not a Victory (geographic_victory's answer)")
    view.highlight(list(victory.held), label="star hex the Soviet player holds")
    verdict = "a Soviet geographic victory" if victory.won else "no geographic victory"
    view.set_title(
        f"The Soviet player holds {victory.controlled} of the {victory.stars} star hexes: {verdict}"
    )


def hatched_hexes(view: MapView, hexes: Iterable[Hex], hatch: str) -> PolyCollection:
    """``hexes`` hatched (no fill, the terrain shows through) on ``view``: what another
    reading adds or takes away, for "compare readings". Under the hexes' numbers and labels,
    whose white edge keeps them readable through it."""
    patch = PolyCollection(
        list(hex_polygons(sorted(hexes), 0.9)),
        facecolor="none",
        edgecolor="#1a1a1a",
        hatch=hatch,
        linewidth=0.0,
        zorder=Z_NUMBERS - 0.5,
    )
    view.ax.add_collection(patch)
    return patch


def mark_compared_line(
    view: MapView, compared: LosResult, words: str
) -> tuple[list[Artist], dict[str, Artist]]:
    """What blocks a line of sight under another reading (called ``words``), over the line on
    show: its hexes outlined dashed, its hexsides a dashed band, and its verdict in a box. The
    marks, and the legend's entry for them."""
    blockers = [h for h in compared.blocking if isinstance(h, Hex)]
    sides = [s for s in compared.blocking if isinstance(s, Hexside)]
    outline = PolyCollection(
        list(hex_polygons(blockers, 0.8)),
        facecolor="none",
        edgecolor="#1a1a1a",
        linestyle=(0, (3, 2)),
        linewidth=2.2,
        zorder=31,
    )
    marks: list[Artist] = [view.ax.add_collection(outline)]
    band = LineCollection(
        [hexside_segment(s) for s in sides],
        colors="#1a1a1a",
        linestyles=(0, (3, 2)),
        linewidths=3.0,
        zorder=31,
    )
    marks.append(view.ax.add_collection(band))
    entries: dict[str, Artist] = {}
    if blockers or sides:
        entries[f"blocks under “{words}”"] = outline if blockers else band
    marks.append(
        view.ax.text(
            0.01,
            0.01,
            f"under “{words}”: {compared.short_verdict()}",
            transform=view.ax.transAxes,
            fontsize=8,
            va="bottom",
            bbox={"facecolor": "white", "edgecolor": "#1a1a1a", "alpha": 0.9},
            zorder=32,
        )
    )
    return marks, entries


def hatch_changes(
    view: MapView, changes: Iterable[tuple[Iterable[Hex], str, str]]
) -> tuple[list[Artist], dict[str, Artist]]:
    """Each (hexes, hatch, name) of ``changes`` hatched on ``view`` (``hatched_hexes``), those
    with no hexes left out: the patches, and the legend's entries naming them."""
    marks: list[Artist] = []
    entries: dict[str, Artist] = {}
    for hexes, hatch, name in changes:
        hexes = list(hexes)
        if hexes:
            patch = hatched_hexes(view, hexes, hatch)
            marks.append(patch)
            entries[name] = patch
    return marks, entries


def outline_other_effect(ax: Axes, effect: Dist, label: str) -> tuple[list[Artist], float]:
    """The effect of a fire under another reading as dashed outlines over the effect's chart
    (``ax``), ``label`` its legend: the marks, and the chart's top before it was raised to make
    room for the tallest outline and the legend above it."""
    bars = ax.bar(
        range(len(EFFECTS)),
        [float(effect.probability(e)) for e in EFFECTS],
        width=0.8,
        facecolor="none",
        edgecolor="#1a1a1a",
        linestyle=(0, (3, 2)),
        linewidth=1.6,
        label=label,
        zorder=5,
    )
    top = ax.get_ylim()[1]
    tallest = max(float(effect.probability(e)) for e in EFFECTS)
    ax.set_ylim(top=max(top, tallest * 1.3))
    legend = ax.legend(handles=[bars], fontsize=7, loc="upper left")
    return [*bars, legend], top


@in_figure.register
def _fire_dice(subject: FireDice, figure: Figure, *, step: int | None = None) -> None:
    figure.set_size_inches(5.2, 2.6)
    figure.set_layout_engine("constrained")
    fire_picture(subject, step=step, figure=figure)


@on_board.register
def _line_of_sight(subject: LosResult, view: MapView) -> Sequence[Step]:
    view.show_line_of_sight(subject)
    return tuple(subject.steps)


@on_board.register
def _route(subject: Route, view: MapView) -> Sequence[Step]:
    m = view.map
    view.show_route(subject.hexes, label=f"path, {subject.mp} MP")
    view.set_title(f"{m.label(subject.hexes[0])} → {m.label(subject.hexes[-1])}: {subject.mp} MP")
    return tuple(getattr(subject, "steps", ()))


@on_board.register
def _victory(subject: Victory, view: MapView) -> Sequence[Step]:
    draw_victory(view, subject)
    return subject.steps


# --- quiz questions ---------------------------------------------------------------------------


def _sees(view: MapView, q, answer, chosen) -> None:
    m, s = view.map, q.settings
    view.mark(m.hex(s["firer"]), m.hex(s["target"]), labels=("firer", "target"))
    if answer is not None:
        view.show_line_of_sight(answer.result)
    mark_chosen_hexes(view, q, answer, chosen)


def _entry(view: MapView, q, answer, chosen) -> None:
    m, s = view.map, q.settings
    view.mark(m.hex(s["from"]), m.hex(s["to"]), labels=("from", "to"))
    mark_chosen_hexes(view, q, answer, chosen)


def _reach(view: MapView, q, answer, chosen) -> None:
    m = view.map
    view.mark(m.hex(q.settings["start"]), None, labels=("start", ""))
    if answer is not None:
        plan = answer.result
        reached = {h: mp for h, mp in plan.costs.items() if h != plan.start}
        view.highlight(reached, label="reachable (the number: MP spent)")
        view.show_numbers(reached)
    mark_chosen_hexes(view, q, answer, chosen)


question_drawing(
    quiz.Sees,
    QuestionDrawing(
        title=lambda q: f"Can {q.settings['firer']} see {q.settings['target']}?", draw=_sees
    ),
)
question_drawing(
    quiz.EntryCost,
    QuestionDrawing(
        title=lambda q: (
            f"{q.settings['unit']}, {q.settings['from']} → {q.settings['to']}: what does it cost?"
        ),
        draw=_entry,
    ),
)
question_drawing(
    quiz.MayEnter,
    QuestionDrawing(
        title=lambda q: (
            f"{q.settings['unit']} in {q.settings['from']}, {q.settings['mp_left']} MP left: "
            f"enter {q.settings['to']}?"
        ),
        draw=_entry,
    ),
)
question_drawing(
    quiz.Reach,
    QuestionDrawing(
        title=lambda q: (
            f"{q.settings['unit']} from {q.settings['start']}: which hexes can it reach?"
        ),
        draw=_reach,
    ),
)
question_drawing(
    quiz.StepLossChance,
    QuestionDrawing(chart=lambda q: ("a step loss", "effect on the target")),
)
