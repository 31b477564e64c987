"""SS Panzer's results drawn, each registered with ``wbk.draw``'s ``picture``, which panels and
notebooks call: a line of sight, a route and a victory on their map (``on_board``), a fire's
dice and its outcome as a chart (``in_figure``), and its kinds of quiz question on their map
(``question_drawing``). A line of sight on a notebook's own axes, to set pictures side by side,
is ``draw_line_of_sight``. What a compared reading changes is marked over a panel's picture by
``hatch_changes``, ``mark_compared_line`` and ``outline_other_effect``."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.collections import LineCollection, PolyCollection
from matplotlib.figure import Figure

from wbk.dice import Dist, chance
from wbk.draw import in_figure, on_board
from wbk.draw.charts import bar_chart
from wbk.draw.maps import Z_NUMBERS, MapView, draw_map, hex_polygons, hexside_segment
from wbk.draw.pictures import add_reason
from wbk.draw.quiz import QuestionDrawing, mark_chosen_hexes, question_drawing
from wbk.draw.view import PictureView, step_index, step_title
from wbk.explain import Step, count
from wbk.games.ss_panzer import quiz
from wbk.games.ss_panzer.fire import FireDice, FireEffect, FireOutcome
from wbk.games.ss_panzer.movement import ACTION_WORDS, Route, Toward
from wbk.games.ss_panzer.sight import LosResult
from wbk.games.ss_panzer.sightlines import NAMED_POSTS, Sighting
from wbk.games.ss_panzer.victory import Victory
from wbk.hexgrid import Hex, Hexside
from wbk.maps import HexMap

#: A chart of the dice: what gives dice (each condition, the base, the artillery's side) in
#: orange, the fires rolled in blue (Okabe-Ito); what a step is not about is faded to this.
DICE_SOURCE_COLOUR = "#E69F00"
FIRE_COLOUR = "#0072B2"
NOT_THIS_STEP_ALPHA = 0.25
#: The effects in the order the chart draws them, whichever can come up.
EFFECTS = tuple(FireEffect)


# --- on the map -------------------------------------------------------------------------------


@on_board.register
def _line_of_sight(result: LosResult, view: MapView) -> Sequence[Step]:
    """Errata 9.4's answer on its map: the traced line (dashed when blocked), what blocks it
    marked, and the verdict in the title, naming at most three of the things that block."""
    view.show_trace(result.trace, blocking=result.blocking, clear=result.clear, sight=True)
    m = view.map
    view.set_title(f"{m.label(result.firer)} → {m.label(result.target)}: {result.short_verdict()}")
    return result.steps


def draw_line_of_sight(
    m: HexMap, result: LosResult, *, ax=None, width: float | None = None, reading: str = ""
) -> MapView:
    """A line of sight drawn on its map as ``picture`` draws it, on ``ax`` (a notebook's axes,
    to set pictures side by side; a new figure when omitted, with the deciding reason under
    the title, as ``picture`` has it), after ``reading`` (the reading it is traced under, in
    words) in the title when one is named."""
    view = draw_map(m, ax=ax, width=width)
    on_board(result, view)
    if reading:
        view.set_title(f"{reading}\n{view.title()}")
    if ax is None:
        add_reason(view.figure, result)
    return view


@on_board.register
def _sighting(result: Sighting, view: MapView) -> Sequence[Step]:
    """Errata 9.4 over the whole map, one question of it: each hex shaded by how many hexes it
    sees (numbered on a small map, the best observation posts dotted), or X's dead ground
    dimmed, or the hexes that see X and are not seen from Y lit; the answer in the title."""
    m, label, n = view.map, view.map.label, len(view.map)
    x, y = result.x, result.y
    view.show_trace(None)
    view.show_route(None)
    view.show_numbers({})
    if result.question == "counts":
        counts = result.answer
        assert isinstance(counts, dict)
        view.shade(counts, label=f"hexes seen from the hex (of {n})", scale=True)
        if n <= 200:
            view.show_numbers(counts, label="hexes seen")
        posts = result.posts
        # a dot in each post the title names (issue 30: only the first had one)
        dotted = [m.hex(post) for post in posts[:NAMED_POSTS]]
        best_words = "a best observation post" if len(dotted) == 1 else "best observation posts"
        view.mark(dotted, labels=(best_words, ""))
        view.set_title(
            f"Hexes seen from each hex: {result.posts_named} "
            f"see{'s' if len(posts) == 1 else ''} the most, {max(counts.values())} of {n}"
        )
    elif result.question == "dead_ground":
        dead = result.answer
        view.dim(dead, label=f"dead ground: not seen from {label(x)}")
        view.mark(x, labels=(f"X = {label(x)}", ""))
        view.set_title(f"Dead ground from {label(x)}: {len(dead)} of {n} hexes")
    else:
        hidden = result.answer
        view.highlight(hidden, label=f"sees {label(x)}, not seen from {label(y)}")
        view.mark(x, y, labels=(f"X = {label(x)}", f"Y = {label(y)}"))
        view.set_title(
            f"{count(len(hidden), 'hex sees', 'hexes see')} {label(x)} but "
            f"{'is' if len(hidden) == 1 else 'are'} not seen from {label(y)}"
        )
    return result.steps


@on_board.register
def _route(result: Route, view: MapView) -> Sequence[Step]:
    m = view.map
    view.show_route(result.hexes, label=f"path, {result.mp} MP")
    view.set_title(f"{m.label(result.hexes[0])} → {m.label(result.hexes[-1])}: {result.mp} MP")
    return result.steps


@on_board.register
def _toward(result: Toward, view: MapView) -> Sequence[Step]:
    """Errata 8.3 for a unit's goal on its map: out of reach dimmed, the MP spent to reach each
    hex, the cheapest path to the goal (or the goal out of reach), the answer in the title."""
    m, movement, goal = view.map, result.movement, result.goal
    view.dim([h for h in m if h not in movement.costs], label="out of reach")
    view.show_numbers(movement.costs, label="MP spent to get there")
    unit, start = movement.unit, movement.start
    title = (
        f"{unit.name} from {m.label(start)} with {movement.mp} MP ({ACTION_WORDS[movement.action]})"
    )
    if result.route is not None:
        view.show_route(result.route.hexes, label=f"cheapest path, {result.mp} MP")
        view.mark(start, goal, labels=("start", "goal"))
        view.set_title(f"{title}: {m.label(goal)} for {result.mp} MP")
    else:
        view.show_route(None)
        view.mark(start, goal, labels=("start", "goal (out of reach)"))
        view.set_title(f"{title}: {m.label(goal)} out of reach, it would take {result.mp} MP")
    return result.steps


@on_board.register
def _victory(result: Victory, view: MapView) -> Sequence[Step]:
    """Errata 3.3's answer on its map (whose star markers show the star hexes): the stars the
    Soviet player holds shaded, the verdict in the title."""
    view.highlight(list(result.held), label="star hex the Soviet player holds")
    verdict = "a Soviet geographic victory" if result.won else "no geographic victory"
    view.set_title(
        f"The Soviet player holds {result.controlled} of the {result.stars} star hexes: {verdict}"
    )
    return result.steps


# --- a fire's chart ---------------------------------------------------------------------------


@in_figure.register
def _fire_dice(result: FireDice, figure: Figure, *, step: int | None = None) -> None:
    figure.set_size_inches(5.2, 2.6)
    figure.set_layout_engine("constrained")
    _fire_chart(figure, result, step=step)


@in_figure.register
def _fire_outcome(result: FireOutcome, figure: Figure, *, step: int | None = None) -> None:
    figure.set_size_inches(5.2, 4.6)
    figure.set_layout_engine("constrained")
    _fire_chart(figure, result.fires, result.effect, result.hit_number, step=step)


def _fire_chart(
    figure: Figure,
    fires: FireDice,
    effect: Dist | None = None,
    hit_number: int | None = None,
    *,
    step: int | None = None,
) -> None:
    """Errata 9.5's dice as a chart: a bar for what gives dice (each condition, or the base, or
    the Soviet artillery's side) and one for each fire rolled, each bar's dice written beside
    it; with ``effect`` (and its ``hit_number``), the chance of each effect on the target under
    it. At ``step`` (an index into ``fires.steps``) the bars the step is about stand out, the
    rest (the effect too) faded, and the title says the step; None: the whole answer, titled
    with the dice and the chances."""
    at = None if step is None else step_index(fires.steps, step)
    about = set(fires.steps[at].about) if at is not None else None
    rows = [*fires.rolled_by, *zip(fires.fire_names, fires.fires, strict=True)]
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
    if at is not None:
        done = fires.steps[at]
        title = f"Step {at + 1} of {len(fires.steps)}: {done.text} ({done.rule})"
    elif effect is not None:
        # each chance kept on one line of a wrapped title (its spaces made non-breaking)
        chances = ", ".join(
            f"{name} {chance(effect.probability(e))}".replace(" ", "\u00a0")
            for e, name in (
                (FireEffect.STEP_LOSS, "step loss"),
                (FireEffect.SUPPRESSED, "suppressed"),
                (FireEffect.NO_EFFECT, "no effect"),
            )
        )
        fired = f"{fires.words} ({'separate fires' if len(fires.fires) > 1 else 'one fire'})"
        title = f"{fired}, hitting on {hit_number} or less\n{chances}"
    else:
        title = fires.words
    step_title(PictureView(dice_ax), title)


# --- what another reading changes, over a panel's picture --------------------------------------


def hatch_changes(
    view: MapView, changes: Iterable[tuple[Iterable[Hex], str, str]]
) -> tuple[list[Artist], dict[str, Artist]]:
    """Each (hexes, hatch, name) of ``changes`` hatched on ``view`` (no fill: the terrain shows
    through), under the hexes' numbers and labels, whose white edge keeps them readable
    through it: what another reading adds or takes away. Those with no hexes are left out. The
    patches, and the legend's entries naming them."""
    marks: list[Artist] = []
    entries: dict[str, Artist] = {}
    for hexes, hatch, name in changes:
        hexes = sorted(hexes)
        if hexes:
            patch = PolyCollection(
                list(hex_polygons(hexes, 0.9)),
                facecolor="none",
                edgecolor="#1a1a1a",
                hatch=hatch,
                linewidth=0.0,
                zorder=Z_NUMBERS - 0.5,
            )
            view.ax.add_collection(patch)
            marks.append(patch)
            entries[name] = patch
    return marks, entries


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


# --- quiz questions ---------------------------------------------------------------------------


def _sees(view: MapView, q, answer, chosen) -> None:
    m, s = view.map, q.settings
    view.mark(m.hex(s["firer"]), m.hex(s["target"]), labels=("firer", "target"))
    if answer is not None:
        on_board(answer.result, view)
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
