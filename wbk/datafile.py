"""Reading the TOML files users write (maps, game data), with errors that name the file.

A data file may come from a stranger (a map posted in a forum, a link, a picture), so its size
and its nesting are checked before any work: ``LONGEST_FILE`` characters at most (the largest
map wbk takes, 5,000 hexes with terrain in every one, is about 55,000), nested at most
``DEEPEST`` levels (wbk's formats need four).
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
import tomllib
from pathlib import Path

from wbk.errors import WbkError

#: The longest data file or edge case wbk reads, in characters (or bytes, on disk).
LONGEST_FILE = 1_000_000
#: The deepest nesting of tables and arrays wbk reads in a data file.
DEEPEST = 8


def file_beside(folder: str | os.PathLike | None, name: str, what: str) -> Path:
    """The file a data file names (a situation's map, a quiz's map or table): a TOML file in
    the data file's own ``folder`` or below it, never elsewhere. A data file read from text
    (a link, a picture, an upload: ``folder`` None) must carry its files inline."""
    if folder is None:
        raise WbkError(
            f"{what} {name!r} names a file, but this one came without a folder to look in: "
            "it must carry the file inline"
        )
    if not isinstance(name, str) or "\0" in name:
        raise WbkError(f"{what} {name!r}: expected the name of a .toml file in the same folder")
    relative = Path(name)
    if relative.is_absolute() or ".." in relative.parts or not relative.name.endswith(".toml"):
        raise WbkError(
            f"{what} {name!r}: expected the name of a .toml file in the same folder (or below)"
        )
    base = Path(folder).resolve()
    path = (base / relative).resolve()
    if not path.is_relative_to(base):  # a link that leads out of the folder
        raise WbkError(f"{what} {name!r} leads out of its folder")
    return path


def read_text(path: str | os.PathLike, what: str) -> str:
    """The text of a data file; a missing, unreadable, too large or non-UTF-8 file (or one
    that is not a plain file: a folder, a device) is a ``WbkError`` naming it."""
    return decoded(read_bytes(path, what), str(path), what)


def read_bytes(path: str | os.PathLike, what: str, longest: int = LONGEST_FILE) -> bytes:
    """The bytes of a file, at most ``longest`` of them; a missing, unreadable or too large
    file (or one that is not a plain file: a folder, a device) is a ``WbkError`` naming it."""
    if isinstance(path, bytes) or not isinstance(path, (str, os.PathLike)):
        raise WbkError(f"{what} file {path!r} is not a file path (expected text or a pathlib.Path)")
    path = Path(path)
    if "\0" in str(path):
        raise WbkError(f"{what} file {str(path)!r} is not a file path (it holds a NUL)")
    try:
        # opened without waiting (a named pipe would block) and read no further than the limit
        # (a device such as /dev/zero never ends)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as e:
        raise WbkError(f"{path}: cannot read the {what} ({e.strerror})") from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        raise WbkError(f"{path}: not a plain file (a folder or a device): cannot read the {what}")
    with os.fdopen(fd, "rb") as f:
        data = f.read(longest + 1)
    if len(data) > longest:
        raise WbkError(f"{path}: the {what} is larger than wbk reads ({longest:,} bytes at most)")
    return data


def decoded(data: bytes, source: str, what: str) -> str:
    """A data file's bytes (read from disk or uploaded) as text, its size checked first."""
    if len(data) > LONGEST_FILE:
        raise WbkError(
            f"{source}: the {what} is larger than wbk reads ({LONGEST_FILE:,} bytes at most)"
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise WbkError(
            f"{source}: the {what} is not UTF-8 text (byte {e.start}: {e.reason})"
        ) from None


def parse_toml(text: str, source: str) -> dict:
    """Parsed TOML (parsing never executes anything), its size checked before and its nesting
    after; bad TOML is a ``WbkError`` naming ``source``."""
    if not isinstance(text, str):
        raise WbkError(f"{source}: {text!r} is not TOML text")
    if len(text) > LONGEST_FILE:
        raise WbkError(
            f"{source}: {len(text):,} characters is more than wbk reads ({LONGEST_FILE:,} at most)"
        )
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise WbkError(f"{source}: not valid TOML: {e}") from None
    except ValueError as e:  # an integer past Python's digit limit, which tomllib lets through
        longest = sys.get_int_max_str_digits()
        raise WbkError(
            f"{source}: a number longer than wbk reads ({longest:,} digits at most)"
            if "integer string conversion" in str(e)
            else f"{source}: not valid TOML: {' '.join(str(e).split())}"
        ) from None
    except RecursionError:  # arrays nested hundreds deep
        data = None
    if data is None or _depth(data) > DEEPEST:
        raise WbkError(f"{source}: nested deeper than wbk reads ({DEEPEST} levels at most)")
    return data


def _depth(data: object) -> int:
    """How deep tables and arrays nest in parsed TOML (counted without recursion: dotted keys
    nest tables as deep as a line is long)."""
    deepest, stack = 0, [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            children: list = list(value.values())
        elif isinstance(value, list):
            children = value
        else:
            continue
        deepest = max(deepest, depth + 1)
        if deepest > DEEPEST:
            break
        stack += [(child, depth + 1) for child in children]
    return deepest


def write_atomically(path: Path, data: str | bytes, what: str) -> None:
    """Write a file so that a failed write (a full disk, say) leaves any file already there
    untouched and no part-written file behind. A new file gets the usual permissions (0o666 less
    the umask), a replaced one keeps its own; a folder, an unwritable place or a failed write is
    a ``WbkError`` naming the path and the ``what``."""
    path = Path(path)
    if "\0" in str(path):
        raise WbkError(f"{what} file {str(path)!r} is not a file path (it holds a NUL)")
    if path.is_dir():
        raise WbkError(f"{path}: is a folder, not a {what} file")
    if isinstance(data, str):
        try:
            data = data.encode("utf-8")
        except UnicodeEncodeError as e:
            raise WbkError(
                f"the {what}'s text {e.object[max(0, e.start - 20) : e.end]!r} cannot be written "
                "to a file: it holds a lone surrogate (a broken character); nothing was written"
            ) from None
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
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as e:
        os.unlink(tmp)
        raise WbkError(
            f"{path}: cannot save the {what} ({e.strerror or e}); nothing was written"
        ) from None
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
