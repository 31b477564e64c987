"""wbk, the wargame rules workbook: hex geometry, maps, exact dice and rules as code.

Importing ``wbk`` loads no plotting or widget library; ``wbk.draw`` (pictures, maps, tables,
charts) and ``wbk.widgets`` (panels) are the presentation layer and are imported when needed.
"""

__version__ = "0.2.0"

import sys

from wbk.dice import Dist, d6, die
from wbk.errors import WbkError, one_line_in
from wbk.hexgrid import Corner, Direction, Hex, Hexside, Trace, trace
from wbk.maps import HexMap, example_map

# in a notebook's kernel (IPython already loaded: importing it here would cost a plain script
# its start-up), a WbkError reads as its one line
if "IPython" in sys.modules and (shell := sys.modules["IPython"].get_ipython()) is not None:
    one_line_in(shell)

__all__ = [
    "Corner",
    "Direction",
    "Dist",
    "Hex",
    "HexMap",
    "Hexside",
    "Trace",
    "WbkError",
    "d6",
    "die",
    "example_map",
    "trace",
]
