"""Every Pz 8 gun against every class of tank drawn: two heatmaps, the chance one attack
destroys the target and the chance it passes the turn, titled with the best and the worst."""

from __future__ import annotations

from collections.abc import Mapping

from matplotlib.figure import Figure

from wbk.dice import Dist, percent
from wbk.draw.charts import heatmap
from wbk.draw.tables import say_inches
from wbk.draw.view import text_width
from wbk.games import pz8
from wbk.games.pz8.draw.duel import fit_suptitle
from wbk.games.pz8.shooting import chance_destroyed, chance_turn_passes

__all__ = ["draw_gun_against_armor", "modifiers_words"]


def modifiers_words(cover: bool, veteran: bool, shaken: bool) -> str:
    """The modifiers of an attack in words: "target in cover, veteran crew", "no modifiers"."""
    said = [
        w
        for w, on in (
            ("target in cover", cover),
            ("veteran crew", veteran),
            ("firer shaken", shaken),
        )
        if on
    ]
    return ", ".join(said) or "no modifiers"


def draw_gun_against_armor(
    figure: Figure, options: Mapping[str, object], attacks: Mapping[tuple, Dist]
) -> None:
    """``attacks`` (each gun against each class: ``pz8.attack``'s outcome under ``options``,
    the keywords of ``pz8.attack``) on ``figure``: who destroys whom on the left, who hands over
    the turn on the right, the title the best and the worst of it."""
    left, right = figure.subplots(1, 2)
    guns, classes = list(pz8.GUN_RANGES), list(pz8.MOVE_VALUES)
    words = modifiers_words(
        bool(options["cover"]), bool(options["veteran"]), bool(options["shaken"])
    )
    heatmap(
        lambda g, c: chance_destroyed(attacks[g, c]),
        guns,
        classes,
        ax=left,
        xlabel="firer's gun",
        ylabel="target",
        title="Which gun kills which tank?\ndestroyed by one attack"
        + ("\n" if text_width(f"destroyed by one attack ({words})", 10) > 250 else " ")
        + f"({words})",
    )
    kills = {key: chance_destroyed(d) for key, d in attacks.items()}
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
        lambda g, c: chance_turn_passes(attacks[g, c]),
        guns,
        classes,
        ax=right,
        xlabel="firer's gun",
        title="Does the attack hand over the turn?\na gun die showing 1 or 2",
    )
    for ax in (left, right):
        ax.set_xticks(range(3), [f"{g}\n({say_inches(pz8.GUN_RANGES[g])})" for g in guns])
        ax.set_yticks(range(3), classes)
