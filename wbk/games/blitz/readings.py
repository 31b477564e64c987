"""Where the Blitz Combat rules leave a choice open: each reading declared once
(``wbk.readings``), the default first, with the rule it reads and why the default is the
default. The rules check their keywords against these; panels, captions, saved files and
quizzes are built from them."""

from wbk.readings import Reading, readings_by_keyword

CROWDED = Reading(
    "crowded",
    rule="Blitz Combat, Combat Strength Modifiers",
    question="“3 non-vehicle units” means",
    values={"three_or_more": "three or more", "exactly_three": "exactly three"},
    sentences={
        "three_or_more": "3 non-vehicle units means three or more",
        "exactly_three": "3 non-vehicle units means exactly three",
    },
    why="the text is silent; wbk's choice",
)
ASSAULT = Reading(
    "assault",
    rule="Blitz Combat, Assault Combat",
    question="in assault combat",
    values={"terrain_applies": "terrain counts", "no_terrain": "terrain does not count"},
    sentences={
        "terrain_applies": "terrain and protection modify assault combat",
        "no_terrain": "terrain and protection do not modify assault combat",
    },
    why="the text is silent; wbk's choice",
)
DISRUPTED_FIRERS = Reading(
    "disrupted_firers",
    rule="Blitz Combat, Combat Strength Modifiers",
    question="a disrupted firer halves",
    values={"their_share": "his own part", "whole_attack": "the whole attack"},
    sentences={
        "their_share": "a disrupted firer halves his own part of the attack",
        "whole_attack": "a disrupted firer halves the whole attack",
    },
    why="the text is silent; wbk's choice",
)
SAVE_BONUS = Reading(
    "save_bonus",
    rule="Blitz Combat, Leader Saving Throws",
    question="+1 per two hits, with an odd hit",
    values={"whole_pairs": "whole pairs only", "rounded_up": "rounded up"},
    sentences={
        "whole_pairs": "the saving throw bonus counts whole pairs of hits only",
        "rounded_up": "the saving throw bonus counts an odd hit as a pair",
    },
    why="the text is silent; wbk's choice",
)
APC_DESTROYED = Reading(
    "apc_destroyed",
    rule="Blitz Combat, Armor Protection",
    question="an APC is destroyed when",
    values={
        "eliminated_or_last_step": "eliminated or its last step lost",
        "eliminated_only": "eliminated only",
    },
    why="the text is silent; wbk's choice",
)

READINGS = readings_by_keyword(CROWDED, ASSAULT, DISRUPTED_FIRERS, SAVE_BONUS, APC_DESTROYED)
