"""Where the Streets of Stalingrad supplement leaves a choice open: each reading declared once
(``wbk.readings``), the default first, with the rule it reads and why the default is the
default. The rules check their keywords against these; panels, captions, saved files and
quizzes are built from them."""

from wbk.readings import Reading, readings_by_keyword

PINNED_ATTACK = Reading(
    "pinned_attack",
    rule="Streets of Stalingrad 9.67",
    question="pinned attackers",
    asks="Streets of Stalingrad 9.67: do pinned attacking units still add their AF?",
    values={"counts": "still add their AF", "drops_out": "drop out"},
    sentences={
        "counts": "pinned attacking units still add their AF",
        "drops_out": "pinned attacking units drop out of the attack",
    },
    tags={"drops_out": "pinned attackers drop out"},
    why="9.67 still calls a pinned unit an attacking unit",
)
FIRE_WITHOUT_BONUS = Reading(
    "fire_without_bonus",
    rule="Streets of Stalingrad 9.67",
    question="without the bonus",
    asks="Streets of Stalingrad 9.67: without the bonus, does the defender fire anyway?",
    values={
        "own_column": "he fires on his own column",
        "none": "he does not fire",
    },
    sentences={
        "own_column": "without the bonus he fires anyway, not first",
        "none": "without the bonus he does not fire",
    },
    tags={"none": "no fire without the bonus"},
    why="9.67 lets him fire first with the bonus, so he fires without it too, not first",
)
COLUMN_AFTER_FIRE = Reading(
    "column_after_fire",
    rule="Streets of Stalingrad 9.67",
    question="the column after the fire",
    asks="Streets of Stalingrad 9.67: after the defender's fire, does the bonus attack use one "
    "column above the AF left, or the column announced?",
    values={
        "announced": "the announced column",
        "af_left": "one above the AF left",
    },
    sentences={
        "announced": "after the fire: the column announced",
        "af_left": "after the fire: one above the AF left",
    },
    tags={"af_left": "one column above the AF left after the fire"},
    why="the example's closing sentence: after the fire, with a qualifying unit still "
    "adjacent, the attacker still rolls on 20-29 (the column announced)",
)
RETREAT_INTO = Reading(
    "retreat_into",
    rule="Streets of Stalingrad 9.87",
    question="retreat into",
    asks="Streets of Stalingrad 9.87, 'the hex he retreats into': may the defending units "
    "split over several hexes?",
    values={"any_hexes": "any hexes (units may split)", "one_hex": "one hex, all together"},
    sentences={
        "any_hexes": "the defending units may split over several hexes",
        "one_hex": "the defending units all retreat into one hex",
    },
    tags={"one_hex": "all into one hex"},
    why="the text is silent; wbk's choice",
)
PINNED_ZOC = Reading(
    "pinned_zoc",
    rule="Streets of Stalingrad 6.0",
    question="pinned units' ZOC",
    asks="Does a pinned or spent enemy unit exert its ZOC?",
    values={"exerts": "still exerted", "none": "none"},
    sentences={
        "exerts": "a pinned or spent enemy unit exerts its ZOC",
        "none": "a pinned or spent enemy unit exerts no ZOC",
    },
    tags={"none": "no ZOC from pinned units"},
    why="the text is silent; wbk's choice",
)
GIVEN_UP_TO_STAY = Reading(
    "given_up_to_stay",
    rule="Streets of Stalingrad 9.88",
    question="the unit given up to stay",
    asks="Streets of Stalingrad 9.88: may the unit given up to stay be a fortification or "
    "immobilized tank that 9.89 eliminates anyway?",
    values={
        "another_unit": "another unit",
        "a_9_89_loss": "may be a 9.89 loss",
    },
    sentences={
        "another_unit": "the unit given up to stay is not one 9.89 eliminates anyway",
        "a_9_89_loss": "the unit given up to stay may be one 9.89 eliminates anyway",
    },
    tags={"a_9_89_loss": "a 9.89 loss may be the one given up"},
    why="the text is silent; wbk's choice",
)

MINEFIELDS_AND_BRIDGES = Reading(
    "minefields_and_bridges",
    rule="Streets of Stalingrad 9.87 and 5.0",
    question="minefields and bridges in a stack",
    asks="Streets of Stalingrad 9.87 closes a friendly hex a retreat would push over the "
    "stacking limits of 5.0, a rule the supplement cites but does not give: do the minefields "
    "and bridges in that hex count toward the limit?",
    values={
        "count": "count toward the stacking limit",
        "do_not_count": "do not count toward it",
    },
    sentences={
        "count": "minefields and bridges count toward the stacking limit",
        "do_not_count": "minefields and bridges do not count toward the stacking limit",
    },
    tags={"do_not_count": "minefields and bridges not stacked"},
    why="the supplement counts them among a hex's units (9.89 names them among the defending "
    "units a 'P' hits), and 5.0 itself is not in wbk's texts",
)

#: Not a reading of the text but wbk's own assumption, declared alike because the advisor offers
#: it beside 9.67's readings: which attacking units the defender's first fire takes. It is not
#: in ``READINGS``, which holds only the text's open questions.
LOSSES = Reading(
    "losses",
    rule="Streets of Stalingrad 9.67, wbk assumption",
    question="losses",
    asks="which attacking units the defender's first fire takes (wbk's reading): keep an "
    "infantry or engineer unit that qualifies for the bonus, or the highest column",
    values={"keep_bonus": "keep a qualifying unit", "best_column": "keep the best column"},
    tags={"best_column": "losses keep the best column"},
    why="the attacker keeps what lets him take the bonus, then as much AF as he can",
)

READINGS = readings_by_keyword(
    PINNED_ATTACK,
    FIRE_WITHOUT_BONUS,
    COLUMN_AFTER_FIRE,
    RETREAT_INTO,
    PINNED_ZOC,
    GIVEN_UP_TO_STAY,
    MINEFIELDS_AND_BRIDGES,
)

#: The readings ``close_assault_bonus`` takes (wbk's ``losses`` first), in the advisor's order.
ASSAULT_READINGS = (LOSSES, PINNED_ATTACK, FIRE_WITHOUT_BONUS, COLUMN_AFTER_FIRE)
#: The readings ``retreat_after_combat`` takes, in the planner's order.
RETREAT_READINGS = (RETREAT_INTO, PINNED_ZOC, GIVEN_UP_TO_STAY, MINEFIELDS_AND_BRIDGES)


def checked(**readings: str) -> dict[str, str]:
    """The readings a rule was given (keyword = value), each checked against its declaration:
    a value it does not declare is a ``WbkError`` naming the reading and its values."""
    declared = {LOSSES.keyword: LOSSES, **READINGS}
    return {keyword: declared[keyword].check(value) for keyword, value in readings.items()}
