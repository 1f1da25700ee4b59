"""Notebook 12: results across the loop. The fields a result keeps, truncation with a note, a cursor page."""

from __future__ import annotations

import json
from typing import Any

from workbook.checks import failed, passed, placeholder_problem, probe_error, whole_number
from workbook.exercises import Exercise, WrongAnswer

NOTEBOOK = "12_results_across_the_loop"


# ---------- exercise 1: the fields a result keeps for the questions that follow ----------

# The order header the mirrored get_order_details returns (notebook 12 prints its field names).
ORDER_FIELDS: tuple[str, ...] = (
    "SalesOrder", "SalesOrderType", "SalesOrganization", "DistributionChannel", "OrganizationDivision",
    "SoldToParty", "CreationDate", "CreatedByUser", "PurchaseOrderByCustomer", "SalesOrderDate",
    "TotalNetAmount", "TransactionCurrency", "PricingDate", "RequestedDeliveryDate", "ShippingCondition",
    "CompleteDeliveryIsDefined", "IncotermsClassification", "IncotermsTransferLocation",
    "CustomerPaymentTerms", "HeaderBillingBlockReason", "DeliveryBlockReason", "OverallSDProcessStatus",
    "TotalCreditCheckStatus", "OverallTotalDeliveryStatus", "OverallSDDocumentRejectionSts", "to_Item",
)  # fmt: skip
KEY = "SalesOrder"  # which order a record is: without it, records in one conversation run together
# Each follow-up question: its words, and the fields that answer it. A tuple inside a need is a
# choice: any one of those fields answers it (an order's creation date and its document date agree).
FOLLOW_UPS: dict[str, tuple[str, tuple[str | tuple[str, ...], ...]]] = {
    "worth": ("What is the order worth?", ("TotalNetAmount", "TransactionCurrency")),
    "held": (
        "Is the order held, and by what?",
        ("DeliveryBlockReason", "HeaderBillingBlockReason", "TotalCreditCheckStatus"),
    ),
    "wanted": ("When does the customer want it?", ("RequestedDeliveryDate",)),
    "their_po": ("Which of the customer's purchase orders does it answer?", ("PurchaseOrderByCustomer",)),
    "whose": ("Which customer placed it?", ("SoldToParty",)),
    "placed": ("When was it placed?", (("SalesOrderDate", "CreationDate"),)),
    "items": ("What is on the order?", ("to_Item",)),
}
KEEP_PROBES: tuple[tuple[list[str]], ...] = (
    (["worth"],),
    (["held", "worth"],),
    (["wanted"],),
    ([],),
    (["items", "whose"],),
    (["placed", "their_po", "held"],),
    (["worth", "worth"],),
)


def _needs(questions: list[str]) -> list[str | tuple[str, ...]]:
    return [KEY, *(need for q in dict.fromkeys(questions) for need in FOLLOW_UPS[q][1])]


def _keep_fields(questions: list[str]) -> list[str]:
    return [need if isinstance(need, str) else need[0] for need in _needs(questions)]


def _judge_keep(results: Any) -> object:
    for (questions,), got in zip(KEEP_PROBES, results):
        call = f"keep_fields({questions})"
        if (raised := probe_error(got)) is not None:
            where = "; the ids are those in the table above" if "KeyError" in raised else ""
            return failed(f"{call} raised {raised}{where}")
        if isinstance(got, str) or not isinstance(got, (list, tuple, set, frozenset)):
            return failed(f"{call} returned {type(got).__name__}; return a list of field names")
        kept = set(got)
        if unknown := sorted(str(f) for f in kept if f not in ORDER_FIELDS):
            return failed(
                f"{call} keeps {unknown[0]!r}, which is not a field of the order record printed above"
            )
        if KEY not in kept:
            return failed(
                f"{call}: nothing you kept says which order the record is; a later question about "
                "'the order' can't be tied to one"
            )
        for q in dict.fromkeys(questions):
            words, needs = FOLLOW_UPS[q]
            for need in needs:
                options = (need,) if isinstance(need, str) else need
                if not kept & set(options):
                    more = (
                        " (an amount means little without its unit)"
                        if q == "worth" and kept & {"TotalNetAmount"}
                        else ""
                    )
                    return failed(f"{call}: '{words}' can't be answered from the fields you kept{more}")
        allowed = {f for need in _needs(questions) for f in ((need,) if isinstance(need, str) else need)}
        if extra := sorted(kept - allowed):
            return failed(
                f"{call} keeps {len(extra)} field{'s' if len(extra) > 1 else ''} none of the questions "
                f"needs (e.g. {extra[0]!r}); every one is re-sent on each later model call"
            )
    return passed(
        "each result keeps its key and what the next questions need, and nothing that would only ride along."
    )


def _everything(questions):
    return list(ORDER_FIELDS)


def _the_tasks_fields(questions):  # the package's choice for the clerk's task, whatever comes next
    return ["SalesOrder", "SoldToParty", "TotalNetAmount", "TransactionCurrency",
            "DeliveryBlockReason", "HeaderBillingBlockReason", "TotalCreditCheckStatus"]  # fmt: skip


def _no_key(questions):
    return _keep_fields(questions)[1:]


def _amount_alone(questions):
    return [f for f in _keep_fields(questions) if f != "TransactionCurrency"]


def _first_question_only(questions):
    return _keep_fields(questions[:1])


def _one_block_field(questions):
    return [
        f for f in _keep_fields(questions) if f not in ("DeliveryBlockReason", "HeaderBillingBlockReason")
    ]


# ---------- exercise 2: truncation that says so ----------

_RECORD = json.dumps(
    {
        "d": {
            "results": [
                {
                    "SalesOrder": str(4711 + n),
                    "SoldToParty": "10023",
                    "TotalNetAmount": f"{100 * n}.00",
                    "DeliveryBlockReason": "",
                }
                for n in range(12)
            ]
        }
    }
)
TRUNCATE_PROBES = (("short result", 100), (_RECORD, 200), (_RECORD, 1000), ("x" * 50, 50), (_RECORD, 1))


def _judge_truncate(results: Any) -> object:
    for (text, limit), got in zip(TRUNCATE_PROBES, results):
        call = f"truncate(<{len(text)} characters>, {limit})"
        if isinstance(got, dict):
            return failed(f"{call} raised {got.get('error')}")
        if type(got) is not str:
            return failed(f"{call} returned {type(got).__name__}; return the text to carry, a string")
        if len(text) <= limit:
            if got != text:
                return failed(f"{call}: the text fits, so leave it exactly as it is, without a note")
            continue
        if not got.startswith(text[:limit]):
            return failed(f"{call}: keep the first {limit} characters of the text, unchanged, then the note")
        note = got[limit:]
        if not note.strip():
            return failed(f"{call} cut the text silently; add a note saying that something was cut")
        if text[limit : limit + 20] in note:
            return failed(f"{call} kept more than {limit} characters of the text; cut at the limit")
        omitted = len(text) - limit
        if str(omitted) not in note and f"{omitted:,}" not in note:
            return failed(f"{call}: say in the note how many characters were left out ({omitted} here)")
        held = placeholder_problem(note, "the note", least_words=2)
        if held:
            return failed(f"{call}: {held}; the model reads it to know what is missing")
    return passed("a result that fits is untouched; a cut one says how much is missing.")


def _silent_cut(text, limit):
    return text[:limit]


def _vague_note(text, limit):
    return text if len(text) <= limit else text[:limit] + " [truncated]"


def _always_note(text, limit):
    return text[:limit] + f" [{max(len(text) - limit, 0)} characters not shown]"


def _bare_count(text, limit):
    return text if len(text) <= limit else text[:limit] + f" [{len(text) - limit}]"


def _placeholder_note(text, limit):
    return text if len(text) <= limit else text[:limit] + f" [TODO {len(text) - limit} xxx]"


def _keeps_the_end(text, limit):
    return text if len(text) <= limit else text[-limit:] + f" [{len(text) - limit} characters not shown]"


# ---------- exercise 3: one page and a cursor ----------

ROWS = [{"sales_order": str(n)} for n in (4711, 4730, 4731, 4732, 4733, 4734, 4735)]
PAGE_PROBES: tuple[tuple[list[dict[str, str]], int, int], ...] = (
    (ROWS, 0, 2),
    (ROWS, 2, 2),
    (ROWS, 6, 2),
    (ROWS, 4, 3),
    (ROWS[:5], 0, 5),
    ([], 0, 5),
    (ROWS, 0, 10),
)


def _page(rows: list, cursor: int, size: int) -> dict:
    end = cursor + size
    return {"results": rows[cursor:end], "total": len(rows), "next_cursor": end if end < len(rows) else None}


def _judge_page(results: Any) -> object:
    for (rows, cursor, size), got in zip(PAGE_PROBES, results):
        call = f"page(<{len(rows)} rows>, cursor={cursor}, size={size})"
        if (raised := probe_error(got)) is not None:
            return failed(f"{call} raised {raised}")
        if type(got) is not dict:
            return failed(
                f"{call} returned {type(got).__name__}; return a dict with results, total and next_cursor"
            )
        missing = [k for k in ("results", "total", "next_cursor") if k not in got]
        if missing:
            return failed(
                f"{call} has no {', '.join(missing)}; the page needs results, total and next_cursor"
            )
        want = _page(rows, cursor, size)
        if got["results"] != want["results"]:
            return failed(
                f"{call}: results should be rows {cursor} to {cursor + size - 1} (0-based), at most "
                f"{size} of them"
            )
        if whole_number(got["total"]) != want["total"]:
            return failed(f"{call}: total is how many rows there are in all ({len(rows)}), not on this page")
        nxt = got["next_cursor"]
        if want["next_cursor"] is None:
            if nxt is not None:
                return failed(
                    f"{call}: this page reaches the end, so next_cursor is None (nothing more to fetch)"
                )
            continue
        if isinstance(nxt, str) and nxt.isdigit():
            nxt = int(nxt)
        if whole_number(nxt) != want["next_cursor"]:
            return failed(f"{call}: next_cursor is where the next page starts, row {want['next_cursor']}")
    return passed("one page, the total, and a cursor that is None at the end.")


def _never_ends(rows, cursor, size):
    return {"results": rows[cursor : cursor + size], "total": len(rows), "next_cursor": cursor + size}


def _page_total(rows, cursor, size):
    page = rows[cursor : cursor + size]
    end = cursor + size
    return {"results": page, "total": len(page), "next_cursor": end if end < len(rows) else None}


def _page_number(rows, cursor, size):
    end = cursor + size
    return {
        "results": rows[cursor:end],
        "total": len(rows),
        "next_cursor": cursor + 1 if end < len(rows) else None,
    }


def _no_total(rows, cursor, size):
    end = cursor + size
    return {"results": rows[cursor:end], "next_cursor": end if end < len(rows) else None}


EXERCISES = [
    Exercise(
        "ex12-keep-fields",
        NOTEBOOK,
        "keep_fields",
        2,
        _judge_keep,
        kind="function",
        probes=KEEP_PROBES,
        prompt="Write keep_fields(questions): the order fields a result keeps for the follow-up questions.",
        wrong_answers=(
            WrongAnswer(_everything, "re-sent on each later"),
            WrongAnswer(_the_tasks_fields, "none of the questions needs"),
            WrongAnswer(_no_key, "which order"),
            WrongAnswer(_amount_alone, "without its unit"),
            WrongAnswer(_first_question_only, "can't be answered"),
            WrongAnswer(_one_block_field, "held, and by what"),
        ),
    ),
    Exercise(
        "ex12-truncate-with-note",
        NOTEBOOK,
        "truncate",
        2,
        _judge_truncate,
        kind="function",
        probes=TRUNCATE_PROBES,
        prompt="Write truncate(text, limit): the first limit characters and a note saying how many were cut.",
        wrong_answers=(
            WrongAnswer(_silent_cut, "silently"),
            WrongAnswer(_vague_note, "how many characters"),
            WrongAnswer(_always_note, "leave it exactly"),
            WrongAnswer(_bare_count, "in words"),
            WrongAnswer(_placeholder_note, "placeholder words"),
            WrongAnswer(_keeps_the_end, "first"),
        ),
    ),
    Exercise(
        "ex12-page",
        NOTEBOOK,
        "page",
        2,
        _judge_page,
        kind="function",
        probes=PAGE_PROBES,
        prompt="Write page(rows, cursor, size): one page of rows, the total, and the next cursor.",
        wrong_answers=(
            WrongAnswer(_never_ends, "None"),
            WrongAnswer(_page_total, "in all"),
            WrongAnswer(_page_number, "where the next page starts"),
            WrongAnswer(_no_total, "has no total"),
        ),
    ),
]


# ---------- for the instructor's grader: drawn inputs and how to compare on them ----------
# Not used by the checks above. workbook.exercises.references can register, for example,
# Grading(_keep_fields, _gen_keep, same=_same_fields), Grading(_truncated, _gen_truncate, same=_same_truncation,
# stubs=("tooldesign.loop.shrink:truncate_text",)) and Grading(_page, _gen_page, same=_same_page).


def _gen_keep(rng) -> tuple:
    return ([rng.choice(list(FOLLOW_UPS)) for _ in range(rng.randint(0, 4))],)


def _same_fields(got: Any, want: list) -> bool:
    """Any order, any container, either of two fields that answer the same question."""
    return _judge_keep_one(got, want) is None


def _judge_keep_one(got: Any, want: list) -> str | None:
    if isinstance(got, str) or not isinstance(got, (list, tuple, set, frozenset)):
        return "not a list"
    kept = set(got)
    choices = {"SalesOrderDate": {"SalesOrderDate", "CreationDate"}}
    for field in want:
        if not kept & choices.get(field, {field}):
            return field
    allowed = set(want) | ({"CreationDate"} if "SalesOrderDate" in want else set())
    return None if kept <= allowed else "extra"


def _truncated(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + f"\n[cut: {len(text) - limit} characters not shown]"


def _gen_truncate(rng) -> tuple:
    pieces = [
        '{"SalesOrder": "',
        str(rng.randint(4700, 4799)),
        '", "note": "',
        "é€ ",
        "x" * rng.randint(0, 40),
        '"}',
    ]
    text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 120)))
    return (text, rng.randint(1, max(1, len(text) + 20)))


def _same_truncation(got: Any, want: str) -> bool:
    """The learner's note may be worded any way: compare the kept text, and the count in the note."""
    if type(got) is not str:
        return False
    if "\n[cut: " not in want:
        return got == want
    kept, note = want.split("\n[cut: ", 1)
    omitted = int(note.split(" ", 1)[0])
    rest = got[len(kept) :]
    return (
        got.startswith(kept)
        and placeholder_problem(rest, "the note", least_words=2) is None
        and (str(omitted) in rest or f"{omitted:,}" in rest)
    )


def _gen_page(rng) -> tuple:
    rows = [{"sales_order": str(4700 + n)} for n in range(rng.randint(0, 12))]
    return (rows, rng.randint(0, len(rows)), rng.randint(1, 6))


def _same_page(got: Any, want: dict) -> bool:
    if type(got) is not dict or got.get("results") != want["results"]:
        return False
    nxt = got.get("next_cursor")
    nxt = int(nxt) if isinstance(nxt, str) and nxt.isdigit() else whole_number(nxt)
    return whole_number(got.get("total")) == want["total"] and nxt == want["next_cursor"]
