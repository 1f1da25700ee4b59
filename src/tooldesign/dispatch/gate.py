"""The approval gate: a write runs only after a decision, and every proposal leaves a record.

Dispatch is the last moment a person can see a proposed action before it happens, so the gate
sits there. A callback answers each proposed write with one of three decisions: allow it as
proposed, allow it with the input changed, or deny it with a message the model reads. A denial
that carries its reason gives the model something to work with (ask, fix, explain); a silent
one leaves a hole it fills with guesses, so a deny without a message is refused here.

The gate is enforced in code, not in the prompt: ``require_decision`` is called on the one path
that runs a handler, and it raises unless a write carries an allowing decision.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Mapping

from tooldesign.dispatch.calls import ToolCall
from tooldesign.tools.base import Tool

ALLOW, DENY = "allow", "deny"


@dataclass(frozen=True)
class Decision:
    """A person's (or a policy's) answer to one proposed call."""
    behavior: str
    updated_input: Mapping[str, Any] | None = None
    message: str = ""

    def __post_init__(self) -> None:
        if self.behavior not in (ALLOW, DENY):
            raise ValueError(f"behavior must be {ALLOW!r} or {DENY!r}, not {self.behavior!r}")
        if self.behavior == DENY and not self.message.strip():
            raise ValueError("a denial needs a message the model can read; silence leaves it guessing")

    @classmethod
    def allow(cls) -> "Decision":
        return cls(ALLOW)

    @classmethod
    def allow_modified(cls, updated_input: Mapping[str, Any], note: str = "") -> "Decision":
        """Allow the call, but with the input a person corrected."""
        return cls(ALLOW, dict(updated_input), note)

    @classmethod
    def deny(cls, message: str) -> "Decision":
        return cls(DENY, None, message)

    @property
    def allowed(self) -> bool:
        return self.behavior == ALLOW

    @property
    def label(self) -> str:
        if not self.allowed:
            return "deny"
        return "allow (modified)" if self.updated_input is not None else "allow"


ApprovalCallback = Callable[[ToolCall, Tool], Decision]


class ApprovalRequired(RuntimeError):
    """Raised when code tries to run a write without an allowing decision."""


def require_decision(tool: Tool, decision: Decision | None) -> None:
    """The enforcement point: a tool that may write never runs without an allowing decision.

    Read-only tools pass with no decision. A missing readOnlyHint counts as "may write", the MCP
    default, so a tool that forgot to declare itself is gated too.
    """
    if not tool.writes:
        return
    if not isinstance(decision, Decision):
        raise ApprovalRequired(f"{tool.name} may write and has no decision; it was not run")
    if not decision.allowed:
        raise ApprovalRequired(f"{tool.name} was denied; it was not run")


# ---------- the audit record ----------

@dataclass(frozen=True)
class AuditRecord:
    """One proposal and what became of it. Written for reads too, so the log is complete."""
    seq: int
    call_id: str
    tool: str
    writes: bool
    proposed: Mapping[str, Any]
    decision: str
    final: Mapping[str, Any] | None
    message: str
    ran: bool
    is_error: bool
    at: float | None = None


@dataclass
class AuditLog:
    """An append-only list of audit records."""
    records: list[AuditRecord] = field(default_factory=list)

    def add(self, **fields: Any) -> AuditRecord:
        record = AuditRecord(seq=len(self.records) + 1, **fields)
        self.records.append(record)
        return record

    def __iter__(self) -> Iterator[AuditRecord]:
        return iter(self.records)

    def __len__(self) -> int:
        return len(self.records)

    def rows(self) -> list[dict]:
        """Plain dicts, ready for a table."""
        return [{"seq": r.seq, "tool": r.tool, "writes": r.writes, "decision": r.decision, "ran": r.ran,
                 "is_error": r.is_error, "proposed": dict(r.proposed),
                 "final": dict(r.final) if r.final is not None else None, "message": r.message}
                for r in self.records]


# ---------- callbacks ----------

def allow_all(call: ToolCall, tool: Tool) -> Decision:
    """Useful in tests; in a real agent it is the absence of a gate under another name."""
    return Decision.allow()


def deny_all(message: str) -> ApprovalCallback:
    def callback(call: ToolCall, tool: Tool) -> Decision:
        return Decision.deny(message)
    return callback


def fixed(decision: Decision) -> ApprovalCallback:
    """A callback that answers with a decision already taken, for example by a click in a panel."""
    def callback(call: ToolCall, tool: Tool) -> Decision:
        return decision
    return callback


_PREFIX = re.compile(r"^\s*(?:SO[-\s]?)?(\d+)\s*$", re.IGNORECASE)
_FIGURE = re.compile(r"\d[\d,.]*\s*(?:EUR|€)|(?:EUR|€)\s*\d", re.IGNORECASE)


def release_policy(call: ToolCall, tool: Tool) -> Decision:
    """The lesson's example policy for release_request_create, as a callback.

    * a justification without an amount in EUR is denied: the approver needs the figures;
    * a sales order written with a prefix or spaces ("SO-4711") is allowed with the digits only;
    * anything else is allowed as proposed.
    """
    args = dict(call.arguments)
    why = str(args.get("justification", ""))
    if not _FIGURE.search(why):
        return Decision.deny("The approver needs figures: state the exposure and the credit limit in EUR "
                             "(from customer_get_credit_exposure) in the justification, then propose again.")
    number = str(args.get("sales_order", ""))
    match = _PREFIX.match(number)
    if match and match.group(1) != number:
        return Decision.allow_modified({**args, "sales_order": match.group(1)},
                                       note=f"sales_order corrected from {number!r} to {match.group(1)!r}")
    return Decision.allow()
