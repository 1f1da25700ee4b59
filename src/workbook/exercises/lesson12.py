"""Notebook 12: results across the loop. Tokens a loop re-sends, truncation with a note, a cursor page."""

from __future__ import annotations

import json
from typing import Any

from tooldesign.tokens import CHARS_PER_TOKEN, chars_to_tokens
from workbook.checks import failed, passed, placeholder_problem, probe_error, whole_number
from workbook.exercises import Exercise, WrongAnswer

NOTEBOOK = "12_results_across_the_loop"


# ---------- exercise 1: what a loop sends in total ----------

# Character counts are multiples of 4, so "divide the total by 4" and "divide each call" agree.
CARRIED_PROBES: tuple[tuple[int, list[int]], ...] = (
    (1000, [400, 400, 400]),
    (1432, [6048, 1400, 120, 200]),
    (4488, [304, 324, 360, 532]),
    (100, []),
    (0, [4]),
    (2000, [8000]),
)


def _carried(fixed: int, results: list[int]) -> int:
    sent = [fixed + sum(results[:k]) for k in range(len(results) + 1)]
    return chars_to_tokens(sum(sent))


def _judge_carried(results: Any) -> object:
    for (fixed, sizes), got in zip(CARRIED_PROBES, results):
        call = f"carried_tokens({fixed}, {sizes})"
        if isinstance(got, dict):
            return failed(f"{call} raised {got.get('error')}")
        got = whole_number(got)
        if type(got) is not int:
            return failed(f"{call} returned {got!r}; return a whole number of tokens (characters // 4)")
        want = _carried(fixed, sizes)
        if got == want:
            continue
        calls = len(sizes) + 1
        if got == chars_to_tokens(fixed * calls + sum(sizes)) and sizes and len(sizes) > 1:
            return failed(f"{call} counts each result once; a result is re-sent on every later model call")
        if got == chars_to_tokens(fixed + sum(sizes)):
            return failed(
                f"{call}: the fixed part (system prompt, definitions, request) is sent on every call, "
                "and each result again on every later one"
            )
        if got == want - chars_to_tokens(fixed):
            return failed(f"{call} leaves out the first model call, the one that sends the request alone")
        if got == want * CHARS_PER_TOKEN:
            return failed(f"{call} returned characters; divide by 4 for the token estimate")
        return failed(
            f"{call} returned {got}, expected {want}: call k sends the fixed part plus results 1..k-1"
        )
    return passed("every model call re-sends the fixed part and everything before it; the total grows fast.")


def _once_each(fixed, sizes):
    return chars_to_tokens(fixed * (len(sizes) + 1) + sum(sizes))


def _fixed_once(fixed, sizes):
    return chars_to_tokens(fixed + sum(sizes))


def _no_first_call(fixed, sizes):
    return chars_to_tokens(sum(fixed + sum(sizes[:k]) for k in range(1, len(sizes) + 1)))


def _characters(fixed, sizes):
    return sum(fixed + sum(sizes[:k]) for k in range(len(sizes) + 1))


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
        "ex12-carried-tokens",
        NOTEBOOK,
        "carried_tokens",
        2,
        _judge_carried,
        kind="function",
        probes=CARRIED_PROBES,
        prompt="Write carried_tokens(fixed_chars, result_chars): the tokens a loop sends over a whole task.",
        wrong_answers=(
            WrongAnswer(_once_each, "re-sent on every later"),
            WrongAnswer(_fixed_once, "sent on every call"),
            WrongAnswer(_no_first_call, "first model call"),
            WrongAnswer(_characters, "divide by 4"),
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
# Grading(_carried, _gen_carried), Grading(_truncated, _gen_truncate, same=_same_truncation,
# stubs=("tooldesign.loop.shrink:truncate_text",)) and Grading(_page, _gen_page, same=_same_page).


def _gen_carried(rng) -> tuple:
    return (4 * rng.randint(0, 2000), [4 * rng.randint(0, 3000) for _ in range(rng.randint(0, 8))])


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
