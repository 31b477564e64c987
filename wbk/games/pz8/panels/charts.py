"""The Pz 8 chapter's chart panels, each drawn as ``wbk.draw.picture`` draws its answer:

- ``gun_against_armor()``: every gun against every class of tank (``attack_table``), the
  chance one attack destroys and the chance it passes the turn, with the cover, veteran and
  shaken toggles, the reading of a natural 6, and the card's shooting cases (``ARMOR_CASES``);
- ``duel_calculator()``: two tanks trading shots until one is destroyed (``duel``), the exact
  chances at the chosen range and at every range, step by step, with the other reading of who
  shoots next compared, and the card's cases as duels (``DUEL_CASES``).
"""

from __future__ import annotations

from fractions import Fraction

import ipywidgets as widgets
from matplotlib.artist import Artist

from wbk.draw import picture
from wbk.explain import steps_html
from wbk.widgets import ChartPanel, InPlacePicture
from wbk.widgets.steps import CompareReadings

from ..draw import heatmap_artists, mark_other_bars, mark_other_cells
from ..duel import Duel, duel
from ..readings import NATURAL_SIX, TURNS
from ..shooting import AttackTable, attack_table
from ..tanks import CREWS, GUNS, TANK_CLASSES, Tank
from .controls import CLASS_LABELS, choices, reading_choices, show_no_difference

#: When the reading of a natural 6 matters.
NATURAL_SIX_TIP = (
    "matters only when a short or medium gun needs a 7: a shaken regular crew shooting at a "
    "target in cover; otherwise both readings agree"
)


class CasesChartPanel(ChartPanel):
    """A chart panel with the card's cases as presets (its controls by their names) and a
    "compare with" control whose marks are kept to take them off again."""

    compare: CompareReadings
    _compare_marks: list[Artist]
    #: the duel on show, and what the figure shows: the duel (by id) and the step (None: the
    #: whole answer)
    shown_duel: Duel | None = None
    drawn: tuple[int, int | None] = (0, None)

    def remove_compare_marks(self) -> bool:
        """Take the marks of "compare with" off the chart; whether there were any."""
        marks = getattr(self, "_compare_marks", [])
        for artist in marks:
            if artist.axes is not None:
                artist.remove()
        self._compare_marks = []
        return bool(marks)

    def put_beside(self, name: str, note: widgets.Widget) -> None:
        """Put ``note`` right after the control called ``name`` in the row of controls."""
        children = list(self.control_row.children)
        children.insert(children.index(self.controls[name]) + 1, note)
        self.control_row.children = tuple(children)


# --- gun against armour -----------------------------------------------------------------------


def _armor_case(cover=False, veteran=False, shaken=False) -> dict[str, object]:
    return dict(cover=cover, veteran=veteran, shaken=shaken, natural_six="modified")


#: The card's shooting cases (Pz 8, Shooting; Penetration and Damage): the gun-against-armour
#: panel's presets. Every gun is drawn against every class; each case sets the modifiers.
ARMOR_CASES: dict[str, dict[str, object]] = {
    "Shooting: a medium gun's 2 dice against light, medium, heavy (saves 6+, 5+, 4+)": (
        _armor_case()
    ),
    "Shooting: a short gun's three dice, the target in cover (-1: only a 6 hits)": _armor_case(
        cover=True
    ),
    "Shooting: cover (-1) and a veteran crew (+1) cancel out": _armor_case(
        cover=True, veteran=True
    ),
    "Optional Rule Shaken: a shaken firer (-1)": _armor_case(shaken=True),
    "Shooting: cover and a shaken firer (-2): only a natural 6 that always hits has a chance": (
        _armor_case(cover=True, shaken=True)
    ),
}


def gun_against_armor() -> ChartPanel:
    """Every gun against every class of tank: the chance one attack destroys it, and the chance
    the attack passes the turn, with the cover, veteran and shaken toggles.

    A change of a toggle changes the picture in place (``picture`` keeps the heatmaps on show
    and changes their cells and titles), and only those are drawn again and sent
    (``InPlacePicture``), so that a click is answered at once."""
    made: list[CasesChartPanel] = []  # the panel, once built: its compare control marks each chart
    natural_six_note = widgets.HTML()
    #: whether an answer is being drawn (it asks for its own picture), and whether marks of
    #: "compare with" were or are on the chart (then it is drawn whole)
    state = {"answering": False, "marked": False}

    def compute(cover, veteran, shaken, natural_six) -> AttackTable:
        table = attack_table(cover=cover, veteran=veteran, shaken=shaken, natural_six=natural_six)
        others = [v for v in NATURAL_SIX.values if v != natural_six]
        same = all(
            attack_table(cover=cover, veteran=veteran, shaken=shaken, natural_six=v).chances
            == table.chances
            for v in others
        )
        show_no_difference(natural_six_note, same)
        return table

    def draw(figure, table: AttackTable) -> str:
        picture(table, figure=figure)
        if made:
            panel = made[0]
            had_marks = bool(getattr(panel, "_compare_marks", []))
            state["answering"] = True  # the answer asks for its own picture, marks and all
            try:
                panel.compare_readings.refresh()
            finally:
                state["answering"] = False
            state["marked"] = had_marks or bool(panel._compare_marks)
        return table._repr_html_()

    panel = CasesChartPanel(
        compute,
        draw,
        size=(8.0, 3.6),
        rule="Pz 8, Shooting and Penetration and Damage",
        cover=widgets.Checkbox(False, description="target in cover (-1)"),
        veteran=widgets.Checkbox(False, description="veteran crew firing (+1)"),
        shaken=widgets.Checkbox(False, description="firer shaken (-1)"),
        natural_six=choices(
            tuple(NATURAL_SIX.values),
            "a natural 6",
            layout=widgets.Layout(width="24em"),
            tooltip=NATURAL_SIX_TIP,
        ),
    )
    panel.draws_in_place = True
    panel.in_place = InPlacePicture(
        panel.figure,
        panel.canvas,
        lambda: None if state["marked"] else heatmap_artists(panel.figure),
    )
    panel.put_beside("natural_six", natural_six_note)
    panel.compare = panel.add_compare_readings(
        [NATURAL_SIX],
        mark=lambda other: _mark_other_kills(panel, other, asks=not state["answering"]),
        current=lambda: {"natural_six": panel.controls["natural_six"].value},
    )
    panel.add_presets(ARMOR_CASES)
    made.append(panel)
    return panel


def _mark_other_kills(panel: CasesChartPanel, other: dict[str, str] | None, *, asks: bool) -> bool:
    """The cells of "destroyed" whose chance moves under ``other``: outlined, with the other
    reading's chance. The canvas is asked for a picture only when marks come or go, and only
    if it ``asks`` (not while an answer is drawn: that asks for its own)."""
    had_marks = panel.remove_compare_marks()
    if other is None or not panel.figure.axes:
        if had_marks and asks:
            panel.canvas.draw_idle()
        return False
    values = {name: control.value for name, control in panel.controls.items()}
    shown, compared = attack_table(**values), attack_table(**(values | other))
    moved: list[tuple[int, int, Fraction]] = []
    for i, gun in enumerate(GUNS):
        for j, target in enumerate(TANK_CLASSES):
            here = shown.chances[gun, target].destroyed
            there = compared.chances[gun, target].destroyed
            if here != there:
                moved.append((i, j, there))
    panel._compare_marks = mark_other_cells(panel.figure.axes[0], moved)
    if (had_marks or panel._compare_marks) and asks:
        panel.canvas.draw_idle()
    return bool(panel._compare_marks)


# --- the duel ---------------------------------------------------------------------------------


def _duel_case(second_class: str, **settings: object) -> dict[str, object]:
    case: dict[str, object] = {
        "first_class": "medium",
        "first_gun": "medium",
        "first_crew": "regular",
        "second_class": second_class,
        "second_gun": "medium",
        "second_crew": "regular",
        "range_inches": 12,
        "first_in_cover": False,
        "second_in_cover": False,
    }
    return {**case, **settings}


#: The card's gun-against-armour cases as duels at 12": the duel calculator's presets.
DUEL_CASES: dict[str, dict[str, object]] = {
    'Duel at 12": a medium gun against a light tank (it saves on 6+)': _duel_case("light"),
    'Duel at 12": a medium gun against a medium tank (it saves on 5+)': _duel_case("medium"),
    'Duel at 12": a medium gun against a heavy tank (it saves on 4+)': _duel_case("heavy"),
    "Duel at 12\": a short gun's three dice against a medium tank's two": _duel_case(
        "medium", first_class="light", first_gun="short"
    ),
    'Duel at 12": cover and a veteran crew (the first tank)': _duel_case(
        "medium", first_crew="veteran", second_in_cover=True
    ),
}


def duel_calculator() -> ChartPanel:
    """Two tanks trading shots until one is destroyed: the exact chances at the chosen range,
    and each tank's chance at every range from 1 to 26 inches, the duel as ``picture`` draws
    it (the tanks are "the first tank" and "the second tank"), step by step."""
    made: list[CasesChartPanel] = []  # the panel, once built: its compare control marks each chart
    notes = {"shaken_rule": widgets.HTML(), "turns": widgets.HTML()}

    def answer(d: Duel) -> tuple:
        return (d.first_wins, d.second_wins, d.stalemate, d.mean_attacks_by)

    def compute(**values) -> Duel:
        a, b = (
            Tank(
                f"the {role} tank",
                tank_class=values.pop(f"{role}_class"),
                gun=values.pop(f"{role}_gun"),
                crew=values.pop(f"{role}_crew"),
            )
            for role in ("first", "second")
        )
        range_inches = values.pop("range_inches")
        here = duel(a, b, range_inches, **values)
        for keyword, other in (
            ("shaken_rule", not values["shaken_rule"]),
            ("turns", "alternate" if values["turns"] == "card" else "card"),
        ):
            there = duel(a, b, range_inches, **{**values, keyword: other})
            show_no_difference(notes[keyword], answer(there) == answer(here))
        return here

    def draw(figure, result: Duel) -> str:
        picture(result, figure=figure)
        if made:
            panel = made[0]
            panel.shown_duel, panel.drawn = result, (id(result), None)
            # at the verdict: the whole answer, drawn above
            panel.show_steps(result.steps, answer=result)
            panel.compare_readings.refresh()
        return steps_html(result.steps)

    panel = CasesChartPanel(
        compute,
        draw,
        size=(9.0, 3.8),
        rule="Pz 8, Shooting and Penetration and Damage (a duel: wbk's, not the card's)",
        first_class=choices(TANK_CLASSES, "first tank", "medium", words=CLASS_LABELS.get),
        first_gun=choices(GUNS, "its gun", "medium"),
        first_crew=choices(CREWS, "its crew"),
        second_class=choices(TANK_CLASSES, "second tank", "heavy", words=CLASS_LABELS.get),
        second_gun=choices(GUNS, "its gun", "long"),
        second_crew=choices(CREWS, "its crew"),
        range_inches=widgets.IntSlider(16, 1, 26, description="range (inches)"),
        first_in_cover=widgets.Checkbox(False, description="first in cover"),
        second_in_cover=widgets.Checkbox(False, description="second in cover"),
        shaken_rule=widgets.Checkbox(False, description="Optional Rule: Shaken"),
        turns=reading_choices(TURNS, "who shoots next", layout=widgets.Layout(width="32em")),
    )
    for name, note in notes.items():
        panel.put_beside(name, note)
    panel.compare = panel.add_compare_readings(
        [TURNS],
        mark=lambda other: _mark_other_turns(panel, other),
        current=lambda: {"turns": panel.controls["turns"].value},
    )
    panel.pane_lists_steps = True
    panel.step_control = panel.add_step_control(lambda k: _draw_at_step(panel, k))
    panel.add_presets(DUEL_CASES)
    made.append(panel)
    panel.update()  # the chart again, now that its compare control is there
    return panel


def _draw_at_step(panel: CasesChartPanel, k: int) -> None:
    """The duel on show at its step ``k`` (the last: the whole answer)."""
    result = panel.shown_duel
    step = None if panel.step_control.at_answer else k
    if result is None or panel.drawn == (id(result), step):
        return
    picture(result, step=step, figure=panel.figure)
    panel.drawn = (id(result), step)
    panel.compare_readings.refresh()
    panel.canvas.draw_idle()


def _mark_other_turns(panel: CasesChartPanel, other: dict[str, str] | None) -> bool:
    """The bars that move under the other ``turns``: its chances drawn as dashed outlines over
    the bars of "Who wins?"."""
    had_marks = panel.remove_compare_marks()
    here = getattr(panel, "shown_duel", None)
    if other is None or here is None or not panel.figure.axes:
        if had_marks:  # else nothing changed: an answer asks for its own picture
            panel.canvas.draw_idle()
        return False
    a, b = here.tanks
    options = dict(here.options)
    there = duel(
        a,
        b,
        here.range_inches,
        first_in_cover=bool(options["first_in_cover"]),
        second_in_cover=bool(options["second_in_cover"]),
        shaken_rule=bool(options["shaken_rule"]),
        turns=other["turns"],
    )
    pairs = [(here.first_wins, there.first_wins), (here.second_wins, there.second_wins)]
    if here.stalemate or there.stalemate:
        pairs.append((here.stalemate, there.stalemate))
    panel._compare_marks = mark_other_bars(panel.figure.axes[0], pairs)
    if had_marks or panel._compare_marks:
        panel.canvas.draw_idle()
    return bool(panel._compare_marks)
