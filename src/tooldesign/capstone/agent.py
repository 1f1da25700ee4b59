"""What the agent loop talks to and what it reports.

A model here is anything with ``respond(messages, tools) -> dict``: it gets the conversation in
the Anthropic Messages format (a list of ``{"role", "content"}`` turns) and the tool definitions,
and answers with one assistant message carrying ``content`` blocks and a ``stop_reason``
([Messages API](https://docs.anthropic.com/en/api/messages)). A scripted stand-in and a real
client both fit, so the learner's loop runs against either.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from dataclasses import dataclass, fields
from enum import Enum
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from tooldesign.dispatch import Dispatcher

# What the loop asks for on the first try of a reply, in output tokens (``max_tokens``), and how many
# times it asks again, each time with twice the budget, after a reply stops at ``max_tokens``.
FIRST_BUDGET = 1024
MAX_TOKENS_RETRIES = 2


class Model(Protocol):
    """One step of a model: the conversation so far, the tools and an output budget in, one assistant
    message out (``content`` blocks, ``stop_reason`` and, for a refusal, ``stop_details``)."""

    def respond(self, messages: list[dict], tools: list[dict], max_tokens: int = FIRST_BUDGET) -> dict: ...


class StopReason(str, Enum):
    """Why the loop ended: the model answered, the step budget ran out, a write awaits a person, the
    model refused (stop_reason "refusal"), or every try of a reply was cut off at max_tokens."""

    ANSWERED = "answered"
    BUDGET = "budget"
    PENDING = "pending_approval"
    REFUSED = "model_refused"
    CUT_OFF = "cut_off"


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


# The capstone task: one request that needs a search, a block summary and a write that waits for a person.
REQUEST = "Why are customer 10023's orders blocked, and can you ask for a release?"

# What a real model is told when it runs the loop. The selection prompt (config.SYSTEM_PROMPT) asks for
# one call and nothing more; a task of several steps needs the model to know when to stop calling and
# that a write here is only a proposal, so it never reports a change the results do not show.
SYSTEM_PROMPT = (
    "You help order-to-cash clerks with blocked SAP sales orders, using the tools over several steps. "
    "Make the calls the request needs and read each result before deciding the next one. "
    "When the results you have are enough, stop calling tools and answer the clerk in a few plain sentences. "
    "If a result is an error, correct the call or tell the clerk what is missing. "
    "Say that something was created or changed only when a tool result says so; a change that needs "
    "a person's decision has not happened, so tell the clerk that nothing has changed yet and that a person "
    "must decide it."
)


@dataclass(frozen=True)
class TokenUsage:
    """Tokens as an API reported them, for one call or summed over a run; None means not reported,
    which is never the same as 0.

    The fields keep each provider's meaning: Anthropic's ``input_tokens`` leaves out what was read
    from or written to the cache (``cache_read_input_tokens``, ``cache_creation_input_tokens``), while
    OpenAI's ``prompt_tokens`` already includes ``prompt_tokens_details.cached_tokens``
    (Anthropic, "Prompt caching", https://platform.claude.com/docs/en/build-with-claude/prompt-caching;
    OpenAI, "Prompt caching", https://developers.openai.com/api/docs/guides/prompt-caching). So the input figures of two providers
    are not comparable without the cache fields beside them.
    """

    input_tokens: int | None = None
    output_tokens: int | None = None
    cache_read_tokens: int | None = None
    cache_write_tokens: int | None = None


def total_usage(usages: Sequence[TokenUsage]) -> TokenUsage:
    """The sum over calls, field by field; a field some call did not report is not reported for the
    run (a partial sum would pass for the whole)."""

    def add(name: str) -> int | None:
        values = [getattr(u, name) for u in usages]
        return None if not values or None in values else sum(values)

    return TokenUsage(**{f.name: add(f.name) for f in fields(TokenUsage)})


# The provider's own names for TokenUsage's fields, in order, for a reader who looks them up.
REPORTED_AS = {
    "anthropic": ("input_tokens", "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens"),
    "openai": ("prompt_tokens", "completion_tokens", "cached_tokens", "cache_write_tokens"),
}
REPORTED_AS["ollama"] = REPORTED_AS["openai"]  # Ollama's OpenAI-compatible endpoint


def _count(value: Any) -> int | None:
    return value if type(value) is int and value >= 0 else None  # a count as reported, or unknown


def messages_usage(response: Any) -> TokenUsage:
    """``usage`` of a Messages API response (anthropic ``types.Usage``)."""
    usage = getattr(response, "usage", None)
    return TokenUsage(
        _count(getattr(usage, "input_tokens", None)),
        _count(getattr(usage, "output_tokens", None)),
        _count(getattr(usage, "cache_read_input_tokens", None)),
        _count(getattr(usage, "cache_creation_input_tokens", None)),
    )


def chat_usage(response: Any) -> TokenUsage:
    """``usage`` of a Chat Completions response (openai ``types.CompletionUsage``); Ollama reports
    the counts without ``prompt_tokens_details``, so its cache fields are not reported."""
    usage = getattr(response, "usage", None)
    details = getattr(usage, "prompt_tokens_details", None)
    return TokenUsage(
        _count(getattr(usage, "prompt_tokens", None)),
        _count(getattr(usage, "completion_tokens", None)),
        _count(getattr(details, "cached_tokens", None)),
        _count(getattr(details, "cache_write_tokens", None)),
    )


class _Metered:
    """What a real-model adapter keeps of each call: the usage reported and the wall time (retries
    after a rate limit included), so one adapter per task run gives that run's totals."""

    def __init__(self) -> None:
        self.calls: list[TokenUsage] = []
        self.latencies: list[float] = []

    @property
    def usage(self) -> TokenUsage:
        return total_usage(self.calls)

    @property
    def latency_s(self) -> float | None:
        return round(sum(self.latencies), 3) if self.latencies else None


def course_dispatcher() -> Dispatcher:
    """Lesson 11's dispatcher over the designed tools, with no decider: the loop owns the gate."""
    # Imported here: a record or an exercise that only names the capstone's types stays light.
    from tooldesign.dispatch import Dispatcher
    from tooldesign.tools.designed import EXAMPLES, build_designed_set

    return Dispatcher(build_designed_set(), examples=EXAMPLES)


def tool_definitions() -> list[dict]:
    """The designed tools in the Anthropic format, the ``tools`` array each step sends again."""
    from tooldesign.selection.models import anthropic_tools
    from tooldesign.tools.designed import build_designed_set

    return anthropic_tools(build_designed_set())


class MessagesModel(_Metered):
    """A real model behind the course's one model interface, answering ``respond`` in the Messages format.

    It reuses the client of ``selection.models.model_picker`` for Anthropic's Messages API, the format
    the loop of this lesson speaks; ``ChatModel`` is the same for OpenAI-compatible endpoints, and
    ``real_model`` picks the one that fits a picker. Both send the loop's ``SYSTEM_PROMPT`` and keep
    each call's reported usage (``usage``, summed) and time (``latency_s``).
    """

    def __init__(self, picker: Any) -> None:
        if getattr(picker, "provider", "") != "anthropic":
            raise ValueError(
                "MessagesModel speaks Anthropic's Messages API; use ChatModel (or real_model) for "
                f"--provider {getattr(picker, 'provider', '?')}"
            )
        super().__init__()
        self.picker = picker
        self.label = picker.label

    def respond(self, messages: list[dict], tools: list[dict], max_tokens: int = FIRST_BUDGET) -> dict:
        started = time.perf_counter()
        response = self.picker.client.messages.create(
            model=self.picker.model,
            max_tokens=max_tokens,
            system=SYSTEM_PROMPT,
            messages=messages,
            tools=tools,
        )
        self.latencies.append(time.perf_counter() - started)
        self.calls.append(messages_usage(response))
        return message_reply(response)


def message_reply(message: Any) -> dict:
    """A Messages API response (anthropic ``types.Message``) as the plain reply the loop reads: its
    blocks as the SDK dumps them, ``stop_reason`` as sent, and ``stop_details`` when there are any."""
    reply = {
        "role": "assistant",
        "content": [block.model_dump(exclude_none=True) for block in message.content],
        "stop_reason": message.stop_reason,
    }
    if getattr(message, "stop_details", None) is not None:
        reply["stop_details"] = message.stop_details.model_dump(exclude_none=True)
    return reply


def chat_messages(messages: list[dict], system: str) -> list[dict]:
    """A Messages-format conversation in Chat Completions' form: the assistant's ``tool_use`` blocks
    become ``tool_calls`` (arguments as JSON text), each ``tool_result`` a ``role: "tool"`` message
    matched by ``tool_call_id``; that API has no error flag, so a failure travels in the content."""
    out: list[dict] = [{"role": "system", "content": system}]
    for turn in messages:
        content = turn["content"]
        if isinstance(content, str):
            out.append({"role": turn["role"], "content": content})
            continue
        text = " ".join(b["text"] for b in content if b.get("type") == "text")
        if turn["role"] == "assistant":
            message: dict[str, Any] = {"role": "assistant", "content": text or None}
            uses = [b for b in content if b.get("type") == "tool_use"]
            if uses:
                message["tool_calls"] = [
                    {
                        "id": b["id"],
                        "type": "function",
                        "function": {"name": b["name"], "arguments": json.dumps(b["input"], default=str)},
                    }
                    for b in uses
                ]
            out.append(message)
            continue
        for block in content:
            if block.get("type") == "tool_result":
                body = block.get("content")
                body = body if isinstance(body, str) else json.dumps(body, default=str)
                out.append({"role": "tool", "tool_call_id": block["tool_use_id"], "content": body})
        if text:
            out.append({"role": "user", "content": text})
    return out


def _chat_tool(definition: dict) -> dict:
    function = {
        "name": definition["name"],
        "description": definition["description"],
        "parameters": definition["input_schema"],
    }
    if "strict" in definition:
        function["strict"] = definition["strict"]
    return {"type": "function", "function": function}


def _arguments(text: str | None) -> Any:
    """A call's arguments as sent: parsed when they are JSON, else the text itself, for the
    dispatcher to refuse (a model that sends broken JSON reads that in the result)."""
    try:
        return json.loads(text or "{}")
    except ValueError:
        return text


# Chat Completions' finish_reason in the Messages API's words (openai ``ChatCompletion.Choice``):
# "length" is a cut (a call in it may have half its arguments), "content_filter" held content back.
FINISH_AS_STOP = {
    "stop": "end_turn",
    "tool_calls": "tool_use",
    "function_call": "tool_use",
    "length": "max_tokens",
    "content_filter": "refusal",
}


def chat_stop_reason(finish_reason: str | None, calls: bool) -> str:
    """The stop_reason a Chat Completions choice means. A cut or a filter wins over the calls it
    holds: a call cut off at the token limit must not run. Some OpenAI-compatible servers (Ollama)
    send "stop" with calls, so calls without a cut or filter mean "tool_use"."""
    stop = FINISH_AS_STOP.get(finish_reason or "stop", "end_turn")
    if stop in ("max_tokens", "refusal"):
        return stop
    return "tool_use" if calls else stop


class ChatModel(_Metered):
    """An OpenAI-compatible model (OpenAI, Azure, Ollama, vLLM) behind the same ``respond``: the
    conversation goes out in Chat Completions' form and the reply comes back in the Messages format
    (text and ``tool_use`` blocks; ``stop_reason`` from ``chat_stop_reason``)."""

    def __init__(self, picker: Any) -> None:
        if not hasattr(getattr(picker, "client", None), "chat"):
            raise ValueError("ChatModel needs an OpenAI-compatible picker (--provider openai or ollama)")
        super().__init__()
        self.picker = picker
        self.label = picker.label

    def respond(self, messages: list[dict], tools: list[dict], max_tokens: int = FIRST_BUDGET) -> dict:
        from tooldesign.selection import config

        # OpenAI's own endpoint takes max_completion_tokens (max_tokens is deprecated there);
        # other OpenAI-compatible servers (Ollama) read max_tokens.
        budget = "max_completion_tokens" if getattr(self.picker, "provider", "") == "openai" else "max_tokens"
        started = time.perf_counter()
        response = self.picker.client.chat.completions.create(
            model=self.picker.model,
            temperature=config.TEMPERATURE,
            messages=chat_messages(messages, SYSTEM_PROMPT),
            tools=[_chat_tool(t) for t in tools],
            **{budget: max_tokens},
            **config.chat_options(getattr(self.picker, "provider", "")),
        )
        self.latencies.append(time.perf_counter() - started)
        self.calls.append(chat_usage(response))
        choice = response.choices[0]
        message = choice.message
        content: list[dict] = [{"type": "text", "text": message.content}] if message.content else []
        content += [
            {
                "type": "tool_use",
                "id": c.id,
                "name": c.function.name,
                "input": _arguments(c.function.arguments),
            }
            for c in message.tool_calls or []
        ]
        calls = any(b["type"] == "tool_use" for b in content)
        return {
            "role": "assistant",
            "content": content,
            "stop_reason": chat_stop_reason(choice.finish_reason, calls),
        }


def real_model(picker: Any) -> MessagesModel | ChatModel:
    """The adapter that fits ``picker``: Messages for Anthropic, Chat Completions for OpenAI-compatible
    endpoints; SAP's hub is refused in one line (its orchestration service takes another form)."""
    provider = getattr(picker, "provider", "")
    if provider == "anthropic":
        return MessagesModel(picker)
    if provider in ("openai", "ollama"):
        return ChatModel(picker)
    raise ValueError(f"the capstone loop runs on --provider anthropic, openai or ollama, not {provider!r}")


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
            elif kind in ("tool_use", "server_tool_use"):
                body = f"{kind} {block['id'][-6:]} {block['name']}({json.dumps(block['input'], default=str)})"
            elif kind != "tool_result":  # a server tool's result block, run by the provider
                body = f"{kind} {str(block.get('tool_use_id'))[-6:]}"
            else:
                flag = " is_error" if block.get("is_error") else ""
                text = block.get("content")
                text = text if isinstance(text, str) else json.dumps(text, default=str)
                body = f"tool_result {str(block.get('tool_use_id'))[-6:]}{flag}: {text}"
            line = f"{n:>2} {turn['role']:<9} {body}"
            lines.append(line if len(line) <= width else line[: width - 1] + "…")
    return lines
