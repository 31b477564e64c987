"""The table panel's teaching: the shot (or the platoon move, the rally) step by step, and
"compare with" another reading: its verdict in a box, what it changes hatched."""

from __future__ import annotations

import ipywidgets as widgets
from matplotlib.collections import PathCollection
from matplotlib.text import Text

from wbk.draw.tables import shape_paths
from wbk.games import pz8
from wbk.games.pz8.draw.compare import footprint_paths, table_compare_marks
from wbk.games.pz8.draw.table import platoon_title, shot_title
from wbk.games.pz8.movement import reach_changes
from wbk.games.pz8.panels.table_editing import TableEditing

#: The readings of a shot; the table panel compares them and those of a platoon move
#: (``shaken_hq``, ``shaken_member``), of the reach (``rough_terrain``, ``pivot``) and of the
#: calibre typed (``calibre_gaps``).
SHOT_READINGS = ("cover_reading", "obstacle_sight", "natural_six")
REACH_READINGS = ("rough_terrain", "pivot")
COMPARED = (*SHOT_READINGS, "shaken_hq", "shaken_member", *REACH_READINGS, "calibre_gaps")


class TableComparing(TableEditing):
    """The table panel's step control and "compare with", and their marks on the table."""

    compare_mark: Text
    compare_hatch: PathCollection

    def add_compare_marks(self) -> None:
        """The marks of "compare with" on the table's axes: the other verdict in a box, and
        what changes hatched (the tanks a platoon move takes or leaves, the places the reach
        gains or loses)."""
        self.compare_mark, self.compare_hatch = table_compare_marks(self.view.ax)

    def _place_beside_readings(self, part: widgets.Widget) -> None:
        """Move ``part`` (a row of its own) to the end of the low-wall reading's row."""
        children = [c for c in self.widget.children if c is not part]
        readings = next(c for c in children if self.sight_reading in getattr(c, "children", ()))
        readings.children = (*readings.children, part)
        self.widget.children = tuple(children)

    def readings(self) -> dict[str, str]:
        """The readings the answer on show is read under (those with no control of their own
        at their defaults: they are compared, not chosen)."""
        chosen = {
            "cover_reading": self.cover_reading.value,
            "obstacle_sight": self.sight_reading.value,
        }
        return {keyword: chosen.get(keyword, pz8.READINGS[keyword].default) for keyword in COMPARED}

    def draw_step(self, k: int) -> None:
        """The shot at its step ``k``: what the step is about outlined, the rest dimmed; the
        last step is the whole answer."""
        if self.step_control.at_answer:
            self.view.clear_step()
            self.view.set_title(self._shot_title)
        else:
            self.view.show_step(self.step_control.steps, k)
        self.view.redraw()

    def mark_changes(self, other: dict[str, str] | None) -> bool:
        """Under ``other`` readings, what changes on the table, with the other verdict in a box:
        a shot's line of sight, cover or chance to destroy; the tanks a platoon move takes or
        leaves (hatched); the places the shooter's reach gains or loses (hatched)."""
        self.compare_mark.set_visible(False)
        self.compare_hatch.set_paths([])
        changed = False
        keyword = next(iter(other)) if other else ""
        if keyword in ("shaken_hq", "shaken_member") and self._platoon is not None:
            changed = self.mark_platoon_changes(keyword, other[keyword])  # type: ignore[index]
        elif keyword in REACH_READINGS:
            changed = self.mark_reach_changes(keyword, other[keyword])  # type: ignore[index]
        elif keyword == "calibre_gaps":
            changed = self.mark_calibre_changes(other[keyword])  # type: ignore[index]
        elif other is not None and keyword in SHOT_READINGS and self._shot is not None:
            readings = {k: v for k, v in self.readings().items() if k in SHOT_READINGS}
            alternative = pz8.shot(
                self.table, self._shot.firer, self._shot.target, **{**readings, **other}
            )
            changed = shot_title(alternative) != shot_title(self._shot)
            if changed:
                ((keyword, value),) = other.items()
                self._say_other(keyword, value, shot_title(alternative).split(": ", 1)[1])
        self.view.redraw()
        return changed

    def _say_other(self, keyword: str, value: str, verdict: str) -> None:
        """The other reading's verdict in the box at the top of the table."""
        words = pz8.READINGS[keyword].values[value]
        self.compare_mark.set_text(f"under '{words}': {verdict}")
        self.compare_mark.set_visible(True)

    def mark_platoon_changes(self, keyword: str, value: str) -> bool:
        """The platoon move under another reading of a shaken tank: its verdict in the box, the
        tanks that would move under one reading and not the other hatched."""
        here = self._platoon
        assert here is not None and here.hq is not None
        hq = self.table.piece(here.hq)
        there = pz8.platoon_movement(
            self.table, hq.side, platoon=getattr(hq, "platoon", ""), **{keyword: value}
        )
        if (there.allowed, there.tanks) == (here.allowed, here.tanks):
            return False
        moving_here = set(here.tanks) if here.allowed else set()
        moving_there = set(there.tanks) if there.allowed else set()
        self.compare_hatch.set_paths(
            footprint_paths(self.table, sorted(moving_here ^ moving_there))
        )
        self._say_other(keyword, value, platoon_title(there).split(": ", 1)[1])
        return True

    def mark_reach_changes(self, keyword: str, value: str) -> bool:
        """The shooter's reach under another reading of rough terrain or of the pivot (while
        the reach is on show): the places whose chance to be reached changes, hatched."""
        if self.ask.value != "shot" or not self.show_reach.value or self._shot is None:
            return False
        here = self.reach(self._shot.firer)
        readings = {k: pz8.READINGS[k].default for k in REACH_READINGS} | {keyword: value}
        there = pz8.movement_reach(
            self.table,
            self._shot.firer,
            rough_terrain=readings["rough_terrain"],
            pivot=readings["pivot"],
        )
        changes = reach_changes(here, there)
        if changes.area < 0.01:
            return False
        self.compare_hatch.set_paths(shape_paths(changes))
        self._say_other(
            keyword, value, f"the reach changes where hatched ({changes.area:.0f} sq in)"
        )
        return True

    def mark_calibre_changes(self, value: str) -> bool:
        """The class of the calibre typed in the tank's row under another reading of the
        calibres between the card's classes, in the box at the top, where it differs."""
        typed = self.calibre.value.strip()
        if not typed:
            return False
        here = pz8.gun_for_calibre(typed)
        there = pz8.gun_for_calibre(typed, calibre_gaps=value)
        if here == there:
            return False
        self._say_other("calibre_gaps", value, f"a {typed} gun is {there}, not {here}")
        return True
