"""How the course prints a count: one style for units, plurals and thousands separators.

"31,855 bytes", "1 tool", "2 tools": every printed count with a unit goes through ``count`` so a
lesson never shows "31855 bytes" beside "31,855", or "1 tools".
"""

from __future__ import annotations

from typing import Any


def number(value: int | float) -> str:
    """A number with thousands separators: 31,855."""
    return f"{value:,}"


def count(value: int, unit: str, plural: str | None = None) -> str:
    """``value`` and its unit, the unit plural unless the count is exactly one: "1 tool", "12 tools"."""
    word = unit if value == 1 else (plural or _plural(unit))
    return f"{value:,} {word}"


def _plural(unit: str) -> str:
    last = unit.split()[-1]
    if last.endswith(("s", "x", "ch", "sh")):
        return unit + "es"
    if last.endswith("y") and last[-2:-1] not in "aeiou":
        return unit[:-1] + "ies"
    return unit + "s"


def a_kind(value: Any) -> str:
    """A value's type with its article, the way a hint names it: "a dict", "an int", or the stub."""
    if value is ...:
        return "the stub `...` (not an answer yet)"
    name = type(value).__name__
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"
