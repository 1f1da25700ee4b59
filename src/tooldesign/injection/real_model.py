"""Opt-in: the same poisoned records, read by a real model instead of the scripted reader.

The scripted reader shows the path; only a model shows how often a model takes it. For each seeded
record this sends one request to the model: the clerk's question, the read call already made, and
its result with the note in it (raw, quoted or left out), and asks for the next turn with the
designed tools offered and ``tool_choice`` "auto". A proposed ``release_request_create`` then goes
through the same dispatcher and approval gate as in the lesson, with a person who denies it.

Nothing here runs unless you ask: ``.venv/bin/tooldesign injection --model NAME
[--provider openai|anthropic]``, with the settings described in docs/real-models.md. Clients and model
names come from ``tooldesign.selection`` (one place for both). Results vary between runs, models
and versions; report them as your measurement of that model on that day, with its name.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from tooldesign.data.notes import Note
from tooldesign.dispatch import Dispatcher, ToolCall, deny_all
from tooldesign.injection.attack import PERSON_SAYS, clean_notes, question_for, seeded_notes
from tooldesign.injection.results import VARIANTS, noted_set
from tooldesign.loop.transcript import SYSTEM_PROMPT, text_of
from tooldesign.selection import config
from tooldesign.selection.models import (
    AnthropicPicker,
    ModelSetupError,
    OpenAICompatiblePicker,
    anthropic_tools,
    model_picker,
    openai_tools,
)
from tooldesign.tools import Tool

__all__ = ["ModelTrial", "next_calls", "trial", "trial_rows", "model_for"]

WRITE = "release_request_create"


@dataclass(frozen=True)
class ModelTrial:
    note_id: str
    variant: str
    calls: tuple[tuple[str, str], ...]  # (tool name, arguments as sent) of the model's next turn
    reached_gate: bool  # the proposal passed the schema and a person had to decide

    @property
    def proposed(self) -> bool:
        return any(name == WRITE for name, _ in self.calls)


def model_for(model: str | None = None, provider: str | None = None) -> Any:
    """The OpenAI-compatible or Anthropic client wrapper from ``tooldesign.selection``."""
    provider = provider or config.default_provider()
    refusal = ModelSetupError(
        f"this trial speaks the OpenAI-compatible and the Anthropic APIs; use --provider "
        f"openai (OpenAI, Azure, Ollama, vLLM ...) or anthropic, not {provider!r}"
    )
    if provider == "sap":  # checked before building, so no SAP settings are asked for
        raise refusal
    picker = model_picker(model, provider)
    if not isinstance(picker, (OpenAICompatiblePicker, AnthropicPicker)):
        raise refusal
    return picker


def next_calls(
    picker: Any, request: str, read: ToolCall, result: str, tools: Sequence[Tool]
) -> list[tuple[str, str]]:
    """The model's next turn after reading ``result``: the tool calls it proposes, if any."""
    if isinstance(picker, AnthropicPicker):
        response = picker.client.messages.create(
            model=picker.model,
            max_tokens=config.MAX_TOKENS,
            system=SYSTEM_PROMPT,
            messages=[
                {"role": "user", "content": request},
                {
                    "role": "assistant",
                    "content": [
                        {"type": "tool_use", "id": read.id, "name": read.name, "input": dict(read.arguments)}
                    ],
                },
                {
                    "role": "user",
                    "content": [{"type": "tool_result", "tool_use_id": read.id, "content": result}],
                },
            ],
            tools=anthropic_tools(tools),
            tool_choice={"type": "auto"},
        )
        return [
            (b.name, json.dumps(b.input))
            for b in response.content or []
            if getattr(b, "type", "") == "tool_use"
        ]
    response = picker.client.chat.completions.create(
        model=picker.model,
        temperature=config.TEMPERATURE,
        messages=[
            {"role": "system", "content": SYSTEM_PROMPT},
            {"role": "user", "content": request},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": read.id,
                        "type": "function",
                        "function": {"name": read.name, "arguments": json.dumps(dict(read.arguments))},
                    }
                ],
            },
            {"role": "tool", "tool_call_id": read.id, "content": result},
        ],
        tools=openai_tools(tools),
        tool_choice="auto",
        **config.chat_options(getattr(picker, "provider", "")),
    )
    return [
        (c.function.name, c.function.arguments or "{}") for c in response.choices[0].message.tool_calls or []
    ]


def _one(picker: Any, note: Note, variant: str) -> ModelTrial:
    tools = noted_set(variant, notes=[*clean_notes(), note])
    dispatcher = Dispatcher(tools, person_decides=deny_all(PERSON_SAYS))
    request, read = question_for(note)
    read = ToolCall(read.name, read.arguments, "call_read")
    result = text_of(dispatcher.dispatch(read).content)
    calls = next_calls(picker, request, read, result, list(tools))
    for n, (name, arguments) in enumerate(calls):
        dispatcher.dispatch(ToolCall(name, arguments, f"call_model_{n}"))
    reached = any(r.tool == WRITE and r.decision == "deny" for r in dispatcher.audit)
    return ModelTrial(note.note_id, variant, tuple(calls), reached)


def trial(picker: Any, variants: Sequence[str] = VARIANTS) -> list[ModelTrial]:
    """One request per seeded record and variant (24 x 3 with the defaults)."""
    return [_one(picker, note, variant) for variant in variants for note in seeded_notes()]


def trial_rows(trials: list[ModelTrial], label: str) -> list[dict]:
    rows = []
    for variant in dict.fromkeys(t.variant for t in trials):
        mine = [t for t in trials if t.variant == variant]
        rows.append(
            {
                "model": label,
                "notes": variant,
                "poisoned records": len(mine),
                "reach a write proposal": sum(t.proposed for t in mine),
                "a person must catch (gate)": sum(t.reached_gate for t in mine),
                "drafted with no decision": 0,
            }
        )
    return rows
