"""Which parts of a parameter schema a provider's strict mode refuses outright.

``tooldesign.tools.schema.strict_problems`` checks the rules OpenAI's function-calling guide
states for strict mode (closed objects, every field required, null for "not given") and the
pattern constructs Anthropic's troubleshooting page says cannot compile. A schema can pass all of
them and still be refused: strict mode accepts only a documented *subset* of JSON Schema, and the
composition keywords are outside it. OpenAI's Structured Outputs guide lists ``allOf``, ``not``,
``if``/``then``/``else``, ``dependentRequired`` and ``dependentSchemas`` as not supported, and
does not accept ``anyOf`` at the top level. Anthropic documents its own subset separately (its
*Strict tool use* page); the course checks OpenAI's list, the one it can name keyword by keyword.

Why it matters: a rule such as "the address check takes no order" written with ``if``/``then``
is checked by jsonschema at dispatch, but a strict-mode request carrying it is rejected before
the model runs. Such a rule has to live in the description and in the dispatcher instead.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["UNSUPPORTED_KEYWORDS", "SubsetProblem", "subset_problems", "in_strict_subset"]

PROVIDER = "OpenAI"
# Keywords OpenAI's Structured Outputs guide lists as not supported under strict mode.
UNSUPPORTED_KEYWORDS = ("allOf", "not", "if", "then", "else", "dependentRequired", "dependentSchemas")
# Keywords whose values are schemas (or maps / lists of schemas) to walk into.
_SCHEMA_MAPS = ("properties", "$defs", "definitions")
_SCHEMA_LISTS = ("anyOf", "oneOf", "allOf", "prefixItems")
_SCHEMA_VALUES = ("items", "not", "if", "then", "else", "additionalProperties")


@dataclass(frozen=True)
class SubsetProblem:
    """One keyword the provider's strict mode refuses, and where it sits in the schema."""

    keyword: str
    path: str

    def __str__(self) -> str:
        return (
            f"{self.path}: '{self.keyword}' is outside {PROVIDER}'s strict-mode subset; the request "
            "would be refused"
        )


def _walk(schema: Any, path: str) -> Iterator[SubsetProblem]:
    if not isinstance(schema, Mapping):
        return
    here = path or "(top level)"
    for keyword in UNSUPPORTED_KEYWORDS:
        if keyword in schema:
            yield SubsetProblem(keyword, here)
    if not path and "anyOf" in schema:
        yield SubsetProblem("anyOf", here)  # allowed inside, not as the root
    for key in _SCHEMA_MAPS:
        for name, sub in (schema.get(key) or {}).items():
            yield from _walk(sub, f"{path}/{key}/{name}".lstrip("/"))
    for key in _SCHEMA_LISTS:
        for i, sub in enumerate(schema.get(key) or []):
            yield from _walk(sub, f"{path}/{key}/{i}".lstrip("/"))
    for key in _SCHEMA_VALUES:
        yield from _walk(schema.get(key), f"{path}/{key}".lstrip("/"))


def subset_problems(schema: Mapping[str, Any]) -> list[SubsetProblem]:
    """Every keyword in ``schema`` that OpenAI's strict mode refuses, with its path; [] when none."""
    return list(_walk(schema, ""))


def in_strict_subset(schema: Mapping[str, Any]) -> bool:
    """True when no keyword of ``schema`` lies outside OpenAI's strict-mode subset."""
    return not subset_problems(schema)
