"""The one shape every tool in the course has, mirrored or designed.

A tool is what a model is offered: a name, a description and a JSON Schema for its arguments.
The annotations (MCP's behaviour hints) and the handler stay with your code; the model never
sees them. Keeping both tool sets in this one shape is what lets the lessons compare them fairly.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator, Mapping

Handler = Callable[[dict], Any]

# Longest piece of a caller's input an error quotes back. An error exists to say what to fix; a
# megabyte of the caller's own text, returned whole, says nothing more and costs every later step.
ECHO_LIMIT = 80


def clip(text: str, limit: int = ECHO_LIMIT) -> str:
    """``text`` cut to ``limit`` characters, the cut marked with "…" so nobody mistakes it for the whole."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


def echo(value: Any, limit: int = ECHO_LIMIT) -> str:
    """A value someone sent, as JSON, cut to ``limit`` characters: the one way every error quotes input.

    Never raises: a value JSON cannot spell (a set, a cycle, nesting too deep) is named by its type.
    """
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = f"<a {type(value).__name__}, not a JSON value>"
    return clip(text, limit)


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

    def with_tools(self, extra: Iterable[Tool], name: str | None = None) -> "ToolSet":
        return ToolSet(name or self.name, self.tools + tuple(extra))


def estimate_tokens(text_or_value: Any) -> int:
    """An estimate of tokens as characters / 4. No tokenizer can be downloaded offline, so the
    course labels every such figure as an estimate."""
    text = text_or_value if isinstance(text_or_value, str) else json.dumps(text_or_value)
    return len(text) // 4


def result_size(result: Any) -> int:
    """Characters a result costs once serialised, which is what re-enters the model's context."""
    return len(json.dumps(result))
