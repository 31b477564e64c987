"""Where the Pz 8 card leaves a choice open: each reading declared once (``wbk.readings``), the
default first, with the rule it reads and why the default is the default. The rules check
their keywords against these; panels, captions, saved files and quizzes are built from them.
``cover_reading``, ``natural_six`` and ``obstacle_sight`` are ``shot``'s, ``turns`` ``duel``'s,
``shaken_hq`` / ``shaken_member`` / ``platoon_pace`` ``platoon_movement``'s, ``rough_terrain``
and ``pivot`` ``movement_reach``'s, ``veteran_hq_rally`` ``rally_chance``'s and ``rally``'s, and
``calibre_gaps`` ``gun_for_calibre``'s."""

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
PLATOON_PACE = Reading(
    "platoon_pace",
    rule="Pz 8, Movement",
    question="the platoon's pace",
    asks="Pz 8, Movement: a shaken tank stays behind; is the platoon's move value that of the "
    "slowest tank that moves, or of the slowest tank in the platoon, the shaken one too?",
    values={
        "movers": "the slowest tank that moves",
        "whole_platoon": "the slowest in the platoon, shaken too",
    },
    sentences={
        "movers": "the platoon moves at the pace of the slowest tank that moves",
        "whole_platoon": "the platoon moves at the pace of its slowest tank, a shaken one too",
    },
    tags={"whole_platoon": "pace of the slowest, shaken too"},
    why="the card's platoon move is made by the tanks within 3 inches of the HQ moving as one; "
    "a shaken tank cannot move, so it is not in that move (the card does not speak of it)",
)
VETERAN_HQ_RALLY = Reading(
    "veteran_hq_rally",
    rule="Pz 8, Optional Rule: Shaken",
    question="a veteran HQ rallying itself",
    asks="Pz 8, Optional Rule: Shaken: does the veteran +1 apply to the HQ's own rally "
    "(4-6, or 3-6 with it)?",
    values={
        "no_bonus": "no veteran +1: 4-6",
        "bonus": "veteran +1: 3-6",
    },
    sentences={
        "no_bonus": "a veteran HQ rallies itself on 4-6, like any HQ",
        "bonus": "a veteran HQ rallies itself on 3-6 (the veteran +1)",
    },
    tags={"bonus": "veteran HQ rallies on 3-6"},
    why="the card puts the veteran +1 in the sentence of the 5-6 roll near the HQ and gives "
    "the HQ's own roll a number of its own, 4-6, with no bonus",
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
PIVOT = Reading(
    "pivot",
    rule="Pz 8, Movement",
    question="the pivot",
    asks="Pz 8, Movement: tanks 'may pivot to change direction up to 45 degrees during their "
    "move': anywhere along the move, or only before the tank drives?",
    values={
        "during": "pivot anywhere along the move",
        "at_start": "pivot only at the start",
    },
    sentences={
        "during": "a tank may pivot once, anywhere along its move",
        "at_start": "a tank pivots only at the start of its move",
    },
    tags={"at_start": "pivot at the start only"},
    why="the card's word 'during': the pivot may come anywhere along the move (in the open it "
    "reaches no place a pivot at the start misses; around obstacles and rough ground it does)",
)
CALIBRE_GAPS = Reading(
    "calibre_gaps",
    rule="Pz 8, Shooting",
    question="calibres between the classes",
    asks="Pz 8, Shooting: short guns go 'up to 47mm', medium '50mm up to 76mm', long 'over "
    "76mm': which class has a 48 or 49 mm gun, and a 76.2 mm (3 inch) one?",
    values={
        "named": "48-49 mm short; 76.2 mm is the card's 76mm",
        "upper_limits": "over 47 mm medium; over 76 mm long",
    },
    sentences={
        "named": "a gun is classed by the whole millimetres it is named by (76.2 mm is the "
        "card's 76mm, medium), and 48-49 mm guns are short (the medium band starts at 50mm)",
        "upper_limits": "a gun is classed by its calibre against the card's upper limits: over "
        "47 mm is medium (48-49 mm too), over 76 mm long (76.2 mm too)",
    },
    tags={"upper_limits": "calibres by the card's upper limits"},
    why="the card's own medium tanks, the T-34 and the Sherman, carry the 76.2 mm guns called "
    "76mm, and its medium band begins at 50mm, so the 48-49 mm it names nowhere stay short",
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
    NATURAL_SIX,
    COVER,
    TURNS,
    SHAKEN_HQ,
    SHAKEN_MEMBER,
    PLATOON_PACE,
    ROUGH_TERRAIN,
    PIVOT,
    OBSTACLE_SIGHT,
    VETERAN_HQ_RALLY,
    CALIBRE_GAPS,
)
