"""Notebook 06: the selection test. Two requests of your own, written before any score is seen and
judged fair (short, not one of the course's cases, not copied from a description). The request checks
are shared with notebook 07, whose price tool comes with two requests of its own."""

from __future__ import annotations

import re
from typing import Any

from workbook.exercises.kinds import Exercise, WrongAnswer
from workbook.verdicts import failed, passed, placeholder_problem, readable

NOTEBOOK = "06_selection_test"
MAX_REQUEST_WORDS = 25


def _designed_names() -> tuple[str, ...]:
    from tooldesign.tools.designed import DESIGNED_NAMES

    return DESIGNED_NAMES


def _known_requests() -> set[str]:
    from tooldesign.selection.cases import case_sets

    return {" ".join(c.request.lower().split()) for s in case_sets() for c in s.cases}


def _content(text: str) -> list[str]:
    from tooldesign.selection import words

    return words(text)


def _copied_from_a_description(request: str, descriptions: list[str]) -> bool:
    """Six or more words, nearly all of them taken from one sentence of one description."""
    asked = set(_content(request))
    if len(asked) < 6:
        return False
    for description in descriptions:
        for sentence in re.split(r"(?<=[.!?])\s+", description):
            if len(asked & set(_content(sentence))) >= 0.8 * len(asked):
                return True
    return False


def _request_problem(request: Any, descriptions: list[str]) -> str | None:
    if type(request) is not str or not request.strip():
        return "each request is a string: one sentence a clerk would type"
    if len(request.split()) > MAX_REQUEST_WORDS:
        return f"{readable(request, 50)} has {len(request.split())} words; a clerk asks in one short sentence"
    if " ".join(request.lower().split()) in _known_requests():
        return f"{request!r} is already one of the course's cases; write one of your own"
    if _copied_from_a_description(request, descriptions):
        return (
            f"{request!r} repeats a description's own words; a test written from the description can only "
            "pass. Write it the way a clerk at the desk would ask"
        )
    return None


# ---------- the exercise: two requests of your own, before any score ----------


def _judge_own_requests(answer: Any) -> object:
    from tooldesign.tools.designed import DESCRIPTIONS

    if type(answer) is not dict or len(answer) != 2:
        return failed(
            "own_requests should be a dict of two entries: request -> the tool it should start with "
            "(or None when no tool should serve it)"
        )
    names = _designed_names()
    requests = list(answer)
    if " ".join(requests[0].lower().split()) == " ".join(str(requests[1]).lower().split()):
        return failed("write two different requests, the way two clerks would ask")
    for request, tool in answer.items():
        problem = _request_problem(request, list(DESCRIPTIONS.values())) or placeholder_problem(
            request, f"the request {readable(request, 50)}"
        )
        if problem:
            return failed(problem)
        if tool is not None and tool not in names:
            return failed(f"{tool!r} is not a designed tool; choose one of {', '.join(names)}, or None")
    if all(tool is None for tool in answer.values()):
        return failed(
            "both requests say no tool should serve them; at least one should be a request a clerk needs "
            "a tool for, so the test can show which one gets picked"
        )
    return passed(
        "two requests written before any score: they are your own held-out cases, scored further down. "
        "Whatever they score, do not reword a description towards them."
    )


EXERCISES = [
    Exercise(
        "ex06-own-requests",
        NOTEBOOK,
        "own_requests",
        1,
        _judge_own_requests,
        prompt="Before any score: two requests of your own for the designed set, each with the tool it "
        "should start with (or None).",
        wrong_answers=(
            WrongAnswer(
                {
                    "Why is sales order 4711 on hold?": "sales_order_get_block_summary",
                    "Where is my parcel?": None,
                },
                "already one of the course's cases",
            ),
            WrongAnswer(
                {
                    "Lists the address fields missing from one customer's master data record": "customer_get_address_gaps",
                    "Where is my parcel?": None,
                },
                "repeats a description's own words",
            ),
            WrongAnswer(
                {"Has 10051 paid the May invoice yet?": "get_credit", "Where is my parcel?": None},
                "not a designed tool",
            ),
            WrongAnswer({"Where is my parcel?": None}, "two entries"),
            WrongAnswer(["Where is my parcel?", "Who approves 4711?"], "two entries"),
            WrongAnswer({"TODO": "sales_order_search", "request two": None}, "in words"),
            WrongAnswer({"x": "sales_order_search", "y": "customer_get_credit_exposure"}, "in words"),
            WrongAnswer(
                {"Lorem ipsum dolor?": "sales_order_search", "Foo bar baz qux?": None}, "placeholder words"
            ),
            WrongAnswer(
                {"xxxx yyyy zzzz": "sales_order_search", "asdf asdf asdf": None}, "placeholder words"
            ),
            WrongAnswer({"1234 5678?": "sales_order_search", "??? !!!": None}, "in words"),
            WrongAnswer(
                {"Where is my parcel?": None, "Can you book me a flight to Lyon?": None}, "at least one"
            ),
        ),
    ),
]
