"""The approval gate: a write runs only after a decision, and every proposal leaves a record.

Dispatch is the last moment anyone can see a proposed action before it happens, so the gate sits
there. Two kinds of decider answer there, and the course keeps them apart in names and in what the
model is told:

* a **policy check** (``policy_check``) is code: a rule your program applies the same way every
  time (a justification must state its figures, say). It decides in microseconds and is never
  described as a person;
* a **person decides** (``person_decides``): a click in a panel, a reply in a queue. A person is
  slow and scarce, so a person is asked only where code must not decide alone.

``who_decides`` says which a write needs. A write that stays inside your own systems and can be
undone or ignored (a draft waiting in a person's queue) may be settled by a policy check. A write
that reaches outside (``openWorldHint``) or destroys (``destructiveHint``) cannot be taken back,
so a person decides it before it runs, whatever a policy check said. The MCP defaults apply to
missing hints (destructive, open world), so an undeclared write needs a person.

Either decider answers with one of three decisions: allow as proposed, allow with the input
changed, or deny with a message the model reads. A denial that carries its reason gives the model
something to work with; a silent one leaves a hole it fills with guesses, so a deny without a
message is refused here.

The gate is enforced in code, not in the prompt: ``require_decision`` is called on the one path
that runs a handler, and it raises unless a write carries an allowing decision from a decider the
tool accepts. Whatever a decider returns (or changes in its copy), what will run is validated
again before it runs, and the audit keeps the proposal and what ran as separate frozen records.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from tooldesign.dispatch.calls import ToolCall
from tooldesign.tools.base import NotJSON, Tool, json_plain

ALLOW, DENY = "allow", "deny"


class Decider(Enum):
    """Who answers a proposed write: code applying a rule, or a person."""

    POLICY = "policy_check"
    PERSON = "person_decides"

    @property
    def who(self) -> str:
        return "a policy check (code, not a person)" if self is Decider.POLICY else "a person"


@dataclass(frozen=True)
class Decision:
    """One decider's answer to one proposed call.

    ``by`` is filled in by the dispatcher, which knows whom it asked; a callback never claims it.
    """

    behavior: str
    updated_input: Mapping[str, Any] | None = None
    message: str = ""
    by: Decider | None = None

    def __post_init__(self) -> None:
        if self.behavior not in (ALLOW, DENY):
            raise ValueError(f"behavior must be {ALLOW!r} or {DENY!r}, not {self.behavior!r}")
        if not isinstance(self.message, str):
            raise ValueError(f"message must be text, not {type(self.message).__name__}")
        if self.behavior == DENY and not self.message.strip():
            raise ValueError("a denial needs a message the model can read; silence leaves it guessing")
        if self.by is not None and not isinstance(self.by, Decider):
            raise ValueError(f"by must be a Decider, not {type(self.by).__name__}")
        if self.updated_input is not None:
            # The decision keeps its own copy: the decider's dict may change after it decided.
            object.__setattr__(self, "updated_input", copy.deepcopy(self.updated_input))

    @classmethod
    def allow(cls) -> Decision:
        return cls(ALLOW)

    @classmethod
    def allow_modified(cls, updated_input: Mapping[str, Any], note: str = "") -> Decision:
        """Allow the call, but with the input a person corrected."""
        return cls(ALLOW, dict(updated_input), note)

    @classmethod
    def deny(cls, message: str) -> Decision:
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


def who_decides(tool: Tool) -> Decider | None:
    """Who must decide before ``tool`` runs: nobody for a read, code or a person for a write.

    A write may be settled by a policy check only when it declares itself both non-destructive and
    closed-world: it changes nothing outside your own systems and destroys nothing, like a draft in
    a person's queue. Anything else cannot be taken back once it has run, so a person decides it.
    Missing hints take MCP's defaults (destructive, open world), so a write that forgot to declare
    itself needs a person.
    """
    if not tool.writes:
        return None
    hints = tool.annotations
    if hints.get("destructiveHint") is False and hints.get("openWorldHint") is False:
        return Decider.POLICY
    return Decider.PERSON


def require_decision(tool: Tool, decision: Decision | None) -> None:
    """The enforcement point: a tool that may write never runs without an allowing decision.

    Read-only tools pass with no decision. A missing readOnlyHint counts as "may write", the MCP
    default, so a tool that forgot to declare itself is gated too. A write that ``who_decides``
    gives to a person runs only on a person's allowing decision; a policy check cannot stand in.
    """
    needed = who_decides(tool)
    if needed is None:
        return
    if not isinstance(decision, Decision):
        raise ApprovalRequired(f"{tool.name} may write and has no decision; it was not run")
    if not decision.allowed:
        raise ApprovalRequired(f"{tool.name} was denied; it was not run")
    if needed is Decider.PERSON and decision.by is not Decider.PERSON:
        raise ApprovalRequired(f"{tool.name} cannot be taken back and no person allowed it; it was not run")


# ---------- the audit record ----------


def definition_version(tool: Tool) -> str:
    """A short SHA-256 of what the model was shown of ``tool`` (name, description, schema, hints).

    Logged with every call, so a change in a tool's error rate can be traced to the definition change
    that came before it, and a call can be matched with the exact words the model chose it by.
    """
    shown = {
        "name": tool.name,
        "description": tool.description,
        "parameters": tool.parameters,
        "annotations": tool.annotations,
    }
    text = json.dumps(json_plain(shown), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


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
    return json.dumps(
        {"clipped": True, "chars": len(text), "sha256": digest, "start": text[:AUDIT_KEPT_CHARS]},
        ensure_ascii=False,
    )


@dataclass(frozen=True)
class AuditRecord:
    """One proposal and what became of it. Written for reads too, so the log is complete.

    The arguments are kept as JSON text, frozen when the record is written: ``proposed`` is what
    the caller sent, ``final`` the input the decision settled on (a decider's edit is kept even when
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
    decided_by: str = ""
    definition: str = ""
    result_chars: int = 0

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
        record = AuditRecord(
            seq=len(self._records) + 1,
            proposed_json=_bounded(_frozen(proposed)),
            final_json=None if final is None else _bounded(_frozen(final)),
            **fields,
        )
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
        return [
            {
                "seq": r.seq,
                "tool": r.tool,
                "writes": r.writes,
                "decided by": r.decided_by,
                "definition": r.definition,
                "decision": r.decision,
                "ran": r.ran,
                "is_error": r.is_error,
                "proposed": r.proposed,
                "final": r.final,
                "message": r.message,
                "result chars": r.result_chars,
            }
            for r in self._records
        ]


# ---------- callbacks ----------


def allow_all(call: ToolCall, tool: Tool) -> Decision:
    """Useful in tests; in a real agent it is the absence of a gate under another name."""
    return Decision.allow()


def deny_all(message: str) -> ApprovalCallback:
    def callback(call: ToolCall, tool: Tool) -> Decision:
        return Decision.deny(message)

    return callback


def fixed(decision: Decision) -> ApprovalCallback:
    """A callback that answers with a decision already taken, for example by a click in a panel.

    Whether that is a person's decision is said where it is passed: ``person_decides=fixed(...)``.
    """

    def callback(call: ToolCall, tool: Tool) -> Decision:
        return decision

    return callback


_FIGURE = re.compile(r"\d[\d,.]*\s*(?:EUR|€)|(?:EUR|€)\s*\d", re.IGNORECASE)
# "exposure", a few words at most, then an amount in EUR: "Exposure 52,500 EUR", "exposure of € 4,740".
_EXPOSURE = re.compile(
    r"exposure\b[^\d.;]{0,16}?(?:(?P<before>\d[\d,.]*\d|\d)\s*(?:EUR|€)|(?:EUR|€)\s*(?P<after>\d[\d,.]*\d|\d))",
    re.IGNORECASE,
)


def amount(text: str) -> float:
    """An amount as written in a justification, as a number: "52,500", "52.500", "52500.00"."""
    if re.fullmatch(r"\d{1,3}(?:[,.]\d{3})+", text):
        return float(re.sub(r"[,.]", "", text))  # separators of thousands, English or German
    return float(text.replace(",", ""))


@dataclass(frozen=True)
class StatedFigure:
    """An amount a justification states, where it stands in the text, and its value."""

    start: int
    end: int
    text: str
    value: float


def stated_exposure(justification: str) -> StatedFigure | None:
    """The exposure a justification states (the word, then an amount in EUR), or None if it names none."""
    match = _EXPOSURE.search(justification)
    if not match:
        return None
    group = "before" if match.group("before") else "after"
    return StatedFigure(match.start(group), match.end(group), match.group(group), amount(match.group(group)))


def checked_exposure(sales_order: str) -> float | None:
    """What the credit check reports as the exposure of the customer behind an order (None if unknown).

    The policy check's own source, independent of what the model wrote: the designed tools' reads.
    """
    from tooldesign.tools import tool_set  # the designed set is built on first use, not on import

    tools = tool_set("designed")
    summary = tools["sales_order_get_block_summary"].run({"sales_order": sales_order, "detail": "concise"})
    if not isinstance(summary, Mapping) or "customer" not in summary:
        return None
    credit = tools["customer_get_credit_exposure"].run(
        {"customer": summary["customer"], "sales_order": sales_order}
    )
    return float(credit["exposure"]) if isinstance(credit, Mapping) and "exposure" in credit else None


def release_policy(call: ToolCall, tool: Tool) -> Decision:
    """The lesson's policy check for release_request_create: code, run before the draft is made.

    It is not the credit desk's decision. The draft it lets through waits in the credit desk's
    queue, and a person there decides the release itself, after the run. The check only makes sure
    the draft that person reads is worth reading. The dispatcher asks it only about proposals that
    passed the schema, so format errors (an order number written "SO-4711") never reach it.

    * a justification without an amount in EUR is denied: the person reading the draft needs figures;
    * a justification whose stated exposure is not what the credit check reports is allowed with
      that figure corrected (the draft then carries the true figure);
    * anything else is allowed as proposed.
    """
    args = dict(call.arguments) if isinstance(call.arguments, Mapping) else {}
    why = str(args.get("justification", ""))
    if not _FIGURE.search(why):
        return Decision.deny(
            "The credit desk needs figures: state the exposure and the credit limit in EUR "
            "(from customer_get_credit_exposure) in the justification, then propose again."
        )
    stated = stated_exposure(why)
    checked = checked_exposure(str(args.get("sales_order", "")))
    if stated and checked is not None and stated.value != checked:
        figure = f"{checked:,.0f}"
        corrected = why[: stated.start] + figure + why[stated.end :]
        return Decision.allow_modified(
            {**args, "justification": corrected},
            note=f"exposure corrected from {stated.text} to {figure} EUR, as the credit check reports it",
        )
    return Decision.allow()
