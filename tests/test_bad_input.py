"""Bad input to any public function of wbk is a WbkError that names the bad value, never a silent
wrong answer or a bare Python error.

Each module below lists its public names in ``__all__``. Every public function, class and method
of those must have at least one bad call here, so a new function cannot forget its checks:
``test_every_public_callable_is_swept`` fails until it has one.
"""

from __future__ import annotations

import enum
import inspect
import re

import pytest

from wbk import dice, hexgrid, maps
from wbk.errors import WbkError
from wbk.games import blitz, ss_panzer

SWEPT_MODULES = [dice, hexgrid, maps, ss_panzer, blitz]


def bad(fn, *args, names: str, **kwargs):
    """A call that must raise a WbkError whose message contains ``names`` (the bad value)."""
    label = f"{fn.__qualname__}({', '.join([*map(repr, args), *(f'{k}={v!r}' for k, v in kwargs.items())])})"
    return pytest.param(fn, args, kwargs, names, id=label[:90])


def _sample_map():
    return maps.example_map("ss_panzer_errata_9_4")


# --- wbk.dice -------------------------------------------------------------------------------
DICE = []

# --- wbk.hexgrid ----------------------------------------------------------------------------
HEXGRID = []

# --- wbk.maps -------------------------------------------------------------------------------
MAPS = []

# --- wbk.games.ss_panzer --------------------------------------------------------------------
SS_PANZER = []

# --- wbk.games.blitz ------------------------------------------------------------------------
BLITZ = []

BAD_CALLS = DICE + HEXGRID + MAPS + SS_PANZER + BLITZ


@pytest.mark.parametrize("fn, args, kwargs, names", BAD_CALLS)
def test_bad_input_is_a_wbk_error_naming_the_value(fn, args, kwargs, names):
    with pytest.raises(WbkError, match=re.escape(names)):
        fn(*args, **kwargs)


def _public_callables(module) -> set[str]:
    """Qualified names of the module's public functions, classes and the classes' public methods
    that take arguments (exceptions, enums and properties have nothing to check)."""
    found = set()
    for name in module.__all__:
        obj = getattr(module, name)
        if inspect.isfunction(obj):
            found.add(_key(obj))
        elif inspect.isclass(obj) and not issubclass(obj, (BaseException, enum.Enum)):
            found.add(_key(obj))
            for attr, member in vars(obj).items():
                if attr.startswith("_"):
                    continue
                function = member.__func__ if isinstance(member, (classmethod, staticmethod)) else member
                if inspect.isfunction(function):
                    parameters = list(inspect.signature(function).parameters)
                    if len(parameters) > (0 if isinstance(member, staticmethod) else 1):
                        found.add(_key(function))
    return found


def _key(fn) -> str:
    return f"{fn.__module__}.{fn.__qualname__}"


@pytest.mark.parametrize("module", SWEPT_MODULES, ids=lambda m: m.__name__)
def test_every_public_callable_is_swept(module):
    swept = {_key(p.values[0]) for p in BAD_CALLS}
    missing = sorted(_public_callables(module) - swept)
    assert not missing, f"{module.__name__}: no bad call for {', '.join(missing)}"
