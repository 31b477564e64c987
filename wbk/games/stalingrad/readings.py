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
    values={"counts": "still count", "drops_out": "drop out"},
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
        "own_column": "without the bonus he fires anyway, not first",
        "none": "without the bonus he does not fire",
    },
    why="9.67 lets him fire first with the bonus, so he fires without it too, not first",
)
COLUMN_AFTER_FIRE = Reading(
    "column_after_fire",
    rule="Streets of Stalingrad 9.67",
    question="the column after the fire",
    asks="Streets of Stalingrad 9.67: after the defender's fire, does the bonus attack use one "
    "column above the AF left, or the column announced?",
    values={
        "af_left": "after the fire: one above the AF left",
        "announced": "after the fire: the column announced",
    },
    why="9.67's 'one higher than his total AF'",
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
    why="the text is silent; wbk's choice",
)
PINNED_ZOC = Reading(
    "pinned_zoc",
    rule="Streets of Stalingrad 6.0",
    question="pinned units' ZOC",
    asks="Does a pinned or spent enemy unit exert its ZOC?",
    values={"exerts": "pinned units still exert a ZOC", "none": "pinned units exert none"},
    sentences={
        "exerts": "a pinned or spent enemy unit exerts its ZOC",
        "none": "a pinned or spent enemy unit exerts no ZOC",
    },
    why="the text is silent; wbk's choice",
)
GIVEN_UP_TO_STAY = Reading(
    "given_up_to_stay",
    rule="Streets of Stalingrad 9.88",
    question="the unit given up to stay",
    asks="Streets of Stalingrad 9.88: may the unit given up to stay be a fortification or "
    "immobilized tank that 9.89 eliminates anyway?",
    values={
        "another_unit": "to stay, give up another unit",
        "a_9_89_loss": "to stay, a 9.89 loss may be the one",
    },
    sentences={
        "another_unit": "the unit given up to stay is not one 9.89 eliminates anyway",
        "a_9_89_loss": "the unit given up to stay may be one 9.89 eliminates anyway",
    },
    why="the text is silent; wbk's choice",
)

READINGS = readings_by_keyword(
    PINNED_ATTACK, FIRE_WITHOUT_BONUS, COLUMN_AFTER_FIRE, RETREAT_INTO, PINNED_ZOC, GIVEN_UP_TO_STAY
)
