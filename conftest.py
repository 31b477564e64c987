"""Tests draw without a screen: matplotlib's Agg backend for this process only.

Notebook kernels (the site build's, JupyterLab's, the app's, nbval's) are separate processes and
keep their own backends.

The chapters (wbk/chapters/, and each rule set's in its folder) are tested by nbval (``pytest
--nbval``, in pyproject's addopts): each runs top to bottom in a fresh kernel, one test a code
cell, and every cell must say what its stored outputs say (what changes run to run is
sanitized: tests/nbval_sanitize.cfg). nbval compares a picture's PNG as text, or not at all;
here every picture a cell draws is compared with its stored one by its pixels
(tests/notebook_pictures.py), so that stored pictures cannot drift from what a fresh run
draws. ``make notebooks`` stores a fresh run's outputs.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import matplotlib
import nbval.kernel
import pytest
from nbval.plugin import IPyNbCell, NbCellError

sys.path.insert(0, str(Path(__file__).parent / "tests"))
from notebook_pictures import picture_differences  # tests/, on the path first

matplotlib.use("Agg")


def pytest_report_header(config) -> str:
    """The machine first, its speed measured: a time in this run's log means little without it
    (benchmarks/machine.py)."""
    from benchmarks.machine import machine

    return f"machine: {machine()}"


#: What a fresh run changes in what a cell says (an object's address): nbval's sanitize file.
SANITIZE = Path(__file__).parent / "tests" / "nbval_sanitize.cfg"

_start_kernel = nbval.kernel.start_new_kernel


def _start_kernel_with_agg(*args, **kwargs):
    """nbval's kernels run with ``MPLBACKEND=Agg`` in their environment, as on many servers
    and CI: a chapter still shows every picture it stores (its first line is ``%matplotlib
    inline``), or the picture comparison fails."""
    kwargs.setdefault("env", {**os.environ, "MPLBACKEND": "Agg"})
    return _start_kernel(*args, **kwargs)


nbval.kernel.start_new_kernel = _start_kernel_with_agg


def pytest_configure(config: pytest.Config) -> None:
    if config.getoption("nbval_sanitize_with", None) is None and hasattr(
        config.option, "nbval_sanitize_with"
    ):
        config.option.nbval_sanitize_with = str(SANITIZE)
    config.pluginmanager.register(NotebooksEarly(), "wbk-notebooks-early")
    # tests/conftest.py says so too; here for a run of the chapters alone
    config.addinivalue_line("markers", "notebook: runs a notebook in a kernel")


@pytest.hookimpl(tryfirst=True)  # before -m (make test-fast) deselects by mark
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if isinstance(item, IPyNbCell):
            item.add_marker(pytest.mark.notebook)


class NotebooksEarly:
    """The chapters (a chapter in one worker: ``--dist=loadscope``) right after the modules
    with a server, which tests/conftest.py puts first, longest chapter first: the chapters
    come last in the collection, and one of them left to start at the end would run alone."""

    @pytest.hookimpl(trylast=True)  # after tests/conftest.py's order
    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        servers = {"lab", "site", "app"}
        with_server = {
            i.nodeid.split("::")[0] for i in items if servers & set(getattr(i, "fixturenames", ()))
        }

        def rank(item: pytest.Item) -> tuple[int, int]:
            module = item.nodeid.split("::")[0]
            if module in with_server:
                return (0, 0)
            if isinstance(item, IPyNbCell):
                return (1, -item.path.stat().st_size)
            return (2, 0)

        items.sort(key=rank)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item):
    result = yield
    if isinstance(item, IPyNbCell) and item.options["check"] and item.cell.execution_count:
        differ = picture_differences(item.test_outputs, item.cell.outputs)
        if differ:
            raise NbCellError(
                item.cell_num,
                "Cell pictures differ from the stored ones ("
                + "; ".join(differ)
                + "); `make notebooks` stores a fresh run's outputs",
                item.cell.source,
            )
    return result
