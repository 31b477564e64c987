"""Where the Pz 8 card leaves a choice open: each reading declared once (``wbk.readings``), the
default first, with the rule it reads and why the default is the default. The rules check
their keywords against these; panels, captions, saved files and quizzes are built from them.
``cover_reading``, ``natural_six`` and ``obstacle_sight`` are ``shot``'s, ``turns`` ``duel``'s,
``shaken_hq`` / ``shaken_member`` ``platoon_movement``'s and ``rough_terrain``
``movement_reach``'s."""

from wbk.readings import Reading, readings_by_keyword

NATURAL_SIX = Reading(
    "natural_six",
    rule="Pz 8, Shooting",
    question="a natural 6",
    values={
        "modified": "a natural 6 hits only if the modified roll does",
        "always_hits": "a natural 6 always hits",
    },
    sentences={
        "modified": "a die hits only if the modified roll reaches the hit number",
        "always_hits": "a natural 6 always hits",
    },
    why="the card is silent; wbk's choice",
)
COVER = Reading(
    "cover_reading",
    rule="Pz 8, Shooting",
    question="cover",
    values={
        "partly_hidden": "cover: any part hidden",
        "half_hidden": "cover: half or more hidden",
    },
    sentences={
        "partly_hidden": "a target partly hidden is in cover",
        "half_hidden": "a target is in cover only when half or more is hidden",
    },
    why="the card's 'partly hidden'",
)
TURNS = Reading(
    "turns",
    rule="Pz 8, Sequence of Play",
    question="who shoots next",
    values={
        "card": "turnover on a gun die of 1 or 2 (the card)",
        "alternate": "one attack each in turn",
    },
    why="the card's turnover",
)
SHAKEN_HQ = Reading(
    "shaken_hq",
    rule="Pz 8, Optional Rule: Shaken",
    question="a shaken HQ",
    values={
        "stays_put": "a shaken HQ stays, its tanks may move",
        "no_platoon_move": "a shaken HQ: no platoon move",
    },
    sentences={
        "stays_put": "a shaken HQ stays, the tanks near it may move",
        "no_platoon_move": "a shaken HQ cannot lead a platoon move",
    },
    why="the card is silent; wbk's choice",
)
SHAKEN_MEMBER = Reading(
    "shaken_member",
    rule="Pz 8, Optional Rule: Shaken",
    question="a shaken tank in the platoon",
    values={
        "stays_put": "a shaken tank stays, the rest move",
        "no_platoon_move": "a shaken tank: no platoon move",
    },
    sentences={
        "stays_put": "a shaken tank stays, the rest of the platoon may move",
        "no_platoon_move": "one shaken tank rules the platoon move out",
    },
    why="the card is silent; wbk's choice",
)
ROUGH_TERRAIN = Reading(
    "rough_terrain",
    rule="Pz 8, Movement",
    question="rough terrain",
    values={
        "moving_through": "rough charged moving through (start included)",
        "entering": "rough charged only when entered",
    },
    why="the card's 'moving through'",
)
OBSTACLE_SIGHT = Reading(
    "obstacle_sight",
    rule="Pz 8, Shooting",
    question="obstacles",
    values={
        "as_marked": "low obstacles seen over where marked",
        "all_block": "every obstacle blocks sight",
    },
    why="a table file marks what is low",
)

READINGS = readings_by_keyword(
    NATURAL_SIX, COVER, TURNS, SHAKEN_HQ, SHAKEN_MEMBER, ROUGH_TERRAIN, OBSTACLE_SIGHT
)
