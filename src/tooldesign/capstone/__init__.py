"""The capstone: the agent loop a learner builds over the designed tools and lesson 11's dispatcher.

``agent`` holds what the loop talks to (the ``Model`` protocol, in the Anthropic Messages format)
and what it reports (``AgentReport``); ``scripts`` holds scripted models, stand-ins that replay
fixed replies and send every stop reason a loop must handle (they are scripts, not models); ``verify``
judges a loop's report against the rules of the wire, from the script alone (no answer key).

The names below are loaded on first use: reading a record (``tooldesign.record``) needs the
report's types, not the scripted models and the Anthropic SDK they build their replies with
(over a second of a lesson's Run All).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from tooldesign.lazy import lazy_exports

if TYPE_CHECKING:
    from tooldesign.capstone.agent import (
        FIRST_BUDGET,
        MAX_TOKENS_RETRIES,
        AgentReport,
        CallOutcome,
        CallRecord,
        Model,
        StopReason,
        course_dispatcher,
    )
    from tooldesign.capstone.scripts import BEHAVIOURS, ScriptedModel, as_model, scripted
    from tooldesign.capstone.verify import loop_problem

_HOMES = {
    "FIRST_BUDGET": "agent",
    "MAX_TOKENS_RETRIES": "agent",
    "AgentReport": "agent",
    "CallOutcome": "agent",
    "CallRecord": "agent",
    "Model": "agent",
    "StopReason": "agent",
    "course_dispatcher": "agent",
    "BEHAVIOURS": "scripts",
    "ScriptedModel": "scripts",
    "as_model": "scripts",
    "scripted": "scripts",
    "loop_problem": "verify",
}

__all__ = [
    "BEHAVIOURS",
    "FIRST_BUDGET",
    "MAX_TOKENS_RETRIES",
    "AgentReport",
    "CallOutcome",
    "CallRecord",
    "Model",
    "ScriptedModel",
    "StopReason",
    "as_model",
    "course_dispatcher",
    "loop_problem",
    "scripted",
]

__getattr__, __dir__ = lazy_exports(__name__, _HOMES, globals())
