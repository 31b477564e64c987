"""wbk's drawing: any result as a picture worth posting, and what every picture shares.

``picture(result, *, step=None, ...)`` is the one way a result is drawn, for notebooks, panels,
quizzes and the site, as ``chess.svg.board`` is for chess; ``save_picture`` and
``picture_bytes`` write it as PNG or SVG. A rule set registers how its results are drawn, in
its own ``draw`` module: in a figure of their own (``in_figure``) or on their map or table
(``on_board``). What every hex map shows (``draw_map``, ``MapView`` and its overlays), every
table in inches (``draw_table``, ``TableView``) and every chart of a distribution
(``bar_chart``, ``at_least_curves``, ``stacked_bars``, ``heatmap``) is drawn here, and a rule
set's own marks are laid over them from its folder.

The modules: ``pictures`` (``picture`` and its registries, saving, a step on show), ``view``
(what every picture shares: its title, legend and step marks), ``maps``, ``tables``,
``charts``, and ``quiz`` (a quiz question on its board; a rule set marks its kinds of
question with ``question_drawing``).
"""

from wbk.draw.charts import at_least_curves, bar_chart, heatmap, stacked_bars
from wbk.draw.maps import MapView, draw_map
from wbk.draw.pictures import (
    clear_step,
    deciding_step,
    edge_case_in_png,
    in_figure,
    on_board,
    picture,
    picture_bytes,
    read_edge_case,
    save_picture,
    show_step,
    trace_title,
    verdict_of,
)
from wbk.draw.quiz import QuestionDrawing, draw_attempt, question_drawing
from wbk.draw.tables import TableView, draw_table
from wbk.draw.view import PictureView, fit_title, step_index, step_title
from wbk.quiz import Attempt

in_figure.register(Attempt, draw_attempt)

__all__ = [
    "MapView",
    "PictureView",
    "QuestionDrawing",
    "TableView",
    "at_least_curves",
    "bar_chart",
    "clear_step",
    "deciding_step",
    "draw_map",
    "draw_table",
    "edge_case_in_png",
    "fit_title",
    "heatmap",
    "in_figure",
    "on_board",
    "picture",
    "picture_bytes",
    "question_drawing",
    "read_edge_case",
    "save_picture",
    "show_step",
    "stacked_bars",
    "step_index",
    "step_title",
    "trace_title",
    "verdict_of",
]
