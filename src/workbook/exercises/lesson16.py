"""Notebook 16: results across the loop. The fields a result keeps, a cut at whole records, a cursor page."""

from __future__ import annotations

import json
import re
from typing import Any

from workbook.exercises.kinds import Exercise, WrongAnswer
from workbook.verdicts import failed, passed, placeholder_problem, probe_error, whole_number

NOTEBOOK = "16_results_across_the_loop"


# ---------- exercise 1: the fields a result keeps for the questions that follow ----------

# The order header the mirrored get_order_details returns (notebook 16 prints its field names).
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


# ---------- exercise 2: a cut at whole records that says what it left out ----------

# Records of the shapes a search returns: an order header, a shipment, one with text that has
# non-ASCII characters, one nested. Their sizes differ, so a budget cuts between them, not inside.
_ORDERS: list[dict[str, Any]] = [
    {"sales_order": str(4711 + n), "customer": "10023", "net_value": 100.0 * n, "currency": "EUR", "blocked": n % 3 == 0}
    for n in range(7)
]  # fmt: skip
_MIXED: list[dict[str, Any]] = [
    {"shipment_number": "SHP-1001", "product_class": "frozen", "breach_minutes": 0},
    {
        "sales_order": "4725",
        "note": "Préfère livraison après 14 h · prix contesté",
        "items": [{"material": "TG12"}],
    },
    {"sales_order": "4730", "customer": "10024"},
    {"shipment_number": "SHP-1002", "product_class": "chilled", "breach_minutes": 185, "claim_eur": 640},
]


def _size(record: Any) -> int:
    return len(json.dumps(record))


def _fit(rows: list, limit: int) -> int:
    """How many records from the start fit in ``limit`` characters together (stopping at the first that does not)."""
    used = kept = 0
    for record in rows:
        used += _size(record)
        if used > limit:
            break
        kept += 1
    return kept


def _budget(rows: list, kept: int, slack: int = 0) -> int:
    return sum(_size(r) for r in rows[:kept]) + slack


CUT_PROBES: tuple[tuple[list[dict], int], ...] = (
    (_ORDERS, 10_000),  # everything fits
    (_ORDERS, _budget(_ORDERS, 3)),  # exactly three fit, to the character
    (_ORDERS, _budget(_ORDERS, 3, _size(_ORDERS[3]) - 1)),  # one character short of a fourth
    (_MIXED, _budget(_MIXED, 1, 60)),  # room for half of the second record, and for the smaller third
    (_MIXED, _budget(_MIXED, 2, 20)),  # twenty characters to spare: less than the next record
    (_ORDERS, 20),  # not even the first record fits
    ([], 100),  # nothing was found
    (_ORDERS[:1], _budget(_ORDERS, 1)),  # one record, exactly its size
)


def _cut(rows: list, limit: int) -> dict:
    kept = _fit(rows, limit)
    left = len(rows) - kept
    note = (
        None if not left else f"{left} of {len(rows)} records are not shown; narrow the search to see them."
    )
    return {"results": list(rows[:kept]), "total": len(rows), "note": note}


def _note_problem(note: Any, left: int, total: int) -> str | None:
    """Why a note on a cut result does not tell the model what is missing, or None when it does."""
    if not isinstance(note, str) or not note.strip():
        return "records were left out and nothing says so: the model would take the list for the whole of it"
    numbers = {int(n.replace(",", "")) for n in re.findall(r"\d[\d,]*", note)}
    if left not in numbers:
        if total - left in numbers and total - left != left:
            return (
                "the note counts the records shown; say how many are not shown, the ones the model is missing"
            )
        return "say in the note how many records are not shown, as a number"
    held = placeholder_problem(note, "the note")
    return f"{held}: the model reads it to know what is missing" if held else None


def _judge_cut(results: Any) -> object:
    for (rows, limit), got in zip(CUT_PROBES, results):
        call = f"cut(<{len(rows)} records>, limit={limit})"
        if isinstance(got, dict) and set(got) == {"error"}:
            return failed(f"{call} raised {got.get('error')}")
        if type(got) is not dict:
            return failed(f"{call} returned {type(got).__name__}; return a dict with results, total and note")
        missing = [key for key in ("results", "total", "note") if key not in got]
        if missing:
            return failed(f"{call} has no {', '.join(missing)}; the result needs results, total and note")
        kept = got["results"]
        if not isinstance(kept, list):
            return failed(f"{call}: results is a list of the records kept, whole, not {type(kept).__name__}")
        if any(record not in rows for record in kept):
            return failed(
                f"{call}: a record in results is not one of the rows as given; keep each whole and "
                "unchanged, since half a record reads to the model as a whole one"
            )
        # Judged by properties (it ships in the student edition): a prefix, within the limit, and no room left.
        if kept != rows[: len(kept)]:
            return failed(
                f"{call}: keep the records from the start, in order, and stop at the first that does "
                "not fit; a later one that would fit leaves a hole nothing points to"
            )
        used = sum(_size(record) for record in kept)
        if used > limit:
            return failed(f"{call}: the records kept take more than {limit} characters together")
        if len(kept) < len(rows) and used + _size(rows[len(kept)]) <= limit:
            return failed(f"{call}: more records fit in {limit} characters; keep every one that fits")
        if whole_number(got["total"]) != len(rows) or type(got["total"]) is bool:
            return failed(f"{call}: total is how many records there are in all, kept or not")
        left = len(rows) - len(kept)
        if not left:
            if got["note"] is not None:
                return failed(
                    f"{call}: nothing was left out, so the note is None; a note on a whole result "
                    "sends the model looking for records that do not exist"
                )
            continue
        problem = _note_problem(got["note"], left, len(rows))
        if problem:
            return failed(f"{call}: {problem}")
    return passed("whole records up to the limit, the total, and a note only when something is left out.")


def _cut_text(rows, limit):  # the cut above: characters, wherever the count runs out
    text = json.dumps(rows)
    return {
        "results": text[:limit],
        "total": len(rows),
        "note": None if len(text) <= limit else "more not shown",
    }


def _silent(rows, limit):
    return {**_cut(rows, limit), "note": None}


def _always_noted(rows, limit):
    cut = _cut(rows, limit)
    return {**cut, "note": f"{len(rows) - len(cut['results'])} of {len(rows)} records are not shown."}


def _vague(rows, limit):
    cut = _cut(rows, limit)
    return {**cut, "note": cut["note"] and "Some records were left out of this result."}


def _counts_the_kept(rows, limit):
    cut = _cut(rows, limit)
    return {**cut, "note": cut["note"] and f"Showing {len(cut['results'])} records of a longer list."}


def _fills_the_holes(rows, limit):
    kept, used = [], 0
    for record in rows:  # skips a record that does not fit and takes a smaller one after it
        if used + _size(record) <= limit:
            kept.append(record)
            used += _size(record)
    left = len(rows) - len(kept)
    return {"results": kept, "total": len(rows), "note": f"{left} records are not shown." if left else None}


def _one_too_many(rows, limit):
    kept = min(len(rows), _fit(rows, limit) + 1)
    left = len(rows) - kept
    return {
        "results": list(rows[:kept]),
        "total": len(rows),
        "note": f"{left} records are not shown." if left else None,
    }


def _total_of_the_page(rows, limit):
    cut = _cut(rows, limit)
    return {**cut, "total": len(cut["results"])}


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
        "ex16-keep-fields",
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
        "ex16-cut-records",
        NOTEBOOK,
        "cut",
        2,
        _judge_cut,
        kind="function",
        probes=CUT_PROBES,
        prompt="Write cut(rows, limit): whole records up to the limit, the total, and a note on what was left out.",
        wrong_answers=(
            WrongAnswer(_cut_text, "list of the records kept"),
            WrongAnswer(_silent, "nothing says so"),
            WrongAnswer(_always_noted, "the note is None"),
            WrongAnswer(_vague, "as a number"),
            WrongAnswer(_counts_the_kept, "counts the records shown"),
            WrongAnswer(_fills_the_holes, "leaves a hole"),
            WrongAnswer(_one_too_many, "more than"),
            WrongAnswer(_total_of_the_page, "in all"),
        ),
    ),
    Exercise(
        "ex16-page",
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
# Grading(_keep_fields, _gen_keep, same=_same_fields), Grading(_cut, _gen_cut, same=_same_cut) and
# Grading(_page, _gen_page, same=_same_page).


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


def _gen_cut(rng) -> tuple:
    pool = _ORDERS + _MIXED
    rows = [dict(rng.choice(pool), position=n) for n in range(rng.randint(0, 12))]
    sizes = [_size(r) for r in rows]
    edge = sum(sizes[: rng.randint(0, len(rows))])  # the records up to one of them, to the character
    limit = rng.choice([rng.randint(0, sum(sizes) + 50), edge, max(edge - 1, 0)])
    return (rows, limit)


def _same_cut(got: Any, want: dict) -> bool:
    """The note is in the learner's words: compare the records and the total, and what the note says."""
    if type(got) is not dict or got.get("results") != want["results"] or type(got.get("total")) is bool:
        return False
    if whole_number(got.get("total")) != want["total"] or "note" not in got:
        return False
    left = want["total"] - len(want["results"])
    return got["note"] is None if not left else _note_problem(got["note"], left, want["total"]) is None


def _gen_page(rng) -> tuple:
    rows = [{"sales_order": str(4700 + n)} for n in range(rng.randint(0, 12))]
    return (rows, rng.randint(0, len(rows)), rng.randint(1, 6))


def _same_page(got: Any, want: dict) -> bool:
    if type(got) is not dict or got.get("results") != want["results"]:
        return False
    nxt = got.get("next_cursor")
    nxt = int(nxt) if isinstance(nxt, str) and nxt.isdigit() else whole_number(nxt)
    return whole_number(got.get("total")) == want["total"] and nxt == want["next_cursor"]
