"""wbk, the wargame rules workbook: hex geometry, maps, exact dice and rules as code."""

from wbk.errors import WbkError
from wbk.hexgrid import Corner, Direction, Hex, Hexside, Trace, trace

__all__ = ["Corner", "Direction", "Hex", "Hexside", "Trace", "WbkError", "trace"]
