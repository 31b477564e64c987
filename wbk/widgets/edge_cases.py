"""Edge cases: a panel's situation as TOML that opens the panel on it again, saved beside a
picture, carried inside a PNG or in a link's ``?case=``.

An edge case may come from a stranger (a picture in a forum thread, a link), so one is read as
hostile text (``wbk.widgets.load_edge_case``):

- it names one of the kinds of panel registered here (``has_edge_cases``, and the chart panels'
  functions decorated ``chart_edge_cases``), and nothing else of Python;
- it sets only the settings its panel declares (``edge_case_settings``: the same the panel saves
  from), each value checked as the control checks a reader's choice (``set_setting``);
- it carries its files inline (the map, the table, a CRT) and never names one.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping

import ipywidgets as widgets
import traitlets

from wbk.errors import WbkError

#: Every kind of panel an edge case may name: classes and chart functions.
EDGE_CASE_KINDS: set[object] = set()
#: The longest text a box takes, typed or set by an edge case, a link or a picture (an attack of
#: 1,000 units is 12,000 characters): a longer one is refused before it is read.
LONGEST_TYPED = 20_000


def has_edge_cases(kind):
    """Register a panel class (or a chart function) as one an edge case may name; it has a
    ``from_edge_case(text, source)`` that opens it on a case."""
    EDGE_CASE_KINDS.add(kind)
    return kind


def public_name(kind: type | Callable[..., object]) -> str:
    """The name an edge case gives its panel: the rule set's key and the panel's name
    ("ss_panzer.LosPanel"), which its ``panels`` exposes; "wbk" and the name for one of the
    shared panels of ``wbk.widgets`` ("wbk.TracePanel")."""
    from wbk.games import game_of

    found = game_of(kind)
    return f"{found.key if found is not None else 'wbk'}.{kind.__qualname__}"


def toml_value(value: object) -> str:
    """A setting's value as TOML: true/false, a number, a list, or a quoted string."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return json.dumps(str(value), ensure_ascii=False)


def toml_block(text: str) -> str:
    """A whole file's text as a TOML string: a literal multi-line string, which keeps it exactly
    as written, where the text allows one; else a quoted string with escapes."""
    plain = all(c in "\n\t" or c >= " " for c in text) and "\x7f" not in text
    if plain and "'''" not in text and not text.endswith("'") and "\r" not in text:
        return f"'''\n{text}'''"
    return json.dumps(text, ensure_ascii=False)


def checked_text(value: object, where: str) -> str:
    """Text an edge case puts in a box: a string of at most ``LONGEST_TYPED`` characters."""
    if not isinstance(value, str):
        raise WbkError(f"{where}: {value!r} is not text")
    if len(value) > LONGEST_TYPED:
        raise WbkError(
            f"{where}: {len(value):,} characters is longer than a box takes "
            f"({LONGEST_TYPED:,} at most)"
        )
    return value


def checked_toml(value: object, where: str) -> str:
    """A file an edge case carries inline (a map, a table, a CRT): text, no longer than a data
    file may be."""
    from wbk.datafile import LONGEST_FILE

    if not isinstance(value, str):
        raise WbkError(f"{where}: missing (the file's text, inline)")
    if len(value) > LONGEST_FILE:
        raise WbkError(
            f"{where}: {len(value):,} characters is more than wbk reads ({LONGEST_FILE:,} at most)"
        )
    return value


def _option_values(control: widgets.Widget) -> tuple | None:
    values = getattr(control, "_options_values", None)
    if values is not None:
        return tuple(values)
    options = getattr(control, "options", None)
    if options is None:
        return None
    return tuple(o[1] if isinstance(o, tuple) else o for o in options)


def _is_one_of(value: object, options: tuple) -> bool:
    # a TOML true is no option 1, nor 1.0 the option "1"
    return any(type(value) is type(o) and value == o for o in options)


def set_setting(control: widgets.Widget, value: object, where: str) -> None:
    """Give ``control`` the ``value`` an edge case names, checked as the control checks a
    reader's choice: one of a menu's options (a tuple of them for a multiple choice), True or
    False for a switch, a number in a slider's range, text no longer than ``LONGEST_TYPED``.
    Anything else is a ``WbkError`` naming ``where`` (the file and the setting)."""
    if isinstance(value, list):
        value = tuple(value)
    options = _option_values(control)
    current = getattr(control, "value", None)
    if options is not None:
        chosen = value if isinstance(current, tuple) else (value,)
        if not isinstance(chosen, tuple) or not all(_is_one_of(v, options) for v in chosen):
            listed = ", ".join(json.dumps(o) if isinstance(o, str) else repr(o) for o in options)
            raise WbkError(f"{where}: {value!r} is not one of {listed}")
    elif isinstance(current, bool):
        if not isinstance(value, bool):
            raise WbkError(f"{where}: {value!r} is not true or false")
    elif isinstance(current, (int, float)) and hasattr(control, "min") and hasattr(control, "max"):
        number = (int,) if isinstance(current, int) else (int, float)
        if isinstance(value, bool) or not isinstance(value, number):
            raise WbkError(f"{where}: {value!r} is not a number")
        if not control.min <= value <= control.max:
            raise WbkError(f"{where}: {value!r} is not between {control.min} and {control.max}")
    elif isinstance(current, str):
        checked_text(value, where)
    else:
        raise WbkError(f"{where}: not a setting an edge case may set")
    try:
        control.value = value
    except traitlets.TraitError:
        raise WbkError(f"{where}: {value!r} is not a value this setting takes") from None


def set_settings(
    declared: Mapping[str, widgets.Widget], given: object, source: str, section: str = "settings"
) -> None:
    """Set each of the ``given`` settings (a TOML table) that the panel ``declared``; a setting
    it did not declare is a ``WbkError`` naming it and those it has."""
    if not isinstance(given, dict):
        raise WbkError(f"{source}: [{section}]: {given!r} is not a table of settings")
    for name, value in given.items():
        if name not in declared:
            listed = ", ".join(declared) or "none"
            raise WbkError(
                f"{source}: [{section}] {name}: the panel has no such setting (it has: {listed})"
            )
        set_setting(declared[name], value, f"{source}: [{section}] {name}")
