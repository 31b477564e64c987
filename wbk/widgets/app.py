"""The panels as the app (``make app``: Voila) serves them to a reader's browser.

In the app the server's files are not the reader's: "Save picture" and "Save edge case" hand the
file to the reader's browser as a download instead of writing it to the server's home, the
"save to" box is hidden, and each map panel offers "copy link", a link to the page that opens
with the situation on show. ``wbk.publish`` adds two cells to each chapter the app serves:
``link_slot()`` at the top, where ``open_link()`` (the last cell) shows the panel a link
describes.

How the kernel learns its reader's link: a kernel started for its reader has the page's query
string from Voila as it starts; a kernel from a pool ran the chapter before its reader came, and
the page itself hands it the link's ``case=``, through a hidden box of ``link_slot``'s, once the
page's widgets are up (the same connection the panels use; nothing waits on a handshake of its
own, so nothing is lost when the machine is busy).

The browser side (start a download, copy a link, hand over the link) is the few lines of script
in the app's template, ``app/voila/templates/wbk/index.html.j2``, which act on the classes named
here.
"""

from __future__ import annotations

import base64
import binascii
import html
import os
import urllib.parse
import zlib

import ipywidgets as widgets
from IPython.display import display

from wbk.datafile import LONGEST_FILE
from wbk.errors import WbkError
from wbk.widgets.files import download_link
from wbk.widgets.panel import say_beside

#: The query string parameter that carries an edge case (zlib-compressed TOML, base64url).
CASE_PARAMETER = "case"
#: The class of a link the page's script copies to the clipboard as soon as it appears.
COPY_CLASS = "wbk-copy-link"
#: The class of the hidden box in which the page's script puts its link's ``case=`` (or nothing).
QUERY_CLASS = "wbk-link-query"
#: The longest edge case a link carries, compressed (a browser keeps URLs far longer); a longer
#: query string is refused before it is unpacked, and a case unpacks to ``LONGEST_FILE`` at most.
LONGEST_LINK = 16_000

_slot: widgets.Output | None = None
#: The hidden box the page hands its query string to (``link_slot``).
_query_box: widgets.Text | None = None


def serve(panel) -> None:
    """Make ``panel`` an app panel (once): downloads for its saves, "copy link" for a map
    panel's situation, and no box naming a file on the server."""
    if getattr(panel, "_served_in_app", False):
        return
    panel._served_in_app = True
    panel.picture_path.layout.display = "none"
    # the links a save or "Copy link" makes, apart from the message line the panel renders
    panel.app_links = widgets.HTML()
    panel.picture_row.children = (*panel.picture_row.children, panel.app_links)
    panel.save_picture = lambda path=None: _guarded(panel, _download_picture)
    if hasattr(panel, "edge_case"):
        panel.save_edge_case = lambda path=None: _guarded(panel, _download_edge_case)
        copy = widgets.Button(description="Copy link", tooltip="a link that opens this situation")
        copy.on_click(lambda _: _guarded(panel, _copy_link))
        row = panel.picture_row.children
        panel.picture_row.children = (*row[:-1], copy, row[-1])


def _guarded(panel, action) -> None:
    """Run ``action(panel)``; a failure is the panel's one-line message, never a traceback."""
    try:
        action(panel)
    except WbkError as e:
        say_beside(panel.save_line, str(e), error=True)
    except Exception as e:  # a widget must never print a traceback into the page
        say_beside(panel.save_line, f"unexpected {type(e).__name__}: {e}", error=True)


def file_name(panel, suffix: str) -> str:
    """The name a download gets, as a save at home would name it: the panel and the situation,
    e.g. "trace-1913-1716.png"."""
    return panel.file_stem() + suffix


def _download_picture(panel) -> None:
    """The picture as "Save picture" writes it (caption and edge case included), downloaded."""
    name = file_name(panel, ".png")
    data = panel.picture_bytes(".png")
    say_beside(panel.save_line, "")  # no stale error beside the new download
    panel.app_links.value = download_link(name, data, "image/png")


def _download_edge_case(panel) -> None:
    data = panel.edge_case().encode("utf-8")
    say_beside(panel.save_line, "")  # no stale error beside the new download
    panel.app_links.value = download_link(file_name(panel, ".toml"), data, "application/toml")


def case_query(toml: str) -> str:
    """The query string that carries the edge case ``toml``.

    >>> case_query('panel = "wbk.widgets.TracePanel"')[:5]
    'case='
    """
    packed = base64.urlsafe_b64encode(zlib.compress(toml.encode("utf-8"), 9)).decode("ascii")
    if len(packed) > LONGEST_LINK:
        raise WbkError(f"this situation is too large for a link ({len(packed)} characters)")
    return urllib.parse.urlencode({CASE_PARAMETER: packed.rstrip("=")})


def case_from_query(query: str) -> str | None:
    """The edge case (TOML) a query string carries, or None when it carries none. A query longer
    than a link wbk makes, or one that unpacks to more than ``LONGEST_FILE``, is refused before
    any more work.

    >>> case_from_query(case_query('panel = "x"'))
    'panel = "x"'
    >>> case_from_query("theme=light") is None
    True
    """
    if len(query) > LONGEST_LINK + 1_000:
        raise WbkError(
            f"the link is {len(query):,} characters long: longer than any link wbk makes "
            f"({LONGEST_LINK:,} at most)"
        )
    values = urllib.parse.parse_qs(query).get(CASE_PARAMETER)
    if not values:
        return None
    packed = values[0].strip()
    try:
        data = base64.urlsafe_b64decode(packed + "=" * (-len(packed) % 4))
        unpacker = zlib.decompressobj()
        text = unpacker.decompress(data, LONGEST_FILE + 1)
        if len(text) > LONGEST_FILE:
            raise WbkError(
                f"the link's situation unpacks to more than wbk reads ({LONGEST_FILE:,} "
                "characters at most)"
            )
        if not unpacker.eof:  # a stream cut short unpacks to the part before the cut
            raise ValueError("the packed situation ends early")
        return text.decode("utf-8")
    except (binascii.Error, ValueError, zlib.error, UnicodeDecodeError) as e:
        if isinstance(e, WbkError):
            raise
        raise WbkError(
            f"the link's {CASE_PARAMETER}= is not a situation wbk wrote (cut short when copied?)"
        ) from None


def _copy_link(panel) -> None:
    link = "?" + case_query(panel.edge_case())
    say_beside(panel.save_line, "")  # no stale error beside the new link
    panel.app_links.value = (
        f'<a class="{COPY_CLASS}" href="{html.escape(link)}">link to this situation</a>'
    )


def link_slot() -> None:
    """Where a link's situation will show, at the top of the page (empty without a link), and
    the hidden box in which the page's script puts the link's ``case=`` once widgets are up."""
    global _slot, _query_box
    _slot = widgets.Output()
    _query_box = widgets.Text(layout=widgets.Layout(display="none"))
    _query_box.add_class(QUERY_CLASS)
    display(widgets.VBox([_query_box, _slot]))


def is_preheated() -> bool:
    """Whether this kernel came from one of Voila's pools: it ran the chapter before any reader
    came, and knows its reader's link only once the page hands it over."""
    from voila.utils import ENV_VARIABLE

    return os.getenv(ENV_VARIABLE.VOILA_PREHEAT) == "True"


def started_query() -> str:
    """The query string of the page a kernel was started for (Voila gives it to a kernel it
    starts for a reader; empty outside the app)."""
    from voila.utils import ENV_VARIABLE

    return os.getenv(ENV_VARIABLE.QUERY_STRING) or ""


def linked_situation(query: str) -> list:
    """What a page whose query string is ``query`` shows at its top: a heading and the panel its
    link describes (``?case=...``), one line saying why a bad link shows nothing, or nothing for
    a page opened without a link. A link may come from anyone: it is read as any edge case is
    (``wbk.widgets.edge_case_panel``), and whatever goes wrong is that one line."""
    from wbk.widgets import edge_case_panel

    try:
        toml = case_from_query(query)
        if toml is None:
            return []
        panel = edge_case_panel(toml, "the link")
    except WbkError as e:
        why = str(e)
    except Exception as e:  # a link must never break the page under it
        why = f"unexpected {type(e).__name__}: {e}"
    else:
        return [widgets.HTML("<h2>The situation from your link</h2>"), panel]
    why = " ".join(why.split())  # one line, whatever an exception's text holds
    return [widgets.HTML(f"<p><b>This link shows nothing:</b> {html.escape(why)}</p>")]


def open_link(query: str | None = None) -> None:
    """Show what the page's link describes (``linked_situation``) in ``link_slot``'s place: at
    once in a kernel started for its reader (or given ``query``); in a kernel from a pool, when
    the page hands its link over (its script fills ``link_slot``'s hidden box), without waiting
    here, so that the chapter is all run before the reader comes."""
    from wbk.widgets import paint_ahead

    if _slot is None or _query_box is None:
        return
    paint_ahead()  # the canvases' pictures, there the moment the page's widgets are
    if query is None and is_preheated():
        _query_box.observe(_handed_over, names="value")
        return
    _show(_slot, started_query() if query is None else query)


def _handed_over(change) -> None:
    """The page handed its query string over: shown once (the box is the page's, and a page may
    send it again); a link shows its situation or the one line why not."""
    box = change["owner"]
    box.unobserve(_handed_over, names="value")
    if _slot is not None:
        _show(_slot, str(change["new"]))


def _show(slot: widgets.Output, query: str) -> None:
    """``linked_situation(query)`` put in ``slot`` as its outputs: the widget's own state, which
    reaches the page whenever it connects (an output caught from the kernel's messages is lost
    when they come late, as on a busy machine)."""
    for part in linked_situation(query.removeprefix("?")):
        slot.append_display_data(part)
