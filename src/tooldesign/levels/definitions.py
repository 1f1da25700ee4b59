"""The definition layer: what the model is told about each tool, and what that buys.

A tool definition is given at one of four levels, each adding to the one
before: the name; a description; the schema (the declared field names);
an example call. The catalog, all five tools at the chosen level, stays in
the prompt at every step, so its size in tokens is the level's cost.

In this simulation a level acts through three numbers (TM3, TM4):

* ``selection_factor`` multiplies the share of picking the right tool;
* ``fill_share`` is the chance that each declared field gets filled;
* ``swap_share`` is the chance that the two index fields, both integers,
  trade places. A schema names ``onceki`` and ``simdiki`` but cannot say
  which one is the smaller; only an example call shows it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import lru_cache

from tooldesign.levels.tools import TOOLS
from tooldesign.tokens import piece_tokens

# The arguments of each tool's example call (level four). The two indexes
# show the previous one smaller: that is the information the schema lacks.
EXAMPLE_ARGUMENTS: dict[str, dict[str, object]] = {
    "sayac_oku": {"abone": "A007"},
    "tuketim": {"onceki": 41200, "simdiki": 41255},
    "tarife": {"m3": 55, "tip": "mesken"},
    "belge_ara": {"anahtar": "endeks farki"},
    "kayit_yaz": {"abone": "A007", "sutun": "bedel", "deger": 470},
}

SWAP_FIELDS = ("onceki", "simdiki")  # same type, easy to confuse


def wire_call(name: str, arguments: Mapping[str, object]) -> str:
    """Write a call the way the catalog shows it: ``name ( key = value , ... )``.

    Every symbol stands apart so the token rule counts it once.
    """
    inside = " , ".join(f"{key} = {value}" for key, value in arguments.items())
    return f"{name} ( {inside} )"


_CALL = re.compile(r"\s*([A-Za-z_]\w*)\s*\((.*)\)\s*", re.S)
_PAIR = re.compile(r"\s*([A-Za-z_]\w*)\s*=\s*(\S(?:.*\S)?)\s*", re.S)


def parse_call(text: str) -> tuple[str, dict[str, object]]:
    """Read a call in the catalog's format back into a name and its arguments.

    The inverse of :func:`wire_call`, and deliberately forgiving about what
    does not change the call: spacing, and the order of the fields. Whole
    numbers come back as ints, anything else as text. A malformed call
    raises ``ValueError`` saying what is wrong, so a call is judged by what
    it says, never by how it is typed.
    """
    if not isinstance(text, str):
        raise ValueError(f"a call is text, not {type(text).__name__}")
    match = _CALL.fullmatch(text)
    if not match:
        raise ValueError(
            "write the tool's name, then its arguments in brackets: name ( field = value , ... )"
        )
    name, inside = match.groups()
    arguments: dict[str, object] = {}
    for part in inside.split(",") if inside.strip() else []:
        pair = _PAIR.fullmatch(part)
        if not pair:
            raise ValueError(f"{part.strip()!r} is not field = value")
        field, value = pair.groups()
        if field in arguments:
            raise ValueError(f"{field} is given twice")
        arguments[field] = int(value) if re.fullmatch(r"-?\d+", value) else value
    return name, arguments


@dataclass(frozen=True)
class Level:
    """One way to define the tools, and the behaviour it buys in the simulation.

    The three ``shows_*`` switches decide the catalog text (and so its
    cost); the three shares decide what the agent does with it. They are
    kept apart so you can design a level of your own and price it.
    """

    number: int
    name: str
    selection_factor: float
    fill_share: float
    swap_share: float
    shows_description: bool = False
    shows_schema: bool = False
    shows_example: bool = False

    def with_shares(self, *, fill: float | None = None, swap: float | None = None) -> Level:
        """A copy with a different fill and/or swap share."""
        return replace(
            self,
            fill_share=self.fill_share if fill is None else fill,
            swap_share=self.swap_share if swap is None else swap,
        )


PUBLISHED_SWAP_SHARE = 0.30  # chance to swap the indexes when no example shows them

LEVELS: dict[int, Level] = {
    1: Level(1, "name only", 0.62, 0.45, PUBLISHED_SWAP_SHARE),
    2: Level(2, "name + description", 0.86, 0.72, PUBLISHED_SWAP_SHARE, shows_description=True),
    3: Level(
        3,
        "name + description + schema",
        1.00,
        1.00,
        PUBLISHED_SWAP_SHARE,
        shows_description=True,
        shows_schema=True,
    ),
    4: Level(
        4,
        "schema + example call",
        1.00,
        1.00,
        0.00,
        shows_description=True,
        shows_schema=True,
        shows_example=True,
    ),
}


def levels_with(
    *,
    swap: float | None = None,
    fill: Mapping[int, float] | None = None,
    levels: Mapping[int, Level] = LEVELS,
) -> dict[int, Level]:
    """The level table with changed parameters.

    ``swap`` replaces the swap share of every level *without* an example
    call (the example call is what zeroes it). ``fill`` maps level numbers
    to new fill shares.
    """
    fill = fill or {}
    return {
        n: level.with_shares(fill=fill.get(n), swap=None if swap is None or level.shows_example else swap)
        for n, level in levels.items()
    }


def catalog_line(level: Level, name: str) -> str:
    """The line the model reads for one tool at ``level``."""
    line = name
    if level.shows_description:
        line += " : " + TOOLS[name].description
    if level.shows_schema:
        line += " ( " + " , ".join(TOOLS[name].fields) + " )"
    if level.shows_example:
        line += " ornek : " + wire_call(name, EXAMPLE_ARGUMENTS[name])
    return line


def catalog(level: Level) -> list[str]:
    """All five catalog lines at ``level``."""
    return [catalog_line(level, name) for name in TOOLS]


@lru_cache(maxsize=64)
def _catalog_tokens(description: bool, schema: bool, example: bool) -> int:
    probe = Level(0, "", 1.0, 1.0, 0.0, description, schema, example)
    return sum(piece_tokens(line) for line in catalog(probe))


def catalog_tokens(level: Level) -> int:
    """The catalog's size in lesson tokens: the price paid at every step."""
    return _catalog_tokens(level.shows_description, level.shows_schema, level.shows_example)


# ---- the call boundary -----------------------------------------------------


def fill_arguments(
    name: str, state: Mapping[str, object], level: Level, draw: Callable[[], float]
) -> dict[str, object]:
    """Build the arguments the agent passes, from what it knows (``state``).

    Only declared fields are ever passed: anything else in the state is
    filtered here (TM5). A declared field the state holds is filled with
    the level's fill share, one draw per such field, in declared order.
    Then, if both indexes were filled, they swap with the swap share.
    """
    arguments = {}
    for field in TOOLS[name].fields:
        if field in state and draw() < level.fill_share:
            arguments[field] = state[field]
    first, second = SWAP_FIELDS
    if first in arguments and second in arguments and draw() < level.swap_share:
        arguments[first], arguments[second] = arguments[second], arguments[first]
    return arguments


def call_tool(
    name: str, state: Mapping[str, object], level: Level, draw: Callable[[], float]
) -> tuple[dict[str, object], dict]:
    """Cross the call boundary once: returns ``(arguments, result)``.

    An unknown tool name is a tool error, like a missing field.
    """
    if name not in TOOLS:
        return {}, {"hata": "arac yok"}
    arguments = fill_arguments(name, state, level, draw)
    return arguments, TOOLS[name].run(arguments)
