"""Where the SS Panzer errata leave a choice open: each reading declared once (``wbk.readings``),
the default first, with the rule it reads and why the default is the default. The rules check
their keywords against these; panels, captions, saved files and quizzes are built from them."""

from wbk.readings import Reading, readings_by_keyword

SLOPE_HEX = Reading(
    "slope_hex",
    rule="SS Panzer errata 9.4",
    question="slope hexes",
    asks="SS Panzer errata 9.4: may a line between hexes without a slope hexside pass beyond a "
    "hex with slope symbols?",
    values={
        "enter_not_beyond": "may enter, not see beyond (9.4)",
        "hexsides_only": "only slope hexsides block",
    },
    sentences={
        "enter_not_beyond": "a line may enter a hex with slope symbols but not see beyond it",
        "hexsides_only": "only slope hexsides block",
    },
    why="9.4's general sentence, as its worked examples read it",
)
SLOPE_HEX_OF = Reading(
    "slope_hex_of",
    rule="SS Panzer errata 9.4",
    question="slope hexside needed in",
    asks="SS Panzer errata 9.4: do the units without a slope hexside of its general sentence "
    "mean both units, or the firer?",
    values={"both": "either unit's hex", "firer": "the firer's hex"},
    sentences={
        "both": "the slope hex holds a line only when neither unit's hex has a slope hexside",
        "firer": "the slope hex holds a line whenever the firer's hex has no slope hexside",
    },
    why="a line of sight stays the same both ways; the text is silent",
)
SLOPE_END = Reading(
    "slope_end",
    rule="SS Panzer errata 9.4",
    question="a line through a slope's end",
    asks="SS Panzer errata 9.4: does a line through the end point of a slope hexside cross it?",
    values={"crosses": "crosses it", "touches": "only touches it"},
    sentences={
        "crosses": "a line through the end of a slope hexside crosses it",
        "touches": "a line through the end of a slope hexside only touches it",
    },
    why="the text is silent; wbk's choice",
)
EDGE = Reading(
    "edge",
    rule="SS Panzer terrain chart",
    question="along a hexside",
    asks="SS Panzer's terrain chart: must the hexes on both sides of a hexside the line runs "
    "along (or of a corner it passes) block, or does either?",
    values={"both": "both sides must block", "either": "either side blocks"},
    sentences={
        "both": "blocking terrain beside a line blocks only on both sides",
        "either": "blocking terrain on either side of a line blocks",
    },
    why="the text is silent; wbk's choice",
)
ZOC_FIRE = Reading(
    "reading",
    rule="SS Panzer errata 9.5",
    question="several conditions",
    asks="Errata 9.5 (unofficial): one fire with the most dice any condition gives; the official "
    "ZOC fire rule: each condition's fire resolved on its own",
    values={
        "largest": "the largest number of dice only (unofficial errata 9.5)",
        "separate": "each condition a separate fire (official ZOC fire rule)",
    },
    sentences={
        "largest": "several conditions give one fire of the largest dice (unofficial 9.5)",
        "separate": "each condition is a fire of its own (official ZOC fire rule)",
    },
    why="the unofficial 9.5 says so: the one that gives the most dice",
)

#: The readings a line of sight is traced under (9.4's and the terrain chart's), by keyword.
SIGHT_READINGS = readings_by_keyword(SLOPE_HEX, SLOPE_HEX_OF, SLOPE_END, EDGE)
READINGS = readings_by_keyword(*SIGHT_READINGS.values(), ZOC_FIRE)
