"""The one shape every tool in the course has, mirrored or designed.

A tool is what a model is offered: a name, a description and a JSON Schema for its arguments.
The annotations (MCP's behaviour hints) and the handler stay with your code; the model never
sees them. Keeping both tool sets in this one shape is what lets the lessons compare them fairly.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

# Re-exported: notebook 00 imports the estimate from here (03 and 04 from tooldesign.tools).
from tooldesign.tokens import estimate_tokens as estimate_tokens

Handler = Callable[[dict], Any]

# Longest piece of a caller's input an error quotes back. An error exists to say what to fix; a
# megabyte of the caller's own text, returned whole, says nothing more and costs every later step.
ECHO_LIMIT = 80


def clip(text: str, limit: int = ECHO_LIMIT) -> str:
    """``text`` cut to ``limit`` characters, the cut marked with "…" so nobody mistakes it for the whole.

    A lone surrogate (``"\\ud800"``, which JSON text may spell) is shown as its escape: left as it is,
    the error could not be encoded as UTF-8 and would break whoever prints or sends it.
    """
    text = str.__str__(text) if isinstance(text, str) else str(text)
    text = text if len(text) <= limit else text[: limit - 1] + "…"
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def echo(value: Any, limit: int = ECHO_LIMIT) -> str:
    """A value someone sent, as JSON, cut to ``limit`` characters: the one way every error quotes input.

    Never raises: a value JSON cannot spell (a set, a cycle, nesting too deep) is named by its type.
    """
    try:
        text = json.dumps(value, ensure_ascii=False)
    except Exception:  # includes a mapping whose own methods raise: an error must never fail to be written
        text = f"<a {type(value).__name__}, not a JSON value>"
    return clip(text, limit)


class NotJSON(ValueError):
    """A value that is not plain JSON data; the message says what is wrong, in words a caller can act on."""


# Deeper than any tool's arguments need; shallow enough that a hostile value cannot exhaust the stack.
MAX_DEPTH = 64
# A whole number longer than this is no order, customer or count; Python even refuses to print one
# of more than 4,300 digits, so such a value would break the very error meant to refuse it.
MAX_INT_BITS = 1024


def _plain_text(text: str) -> str:
    text = str.__str__(text)  # a str subclass may redefine ==, hash or str(); the copy is a plain str
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise NotJSON(
            f"the text {echo(text, 30)} holds a lone surrogate, which is not Unicode text"
        ) from None
    return text


def json_plain(value: Any, depth: int = 0) -> Any:
    """A deep copy of ``value`` made only of dict, list, str, int, float, bool and None, or NotJSON.

    The one gate every caller-supplied value passes before anything reads it: a model client may
    hand over tuples, subclasses of str or int, NaN, a number of 5,000 digits, a mapping whose
    methods raise, or a cycle. Each comes out as plain data or as one sentence saying what is wrong.
    """
    if depth > MAX_DEPTH:
        raise NotJSON(f"the value is nested more than {MAX_DEPTH} levels deep")
    if type(value).__module__ == "numpy" and getattr(value, "ndim", None) == 0:  # a number pandas handed over
        return json_plain(value.item(), depth)
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, int):
        number = int.__int__(value)
        if number.bit_length() > MAX_INT_BITS:
            raise NotJSON(
                f"a number has about {int(number.bit_length() * 0.30103):,} digits; no field takes one "
                "that long"
            )
        return number
    if isinstance(value, float):
        real = float.__float__(value)
        if real != real or real in (float("inf"), float("-inf")):
            raise NotJSON(f"{real!r} is not a JSON number")
        return real
    if isinstance(value, str):
        return _plain_text(value)
    try:
        if isinstance(value, (list, tuple)):
            return [json_plain(v, depth + 1) for v in list(value)]
        if isinstance(value, Mapping):
            copy: dict[str, Any] = {}
            for key, item in list(value.items()):
                if not isinstance(key, str):
                    raise NotJSON(f"field names must be strings; one is {echo(repr(key), 40)}")
                copy[_plain_text(key)] = json_plain(item, depth + 1)
            return copy
    except NotJSON:
        raise
    except RecursionError:
        raise NotJSON(f"the value is nested more than {MAX_DEPTH} levels deep") from None
    except Exception as error:  # a mapping or sequence whose own methods fail cannot be read
        raise NotJSON(
            f"a {type(value).__name__} in the value could not be read ({type(error).__name__})"
        ) from None
    raise NotJSON(f"the value holds a {type(value).__name__}, which is not a JSON value")


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    parameters: Mapping[str, Any]
    handler: Handler = field(compare=False, repr=False)
    annotations: Mapping[str, Any] = field(default_factory=dict)

    def definition(self) -> dict:
        """What a model is sent on every call: name, description and the argument schema."""
        return {"name": self.name, "description": self.description, "parameters": dict(self.parameters)}

    def run(self, arguments: dict) -> Any:
        return self.handler(arguments)

    @property
    def fields(self) -> tuple[str, ...]:
        """The argument names the schema declares, in its order (notebook 10 fills them in this order)."""
        properties = self.parameters.get("properties", {})
        return tuple(properties) if isinstance(properties, Mapping) else ()

    @property
    def writes(self) -> bool:
        """True unless the tool declares itself read-only: a missing hint means it may write."""
        return self.annotations.get("readOnlyHint") is not True


@dataclass(frozen=True)
class ToolSet:
    """A named, ordered set of tools, looked up by name."""

    name: str
    tools: tuple[Tool, ...]

    def __post_init__(self) -> None:
        names = [tool.name for tool in self.tools]
        if len(set(names)) != len(names):
            raise ValueError(f"tool set {self.name!r} has duplicate names: {names}")

    def __iter__(self) -> Iterator[Tool]:
        return iter(self.tools)

    def __len__(self) -> int:
        return len(self.tools)

    def __getitem__(self, name: str) -> Tool:
        for tool in self.tools:
            if tool.name == name:
                return tool
        raise KeyError(f"no tool named {echo(name)} in set {self.name!r}; it has {', '.join(self.names)}")

    @property
    def names(self) -> list[str]:
        return [tool.name for tool in self.tools]

    def definitions(self) -> list[dict]:
        return [tool.definition() for tool in self.tools]

    def with_tools(self, extra: Iterable[Tool], name: str | None = None) -> ToolSet:
        return ToolSet(name or self.name, self.tools + tuple(extra))


def result_size(result: Any) -> int:
    """Characters a result costs once serialised, which is what re-enters the model's context."""
    return len(json.dumps(result))
