"""The machine a figure was measured on, said beside the figure: its processor, cores, Python,
load, and a yardstick of its speed. ``make bench`` heads its table with it and ``make test``
prints it first, because machines of one description differ here by 3x."""

from __future__ import annotations

import os
import platform
import time
from pathlib import Path


def machine() -> str:
    """The machine in one line, as a figure's heading says it."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    return (
        f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"load average {load:.1f} at the start, {yardstick():.2f} s for a 10-million-step "
        "Python loop"
    )


def yardstick() -> float:
    """Seconds for a plain 10-million-step loop, timed on 2 million steps (every test run pays
    for it): the same suite's pytest took 212 s on CI and 616 s on an "AMD EPYC, 2 cores"
    machine here whose loop took 2.4 s."""
    started = time.perf_counter()
    total = 0
    for i in range(2_000_000):
        total += i
    return (time.perf_counter() - started) * 5
