"""What the agent loop talks to and what it reports.

A model here is anything with ``respond(messages, tools) -> dict``: it gets the conversation in
the Anthropic Messages format (a list of ``{"role", "content"}`` turns) and the tool definitions,
and answers with one assistant message carrying ``content`` blocks and a ``stop_reason``
([Messages API](https://docs.anthropic.com/en/api/messages)). A scripted stand-in and a real
client both fit, so the learner's loop runs against either.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import Enum
from typing import Any, Protocol

from tooldesign.dispatch import Dispatcher
from tooldesign.selection.models import anthropic_tools
from tooldesign.tools.designed import EXAMPLES, build_designed_set


class Model(Protocol):
    """One step of a model: the conversation so far and the tools in, one assistant message out."""

    def respond(self, messages: list[dict], tools: list[dict]) -> dict: ...


class StopReason(str, Enum):
    """Why the loop ended: the model answered, the step budget ran out, or a write awaits a person."""

    ANSWERED = "answered"
    BUDGET = "budget"
    PENDING = "pending_approval"


class CallOutcome(str, Enum):
    """What happened to one proposed call."""

    RAN = "ran"
    REFUSED = "refused"  # unknown tool or arguments the schema rejects: nothing ran
    PENDING = "pending"  # a write that needs a person: not run, reported
    REPEATED = "repeated"  # the same call again: not re-run, the earlier result noted


@dataclass(frozen=True)
class CallRecord:
    id: str
    name: str
    input: Any
    outcome: CallOutcome


@dataclass(frozen=True)
class AgentReport:
    """What one run of the loop did: typed, so a reader never parses a transcript to find out."""

    answer: str | None
    steps: int  # model calls made
    calls: tuple[CallRecord, ...]
    stop: StopReason
    transcript: tuple[dict, ...]  # every message, the request first

    @property
    def refusals(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.calls if c.outcome is CallOutcome.REFUSED)

    @property
    def pending(self) -> tuple[str, ...]:
        return tuple(c.id for c in self.calls if c.outcome is CallOutcome.PENDING)


def course_dispatcher() -> Dispatcher:
    """Lesson 09's dispatcher over the designed tools, with no decider: the loop owns the gate."""
    return Dispatcher(build_designed_set(), examples=EXAMPLES)


def tool_definitions() -> list[dict]:
    """The designed tools in the Anthropic format, the ``tools`` array each step sends again."""
    return anthropic_tools(build_designed_set())


class MessagesModel:
    """A real model behind the course's one model interface, answering ``respond`` in the Messages format.

    It reuses the client of ``selection.models.model_picker`` (Anthropic's Messages API only: the
    other providers speak another format, and the loop of this lesson speaks this one).
    """

    def __init__(self, picker: Any) -> None:
        if getattr(picker, "provider", "") != "anthropic":
            raise ValueError(
                "the capstone runs against a Messages API model: set TOOLDESIGN_PROVIDER=anthropic"
            )
        self.picker = picker
        self.label = picker.label

    def respond(self, messages: list[dict], tools: list[dict]) -> dict:
        from tooldesign.selection import config

        response = self.picker.client.messages.create(
            model=self.picker.model,
            max_tokens=config.MAX_TOKENS,
            system=config.SYSTEM_PROMPT,
            messages=messages,
            tools=tools,
        )
        content = [block.model_dump(exclude_none=True) for block in response.content]
        return {"role": "assistant", "content": content, "stop_reason": response.stop_reason}


def transcript_lines(report: AgentReport, width: int = 100) -> list[str]:
    """The run as one short line per block, the text form of the step-by-step viewer."""
    lines = []
    for n, turn in enumerate(report.transcript):
        content = turn["content"]
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
        for block in blocks:
            kind = block.get("type")
            if kind == "text":
                body = block["text"]
            elif kind == "tool_use":
                body = (
                    f"tool_use {block['id'][-6:]} {block['name']}({json.dumps(block['input'], default=str)})"
                )
            else:
                flag = " is_error" if block.get("is_error") else ""
                text = block.get("content")
                text = text if isinstance(text, str) else json.dumps(text, default=str)
                body = f"tool_result {str(block.get('tool_use_id'))[-6:]}{flag}: {text}"
            line = f"{n:>2} {turn['role']:<9} {body}"
            lines.append(line if len(line) <= width else line[: width - 1] + "…")
    return lines
