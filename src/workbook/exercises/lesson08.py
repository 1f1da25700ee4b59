"""Notebook 08: code mode, the catalog a program is told and descriptions that name the result fields."""

from __future__ import annotations

import re
from typing import Any

from tooldesign.wording import count
from workbook.exercises.kinds import Exercise, WrongAnswer
from workbook.verdicts import failed, passed, placeholder_problem

NOTEBOOK = "08_code_mode_catalog"
LIST, READINGS, LIMITS = "CC_LIST_SHIPMENTS", "CC_GET_READINGS", "CC_GET_LIMITS"
CODES = (LIST, READINGS, LIMITS)


# ---------- exercise 1: descriptions that name every result field ----------


def _field_parents(value: Any, parent: str = "") -> dict[str, str]:
    """Every field name in a result, mapped to the field it sits inside ('' at the top)."""
    found: dict[str, str] = {}
    if isinstance(value, dict):
        for key, item in value.items():
            found.setdefault(key, parent)
            for name, where in _field_parents(item, key).items():
                found.setdefault(name, where)
    elif isinstance(value, list):
        for item in value:
            for name, where in _field_parents(item, parent).items():
                found.setdefault(name, where)
    return found


def _names(field: str, text: str) -> bool:
    return re.search(rf"(?<![A-Za-z0-9_]){re.escape(field)}(?![A-Za-z0-9_])", text) is not None


def _judge_descriptions(answer: Any) -> object:
    from tooldesign.codemode import coldchain_tools as cc  # the tools' real results are the answer key

    if type(answer) is not dict:
        return failed("corrected should be a dict: tool code -> description")
    missing = [code for code in CODES if code not in answer]
    if missing:
        return failed(
            f"corrected has no description for {', '.join(missing)}; write one for each of the three tools"
        )
    fields = {code: _field_parents(cc.HANDLERS[code](cc.sample_arguments(code))) for code in CODES}
    for code in CODES:
        text = answer[code]
        if type(text) is not str or not text.strip():
            return failed(f"the description of {code} should be a non-empty string")
        if len(text) > 4000:
            return failed(
                f"the description of {code} has {len(text):,} characters; the registry holds at most "
                "4,000. Name the fields and stop."
            )
        if text.strip() == cc.DRAFT[code]:
            return failed(f"{code} still has its draft description, which says nothing about the result")
        own = set(fields[code])
        words = " ".join(w for w in re.split(r"[^A-Za-z0-9_]+", text) if w not in own)
        problem = placeholder_problem(words, f"the description of {code}, besides its field names")
        if problem:
            return failed(f"{problem}: say what the tool does and what it returns")
        parents = fields[code]
        unnamed = [name for name in parents if not _names(name, text)]
        if unnamed:
            where = parents[unnamed[0]]
            place = f"inside each item of {where}" if where else "at the top level of the result"
            return failed(
                f"{code}: the result has {count(len(unnamed), 'field')} your description never names, one of "
                f"them {place}. Call the tool, look at the keys, and write each name exactly."
            )
    for code in CODES:
        # Fields only the other tools return: a description that names most of them is one bag of names
        # for every tool, not this tool's description.
        foreign = {name for other in CODES if other != code for name in fields[other]} - set(fields[code])
        named = sorted(name for name in foreign if _names(name, answer[code]))
        if foreign and len(named) * 2 > len(foreign):
            return failed(
                f"the description of {code} names fields the other tools return ({', '.join(named[:3])}, ...); "
                f"name the fields {code} itself returns, so a program knows what this tool gives back"
            )
    texts = [" ".join(answer[code].lower().split()) for code in CODES]
    if len(set(texts)) < len(texts):
        return failed("two tools have the same description; each one says what its own tool does and returns")
    if LIST not in answer[READINGS]:
        return failed(
            f"{READINGS}: say what shipment_id is, not just its name: the numeric id that "
            f"{LIST} returns, not the SHP- number"
        )
    return passed("every field the three tools return is named, and shipment_id says where it comes from.")


# A short set that passes, and edits of it that make the plausible mistakes, for the tests.
_SHORT = {
    LIST: "Lists shipments; product_class FROZEN or CHILLED filters. Returns [{ shipment_id, shipment_number, "
    "carrier, lane, product_class, departure }].",
    READINGS: "Readings of one shipment. shipment_id is the numeric id from CC_LIST_SHIPMENTS, not the SHP- "
    "number. Returns { shipment_id, readings: [{ ts, temp_c }] }.",
    LIMITS: "Claim rule per class. Returns [{ product_class, max_temp_c, max_minutes_above, sample_minutes, "
    "claim_per_hour_eur }].",
}


# Only the field names of each tool, and all of them in one bag (with CC_LIST_SHIPMENTS for shipment_id).
_BARE = {
    LIST: "shipment_id shipment_number carrier lane product_class departure",
    READINGS: "shipment_id CC_LIST_SHIPMENTS readings ts temp_c",
    LIMITS: "product_class max_temp_c max_minutes_above sample_minutes claim_per_hour_eur",
}
_BAG = "Returns " + ", ".join(_BARE.values()) + " for shipments, their readings and the claim rule."


def _short_with(code: str, old: str, new: str) -> dict:
    return {**_SHORT, code: _SHORT[code].replace(old, new)}


EXERCISES = [
    Exercise(
        "ex08-descriptions",
        NOTEBOOK,
        "corrected",
        3,
        _judge_descriptions,
        prompt="Write a description for each cold-chain tool that names every field its result holds.",
        wrong_answers=(
            WrongAnswer(
                {
                    LIST: "List the refrigerated shipments, optionally only those of one product class.",
                    READINGS: "Get the temperature readings recorded for a shipment.",
                    LIMITS: "Get the temperature limits and claim rules.",
                },
                "draft",
            ),
            WrongAnswer(
                _short_with(READINGS, "{ ts, temp_c }", "{ ts, temperature }"), "inside each item of readings"
            ),
            WrongAnswer(_short_with(LIMITS, "max_temp_c", "the limit"), "at the top level"),
            WrongAnswer(_short_with(READINGS, "CC_LIST_SHIPMENTS", "the list"), "SHP- number"),
            WrongAnswer(_short_with(LIST, "Lists shipments", "x" * 4000), "4,000"),
            WrongAnswer({LIST: _SHORT[LIST], READINGS: _SHORT[READINGS]}, "no description for"),
            # Degenerate: one bag of every field name for all three tools, a bare list, placeholders.
            WrongAnswer(dict.fromkeys(CODES, _BAG), "names fields the other tools return"),
            WrongAnswer(
                dict.fromkeys(CODES, " ".join(_SHORT.values())), "names fields the other tools return"
            ),
            WrongAnswer({**_SHORT, LIST: _BARE[LIST]}, "in words"),
            WrongAnswer({code: f"TODO lorem ipsum. {_BARE[code]}" for code in CODES}, "placeholder words"),
            WrongAnswer({code: f"xxx yyy zzz: {_BARE[code]}" for code in CODES}, "placeholder words"),
            WrongAnswer({**_SHORT, LIMITS: _SHORT[LIMITS] + " " + _BARE[LIST]}, "names fields the other"),
        ),
    ),
]
