"""The Pz 8 chapter's panels: gun against armour and the duel (``charts``), and the table
(``table``), each drawing its answer as ``wbk.draw.picture`` draws it.

Every choice shows plain words ("short gun (to 12")", "veteran crew"); its value is the name
``wbk.games.pz8`` uses ("short", "veteran"). Tank names typed in a box are accepted in any case.
"""

from .charts import ARMOR_CASES as ARMOR_CASES
from .charts import DUEL_CASES as DUEL_CASES
from .charts import duel_calculator as duel_calculator
from .charts import gun_against_armor as gun_against_armor
from .controls import label as label
from .table import TABLE_CASES as TABLE_CASES
from .table import TablePanel as TablePanel
