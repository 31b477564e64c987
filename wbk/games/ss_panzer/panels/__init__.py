"""Widget panels of the SS Panzer chapter: line of sight, intervisibility, movement, fire, and a
map editor, a module each; the parts they share in ``controls``, their drawing in
``wbk.games.ss_panzer.draw`` (re-exported here: ``fire_picture``, ``draw_victory``...)."""

from wbk.games.ss_panzer.draw import (
    DICE_SOURCE_COLOUR,
    EFFECTS,
    FIRE_COLOUR,
    NOT_THIS_STEP_ALPHA,
    draw_victory,
    fire_picture,
    fire_title,
    hatched_hexes,
)
from wbk.games.ss_panzer.panels.controls import (
    NO_DIFFERENCE,
    NOTE_STYLE,
    USUAL_BLOCKING_TERRAIN,
    ChoiceBoxes,
    ReadingsPanel,
    plain_words,
)
from wbk.games.ss_panzer.panels.fire import FIRE_PRESETS, SHOOTERS, FirePanel, fire_panel
from wbk.games.ss_panzer.panels.intervisibility import IntervisibilityPanel
from wbk.games.ss_panzer.panels.los import LOS_PRESETS, LosPanel
from wbk.games.ss_panzer.panels.map_editor import (
    BRUSH_CLEAR,
    BRUSH_SLOPE,
    BRUSH_STAR,
    BRUSH_STREAM,
    MapEditor,
    default_map_path,
)
from wbk.games.ss_panzer.panels.movement import (
    MOVEMENT_PRESETS,
    MOVEMENT_READINGS,
    MovementPanel,
)
from wbk.games.ss_panzer.panels.victory import VICTORY_PRESETS, VictoryPanel

__all__ = [
    "BRUSH_CLEAR",
    "BRUSH_SLOPE",
    "BRUSH_STAR",
    "BRUSH_STREAM",
    "DICE_SOURCE_COLOUR",
    "EFFECTS",
    "FIRE_COLOUR",
    "FIRE_PRESETS",
    "LOS_PRESETS",
    "MOVEMENT_PRESETS",
    "MOVEMENT_READINGS",
    "NOTE_STYLE",
    "NOT_THIS_STEP_ALPHA",
    "NO_DIFFERENCE",
    "SHOOTERS",
    "USUAL_BLOCKING_TERRAIN",
    "VICTORY_PRESETS",
    "ChoiceBoxes",
    "FirePanel",
    "IntervisibilityPanel",
    "LosPanel",
    "MapEditor",
    "MovementPanel",
    "ReadingsPanel",
    "VictoryPanel",
    "default_map_path",
    "draw_victory",
    "fire_panel",
    "fire_picture",
    "fire_title",
    "hatched_hexes",
    "plain_words",
]
