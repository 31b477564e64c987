"""A panel's data files, read and written where its reader is.

In JupyterLab (``make lab``) the reader is the machine's user: a box holds a path of theirs,
read and written there. In the app (``make app``) the reader is a guest of the server: loading
is an upload from their browser, saving a download to it, and no path of the server is ever
shown, read or written. A file that came inline in an edge case, a link or a picture is held as
if uploaded.

- ``FileInput``: a data file a panel reads whenever it changes (a CRT), a control like any other.
- ``FileRow``: Load and Save of the file a panel edits (a map, a situation, a table).
"""

from __future__ import annotations

import base64
import html
import os
from collections.abc import Callable
from pathlib import Path

import ipywidgets as widgets
import traitlets

from wbk.datafile import LONGEST_FILE, decoded, read_text, write_atomically
from wbk.errors import WbkError

#: Set to "static" (as ``make site`` does) to show every panel as a snapshot, not a live widget;
#: "app" (``make app``) for panels whose reader is a guest of the server (``wbk.widgets.app``).
PANELS_ENV = "WBK_PANELS"
#: The class of a link the app page's script downloads as soon as it appears.
DOWNLOAD_CLASS = "wbk-download"
#: The class of controls that mean nothing on a static page (which end the next click sets).
LIVE_ONLY = "wbk-live-only"


def in_app() -> bool:
    """Whether the panels are served by the app, where the reader is a guest of the server."""
    return os.environ.get(PANELS_ENV) == "app"


def home_short(path: Path) -> str:
    """A path in the user's home folder written from "~" (short to read, and naming no user)."""
    try:
        return str(Path("~") / path.relative_to(Path.home()))
    except ValueError:
        return str(path)


def download_link(name: str, data: bytes, mime: str) -> str:
    """HTML of a link that saves ``data`` as ``name`` in the reader's browser; the app page's
    script follows it as soon as it appears."""
    url = f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}"
    return (
        f'<a class="{DOWNLOAD_CLASS}" download="{html.escape(name)}" href="{url}">'
        f"{html.escape(name)}</a> went to your browser's downloads (click it to save it again)"
    )


def _upload(upload: widgets.FileUpload, what: str) -> tuple[str, str | WbkError] | None:
    """The file last uploaded (its name, and its text or what is wrong with it), its size checked
    before it is decoded; None when the upload is empty."""
    if not upload.value:
        return None
    given = upload.value[0]
    name = str(given.get("name", "upload"))[:200]
    if int(given.get("size", 0)) > LONGEST_FILE or len(given["content"]) > LONGEST_FILE:
        return name, WbkError(
            f"{name}: the {what} is larger than wbk reads ({LONGEST_FILE:,} bytes at most)"
        )
    try:
        return name, decoded(bytes(given["content"]), name, what)
    except WbkError as e:
        return name, e


def _upload_button(what: str) -> widgets.FileUpload:
    return widgets.FileUpload(
        accept=".toml",
        multiple=False,
        description=f"Load {what}",
        tooltip=f"a {what} file (TOML) from your computer",
        layout={"width": "auto"},
    )


class FileInput(widgets.HBox, widgets.ValueWidget):
    """A data file a panel reads, as a control: in JupyterLab a box for its path, in the app an
    upload. ``value`` names the file (the path typed, or the name of the file uploaded or
    carried) and changes whenever another file is given; ``text()`` is its text."""

    value = traitlets.Unicode("")
    #: what the file is for, shown on its box or its upload button (a box's own tooltip breaks
    #: its view in Voila's widgets, so this one is not sent to the page)
    tooltip = traitlets.Unicode(None, allow_none=True)

    def __init__(
        self,
        what: str,
        *,
        description: str,
        path: str = "",
        tooltip: str = "",
        width: str = "22em",
    ):
        self.what = what
        #: the file uploaded or carried: its name, and its text or what is wrong with it
        self.held: tuple[str, str | WbkError] | None = None
        if in_app():
            self.upload = _upload_button(what)
            self.upload.tooltip = tooltip or self.upload.tooltip
            self.upload.observe(self._uploaded, names="value")
            self.shown = widgets.Label("", layout={"margin": "0 0 0 8px"})
            parts: list[widgets.Widget] = [self.upload, self.shown]
        else:
            self.box = widgets.Text(
                path,
                description=description,
                placeholder=f"path of your {what}'s TOML file",
                tooltip=tooltip,
                continuous_update=False,
                layout={"width": width},
            )
            self.box.observe(self._typed, names="value")
            parts = [self.box]
        super().__init__(parts, value=path, tooltip=tooltip)
        self.description = description
        self.add_class(LIVE_ONLY)  # the reader's own file: a static page names the choice only
        self.observe(self._set, names="value")

    def text(self) -> tuple[str, str]:
        """The file's text and its name for messages (the path typed, or the file's name);
        a blank box, no upload, an unreadable or too large file is a ``WbkError``."""
        name = self.value
        if self.held is not None and self.held[0] == name:
            text = self.held[1]
            if isinstance(text, WbkError):
                raise text
            return text, name
        if in_app():
            raise WbkError(f"no {self.what} loaded: choose your file with “Load {self.what}”")
        if not name.strip():
            raise WbkError(
                f"{self.description} is blank: type the path of your {self.what}'s TOML file"
            )
        path = Path(name.strip()).expanduser()
        return read_text(path, self.what), str(path)

    def carry(self, name: str, text: str) -> None:
        """Hold a file that came inline (an edge case, a link, a picture), as if uploaded."""
        self._hold((name, text))

    def _hold(self, held: tuple[str, str | WbkError]) -> None:
        self.held = held
        if self.value == held[0]:  # the same name again: still another file
            self.notify_change(
                traitlets.Bunch(name="value", old=held[0], new=held[0], owner=self, type="change")
            )
        else:
            self.value = held[0]

    def _uploaded(self, _change) -> None:
        given = _upload(self.upload, self.what)
        if given is not None:
            self.upload.value = ()  # the next upload, even of the same file, is news
            self._hold(given)

    def _typed(self, change) -> None:
        if self.held is not None and change["new"] != self.held[0]:
            self.held = None  # another path typed: the file carried is no longer the one named
        self.value = change["new"]

    def _set(self, change) -> None:
        if in_app():
            self.shown.value = change["new"]
        elif self.box.value != change["new"]:
            self.box.value = change["new"]


class FileRow:
    """Load and Save of the file a panel edits (``what``: "map", "situation", "table").

    In JupyterLab: a path box (``default`` at first, written from "~"), Load and Save; with
    ``makes_folder`` (a default of wbk's own, in the reader's home) a save makes the default's
    folder if need be, never another: a folder typed or given must exist. In the app:
    "Load ..." uploads a file from the reader's browser, Save downloads one to it.
    ``load()`` and ``save()`` are the panel's callbacks for the two buttons; ``note``, beside
    them, is where they say how it went (``reports_errors(beside="file.note")``)."""

    def __init__(
        self,
        what: str,
        default: Path,
        *,
        load: Callable[[], object],
        save: Callable[[], object],
        width: str = "28em",
        makes_folder: bool = False,
    ):
        self.what, self.default, self.makes_folder = what, default, makes_folder
        self.held: tuple[str, str | WbkError] | None = None
        #: the files this row wrote (replacing one of them is no news)
        self.written: set[Path] = set()
        self.note = widgets.HTML(layout={"margin": "0 0 0 8px"})
        save_button = widgets.Button(description="Save", layout={"width": "60px"})
        save_button.on_click(lambda _: save())
        if in_app():
            self.upload = _upload_button(what)
            self.upload.observe(lambda _: self._uploaded(load), names="value")
            self.links = widgets.HTML()
            parts: list[widgets.Widget] = [self.upload, save_button, self.note, self.links]
        else:
            self.path = widgets.Text(
                home_short(default),
                description=f"{what} file",
                tooltip="the TOML file Load reads and Save writes",
                style={"description_width": "initial"},
                layout={"width": width},
            )
            self.path.add_class(LIVE_ONLY)  # the reader's own file, whatever its name
            load_button = widgets.Button(description="Load", layout={"width": "60px"})
            load_button.on_click(lambda _: load())
            parts = [self.path, load_button, save_button, self.note]
        self.parts = parts

    def read(self) -> tuple[str, str, Path | None]:
        """The file to load: its text, its name for messages, and its folder (where a file it
        names is looked for; None for an upload, which must carry everything inline)."""
        if in_app():
            if self.held is None:
                raise WbkError(f"no {self.what} loaded: choose your file with “Load {self.what}”")
            name, text = self.held
            if isinstance(text, WbkError):
                raise text
            return text, name, None
        path = self.chosen()
        return read_text(path, self.what), str(path), path.parent

    def write(self, text: str, name: str) -> str:
        """Save ``text`` (``name``: the file's name for a download); where it went, in words."""
        if in_app():
            self.links.value = download_link(name, text.encode("utf-8"), "application/toml")
            return "to your browser's downloads"
        path = self.chosen()
        if self.makes_folder and path.parent == self.default.parent.expanduser():
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise WbkError(f"cannot make the folder {path.parent}: {e.strerror}") from None
        elif not path.parent.is_dir():
            raise WbkError(
                f"cannot save the {self.what} to {path}: there is no folder {path.parent}"
            )
        replaced = ""
        if path not in self.written and path.exists():
            replaced = ", replacing the file there (not one this panel saved)"
        write_atomically(path, text, self.what)
        self.written.add(path)
        return f"to {path}{replaced}"

    def chosen(self) -> Path:
        """The path in the box ("~" understood); it must end in .toml."""
        path = Path(self.path.value.strip()).expanduser()
        if path.name == ".toml" or not path.name.endswith(".toml"):
            raise WbkError(f"file name {path.name!r} should end in .toml, after a name")
        return path

    def _uploaded(self, load: Callable[[], object]) -> None:
        given = _upload(self.upload, self.what)
        if given is not None:
            self.upload.value = ()
            self.held = given
            load()
