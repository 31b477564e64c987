"""Settings and fixtures shared by the test modules.

- The browser tests' JupyterLab, one for every worker, Chromium and its one JupyterLab page a
  worker, in which ``run_all`` opens a test's notebook (``lab``, ``browser``, ``lab_page``,
  ``run_all``: see browser_support.py).
- Hypothesis without its per-example deadline and with fixed examples: no pass or fail that
  depends on how busy the machine is, and the same examples on every run.
- Marks ``browser`` (a test in Chromium) and ``notebook`` (a test that runs a notebook in a
  kernel), put on by what a test uses (``browser``; the ``site``, whose build runs every
  chapter) or by the test, and ``slow`` (the longest sweeps): ``make test-fast`` leaves them out.
- Python's cyclic garbage collector tuned for a suite that makes many short-lived figures
  (``pytest_collection_finish``).
- The order for pytest-xdist (``make test`` runs ``-n``, ``--dist=loadscope``: a test module in
  one worker, so a module's server (the site, the app) starts once a worker): the
  modules that use a server first, then the longest of the rest, so that no long one starts at
  the end alone.
- ``toy_rules``, the toy rule set, is importable in the kernels the tests start (its chapter's,
  run by nbval from its own folder): this folder is on their ``PYTHONPATH``. Importing it
  registers nothing; a test hands it to the registry (test_adding_a_rule_set).
"""

import gc
import os
from pathlib import Path

import pytest
from browser_support import browser, lab, lab_page, run_all  # noqa: F401 (fixtures by name)
from hypothesis import HealthCheck, settings

os.environ["PYTHONPATH"] = os.pathsep.join(
    filter(None, [str(Path(__file__).parent), os.environ.get("PYTHONPATH")])
)

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
    # a picture drawn for every step of an answer, for each of the longest titles, or saved and
    # opened again for each panel (a second or more each: 55 s of test-fast's 143)
    "tests/test_pz8_draw.py::test_a_table_result_draws_differently_at_every_step",
    "tests/test_stalingrad_crt_lookup.py::test_the_longest_titles_fit",
    "tests/test_stalingrad_crt_lookup.py::test_the_picture_differs_step_to_step",
    "tests/test_widgets_pz8.py::test_a_duel_draws_differently_at_every_step",
    "tests/test_widgets_pz8.py::test_the_longest_gun_against_armor_titles_fit",
    "tests/test_widgets_pz8.py::test_a_platoon_move_and_a_rally_draw_differently_at_every_step",
    "tests/test_widgets_pz8.py::test_the_longest_duel_title_fits",
    "tests/test_widgets_blitz.py::test_the_longest_titles_fit_their_charts",
    "tests/test_widgets_blitz.py::test_picture_at_each_step_differs",
    "tests/test_widgets_stalingrad.py::test_advisor_draws_each_step_the_chart_it_is_about",
    "tests/test_widgets_stalingrad.py::test_retreat_pictures_differ_step_to_step",
    "tests/test_pictures.py::test_every_step_of_an_answer_has_its_own_picture",
    "tests/test_ss_panzer.py::test_pictures_at_each_step_of",
    "tests/test_widgets_ss_panzer.py::test_the_longest_intervisibility_movement_and_editor_titles",
    "tests/test_widgets_stalingrad.py::test_chart_panels_reopen_from_their_picture",
    "tests/test_widgets_pz8.py::test_a_saved_table_picture_reopens_the_panel",
    "tests/test_widgets_blitz.py::test_a_saved_picture_reopens_its_panel",
    "tests/test_widgets.py::test_a_picture_carries_its_edge_case_and_reopens",
)

#: Fixtures that start a server (the browser tests' JupyterLab, test_publish's site and app).
SERVERS = ("lab", "site", "app")
#: The modules without a server that take longest (15-30 s of a worker's CPU each), longest
#: first: started before the short ones, so that no worker is left with one at the end alone.
LONGEST = (
    "tests/test_ss_panzer_sightlines.py",
    "tests/test_widgets_pz8.py",
    "tests/test_widgets_stalingrad.py",
    "tests/test_widgets_blitz.py",
    "tests/test_widgets_ss_panzer.py",
)


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
        if "site" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.notebook)
        if item.nodeid.startswith(SLOW):
            item.add_marker(pytest.mark.slow)
    # a module is placed where its first test is: modules with a server, then the LONGEST, then
    # the rest (a stable sort: the order within a module is kept)
    first: dict[str, tuple[int, int]] = {}
    for item in items:
        module = item.nodeid.split("::")[0]
        if uses_a_server(item):
            rank = (0, 0)
        elif module in LONGEST:
            rank = (1, LONGEST.index(module))
        else:
            rank = (2, 0)
        first[module] = min(first.get(module, rank), rank)
    items.sort(key=lambda item: first[item.nodeid.split("::")[0]])


def pytest_collection_finish(session: pytest.Session) -> None:
    # Each full collection scans every object alive, the imported libraries' included: those
    # live all run, so they are frozen out of it, and young objects are collected less often.
    # test_widgets_pz8 spent 5.8 s of its 37 s of CPU in 3,091 collections, and 1.7 s in 779.
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 10, 10)
