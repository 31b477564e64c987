"""Errata 8.3's movement panel (``MovementPanel``): a unit's range, a goal's cheapest path, the
one hex a Move action may always enter; and its worked examples."""

from __future__ import annotations

import html
from typing import cast

import ipywidgets as widgets
from matplotlib.artist import Artist

from wbk.explain import Step, count
from wbk.games import ss_panzer
from wbk.games.ss_panzer.draw import hatch_changes
from wbk.hexgrid import Hex
from wbk.maps import HexMap
from wbk.widgets import MapPanel, parse_optional_number
from wbk.widgets.edge_cases import has_edge_cases

#: What the movement panel compares: the action and whether the unit has moved, which decide
#: errata 8.3's one hex (not readings of an unclear text: the state of the unit).
MOVEMENT_READINGS: dict[str, dict[str, str]] = {
    "action": {"move": "on a Move action", "move_and_fire": "on a Move & Fire action"},
    "moved": {"False": "it has not moved yet", "True": "it has already moved"},
}
#: Errata 8.3's worked examples: the stream into woods, the one hex, and the trench. With 2 MP
#: the Pz IV's only way into 1609 is straight over the stream (with its full MP, going round
#: by 1509 is cheaper, 4 MP), so the first example is also the one hex a Move action enters.
MOVEMENT_PRESETS: dict[str, dict[str, object]] = {
    "8.3: Pz IV over the stream into woods 1609: 2 MCF = 6 MP, its one hex with 2 MP": {
        "unit": "Pz IV",
        "mp": "2",
        "action": "move",
        "moved": False,
        "start": "1610",
        "goal": "1609",
    },
    "8.3 one hex: the same on a Move & Fire action may not": {
        "unit": "Pz IV",
        "mp": "2",
        "action": "move_and_fire",
        "moved": False,
        "start": "1610",
        "goal": "1609",
    },
    "8.3 one hex: the same having moved may not": {
        "unit": "Pz IV",
        "mp": "2",
        "action": "move",
        "moved": True,
        "start": "1610",
        "goal": "1609",
    },
    "8.3 trench: a German Pz IV into trench hex 2013 pays its MCF, 3 MP": {
        "unit": "Pz IV",
        "mp": "",
        "action": "move",
        "moved": False,
        "start": "1913",
        "goal": "2013",
    },
    "8.3 trench: a Soviet T-34 into trench hex 2013 pays 1 MP": {
        "unit": "T-34",
        "mp": "",
        "action": "move",
        "moved": False,
        "start": "1913",
        "goal": "2013",
    },
}


@has_edge_cases
class MovementPanel(MapPanel):
    """Errata 8.3: every hex a unit can reach from its start, shaded with the MP it costs; a goal
    hex gets its cheapest path explained, or, out of reach, what it would cost. Set the MP left,
    switch Move and Move & Fire, or mark the unit as having moved, to see the one-hex rule."""

    rule = "SS Panzer errata 8.3 (movement)"

    def __init__(
        self,
        m: HexMap,
        start: str,
        goal: str,
        data: ss_panzer.GameData | None = None,
        *,
        width: float = 6.0,
    ):
        self.data = data or ss_panzer.example_data()
        self.unit = widgets.Dropdown(options=list(self.data.units), description="unit")
        self.action = widgets.ToggleButtons(
            options=[("Move", "move"), ("Move & Fire", "move_and_fire")],
            description="action",
            style={"button_width": "auto"},
        )
        self.mp = widgets.Text(
            "", description="MP to spend", placeholder="the unit's MP", continuous_update=False
        )
        self.moved = widgets.Checkbox(
            False,
            description="has already moved this Action Phase",
            style={"description_width": "initial"},
        )
        super().__init__(
            m,
            {"start": start, "goal": goal},
            [self.unit, self.mp, self.action, self.moved],
            width=width,
        )
        self.movement: ss_panzer.Movement | None = None
        self.path: ss_panzer.Route | None = None
        #: the hatching of the hexes that enter or leave the range under a compared state
        self.compare_marks: list[Artist] = []
        self.step_control = self.add_step_control(self.draw_at_step)
        self.compare = self.add_compare_readings(
            MOVEMENT_READINGS,
            mark=self.mark_changes,
            current=lambda: {"action": self.action.value, "moved": str(self.moved.value)},
            questions={"action": "action", "moved": "this Action Phase"},
        )
        self.add_presets(MOVEMENT_PRESETS)
        self.update()

    def dim_out_of_reach(self) -> None:
        if self.movement is not None:
            reach = self.movement.costs
            self.view.dim([h for h in self.map if h not in reach], label="out of reach")

    def draw_at_step(self, k: int) -> None:
        """Step ``k`` of the path to the goal: the path drawn as far as the hex the step
        enters, that hex (and the hexside it pays for) marked, the range's costs kept; the last
        step is the whole answer, out of reach dimmed again (steps and range share the map's
        one dimming layer)."""
        from wbk.draw import clear_step, show_step

        path = self.path
        if self.step_control.at_answer:
            clear_step(self.view)
            self.view.set_title(self._answer_title)
            self.dim_out_of_reach()
            if path is not None:
                self.view.show_route(path.hexes, label=f"cheapest path, {path.mp} MP")
        else:
            show_step(self.view, self.step_control.steps, k)
            if path is not None:
                about = self.step_control.steps[k].about
                entered = [path.hexes.index(h) for h in about if h in path.hexes]
                upto = max(entered, default=0)
                self.view.show_route(path.hexes[: upto + 1], label="the path so far")
        self.view.redraw()

    def mark_changes(self, other: dict[str, str] | None) -> bool:
        """Hatch the hexes the unit reaches only under ``other`` (+) or no longer reaches (x),
        and say the goal's fate in a box; None takes the marks off."""
        for artist in self.compare_marks:
            artist.remove()
        self.compare_marks = []
        self.view.set_overlay_legend("compare", {})
        movement = self.movement
        if other is None or movement is None:
            self.view.redraw()
            return False
        state = {"action": movement.action, "moved": str(movement.moved), **other}
        compared = ss_panzer.plan_movement(
            self.map,
            movement.unit,
            movement.start,
            movement.mp,
            action=cast(ss_panzer.Action, state["action"]),
            data=self.data,
            moved=state["moved"] == "True",
        )
        ((keyword, value),) = other.items()
        words = MOVEMENT_READINGS[keyword][value]
        shown, under = set(movement.costs), set(compared.costs)
        self.compare_marks, entries = hatch_changes(
            self.view,
            (
                (under - shown, "++", f"reached only if {words}"),
                (shown - under, "xx", f"not reached if {words}"),
            ),
        )
        self.view.set_overlay_legend("compare", entries)
        self.view.redraw()
        return bool(entries)

    def cost_without_limit(self, unit: ss_panzer.Unit, start: Hex, goal: Hex) -> int:
        """The MP of the cheapest path from start to goal, whatever the MP to spend."""
        # every entry costs at most the MCF once per kind of MCF terrain and hexside, plus a
        # trench: a path through every hex of the map costs no more than this
        per_entry = unit.mcf * (len(self.data.mcf_terrain) + len(self.data.mcf_hexsides) + 1)
        unlimited = ss_panzer.plan_movement(
            self.map, unit, start, per_entry * len(self.map), action="move", data=self.data
        )
        return unlimited.costs[goal]

    def show(self, start: Hex, goal: Hex) -> str:
        unit = self.data.units[self.unit.value]
        mp = parse_optional_number(self.mp.value, "MP to spend")
        movement = ss_panzer.plan_movement(
            self.map,
            unit,
            start,
            mp,
            action=self.action.value,
            data=self.data,
            moved=self.moved.value,
        )
        reach, budget = movement.costs, movement.mp
        label = self.map.label
        self.movement, self.path = movement, None
        self.dim_out_of_reach()
        self.view.show_numbers(reach, label="MP spent to get there")
        beyond = sorted((label(h), c) for h, c in reach.items() if c > budget)
        reached = sum(c <= budget for c in reach.values()) - 1
        lines = [
            f"<p><b>{html.escape(unit.name)}</b> ({unit.side}, {unit.mp} MP, MCF {unit.mcf}) "
            f"with {budget} MP reaches {count(reached, 'hex', 'hexes')} from {label(start)}.</p>"
        ]
        if beyond:
            listed = ", ".join(f"{name} ({c} MP)" for name, c in beyond)
            lines.append(
                f"<p>The one hex a Move action may always enter (errata 8.3): {listed}.</p>"
            )
        title = f"{unit.name} from {label(start)} with {budget} MP ({self.action.label})"
        if goal in reach:
            path = self.path = movement.route(goal)
            self.view.show_route(path.hexes, label=f"cheapest path, {path.mp} MP")
            self.view.mark(start, goal, labels=("start", "goal"))
            self.view.set_title(f"{title}: {label(goal)} for {path.mp} MP")
            lines.append(
                f"<p>Cheapest path to {label(goal)}: {' → '.join(map(label, path.hexes))}</p>"
            )
            steps = path.steps  # listed by the step control, not again here
        else:
            self.view.show_route(None)
            self.view.mark(start, goal, labels=("start", "goal (out of reach)"))
            needed = self.cost_without_limit(unit, start, goal)
            self.view.set_title(f"{title}: {label(goal)} out of reach, it would take {needed} MP")
            having = ", having moved" if self.moved.value else ""
            lines.append(
                f"<p>{label(goal)} is out of reach ({self.action.label}{having}): the cheapest "
                f"path there costs {needed} MP, {needed - budget} more than the {budget} MP to "
                "spend.</p>"
                if needed > budget
                else f"<p>{label(goal)} is out of reach ({self.action.label}{having}): its "
                f"path costs {needed} MP, within the {budget} MP, but entering it is not "
                "allowed (errata 8.3).</p>"
            )
            steps = (
                Step(
                    f"{label(goal)} is out of reach ({self.action.label}{having}): "
                    f"the cheapest path there costs {needed} MP with {budget} MP to spend",
                    "SS Panzer errata 8.3",
                    about=(goal,),
                ),
            )
        self.show_steps(steps)
        self.compare.refresh()
        return "".join(lines)
