"""Pz 8's results on their table: a shot, a reach, a platoon move, a rally."""

from wbk.tableplot import shot_title, table_picture

__all__ = ["shot_title", "table_picture"]
