"""What every panel is built on: ``Panel`` (its message line, what is out of date, saving its
picture, its static snapshot, and the teaching parts it adds: step control, compare readings,
worked examples), ``reports_errors`` for its callbacks, the ipympl canvas its pictures are drawn
on (``interactive_figure``) and a picture sent changed in place (``InPlacePicture``), and the
readers of what a box holds (``typed``, ``parse_whole_numbers``, ``parse_optional_number``).
``wbk.widgets`` re-exports each name."""

from __future__ import annotations

import base64
import functools
import html
import io
import operator
import os
import re
import weakref
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypeVar, cast, overload

import ipywidgets as widgets
import matplotlib
from matplotlib.figure import Figure
from matplotlib.text import Text

from wbk.draw.maps import MapView, shown_on_a_page
from wbk.draw.view import PictureView
from wbk.errors import WbkError
from wbk.explain import Step, steps_html
from wbk.readings import Reading
from wbk.widgets.edge_cases import checked_text
from wbk.widgets.files import LIVE_ONLY, PANELS_ENV, in_app
from wbk.widgets.readings import compare_words

if TYPE_CHECKING:
    from wbk.widgets.steps import CompareReadings, Presets, StepControl

T = TypeVar("T")


def interactive_figure(
    size: tuple[float, float],
    *,
    layout: Literal["constrained", "compressed", "tight"] | None = "constrained",
) -> tuple[Figure, widgets.DOMWidget]:
    """A matplotlib figure on its own ipympl canvas, whatever the notebook's backend is."""
    # Importing ipympl switches the whole notebook to its backend; switch back, so that the
    # worked examples keep drawing inline figures that a static page shows.
    backend = matplotlib.get_backend()
    from ipympl.backend_nbagg import Canvas, FigureManager

    matplotlib.use(backend)
    figure = Figure(figsize=size, layout=layout)
    canvas = Canvas(figure)
    FigureManager(canvas, 0)
    canvas.header_visible = False
    canvas.toolbar_visible = False
    canvas.footer_visible = False
    _canvases.add(canvas)
    return figure, canvas


class InPlacePicture:
    """A picture of which only a few artists change from one answer to the next (a chart's
    cells, its numbers and titles): ``show`` draws just those over a kept picture of the rest
    and sends the result as the canvas's next picture (matplotlib's blitting), instead of asking
    the page for a whole new drawing. A whole drawing costs the axes' ticks and labels every
    time (the gun-against-armour panel: 155 ms of its 160 here).

    ``changing()`` gives the artists to draw, in the order they are drawn, or None when the
    picture must be drawn whole (marks laid over it, a picture out of date). The kept picture
    is the figure drawn without them; it is made again after any whole drawing (a resize, a
    new layout, marks that came or went), since that may have changed what it shows."""

    def __init__(self, figure: Figure, canvas, changing: Callable[[], Sequence | None]):
        self.figure, self.canvas, self.changing = figure, canvas, changing
        #: the picture without the changing artists: its figure's (dpi, size), those artists
        #: (a figure drawn anew has artists of its own) and the picture
        self._kept: tuple[tuple, list, Any] | None = None
        self._keeping = False
        canvas.mpl_connect("draw_event", self._forget)

    def _forget(self, _event) -> None:
        if not self._keeping:
            self._kept = None

    def _background(self, artists: Sequence) -> Any:
        from matplotlib.backends.backend_agg import FigureCanvasAgg

        size = (self.figure.dpi, tuple(self.figure.bbox.bounds))
        if self._kept is not None:
            kept_size, kept_artists, picture = self._kept
            if kept_size == size and len(kept_artists) == len(artists):
                if all(old is new for old, new in zip(kept_artists, artists, strict=True)):
                    return picture
        shown = [artist.get_visible() for artist in artists]
        # an axes' drawing moves a hidden title far above it, as if it had no height
        placed = [(a, a.get_position()) for a in artists if isinstance(a, Text)]
        self._keeping = True
        try:
            for artist in artists:
                artist.set_visible(False)
            FigureCanvasAgg.draw(self.canvas)  # drawn here, not sent to the page
            picture = self.canvas.copy_from_bbox(self.figure.bbox)
        finally:
            for artist, visible in zip(artists, shown, strict=True):
                artist.set_visible(visible)
            for text, position in placed:
                text.set_position(position)
            self._keeping = False
        self._kept = (size, list(artists), picture)
        return picture

    def show(self) -> bool:
        """Send the picture as the changing artists now stand; False (nothing sent) when it
        must be drawn whole."""
        if not shown_on_a_page(self.canvas):  # no page to send to; its first picture is whole
            return False
        artists = self.changing()
        if artists is None:
            return False
        self.canvas.restore_region(self._background(artists))
        for artist in artists:
            self.figure.draw_artist(artist)
        self.canvas.blit(self.figure.bbox)
        return True


#: Every ipympl canvas a panel draws on, while it lives (for ``paint_ahead``).
_canvases: weakref.WeakSet = weakref.WeakSet()


def paint_ahead() -> None:
    """Give every live panel canvas its picture as it stands now, as an image the browser paints
    the moment the page's widgets arrive, before the kernel has drawn anything for it.

    The app (``make app``) calls this in a kernel that ran the chapter before any reader came:
    ipympl draws only when a page asks, so without it each canvas stays blank until the kernel
    has drawn every picture of the chapter again for the reader who just came."""
    for canvas in list(_canvases):
        figure = canvas.figure
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png", dpi="figure")
        canvas._data_url = "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()
        canvas._size = canvas.get_width_height()  # the PNG's own size, in pixels


STALE = "<p><i>Out of date: fix the input above to see the answer again.</i></p>"
#: Where a panel's pictures go unless told otherwise: the user's folder, not the workbook's.
PICTURES = Path("~/wbk-pictures")
NOT_RUN = "An interactive panel: run the notebook (Run > Run All Cells) to use it."
LIVE_NOTE = (
    "A snapshot of an interactive panel. To explore it, open this chapter in JupyterLab "
    "(make lab) or in the app (make app) and run it."
)
#: The message line's height, kept even when it is empty, so a message never moves the picture.
MESSAGE_HEIGHT = "28px"
ERROR_COLOUR = "#b03a2e"
#: The dimmed answer of a panel that is out of date (see ``Panel.mark_stale``).
_DIMMED = '<div style="opacity:0.45">'


def _looks_like_path(text: str) -> bool:
    """Whether a box holds a file path (of the reader's machine: not for a static page)."""
    text = text.strip()
    return (
        text.startswith(("/", "~", "\\"))
        or "/" in text
        or "\\" in text
        or (len(text) > 2 and text[1] == ":" and text[0].isalpha())
    )


def shown_value(control: widgets.Widget) -> str:
    """A control's value as its reader sees it: the label of the option chosen ("none" for an
    empty choice of several), "yes" or "no" for a switch, else the value as text."""
    value = control.value
    if hasattr(control, "options"):
        label = getattr(control, "label", None)
        if isinstance(label, tuple):
            return ", ".join(label) or "none"
        if label is not None:
            return str(label)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return ", ".join(map(str, value)) or "none"
    return str(value)


def _control_values(widget: widgets.Widget) -> list[tuple[str, str]]:
    """(label, value) of every control in a widget tree, in the order they are laid out; a box
    holding a file path (the reader's own folders) is left out."""
    if LIVE_ONLY in getattr(widget, "_dom_classes", ()):
        return []  # a live-only box: nothing in it means anything on a static page
    found = []
    for child in getattr(widget, "children", ()):
        found += _control_values(child)
    if isinstance(widget, (widgets.HTML, widgets.Button)) or not hasattr(widget, "value"):
        return found
    label = getattr(widget, "description", "") or getattr(widget, "placeholder", "")
    if not label:
        return found
    if isinstance(widget.value, str) and _looks_like_path(widget.value):
        return found
    return [*found, (label, shown_value(widget))]


#: Dots per inch of a static page's picture, and the width the page shows it at (90 a figure
#: inch, the size it always had): twice the pixels, so a zoom or the full-size view is sharp.
STATIC_DPI, SHOWN_DPI = 180, 90


def _png_base64(figure: Figure) -> str:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=STATIC_DPI)
    return base64.b64encode(buffer.getvalue()).decode("ascii")


def quoted_list(names: Sequence[str]) -> str:
    """The names quoted and listed: '"a"', '"a" and "b"', '"a", "b" and "c"'."""
    quoted = [f'"{name}"' for name in names]
    return " and ".join([", ".join(quoted[:-1]), quoted[-1]] if len(quoted) > 1 else quoted)


Method = TypeVar("Method", bound=Callable[..., Any])


@overload
def reports_errors(method: Method, /) -> Method: ...
@overload
def reports_errors(
    method: None = None,
    /,
    *,
    stale: bool = True,
    input: str | None = None,
    beside: str | None = None,
    working: str = "saving…",
) -> Callable[[Method], Method]: ...
def reports_errors(
    method: Callable[..., Any] | None = None,
    /,
    *,
    stale: bool = True,
    input: str | None = None,
    beside: str | None = None,
    working: str = "saving…",
) -> Any:
    """Turn an exception in a widget callback into the panel's one-line message.

    - ``input="tank name"``: the callback reads that input; an error marks the input bad (the
      panel out of date, the message line naming it) until the callback next succeeds.
    - by default (``stale=True``): an error marks the panel out of date until this callback
      next succeeds, its message shown without a name.
    - ``stale=False`` (callbacks that change no answer): an error is a passing message; the
      answer on show stays as it is.
    - ``beside="save_line"`` (saving, loading): the outcome is said in that line of the panel
      (an ``HTML`` attribute, dotted: "file.note"), beside the buttons that did it: ``working``
      while the callback works, then the words it returns ("saved ... to ...") or its error,
      each replacing the last.
    """
    if method is None:
        return functools.partial(
            reports_errors, stale=stale, input=input, beside=beside, working=working
        )
    name = method.__name__
    if beside is not None:
        return _said_beside(method, beside, working)

    @functools.wraps(method)
    def guarded(self: Panel, *args: Any, **kwargs: Any) -> Any:
        # trying the callback again forgets its last failure: it is either gone or set again
        if input is not None:
            self.bad_inputs.pop(input, None)
        elif stale:
            self.failed_callbacks.pop(name, None)
        try:
            result = method(self, *args, **kwargs)
        except WbkError as e:
            message = str(e)
        except Exception as e:  # a widget must never print a traceback into the notebook
            message = f"unexpected {type(e).__name__}: {e}"
        else:
            if name == "update":
                self.stale = False  # an update that ran draws the answer afresh
            self.settle()
            return result
        if input is not None:
            self.set_bad(input, message)
        elif stale:
            self.failed_callbacks[name] = message
            self.note = ("", False)
            self.settle()
        else:
            self.show_message(message)
        return None

    return guarded


def _said_beside(method: Callable[..., Any], beside: str, working: str) -> Callable[..., Any]:
    """``method`` (a save or a load) with its outcome said in the line ``beside`` names."""

    @functools.wraps(method)
    def guarded(self: Panel, *args: Any, **kwargs: Any) -> Any:
        line = operator.attrgetter(beside)(self)
        say_beside(line, working)
        try:
            said = method(self, *args, **kwargs)
        except WbkError as e:
            say_beside(line, str(e), error=True)
        except Exception as e:  # a widget must never print a traceback into the notebook
            say_beside(line, f"unexpected {type(e).__name__}: {e}", error=True)
        else:
            say_beside(line, said if isinstance(said, str) else "")
        return None

    return guarded


def say_beside(line: widgets.HTML, text: str, *, error: bool = False) -> None:
    """Say ``text`` in a line beside a panel's buttons, on one line (red for an error),
    replacing what it said before."""
    text = html.escape(" ".join(text.split()), quote=False)
    line.value = f'<span style="color:{ERROR_COLOUR}">{text}</span>' if error and text else text


def _why(panel: Panel) -> dict[str, Any]:
    """What ``panel``'s saved picture says under its verdict, as ``picture`` of its answer
    does: the step the answer on show rests on (``reason``, ``wbk.draw.deciding_step``) and,
    when the picture shows a step of it, the whole answer's ``verdict`` above that step;
    nothing for a panel with no answer, or out of date."""
    answer = getattr(panel, "_answer", None)
    if answer is None or panel.stale:
        return {}
    from wbk.draw import deciding_step, verdict_of

    reason = deciding_step(answer)
    if reason is None:
        return {}
    if panel.step_control.at_answer:
        return {"reason": reason}
    # a board's title as it stood at the answer, or a chart's, drawn afresh
    return {"reason": reason, "verdict": panel._answer_title or verdict_of(answer)}


def _snapshot(panel: Panel) -> str:
    """``Panel.static_html``: the panel's controls, pictures, message, pane and steps."""
    parts = ['<div class="wbk-panel-snapshot">']
    controls = panel.controls_text()
    if controls:
        parts.append(f'<p class="wbk-controls">{" · ".join(controls)}</p>')
    if panel.message.value:
        parts.append(f"<p>{panel.message.value}</p>")
    for figure in panel.figures():
        title = " ".join(  # the alt text: the question and its answer, on one line
            " ".join(ax.get_title().split()) for ax in figure.axes if ax.get_title()
        )
        parts.append(
            f'<img src="data:image/png;base64,{_png_base64(figure)}" '
            f'alt="{html.escape(title)}" width="{round(figure.get_figwidth() * SHOWN_DPI)}" '
            'style="max-width:100%;height:auto">'
        )
    pane = getattr(panel, "pane", None)
    if pane is not None and pane.value:
        parts.append(f"<div>{pane.value}</div>")
    step_control = getattr(panel, "step_control", None)
    if step_control is not None and step_control.steps and not panel.pane_lists_steps:
        parts.append(f"<div><b>Step by step</b>{steps_html(step_control.steps)}</div>")
    parts.append(f"<p><i>{LIVE_NOTE}</i></p></div>")
    return "".join(parts)


def _stale_note(names: Sequence[str]) -> str:
    """What a dimmed answer says above it: which inputs are bad, if any."""
    if not names:
        return STALE
    bad = "is" if len(names) == 1 else "are"
    them = "it" if len(names) == 1 else "them"
    listed = html.escape(quoted_list(names), quote=False)
    return (
        f"<p><i>Out of date while {listed} {bad} bad: fix {them} above "
        "to see the answer again.</i></p>"
    )


def file_stem(kind: str, situation: Sequence[str]) -> str:
    """A file's name without its suffix: the words of a panel's kind ("LosPanel": "los"), then
    the situation's ("1712", "2014"): "los-1712-2014"."""
    words = words_of(kind)
    words = words[:-1] if len(words) > 1 and words[-1] == "panel" else words
    parts = [*words, *(file_word(w) for w in situation)]
    return "-".join(p for p in parts if p) or "picture"


def words_of(name: str) -> list[str]:
    """The words of a class or function name, lower case: "LosPanel" -> ["los", "panel"]."""
    return [w.lower() for w in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+", name)]


def file_word(text: str) -> str:
    """``text`` as a part of a file name: letters and digits, runs of anything else one "_"."""
    return re.sub(r"[^0-9A-Za-z]+", "_", text).strip("_")[:40]


class Panel:
    """Common frame of the panels: a message line, saving the picture, Jupyter display of
    ``self.widget``, and what is out of date.

    A panel is out of date exactly while an input is bad (``set_bad`` / ``clear_bad``, or a
    callback decorated ``@reports_errors(input=...)``) or a callback that changes the answer
    failed (``@reports_errors``); the message line names each, and ``mark_stale`` dims the
    answer. ``show_message(text)`` and ``show_done(text)`` give a passing message (an error, a
    success) in the same line, each replacing the last.
    """

    #: The rule the panel's picture illustrates, named in the caption of a saved picture.
    rule: str = ""
    #: The row of the panel's controls, where a note beside a control goes (set by the panel).
    control_row: widgets.Box
    #: The panel's kind, as its files' default names say it (else its class's name says it).
    file_kind: str = ""
    #: Whether the panel's pane lists its answer's steps already (then a static snapshot does
    #: not list them again under it).
    pane_lists_steps: bool = False

    def __init__(self) -> None:
        self.message = widgets.HTML(layout=widgets.Layout(min_height=MESSAGE_HEIGHT))
        #: input name -> what is wrong with it, for each bad input
        self.bad_inputs: dict[str, str] = {}
        #: callback name -> its error, for each failed callback that changes the answer
        self.failed_callbacks: dict[str, str] = {}
        #: the passing message: its text, and whether it is an error
        self.note: tuple[str, bool] = ("", False)
        #: whether the answer on show is dimmed as out of date
        self.stale = False
        self.picture_path = widgets.Text(
            "",
            description="save to",
            # written from "~": a page or a snapshot names no user's folder; in the app, where
            # the picture is a download, no folder at all
            placeholder="" if in_app() else str(PICTURES / f"{self.file_stem()}.png"),
            style={"description_width": "initial"},
            layout=widgets.Layout(width="360px"),
        )
        self.picture_path.add_class(LIVE_ONLY)
        save = widgets.Button(
            description="Save picture",
            tooltip="PNG or SVG, by the file's suffix; a PNG carries its settings too "
            "(wbk.widgets.load_edge_case opens it again)",
        )
        save.on_click(lambda _: self.save_picture())
        #: what the last save said ("saving…", "saved ... to ...", or why it could not), beside
        #: the buttons that save
        self.save_line = widgets.HTML(layout=widgets.Layout(margin="0 0 0 8px"))
        #: the files this panel wrote (replacing one of them is no news)
        self.written: set[Path] = set()
        self.picture_row = widgets.HBox([self.picture_path, save, self.save_line])
        self.picture_row.layout.align_items = "center"
        self.picture_row.layout.flex_flow = "row wrap"

    # --- the names of its files -------------------------------------------------------------

    def situation_words(self) -> list[str]:
        """What a file's default name says of the situation on show (a map panel's hexes)."""
        return []

    def file_stem(self) -> str:
        """A saved file's default name, without its suffix: the panel and the situation, e.g.
        "los-1712-2014" (``file_stem``)."""
        return file_stem(self.file_kind or type(self).__name__, self.situation_words())

    # --- the widget and its settings --------------------------------------------------------

    @property
    def widget(self) -> widgets.Widget:
        """The panel's whole widget tree, as a notebook displays it."""
        return self._widget

    @widget.setter
    def widget(self, value: widgets.Widget) -> None:
        self._widget = value
        if not hasattr(self, "defaults"):  # the first layout: the settings as the panel starts
            #: each setting control's value when the panel was made (by id of the control)
            self.defaults = {id(c): c.value for c in self.setting_controls()}

    def setting_controls(self) -> list[widgets.Widget]:
        """The controls the picture depends on besides its hexes or pieces (readings, blocking
        terrain, options): ``self.controls``, if the panel has it. A saved picture's caption
        names those not at their starting values."""
        controls = getattr(self, "controls", ())
        return list(controls.values() if isinstance(controls, dict) else controls)

    def changed_settings(self) -> list[tuple[str, str]]:
        """(label, value) of each setting that differs from how the panel started."""
        defaults = getattr(self, "defaults", {})
        return [
            (c.description or "setting", shown_value(c))
            for c in self.setting_controls()
            if id(c) in defaults and c.value != defaults[id(c)]
        ]

    def caption(self) -> str:
        """The small print under a saved picture: the rule it illustrates and every setting that
        differs from the panel's defaults ("" for a panel with neither)."""
        parts = [f"Rule: {self.rule}."] if self.rule else []
        changed = self.changed_settings()
        if changed:
            listed = "; ".join(f"{label}: {value}" for label, value in changed)
            parts.append(f"Settings unlike the defaults: {listed}.")
        elif self.setting_controls():
            parts.append("All settings at their defaults.")
        return " ".join(parts)

    def compare_toml(self) -> str:
        """The "compare with" reading on show as the ``[compare]`` table an edge case (a saved
        case, a picture, a link) ends with; "" when the panel compares nothing."""
        compare = getattr(self, "compare_readings", None)
        return "" if compare is None else compare.toml()

    def set_compare(self, given: object, source: str) -> None:
        """Compare with the reading an edge case's ``[compare]`` table names (None: none)."""
        if given is None:
            return
        compare = getattr(self, "compare_readings", None)
        if compare is None:
            raise WbkError(f"{source}: [compare]: this panel compares no readings")
        compare.choose(given, source)

    def edge_case_text(self) -> str | None:
        """The situation on show as TOML (the panel's ``edge_case()``, which a map panel has and
        ``load_edge_case`` reads), or None for a panel without one."""
        edge_case = getattr(self, "edge_case", None)
        return edge_case() if callable(edge_case) else None

    # --- messages and what is out of date ---------------------------------------------------

    @property
    def is_out_of_date(self) -> bool:
        """Whether some input is bad, or a callback that changes the answer failed."""
        return bool(self.bad_inputs or self.failed_callbacks)

    def set_bad(self, name: str, message: str) -> None:
        """Input ``name`` is bad: say so (``message`` names the value and what was expected)
        and mark the answer out of date until ``clear_bad(name)``."""
        self.bad_inputs[name] = message
        self.note = ("", False)  # a success message must not stay beside a new error
        self.settle()

    def clear_bad(self, name: str) -> None:
        """Input ``name`` is good again; once nothing is bad, the panel shows the answer again
        (it calls ``update``, if it has one and the answer was dimmed)."""
        if self.bad_inputs.pop(name, None) is not None:
            self.settle()

    def read_input(self, name: str, read: Callable[[], T]) -> T | None:
        """``read()``'s value, input ``name`` marked good; or None, the input marked bad with
        the ``WbkError`` that ``read`` raised. For use inside a callback decorated with
        ``reports_errors``, which shows the outcome when it returns."""
        try:
            value = read()
        except WbkError as e:
            self.bad_inputs[name] = str(e)
            self.note = ("", False)
            return None
        self.bad_inputs.pop(name, None)
        return value

    def settle(self) -> None:
        """Show the message line for the panel's state, and dim the answer while it is out of
        date, or bring it back when it no longer is."""
        self.render_message()
        if not in_app():  # the picture's default name follows the situation on show
            self.picture_path.placeholder = str(PICTURES / f"{self.file_stem()}.png")
        if self.is_out_of_date:
            self.mark_stale()
        elif self.stale:
            self.stale = False
            update = getattr(self, "update", None)
            if callable(update):
                update()

    def render_message(self) -> None:
        errors = [f"{name}: {text}" for name, text in self.bad_inputs.items()]
        errors += list(self.failed_callbacks.values())
        text, is_error = self.note
        # one line, whatever an exception's text holds
        errors, text = [" ".join(e.split()) for e in errors], " ".join(text.split())
        spans = [
            f'<span style="color:{ERROR_COLOUR}">{html.escape(e, quote=False)}</span>'
            for e in errors
        ]
        if text:
            style = f' style="color:{ERROR_COLOUR}"' if is_error else ""
            spans.append(f"<span{style}>{html.escape(text, quote=False)}</span>")
        self.message.value = "; ".join(spans)

    def show_message(self, text: str) -> None:
        """A passing error message ("" clears the passing message); the bad inputs stay named."""
        self.note = (text, bool(text))
        self.render_message()

    def show_done(self, text: str) -> None:
        """A passing success message ("saved the picture to ..."), replacing the last one."""
        self.note = (text, False)
        self.render_message()

    def stale_names(self) -> list[str]:
        return list(self.bad_inputs)

    def stale_title(self) -> str:
        """The picture's title while the panel is out of date."""
        names = self.stale_names()
        if not names:
            return "Out of date: fix the input above"
        return f"Out of date: fix {quoted_list(names)} above"

    def mark_stale(self) -> None:
        """While out of date: say that what is on show no longer answers the controls, and which
        inputs are bad. Subclasses also dim their picture."""
        self.stale = True
        pane = getattr(self, "pane", None)
        if pane is None:
            return
        if not pane.value.startswith(_DIMMED):
            self._answer_html = pane.value
        note = _stale_note(self.stale_names())
        pane.value = f"{_DIMMED}{note}{getattr(self, '_answer_html', '')}</div>"

    # --- pictures ---------------------------------------------------------------------------

    @reports_errors(beside="save_line")
    def save_picture(self, path: str | None = None) -> str:
        """Save the panel's picture (title, answer, legend, and a caption naming the rule and
        the settings unlike the defaults) as PNG or SVG; a PNG also carries the edge case, so
        that ``load_edge_case`` opens it again. By default it goes to ``PICTURES``, named for
        the panel and the situation (``file_stem``); the words beside the button say where,
        and whether it replaced a file this panel did not write."""
        from wbk.draw import save_picture

        chosen = self._chosen_path(path)
        replaced = self.replacing(chosen)
        written = save_picture(self.figures()[0], chosen, **self._saved_with())
        self.written.add(chosen)
        return f"saved the picture to {written}{replaced}"

    def replacing(self, path: Path) -> str:
        """What saving to ``path`` replaces, in words to add to "saved ..." (``replacing``)."""
        return replacing(path, self.written)

    def picture_bytes(self, suffix: str = ".png") -> bytes:
        """The panel's picture as "Save picture" writes it (caption included, and a PNG's edge
        case), for a file that goes elsewhere: a download from the app, say."""
        from wbk.draw import picture_bytes

        return picture_bytes(self.figures()[0], suffix, **self._saved_with())

    def _saved_with(self) -> dict[str, Any]:
        """What a saved picture carries besides the figure: the caption, the edge case (in a
        PNG) and why its answer is what it is."""
        return {"caption": self.caption(), "edge_case": self.edge_case_text(), **_why(self)}

    def _chosen_path(self, path: str | None, suffix: str = ".png") -> Path:
        """The file typed (or given), else the default (``file_stem`` with ``suffix`` in
        ``PICTURES``), whose folder is made if need be; any other folder must exist."""
        typed = path or self.picture_path.value.strip()
        chosen = Path(typed or PICTURES / f"{self.file_stem()}{suffix}").expanduser()
        folder = PICTURES.expanduser()
        if chosen.parent == folder:
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise WbkError(f"cannot make the folder {folder}: {e.strerror}") from None
        return chosen

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        if os.environ.get(PANELS_ENV) == "static":
            return {"text/html": self.static_html(), "text/plain": NOT_RUN}
        if os.environ.get(PANELS_ENV) == "app":  # saves download, map panels copy a link
            from wbk.widgets.app import serve

            serve(self)
        bundle = self.widget._repr_mimebundle_(**kwargs)
        # what a stored notebook shows before its cells are run, instead of "VBox(children=..."
        if isinstance(bundle, dict) and "text/plain" in bundle:
            bundle["text/plain"] = NOT_RUN
        return bundle

    def controls_text(self) -> list[str]:
        """The panel's controls as "label: value", as a reader of a static page sees them."""
        return [
            f"{html.escape(label)}: {html.escape(value)}"
            for label, value in _control_values(self.widget)
        ]

    def figures(self) -> list[Figure]:
        """The pictures the panel draws."""
        figure = getattr(self, "figure", None)
        return [figure] if figure is not None else []

    def static_html(self) -> str:
        """A snapshot of the panel as it stands, for a page with no kernel behind it: its
        controls as "label: value", its pictures, its message and its text pane, and how to
        explore it live."""
        return _snapshot(self)

    # --- teaching: step through, compare readings, worked examples (issue 19) ----------------

    def _place(self, part: widgets.Widget, *, before: widgets.Widget | None) -> None:
        """Lay ``part`` into the panel's outer box just before ``before`` (at the end if it is
        not there)."""
        children = list(self.widget.children)
        at = children.index(before) if before in children else len(children)
        self.widget.children = (*children[:at], part, *children[at:])

    def add_step_control(self, draw_at_step: Callable[[int], None] | None = None) -> StepControl:
        """Give the panel a step control under its picture and return it; the panel hands it
        each new answer's steps with ``show_steps(result.steps, answer=result)`` at the end of
        ``show``. ``draw_at_step(k)`` draws the picture at step k; a map panel's default marks
        the step on its map (``wbk.draw.show_step``), the last step being the whole answer."""
        from wbk.widgets.steps import KEYS_CLASS, StepControl

        self.step_control = StepControl(draw_at_step or self._draw_map_step)
        self.step_control.widget.add_class(LIVE_ONLY)
        self.widget.add_class(KEYS_CLASS)  # the arrow keys step while focus is in the panel
        self._place(self.step_control.widget, before=self.picture_row)
        return self.step_control

    def show_steps(self, steps: Sequence[Step], *, answer: object = None) -> None:
        """A new answer, drawn whole: its steps listed, the last (the verdict) on show.
        ``answer``: the result the steps are of, whose saved picture says why as ``picture``
        does; None for steps that reach no verdict (a trace's)."""
        view = getattr(self, "view", None)
        self._answer_title = view.title() if isinstance(view, PictureView) else ""
        self._answer = answer
        self.step_control.set_steps(steps)

    def _draw_map_step(self, k: int) -> None:
        from wbk.draw import clear_step, show_step

        view: MapView = getattr(self, "view")  # noqa: B009 (a map panel's)
        if self.step_control.at_answer:
            clear_step(view)
            view.set_title(self._answer_title)
        else:
            show_step(view, self.step_control.steps, k)
        view.redraw()

    def add_compare_readings(
        self,
        readings: Mapping[str, Mapping[str, str]] | Sequence[Reading] | Mapping[str, Reading],
        mark: Callable[[dict[str, str] | None], bool],
        current: Callable[[], Mapping[str, str]],
        questions: Mapping[str, str] | None = None,
    ) -> CompareReadings:
        """A "compare with" menu of the other values of ``readings``, laid above the message
        line: the panel's declared readings (``wbk.readings.Reading``s, or a game's ``READINGS``
        by keyword), named by their questions; or keyword -> value -> words, with ``questions``
        (keyword -> words) naming them.
        ``mark(other)`` marks on the picture what changes under ``other`` ({keyword: value}) and
        says whether anything does (None: take the marks off); ``current()`` gives the readings
        on show. The panel calls ``refresh()`` on the returned control after each answer."""
        from wbk.widgets.steps import CompareReadings

        declared = list(readings.values() if isinstance(readings, Mapping) else readings)
        if isinstance(readings, Mapping) and not any(isinstance(r, Reading) for r in declared):
            words = cast(Mapping[str, Mapping[str, str]], readings)
        else:
            if questions is not None:
                raise WbkError("questions come from the declared readings: give one or the other")
            words, questions = compare_words(cast(list[Reading], declared))
        self.compare_readings = CompareReadings(words, mark, current, questions)
        self.compare_readings.widget.add_class(LIVE_ONLY)
        self._place(self.compare_readings.widget, before=self.message)
        return self.compare_readings

    def add_presets(self, presets: Mapping[str, Mapping[str, object]]) -> Presets:
        """A menu of the rules' worked examples at the panel's top: each a name and the values
        it gives the panel's controls (a hex box by its name, another control by the panel's
        attribute), e.g. ``{"9.4 example 1: 1913 -> 1716": {"firer": "1913", "target": "1716"}}``.
        """
        from wbk.widgets.steps import Presets

        self.presets = Presets(presets, self.apply_preset)
        self.presets.widget.add_class(LIVE_ONLY)
        for name in {name for example in presets.values() for name in example}:
            control = self._preset_control(name)
            if isinstance(control, widgets.ValueWidget):
                self.presets.follow(name, control)
        self._place(self.presets.widget, before=self.widget.children[0])
        return self.presets

    def _preset_control(self, name: str) -> object:
        """The control a worked example calls ``name``: a hex box, a chart panel's named
        control, or the panel's attribute."""
        for named in (getattr(self, "boxes", None), getattr(self, "controls", None)):
            if isinstance(named, Mapping) and name in named:
                return named[name]
        return getattr(self, name, None)

    @reports_errors
    def apply_preset(self, values: Mapping[str, object]) -> None:
        """Set the controls to ``values`` (see ``add_presets``); each change updates the
        answer as if the reader had made it."""
        self.presets.set_controls(values, self._preset_control, shown_value)


def replacing(path: Path, written: set[Path]) -> str:
    """What saving to ``path`` replaces, in words to add to "saved ...": "" for no file, or for
    one of the files ``written`` by the same panel; else which panel's file it was, as far as
    the file says."""
    if path in written or not path.exists():
        return ""
    return f", replacing the file there ({whose_file(path)})"


def whose_file(path: Path) -> str:
    """Which panel wrote the file at ``path``, in words, as far as the file says: a PNG or an
    edge case names its panel."""
    from wbk.draw import read_edge_case

    try:
        if path.suffix.lower() == ".png":
            text = read_edge_case(path)
        else:
            with path.open("rb") as f:
                text = f.read(400).decode("utf-8", "replace")
    except (WbkError, OSError):
        return "not one this panel saved"
    named = re.match(r'\s*panel\s*=\s*"([\w.]+)"', text)
    if named is None:
        return "not one this panel saved"
    words = words_of(named.group(1).rpartition(".")[2])
    return f"the {' '.join(words)}'s, saved before"


def typed(text: str, name: str) -> str:
    """What a box holds, no longer than ``LONGEST_TYPED`` (checked before it is read)."""
    return checked_text(text, name)


def parse_whole_numbers(text: str, name: str) -> list[int]:
    """Whole numbers typed as "5, 5, 3" (or with spaces); an empty box is an empty list."""
    typed(text, name)
    numbers = []
    for part in text.replace(",", " ").split():
        try:
            numbers.append(int(part))
        except ValueError:
            raise WbkError(f"{part!r} in {name} is not a whole number") from None
    return numbers


def parse_optional_number(text: str, name: str) -> int | None:
    """A whole number typed in a box, or None for an empty box."""
    text = typed(text, name).strip()
    if not text:
        return None
    try:
        return int(text)
    except ValueError:
        raise WbkError(f"{name} {text!r} is not a whole number") from None
