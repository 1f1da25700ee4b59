"""Dispatch: what your code does between a model's proposed call and the result it reads back.

Lessons 11 and 12 in code. ``validate`` checks every call against its schema and holds the dispatcher,
``gate`` is the approval step for writes (who decides: a policy check in code, or a person) and
the audit record, ``approval`` the course's one approval rule and every notice the model reads about a
write that did not run, ``errors`` builds failures a model
can act on, ``serialisation`` parses arguments instead of matching strings, ``retry`` handles
transient failures inside a tool, ``choice`` is tool_choice in a small loop, ``schema`` holds the
schema cases, ``boundary`` the boundary-clause measurement and ``widgets`` the approval panel.
"""

from tooldesign.dispatch.calls import ToolCall, ToolResult
from tooldesign.dispatch.errors import ToolFailure, actionable_message, error_result
from tooldesign.dispatch.gate import (
    ApprovalRequired,
    AuditLog,
    AuditRecord,
    Decider,
    Decision,
    allow_all,
    definition_version,
    deny_all,
    fixed,
    release_policy,
    require_decision,
    who_decides,
)
from tooldesign.dispatch.retry import (
    FakeClock,
    RetryPolicy,
    SystemClock,
    TransientError,
    call_with_retry,
    retrying,
)
from tooldesign.dispatch.serialisation import parse_arguments, same_arguments
from tooldesign.dispatch.validate import Dispatcher, Problem, example_arguments, is_valid, problems

__all__ = [
    "ApprovalRequired",
    "AuditLog",
    "AuditRecord",
    "Decider",
    "Decision",
    "Dispatcher",
    "FakeClock",
    "Problem",
    "RetryPolicy",
    "SystemClock",
    "ToolCall",
    "ToolFailure",
    "ToolResult",
    "TransientError",
    "actionable_message",
    "allow_all",
    "call_with_retry",
    "definition_version",
    "deny_all",
    "error_result",
    "example_arguments",
    "fixed",
    "is_valid",
    "parse_arguments",
    "problems",
    "release_policy",
    "require_decision",
    "retrying",
    "same_arguments",
    "who_decides",
]
