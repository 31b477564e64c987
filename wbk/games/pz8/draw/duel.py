"""A Pz 8 duel drawn: two tanks trading shots, as a chart of three parts (one attack each, who
wins at the duel's range, how the odds change with the range), whole or at a step.

``draw_duel(figure, duel, step=k, curve=...)`` draws it on a figure (``curve`` is
``pz8.duel_curve(duel)``, worked out by the rules); ``duel_picture(duel, step=k)`` is the
figure ``wbk.draw.picture`` gives. ``fit_suptitle`` titles a Pz 8 chart with its answer.
"""

from __future__ import annotations

from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle
from matplotlib.text import Text
from matplotlib.ticker import PercentFormatter

from wbk.dice import percent
from wbk.draw.tables import say_chance, say_inches
from wbk.draw.view import STEP_COLOUR, fit_title, step_index
from wbk.errors import WbkError
from wbk.games import pz8

__all__ = [
    "DUEL_COLOURS",
    "FADED",
    "NEITHER",
    "draw_duel",
    "duel_picture",
    "fit_suptitle",
    "named_tank",
]

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


def fit_suptitle(figure: Figure, text: str) -> None:
    """A chart's title with its answer, wrapped at word breaks to the figure's width (two lines
    at most, smaller type rather than cut off; two lines break after the question rather than
    inside the answer)."""
    width = figure.get_figwidth() * 72 * 0.96
    lines, size = fit_title(text, width, cut=False, break_after=("; ", ": "))
    figure.suptitle("\n".join(lines), fontsize=size)


def named_tank(t: pz8.Tank) -> str:
    """A duellist by its name, class, gun and crew: "Tiger (heavy, long gun, veteran)"."""
    return f"{t.name} ({t.tank_class}, {t.gun} gun{', veteran' if t.is_veteran else ''})"


def draw_duel(
    figure: Figure,
    d: pz8.Duel,
    *,
    step: int | None = None,
    curve: dict[int, pz8.Duel] | None = None,
    words=named_tank,
) -> None:
    """A duel (``pz8.duel``'s answer) on ``figure``: one attack of each tank (the chance it
    destroys, and hits without destroying; the chance it passes the turn), who wins at the
    duel's range, and how that changes with the range. The title is the verdict.

    ``step``: the duel at that step of ``d.steps``: what the step is about (``Step.about``: a
    tank's gun range, its attack, the turnover, the shaken rule, who wins) outlined in sky blue,
    the rest faded, the step in words with its rule as the title; None draws the whole answer.
    ``curve``: ``pz8.duel_curve(d)`` when already worked out; ``words(tank)`` names a tank."""
    curve = pz8.duel_curve(d) if curve is None else curve
    k = None if step is None else step_index(d.steps, step)
    a, b = d.tanks
    grid = figure.add_gridspec(1, 3, width_ratios=(0.9, 1, 1.6))
    # made in this order so that the chart of who wins stays the figure's first axes
    left, right, attacks = (figure.add_subplot(grid[i]) for i in (1, 2, 0))
    parts = _draw_attacks(attacks, pz8.one_attack_each(d))
    parts += _draw_who_wins(left, d)
    parts += _draw_odds_by_range(right, d, curve)
    if k is None:
        name_a, name_b = words(a), words(b)
        if any(d.range_inches <= pz8.GUN_RANGES[t.gun] for t in (a, b)):
            verdict = f"the first wins {say_chance(d.first_wins)}"
            fit_suptitle(figure, f"{name_a} shooting first against {name_b}: {verdict}")
        else:
            fit_suptitle(
                figure,
                f"Out of range: neither gun reaches {say_inches(d.range_inches)} "
                f"({name_a} against {name_b})",
            )
        return
    _mark_step(d, k, parts, {"attack": attacks, "wins": left, "curve": right}, max(curve))
    at = d.steps[k]
    fit_suptitle(figure, f"Step {k + 1} of {len(d.steps)}: {at.text} ({at.rule})")


def _percent_axis(ax: Axes) -> None:
    ax.set_yticks([0, 0.25, 0.5, 0.75, 1])
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))


def _draw_attacks(ax: Axes, each: tuple) -> list[Part]:
    """One attack of each tank (``pz8.one_attack_each``): the chance it destroys, the chance it
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


def _draw_who_wins(ax: Axes, d: pz8.Duel) -> list[Part]:
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


def _draw_odds_by_range(ax: Axes, d: pz8.Duel, curve: dict[int, pz8.Duel]) -> list[Part]:
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


def _mark_step(
    d: pz8.Duel, k: int, parts: list[Part], charts: dict[str, Axes], longest: int
) -> None:
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
                min(pz8.GUN_RANGES[gun], longest) + 0.5,
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


def duel_picture(d: object, step: int | None = None) -> Figure:
    """The figure of a duel (``wbk.draw.picture(duel, step=k)`` gives it): ``draw_duel`` on
    a new figure, whole or at ``step``, with the odds by range the rules work out."""
    if not isinstance(d, pz8.Duel):
        raise WbkError(f"{d!r} is not a duel (wbk.games.pz8.duel's answer)")
    figure = Figure(figsize=(9.0, 3.8), layout="constrained")
    draw_duel(figure, d, step=step, curve=pz8.duel_curve(d))
    return figure
