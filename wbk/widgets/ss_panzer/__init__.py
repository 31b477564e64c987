"""Widget panels of the SS Panzer chapter: line of sight, intervisibility, movement, fire, and a
map editor, a module each; the parts they share in ``controls``, their drawing in
``wbk.draw.ss_panzer`` (re-exported here: ``fire_picture``, ``draw_victory``...)."""

from wbk.draw.ss_panzer import (
    DICE_SOURCE_COLOUR,
    EFFECTS,
    FIRE_COLOUR,
    NOT_THIS_STEP_ALPHA,
    draw_victory,
    fire_picture,
    fire_title,
    hatched_hexes,
)
from wbk.widgets.ss_panzer.controls import (
    NO_DIFFERENCE,
    NOTE_STYLE,
    USUAL_BLOCKING_TERRAIN,
    ChoiceBoxes,
    ReadingsPanel,
    plain_words,
)
from wbk.widgets.ss_panzer.fire import FIRE_PRESETS, SHOOTERS, FirePanel, fire_panel
from wbk.widgets.ss_panzer.intervisibility import IntervisibilityPanel
from wbk.widgets.ss_panzer.los import LOS_PRESETS, LosPanel
from wbk.widgets.ss_panzer.map_editor import (
    BRUSH_CLEAR,
    BRUSH_SLOPE,
    BRUSH_STAR,
    BRUSH_STREAM,
    MapEditor,
    default_map_path,
)
from wbk.widgets.ss_panzer.movement import (
    MOVEMENT_PRESETS,
    MOVEMENT_READINGS,
    MovementPanel,
)
from wbk.widgets.ss_panzer.victory import VICTORY_PRESETS, VictoryPanel

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
