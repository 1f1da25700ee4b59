"""The approval gate: a write runs only after a decision, and every proposal leaves a record.

Dispatch is the last moment a person can see a proposed action before it happens, so the gate
sits there. A callback answers each proposed write with one of three decisions: allow it as
proposed, allow it with the input changed, or deny it with a message the model reads. A denial
that carries its reason gives the model something to work with (ask, fix, explain); a silent
one leaves a hole it fills with guesses, so a deny without a message is refused here.

The gate is enforced in code, not in the prompt: ``require_decision`` is called on the one path
that runs a handler, and it raises unless a write carries an allowing decision.

An approver is code too, and code edits what it is handed. It is shown a copy of the proposal;
whatever it returns (or changes in its copy), what will run is validated again before it runs,
and the audit keeps the proposal and what ran as separate frozen records.
"""
from __future__ import annotations

import copy
import hashlib
import json
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterator, Mapping

from tooldesign.dispatch.calls import ToolCall
from tooldesign.tools.base import NotJSON, Tool, json_plain

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
        if not isinstance(self.message, str):
            raise ValueError(f"message must be text, not {type(self.message).__name__}")
        if self.behavior == DENY and not self.message.strip():
            raise ValueError("a denial needs a message the model can read; silence leaves it guessing")
        if self.updated_input is not None:
            # The decision keeps its own copy: the approver's dict may change after it decided.
            object.__setattr__(self, "updated_input", copy.deepcopy(self.updated_input))

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

# An audit keeps every proposal, so one that carries a megabyte would make the log (and any table of
# it) grow without bound. Past this many characters a record keeps the start, the size and a SHA-256
# of the whole text: enough to tell what was sent and to match it against a copy kept elsewhere.
MAX_AUDIT_CHARS = 20_000
AUDIT_KEPT_CHARS = 2_000


def _frozen(value: Any) -> str:
    """A value as JSON text: immutable, so a record can never change after it is written."""
    try:
        return json.dumps(json_plain(value), ensure_ascii=False)
    except (NotJSON, TypeError, ValueError, RecursionError):
        return json.dumps(f"<a {type(value).__name__}, not a JSON value>")


def _bounded(text: str) -> str:
    """``text`` itself, or for an oversized one a small JSON object that says so and identifies it."""
    if len(text) <= MAX_AUDIT_CHARS:
        return text
    digest = hashlib.sha256(text.encode("utf-8", "backslashreplace")).hexdigest()
    return json.dumps({"clipped": True, "chars": len(text), "sha256": digest,
                       "start": text[:AUDIT_KEPT_CHARS]}, ensure_ascii=False)


@dataclass(frozen=True)
class AuditRecord:
    """One proposal and what became of it. Written for reads too, so the log is complete.

    The arguments are kept as JSON text, frozen when the record is written: ``proposed`` is what
    the caller sent, ``final`` the input the decision settled on (an approver's edit is kept even when
    it failed the schema; None when no decision named any input) and ``executed`` what the handler
    was given (None when it did not run). Each access returns a
    fresh copy, so editing what you read changes nothing in the log. A value longer than
    ``MAX_AUDIT_CHARS`` as JSON is kept as ``{"clipped": true, "chars", "sha256", "start"}``.
    """
    seq: int
    call_id: str
    tool: str
    writes: bool
    proposed_json: str
    decision: str
    final_json: str | None
    message: str
    ran: bool
    is_error: bool
    at: float | None = None

    @property
    def proposed(self) -> Any:
        return json.loads(self.proposed_json)

    @property
    def final(self) -> Any:
        return None if self.final_json is None else json.loads(self.final_json)

    @property
    def executed(self) -> Any:
        return self.final if self.ran else None


class AuditLog:
    """An append-only log of audit records: ``add`` appends, nothing removes or replaces one."""

    def __init__(self) -> None:
        self._records: list[AuditRecord] = []

    @property
    def records(self) -> tuple[AuditRecord, ...]:
        return tuple(self._records)

    def add(self, *, proposed: Any, final: Any, **fields: Any) -> AuditRecord:
        record = AuditRecord(seq=len(self._records) + 1, proposed_json=_bounded(_frozen(proposed)),
                             final_json=None if final is None else _bounded(_frozen(final)), **fields)
        self._records.append(record)
        return record

    def __iter__(self) -> Iterator[AuditRecord]:
        return iter(self.records)

    def __len__(self) -> int:
        return len(self._records)

    def __repr__(self) -> str:
        return f"AuditLog({len(self)} records)"

    def rows(self) -> list[dict]:
        """Plain dicts, ready for a table."""
        return [{"seq": r.seq, "tool": r.tool, "writes": r.writes, "decision": r.decision, "ran": r.ran,
                 "is_error": r.is_error, "proposed": r.proposed, "final": r.final, "message": r.message}
                for r in self._records]


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


_PREFIX = re.compile(r"^\s*(?:SO[-\s]?)?([0-9]+)\s*$", re.IGNORECASE)
_FIGURE = re.compile(r"\d[\d,.]*\s*(?:EUR|€)|(?:EUR|€)\s*\d", re.IGNORECASE)


def release_policy(call: ToolCall, tool: Tool) -> Decision:
    """The lesson's example policy for release_request_create, as a callback.

    * a justification without an amount in EUR is denied: the approver needs the figures;
    * a sales order written with a prefix or spaces ("SO-4711") is allowed with the digits only;
    * anything else is allowed as proposed.
    """
    args = dict(call.arguments) if isinstance(call.arguments, Mapping) else {}
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
