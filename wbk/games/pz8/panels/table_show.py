"""The table panel's answer: the shot from the shooter at the target (with the shooter's reach),
or the platoon move or the rally of a tank, drawn on the table, titled with its verdict and
told in steps below."""

from __future__ import annotations

import html

import ipywidgets as widgets

from wbk.draw.tables import say_chance
from wbk.explain import steps_html
from wbk.games import pz8
from wbk.games.pz8.draw.table import platoon_title, rally_title, shot_title, show_shot
from wbk.games.pz8.panels.controls import find_tank, show_no_difference
from wbk.games.pz8.panels.table_controls import TableControls
from wbk.games.pz8.shooting import chance_destroyed, chance_turn_passes
from wbk.table import Table
from wbk.widgets import reports_errors


class TableShow(TableControls):
    """What the table panel shows: the question asked of the table, answered on it."""

    @reports_errors
    def update(self) -> None:
        """Read the shooter and the target (each bad one named), then draw the answer."""

        def reader(box: widgets.Text):
            return lambda: find_tank(self.table, box.value)

        asked = self.ask.value
        # a platoon move or a rally is asked of the tank in the first box: no target
        self.boxes["shooter"].description = "shooter" if asked == "shot" else "tank"
        self.boxes["target"].disabled = asked != "shot"
        self.show_reach.disabled = asked != "shot"
        roles = self.boxes if asked == "shot" else {"shooter": self.boxes["shooter"]}
        if asked != "shot":
            self.clear_bad("target")
        names = {role: self.read_input(role, reader(box)) for role, box in roles.items()}
        if any(role in self.bad_inputs for role in roles):
            return
        if asked != "shot":
            self.pane.value = self.show_asked(asked, str(names["shooter"]))
            self.view.redraw()
            return
        if names["shooter"] == names["target"]:
            self.bad_inputs["target"] = (
                f"{names['target']!r} is both the shooter and the target: pick another target"
            )
            return
        self.pane.value = self.show(str(names["shooter"]), str(names["target"]))
        self.view.redraw()

    def show(self, shooter: str, target: str) -> str:
        """Draw the shot from ``shooter`` at ``target`` (and the shooter's reach), title the
        picture with its answer and return the pane's HTML."""
        firer = self.table.piece(shooter)
        readings = {
            "cover_reading": self.cover_reading.value,
            "obstacle_sight": self.sight_reading.value,
        }
        result = pz8.shot(self.table, shooter, target, **readings)
        for key, control, note in (
            ("cover_reading", self.cover_reading, self.cover_note),
            ("obstacle_sight", self.sight_reading, self.sight_note),
        ):
            other = next(v for _, v in control.options if v != control.value)
            alternative = pz8.shot(self.table, shooter, target, **{**readings, key: other})
            show_no_difference(note, shot_title(alternative) == shot_title(result))
        self.view.clear_step()
        self.view.show_links(None, (), 0, "")
        self.view.show_ranges(shooter, pz8.GUN_RANGES, gun=getattr(firer, "gun", ""))
        show_shot(self.view, result)
        self._shot, self._shot_title, self._platoon = result, self.view.title(), None
        parts = [
            f"<p><b>{html.escape(self.view.title(), quote=False)}</b></p>",
            steps_html(result.steps),
        ]
        if result.outcome is not None:
            d = result.outcome
            hit = d.map(lambda o: o.hits > 0).probability(True)
            shaken = d.map(lambda o: o.shaken).probability(True)
            parts.append(
                f"<p>a hit {say_chance(hit)}; destroyed {say_chance(chance_destroyed(d))}; "
                f"hit but not destroyed (shaken) {say_chance(shaken)}; "
                f"the turn passes {say_chance(chance_turn_passes(d))}</p>"
            )
            parts.append(d._repr_html_())
        if self.show_reach.value:
            reach = self.reach(shooter)
            self.view.show_reach(reach)
            parts.append(
                f"<p><b>{html.escape(shooter)}: where it can move</b></p>{steps_html(reach.steps)}"
            )
        else:
            self.view.show_reach(None)
        warnings = pz8.platoon_warnings(self.table)
        if warnings:
            listed = "; ".join(html.escape(w, quote=False) for w in warnings)
            parts.append(
                f"<p><i>Platoons unlike the card's (a warning, not an error): {listed}.</i></p>"
            )
        # with the reach on show, its steps follow the shot's
        reach_steps = self.reach(shooter).steps if self.show_reach.value else ()
        self.show_steps((*result.steps, *reach_steps))
        self.compare.refresh()
        return "".join(parts)

    def show_asked(self, asked: str, tank: str) -> str:
        """Draw the platoon move of ``tank``'s platoon (``asked="platoon"``) or ``tank``'s rally
        (``"rally"``): the HQ, the distances that decide and the verdict in the title; return
        the pane's HTML."""
        t = self.table.piece(tank)
        self.view.clear_step()
        self.view.show_ranges(None)
        self.view.show_sight(None)
        self.view.show_reach(None)
        self._shot = None
        result: pz8.PlatoonMove | pz8.Rally
        if asked == "platoon":
            result = pz8.platoon_movement(self.table, t.side, platoon=getattr(t, "platoon", ""))
            measured = [
                name
                for name in result.platoon_tanks
                if not any(getattr(self.table.piece(name), k) for k in ("destroyed", "shaken"))
            ]
            self.view.show_links(result.hq, measured, pz8.PLATOON_RADIUS, "platoon move")
            self.view.set_title(platoon_title(result))
            self._platoon = result
        else:
            result = pz8.rally(self.table, tank)
            self.view.show_links(result.hq, [result.tank], pz8.RALLY_RADIUS, "rally")
            self.view.set_title(rally_title(result))
            self._platoon = None
        self._shot_title = self.view.title()
        parts = [
            f"<p><b>{html.escape(self.view.title(), quote=False)}</b></p>",
            steps_html(result.steps),
        ]
        self.show_steps(result.steps)
        self.compare.refresh()
        return "".join(parts)

    def reach(self, shooter: str) -> pz8.MovementReach:
        """The shooter's reach, kept while the table and the shooter stay: picking targets is
        cheap."""
        key = (self.table, shooter)
        if getattr(self, "_reach_key", None) != key:
            self._reach, self._reach_key = pz8.movement_reach(self.table, shooter), key
        return self._reach

    def mark_stale(self) -> None:
        """Out of date: the table drawn empty of answers, the title saying what is wrong."""
        super().mark_stale()
        self.view.clear()
        self.view.set_title(self.stale_title())
        self.view.redraw()

    def set_table(self, table: Table, done: str = "") -> None:
        """Show ``table`` and the answer on it; ``done`` says what changed."""
        self.table = table
        self.view.show_contents(table)
        self.update()
        if done:
            self.show_done(f"{done}.")
