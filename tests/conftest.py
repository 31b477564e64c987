"""Settings and fixtures shared by the test modules.

- The browser tests' JupyterLab, one for every worker, Chromium and its one JupyterLab page a
  worker, in which ``run_all`` opens a test's notebook (``lab``, ``browser``, ``lab_page``,
  ``run_all``: see browser_support.py).
- Hypothesis without its per-example deadline and with fixed examples: no pass or fail that
  depends on how busy the machine is, and the same examples on every run.
- Marks ``browser`` (a test in Chromium), put on by what a test uses, ``notebook`` (a test that
  runs a notebook in a kernel, marked by the test) and ``slow`` (the longest sweeps):
  ``make test-fast`` leaves them out.
- Python's cyclic garbage collector tuned for a suite that makes many short-lived figures
  (``pytest_collection_finish``).
- The order for pytest-xdist (``make test`` runs ``-n``, ``--dist=loadscope``: a test module in
  one worker, so a module's server (the site, the app) starts once a worker): the
  modules that use a server first, so that no long one starts at the end alone.
"""

import gc

import pytest
from browser_support import browser, lab, lab_page, run_all  # noqa: F401 (fixtures by name)
from hypothesis import HealthCheck, settings

settings.register_profile(
    "wbk",
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("wbk")

#: Exhaustive sweeps that take a large share of the suite's time: marked ``slow`` here (a module
#: may also mark its own with ``@pytest.mark.slow``), and left out by ``make test-fast``.
SLOW = (
    "tests/test_sightlines.py::test_viewsheds_on_an_80x60_map_are_line_of_sight",
    "tests/test_sightlines.py::test_intervisibility_is_line_of_sight_on_every_pair",
)

#: Fixtures that start a server (the browser tests' JupyterLab, test_publish's site and app).
SERVERS = ("lab", "site", "app")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "browser: runs in headless Chromium (left out by test-fast)")
    config.addinivalue_line("markers", "slow: an exhaustive sweep (left out by test-fast)")
    config.addinivalue_line(
        "markers", "notebook: runs a notebook in a kernel (left out by test-fast)"
    )


def uses_a_server(item: pytest.Item) -> bool:
    return any(name in getattr(item, "fixturenames", ()) for name in SERVERS)


@pytest.hookimpl(tryfirst=True)  # marks first, so that -m (test-fast) sees them
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)
        if item.nodeid.startswith(SLOW):
            item.add_marker(pytest.mark.slow)
    # a module is placed where its first test is: modules with a server, then the rest (a
    # stable sort: the order within a module is kept)
    first = {}
    for item in items:
        module = item.nodeid.split("::")[0]
        rank = 0 if uses_a_server(item) else 1
        first[module] = min(first.get(module, rank), rank)
    items.sort(key=lambda item: first[item.nodeid.split("::")[0]])


def pytest_collection_finish(session: pytest.Session) -> None:
    # Each full collection scans every object alive, the imported libraries' included: those
    # live all run, so they are frozen out of it, and young objects are collected less often.
    # test_widgets_pz8 spent 5.8 s of its 37 s of CPU in 3,091 collections, and 1.7 s in 779.
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 10, 10)
