"""The panels as the app (``make app``: Voila) serves them to a reader's browser.

In the app the server's files are not the reader's: "Save picture" and "Save edge case" hand the
file to the reader's browser as a download instead of writing it to the server's home, the
"save to" box is hidden, and each map panel offers "copy link", a link to the page that opens
with the situation on show. ``wbk.publish`` adds two cells to each chapter the app serves:
``link_slot()`` at the top, where ``open_link()`` (the last cell) shows the panel a link
describes.

The browser side (start a download, copy a link) is the few lines of script in the app's
template, ``app/voila/templates/wbk/index.html.j2``, which act on the classes named here.
"""

from __future__ import annotations

import base64
import binascii
import html
import os
import re
import urllib.parse
import zlib

import ipywidgets as widgets
from IPython.display import display

from wbk.datafile import LONGEST_FILE
from wbk.errors import WbkError
from wbk.widgets.files import download_link

#: The query string parameter that carries an edge case (zlib-compressed TOML, base64url).
CASE_PARAMETER = "case"
#: The class of a link the page's script copies to the clipboard as soon as it appears.
COPY_CLASS = "wbk-copy-link"
#: The longest edge case a link carries, compressed (a browser keeps URLs far longer); a longer
#: query string is refused before it is unpacked, and a case unpacks to ``LONGEST_FILE`` at most.
LONGEST_LINK = 16_000

_slot: widgets.Output | None = None


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
        panel.show_message(str(e))
    except Exception as e:  # a widget must never print a traceback into the page
        panel.show_message(f"unexpected {type(e).__name__}: {e}")


def file_name(panel, suffix: str) -> str:
    """The name a download gets: the panel's kind in words, e.g. "los-panel.png"."""
    words = re.findall(r"[A-Z]+[a-z0-9]*|[a-z0-9]+", type(panel).__name__)
    return "-".join(w.lower() for w in words) + suffix


def _download_picture(panel) -> None:
    """The picture as "Save picture" writes it (caption and edge case included), downloaded."""
    name = file_name(panel, ".png")
    data = panel.picture_bytes(".png")
    panel.show_message("")
    panel.app_links.value = download_link(name, data, "image/png")


def _download_edge_case(panel) -> None:
    data = panel.edge_case().encode("utf-8")
    panel.show_message("")
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
        return text.decode("utf-8")
    except (binascii.Error, ValueError, zlib.error, UnicodeDecodeError) as e:
        if isinstance(e, WbkError):
            raise
        raise WbkError(
            f"the link's {CASE_PARAMETER}= is not a situation wbk wrote (cut short when copied?)"
        ) from None


def _copy_link(panel) -> None:
    link = "?" + case_query(panel.edge_case())
    panel.show_message("")
    panel.app_links.value = (
        f'<a class="{COPY_CLASS}" href="{html.escape(link)}">link to this situation</a>'
    )


def link_slot() -> None:
    """Where a link's situation will show, at the top of the page (empty without a link)."""
    global _slot
    _slot = widgets.Output()
    display(_slot)


def query_string() -> str:
    """The page's query string. A preheated kernel (Voila's pool) ran the chapter before any
    reader came, so it waits here for Voila to pass on the request of the reader it serves.
    Voila tries once, for 5 s, to connect the kernel to the server for it, and a kernel started
    on a busy machine may miss that: without asking again it would never learn its reader's link.
    """
    from voila.utils import ENV_VARIABLE, wait_for_request

    wait_for_request()
    while (
        os.getenv(ENV_VARIABLE.VOILA_PREHEAT) == "True"
        and os.getenv(ENV_VARIABLE.QUERY_STRING) is None
    ):
        wait_for_request()
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
    """Show what the page's link describes (``linked_situation``) in ``link_slot``'s place."""
    from wbk.widgets import paint_ahead

    if _slot is None:
        return
    paint_ahead()  # before the wait: a preheated kernel paints while no reader has come yet
    shown = linked_situation(query_string() if query is None else query)
    with _slot:
        for part in shown:
            display(part)
