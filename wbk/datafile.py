"""Reading the TOML files users write (maps, game data), with errors that name the file."""

from __future__ import annotations

import os
import stat
import tempfile
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
    """Parsed TOML (parsing never executes anything); bad TOML is a ``WbkError`` naming
    ``source``."""
    if not isinstance(text, str):
        raise WbkError(f"{source}: {text!r} is not TOML text")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise WbkError(f"{source}: not valid TOML: {e}") from None


def write_atomically(path: Path, text: str, what: str) -> None:
    """Write a data file so that a failed write leaves any file already there untouched. A new
    file gets the usual permissions (0o666 less the umask), a replaced one keeps its own; a
    folder or an unwritable place is a ``WbkError`` naming the path and the ``what``."""
    if path.is_dir():
        raise WbkError(f"{path}: is a folder, not a {what} file")
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        mode = 0o666 & ~_umask()
    except OSError as e:
        raise WbkError(f"{path}: cannot save the {what} ({e.strerror})") from None
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    except OSError as e:
        raise WbkError(f"{path}: cannot save the {what} ({e.strerror})") from None
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def _umask() -> int:
    """The process's umask, read without changing it where Linux tells it (a brief set-and-
    restore elsewhere)."""
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
