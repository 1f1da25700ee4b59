"""Example replies in each API's documented format, written for lesson 18.

Every reply here is an EXAMPLE: hand-written in the shape the providers document, so that the
official clients parse it and the notebook can show a whole turn offline. None of them is a
model's output, and the lesson labels them so. The task is the course's own: customer 10023's
blocked orders, over the designed tools.
"""

from __future__ import annotations

import json
from typing import Any

from tooldesign.selection.config import DEFAULT_MODELS

LABEL = "EXAMPLE reply in the documented format (written for the lesson, not a model's output)"
REQUEST = (
    "Customer 10023 says orders are stuck. Which of their orders are blocked, and how much credit is left?"
)

# Two calls in one turn (parallel calls). The second one's customer number is wrong on purpose, so
# the answering turn shows an error result next to a good one.
PARALLEL_CALLS: list[dict[str, Any]] = [
    {
        "type": "tool_use",
        "id": "toolu_01",
        "name": "sales_order_search",
        "input": {"customer": "10023", "blocked_only": True, "limit": None},
    },
    {
        "type": "tool_use",
        "id": "toolu_02",
        "name": "customer_get_credit_exposure",
        "input": {"customer": "CUST-10023", "sales_order": None},
    },
]


def _usage(input_tokens: int = 0) -> dict[str, int]:
    return {"input_tokens": input_tokens, "output_tokens": 0}


def anthropic_tool_use_reply() -> dict[str, Any]:
    """A Messages reply that stops to call two tools at once."""
    return {
        "id": "msg_example_1",
        "type": "message",
        "role": "assistant",
        "model": DEFAULT_MODELS["anthropic"],
        "content": [
            {"type": "text", "text": "I will look up the blocked orders and the credit figures."},
            *PARALLEL_CALLS,
        ],
        "stop_reason": "tool_use",
        "stop_sequence": None,
        "usage": _usage(),
    }


def anthropic_final_reply(text: str) -> dict[str, Any]:
    """A Messages reply that ends the turn: the loop stops here."""
    return {
        "id": "msg_example_2",
        "type": "message",
        "role": "assistant",
        "model": DEFAULT_MODELS["anthropic"],
        "content": [{"type": "text", "text": text}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": _usage(),
    }


def chat_tool_calls_reply() -> dict[str, Any]:
    """The same two calls as a Chat Completions reply: ``tool_calls`` with arguments as JSON text."""
    calls = [
        {
            "id": b["id"].replace("toolu", "call"),
            "type": "function",
            "function": {"name": b["name"], "arguments": json.dumps(b["input"])},
        }
        for b in PARALLEL_CALLS
    ]
    return {
        "id": "chatcmpl-example",
        "object": "chat.completion",
        "created": 0,
        "model": DEFAULT_MODELS["openai"],
        "choices": [
            {
                "index": 0,
                "finish_reason": "tool_calls",
                "message": {"role": "assistant", "content": None, "tool_calls": calls},
            }
        ],
        "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
    }


def responses_function_calls_reply() -> dict[str, Any]:
    """The same two calls as a Responses reply: ``function_call`` output items with a ``call_id``."""
    items = [
        {
            "type": "function_call",
            "id": f"fc_{i}",
            "call_id": b["id"].replace("toolu", "call"),
            "name": b["name"],
            "arguments": json.dumps(b["input"]),
            "status": "completed",
        }
        for i, b in enumerate(PARALLEL_CALLS, 1)
    ]
    return {
        "id": "resp_example",
        "object": "response",
        "created_at": 0,
        "model": DEFAULT_MODELS["openai"],
        "status": "completed",
        "output": items,
        "parallel_tool_calls": True,
        "tool_choice": "auto",
        "tools": [],
        "temperature": None,
        "top_p": None,
        "error": None,
        "incomplete_details": None,
        "instructions": None,
        "metadata": {},
        "usage": {
            "input_tokens": 0,
            "output_tokens": 0,
            "total_tokens": 0,
            "input_tokens_details": {"cached_tokens": 0},
            "output_tokens_details": {"reasoning_tokens": 0},
        },
    }


def anthropic_pause_turn_reply() -> dict[str, Any]:
    """A Messages reply paused by the API mid-way through a server tool's loop (``stop_reason: "pause_turn"``).

    The web search ran on the provider's side (``server_tool_use``, id prefix ``srvtoolu_``); there is
    nothing for your code to run and no ``tool_result`` to send: you send the content back to resume.
    """
    return {
        "id": "msg_example_pause",
        "type": "message",
        "role": "assistant",
        "model": DEFAULT_MODELS["anthropic"],
        "content": [
            {"type": "text", "text": "I will check the carrier's published delays first."},
            {
                "type": "server_tool_use",
                "id": "srvtoolu_01",
                "name": "web_search",
                "input": {"query": "Nordfracht delivery delays December"},
            },
        ],
        "stop_reason": "pause_turn",
        "stop_sequence": None,
        "usage": _usage(),
    }
