"""The pictures of a notebook's run compared with its stored ones by their pixels: nbval (see
conftest.py) compares what cells say, and a PNG's bytes would say nothing about what it shows."""

from __future__ import annotations

import base64
import io

import numpy as np
from PIL import Image  # matplotlib's own dependency

#: How far a pixel of a fresh run's picture may be from the stored one, in levels of 255 per
#: channel. Matplotlib draws a chapter's pictures to the same pixels run after run (measured: no
#: pixel of any chapter's picture differs; its wheels carry their own FreeType); 1 level allows
#: for a build that rounds a blend differently, and is nothing a reader could see.
PIXEL_TOLERANCE = 1
PICTURES = ("image/png",)


def pixels(png: str) -> np.ndarray:
    """A base64 PNG as an array of RGBA pixels."""
    with Image.open(io.BytesIO(base64.b64decode(png))) as picture:
        return np.asarray(picture.convert("RGBA"), dtype=np.int16)


def pictures_differ(ran: str, stored: str, tolerance: int = PIXEL_TOLERANCE) -> str:
    """How the picture ``ran`` (a base64 PNG) differs from ``stored`` by its pixels, past
    ``tolerance`` levels in any channel; "" when it does not."""
    a, b = pixels(ran), pixels(stored)
    if a.shape != b.shape:
        return f"it is {a.shape[1]}x{a.shape[0]} px, the stored one {b.shape[1]}x{b.shape[0]}"
    off = abs(a - b).max(axis=2)
    count = int((off > tolerance).sum())
    if not count:
        return ""
    return f"{count:,} of its {off.size:,} pixels differ, by up to {int(off.max())} levels"


def pictures(outputs) -> list[str]:
    """The pictures among a cell's outputs, in order."""
    return [
        output["data"][kind]
        for output in outputs or ()
        for kind in PICTURES
        if kind in output.get("data", {})
    ]


def picture_differences(ran_outputs, stored_outputs) -> list[str]:
    """What differs between the pictures of a cell's run and its stored ones."""
    ran, stored = pictures(ran_outputs), pictures(stored_outputs)
    if len(ran) != len(stored):
        return [f"it drew {len(ran)} pictures, {len(stored)} stored"]
    found = []
    for number, (new, old) in enumerate(zip(ran, stored, strict=True), 1):
        differs = pictures_differ(new, old)
        if differs:
            found.append(f"picture {number}: {differs}")
    return found
