"""The Pz 8 table panel as a user meets it: JupyterLab in headless Chromium runs it as the chapter
makes it (in a notebook of its own: the chapter runs whole in the site build), a tank is placed
by clicking the table, picked as the shooter and fires (the fixtures and helpers are in
browser_support.py)."""

from browser_support import chapter_cells, click_canvas, errors_shown, put_notebook
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from wbk.draw.tables import TableView, table_axes, table_figure_size
from wbk.games import pz8


def table_point(table, point, box) -> tuple[float, float]:
    """Where the table point (inches) is drawn inside the table panel's canvas, found by drawing
    the same figure here with Agg and scaling to the canvas's size in the page (the table panel
    has a fixed layout, so the overlays on show do not matter)."""
    figure = Figure(figsize=table_figure_size(table, 6.0))
    FigureCanvasAgg(figure)
    view = TableView(table, table_axes(figure))
    figure.draw_without_rendering()
    x, y = view.ax.transData.transform(point)
    width, height = figure.bbox.width, figure.bbox.height
    return box["x"] + box["width"] * x / width, box["y"] + box["height"] * (1 - y / height)


def test_pz8_table_panel_places_a_tank_and_fires(run_all, lab):
    put_notebook(lab, "pz8_table.ipynb", *chapter_cells("pz8.ipynb", "panels.TablePanel("))
    page = run_all("pz8_table.ipynb")
    assert errors_shown(page) == []
    table = pz8.example_table()
    first_title = page.locator(".widget-html b:has-text('Pz IV 1 → KV-1')").first
    first_title.wait_for()
    assert "destroyed 5/18 (27.78%)" in first_title.inner_text()
    # the table panel's figure (its canvas div holds the figure's canvas, then a rubber band's)
    canvas = page.locator(".jupyter-matplotlib-canvas-div").first.locator("canvas").first

    # the controls and the picture (its title and legend) fit on a 1000-pixel screen
    canvas.scroll_into_view_if_needed()
    page.wait_for_function(  # ipympl sizes the canvas after its first picture arrives
        "el => el.getBoundingClientRect().height > 500",
        arg=canvas.element_handle(),
    )
    controls = page.locator(".widget-text:has-text('shooter')").first.bounding_box()
    picture = canvas.bounding_box()
    height = picture["y"] + picture["height"] - controls["y"]
    print(f"table panel: controls and picture {height:.0f} px tall")
    assert height <= 1000, f"the table panel's controls and picture are {height:.0f} px tall"

    def click_table(point):
        click_canvas(canvas, lambda box: table_point(table, point, box))

    # place the Panther (the tank described below the table: heavy, long gun) at 10", 40"
    # the panel's hint says what a click does: wait for it, so the kernel knows the choice
    page.locator("button:has-text('place tank')").click()
    page.locator(".widget-html:has-text(\"A click places 'Panther'\")").wait_for()
    click_table((10, 40))
    page.locator(".widget-html:has-text(\"placed 'Panther'\")").wait_for()
    # pick it as the shooter: it fires at the KV-1
    page.locator("button:has-text('shooter')").click()
    hint = page.locator(".widget-html:has-text('A click on a tank picks the shooter')")
    hint.wait_for()
    click_table((10, 40))
    shooter = page.locator(".widget-text:has-text('shooter') input").first
    page.wait_for_function("el => el.value === 'Panther'", arg=shooter.element_handle())
    title = page.locator(".widget-html b:has-text('Panther → KV-1')").first
    title.wait_for()
    assert (
        "destroyed 1/3 (33.33%)" in title.inner_text()
    )  # a long gun hits on 4-6, a heavy tank saves on 5-6
    # a tank that is not there: a one-line message, no traceback
    shooter.fill("Panzer")
    shooter.press("Enter")
    message = page.locator(".widget-html:has-text(\"no tank called 'Panzer' on the table\")")
    message.wait_for()
    assert "Traceback" not in message.inner_text()
    assert errors_shown(page) == []
