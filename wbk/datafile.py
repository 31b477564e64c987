"""Reading the TOML files users write (maps, game data), with errors that name the file."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

from wbk.errors import WbkError


def read_text(path: str | os.PathLike, what: str) -> str:
    """The text of a data file; a missing, unreadable or non-UTF-8 file is a ``WbkError``
    naming it."""
    if isinstance(path, bytes) or not isinstance(path, (str, os.PathLike)):
        raise WbkError(f"{what} file {path!r} is not a file path (expected text or a pathlib.Path)")
    path = Path(path)
    try:
        return path.read_text(encoding="utf-8")
    except OSError as e:
        raise WbkError(f"{path}: cannot read the {what} ({e.strerror})") from None
    except UnicodeDecodeError as e:
        raise WbkError(
            f"{path}: the {what} is not UTF-8 text (byte {e.start}: {e.reason})"
        ) from None


def parse_toml(text: str, source: str) -> dict:
    """Parsed TOML (parsing never executes anything); bad TOML is a ``WbkError`` naming ``source``."""
    if not isinstance(text, str):
        raise WbkError(f"{source}: {text!r} is not TOML text")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise WbkError(f"{source}: not valid TOML: {e}") from None
