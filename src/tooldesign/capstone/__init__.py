"""The capstone: the agent loop a learner builds over the designed tools and lesson 11's dispatcher.

``agent`` holds what the loop talks to (the ``Model`` protocol, in the Anthropic Messages format)
and what it reports (``AgentReport``); ``scripts`` holds scripted models, stand-ins that replay
fixed replies and send every stop reason a loop must handle (they are scripts, not models); ``verify``
judges a loop's report against the rules of the wire, from the script alone (no answer key).
"""

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

__all__ = [
    "BEHAVIOURS",
    "FIRST_BUDGET",
    "MAX_TOKENS_RETRIES",
    "AgentReport",
    "CallRecord",
    "Model",
    "CallOutcome",
    "ScriptedModel",
    "StopReason",
    "as_model",
    "course_dispatcher",
    "loop_problem",
    "scripted",
]
