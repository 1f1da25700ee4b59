"""Failures a model can act on, and the four ways code reports a failure.

When a tool fails, the failure is itself information. The model learns only what your code tells it,
so the model's next step can be no sharper than your message. This module builds the one honest report
(``is_error`` with what went wrong, what is expected, an example and where to go instead) and
models the three dishonest ones so a lesson can show what a downstream reader makes of each.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from tooldesign.dispatch.calls import ToolResult


class ToolFailure(Exception):
    """Raised inside a handler when the failure should reach the model as an actionable error.

    The dispatcher turns it into ``is_error`` with the text below; any other exception becomes a
    short generic error, because a traceback is opaque to the model and may leak internals.
    """

    def __init__(self, what: str, expected: str = "", example: Any = None, instead: str = "") -> None:
        super().__init__(what)
        self.what, self.expected, self.example, self.instead = what, expected, example, instead

    def message(self) -> str:
        return actionable_message(self.what, self.expected, self.example, self.instead)


def actionable_message(what: str, expected: str = "", example: Any = None, instead: str = "") -> str:
    """One short paragraph: the fault, the expectation, a sample and, if there is one, a way forward.

    Each part answers a question the model would otherwise guess at. Empty parts are left out.
    """
    parts = [what.rstrip(".") + "."]
    if expected:
        parts.append("Expected: " + expected.rstrip(".") + ".")
    if example is not None:
        shown = example if isinstance(example, str) else json.dumps(example, ensure_ascii=False)
        parts.append(f"Example: {shown}.")
    if instead:
        parts.append(instead.rstrip(".") + ".")
    return " ".join(parts)


def error_result(
    call_id: str, what: str, expected: str = "", example: Any = None, instead: str = "", ran: bool = False
) -> ToolResult:
    """An ``is_error`` result whose text the model can act on."""
    return ToolResult(call_id, actionable_message(what, expected, example, instead), is_error=True, ran=ran)


# ---------- the four ways to report a failure ----------


@dataclass(frozen=True)
class FailureReport:
    """How one style of reporting presents the same failure to the model on the next turn."""

    style: str
    tools_offered: tuple[str, ...]
    result: ToolResult | None  # None: the call never happened because the tool is gone


@dataclass(frozen=True)
class Reading:
    """What a downstream reader (a model, a person, the next tool) concludes from a report."""

    style: str
    conclusion: str
    true: bool
    run_stops: bool


# The failure every style reports: the credit service timed out while checking customer 10023.
CREDIT_CALL_ID = "call_credit"
FAILED_TOOL = "customer_get_credit_exposure"


def four_reports(customer: str = "10023", tools: tuple[str, ...] = ()) -> list[FailureReport]:
    """The same timeout reported four ways. ``tools`` is the set offered before the failure."""
    offered = tools or (FAILED_TOOL, "sales_order_get_block_summary", "release_request_create")
    placeholder = {
        "customer": customer,
        "credit_limit": 0.0,
        "open_items": 0.0,
        "exposure": 0.0,
        "approver": "none needed",
        "currency": "EUR",
    }
    empty = {"customer": customer, "findings": []}
    honest = error_result(
        CREDIT_CALL_ID,
        f"The credit service did not answer for customer {customer} after 3 attempts",
        expected="a retry in a few minutes; the exposure is unknown until then",
        instead="Tell the user the credit check is unavailable and do not draft a release on a guess",
    )
    return [
        FailureReport("placeholder data", offered, ToolResult(CREDIT_CALL_ID, placeholder)),
        FailureReport("empty success", offered, ToolResult(CREDIT_CALL_ID, empty)),
        FailureReport("tool silently withdrawn", tuple(t for t in offered if t != FAILED_TOOL), None),
        FailureReport("actionable is_error", offered, honest),
    ]


def read_downstream(report: FailureReport) -> Reading:
    """A literal reader: it believes what it is given, as the next step of a run does.

    That is the point of the exercise. A reader cannot know a result is invented, so any report
    that asserts something false travels onward as a fact.
    """
    if report.result is None:
        return Reading(
            report.style,
            "No tool checks credit any more, so the question is answered "
            "from the conversation alone, with no hint that a check failed.",
            False,
            False,
        )
    if report.result.is_error:
        return Reading(
            report.style,
            "The credit check failed and the exposure is unknown; say so, retry later, and hold the release.",
            True,
            True,
        )
    content = report.result.content
    if isinstance(content, Mapping) and content.get("approver") == "none needed":
        return Reading(
            report.style,
            "Exposure is 0.00 EUR, well within the limit: the order can be released without approval.",
            False,
            False,
        )
    return Reading(report.style, "The check ran and found nothing of note: no credit issue.", False, False)


def reading_table(
    reports: list[FailureReport] | None = None, reader: Callable[[FailureReport], Reading] = read_downstream
) -> list[dict]:
    """One row per style: what the model reads, what it concludes, whether that is true."""
    rows = []
    for report in reports or four_reports():
        reading = reader(report)
        shown = "(no call: the tool is gone)" if report.result is None else report.result.block()["content"]
        rows.append(
            {
                "style": report.style,
                "model reads": shown[:90],
                "is_error": bool(report.result and report.result.is_error),
                "conclusion": reading.conclusion,
                "true": reading.true,
                "run stops": reading.run_stops,
            }
        )
    return rows


# ---------- the false-success check ----------

# Words a literal reader takes for a change that happened or is under way: "created", "queued",
# "awaits approval", "pending". Said of a write that did not run, they are section 3's false success.
_CHANGE_WORDS = re.compile(
    r"\b(?:created|drafted|filed|released|submitted|sent|queued|approved|done|succe\w*|complete[ds]?|"
    r"pending|awaits|awaiting|waiting[_ ]for[_ ]approval|in progress|has been|is being|under way|on its way)\b",
    re.IGNORECASE,
)
# How a result about a write that did not run must open: a plain statement that nothing changed.
_NOTHING = re.compile(
    r"\b(?:nothing (?:has |was )?(?:changed|run|done|drafted|filed|queued|created)|nothing has changed|"
    r"(?:was|were|is|has) not (?:been )?(?:run|done|changed|created|filed|drafted|made)|not (?:run|executed)|no change)\b",
    re.IGNORECASE,
)
# A claim of a finished change anywhere in the text, which no opening statement can take back.
_CLAIMED = re.compile(
    r"\b(?:successfully|has been (?:created|filed|released|approved|submitted|sent|queued)|"
    r"is (?:now )?(?:pending|awaiting|waiting for) (?:a person's )?approval)\b",
    re.IGNORECASE,
)


def false_success(text: str) -> str | None:
    """Why a literal reader would take this result about a write that did NOT run for a change that
    happened, or None when it says plainly that nothing changed.

    The reader of section 3 believes what it is given. So the result must open (its first clause,
    up to the first ``:``, ``;`` or ``.``) with a statement that nothing changed or that the call was
    not run, with no word of completion or progress in that clause, and nowhere claim a finished or
    queued change ("successfully", "has been created", "is pending approval"). Words in double quotes
    are someone's quoted reason, not the result's own claim, so that check skips them.
    """
    if not isinstance(text, str) or not text.strip():
        return "it says nothing, so the reader cannot tell that nothing changed"
    first = re.split(r"[:;.]", text.strip(), maxsplit=1)[0]
    claimed = _CLAIMED.search(re.sub(r'"[^"]*"', '""', text))
    if claimed:
        return f"it says {claimed.group(0)!r}, which a reader passes on as a change that happened"
    if not _NOTHING.search(first):
        word = _CHANGE_WORDS.search(text)
        heard = f" and says {word.group(0)!r}" if word else ""
        return (
            f"it does not open by saying that nothing changed{heard}; a reader takes it as done or under way"
        )
    word = _CHANGE_WORDS.search(_NOTHING.sub(" ", first))  # the words the denial itself negates do not count
    if word:
        return f"its opening says {word.group(0)!r} beside the denial, so a reader may take either"
    return None
