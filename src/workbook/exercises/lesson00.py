"""Notebook 00: a warm-up that shows how exercises and checks behave."""

from __future__ import annotations

from tooldesign.tokens import CHARS_PER_TOKEN, estimate_tokens
from workbook.checks import failed, passed, probe_error
from workbook.exercises import Exercise, WrongAnswer

DEFINITIONS = '{"name": "sales_order_get", "description": "Get one sales order by its number."}'
TOKEN_PROBES: tuple[tuple[str, list[str]], ...] = (
    ("Get an order.", []),
    ("", []),
    ("", ["Find the address fields that are missing in a customer's master data."]),
    (DEFINITIONS, ["Order 4711: delivery block 01.", "Customer 17100001 has no street."]),
    (
        "Draft a release request for a person to approve. It changes nothing itself. " * 3,
        ["ok", "ok", "ok", "yes"],
    ),
)


def _want(definitions_text: str, result_texts: list[str]) -> int:
    return estimate_tokens(definitions_text) + sum(estimate_tokens(r) for r in result_texts)


def _judge_tokens(results) -> object:
    for (definitions, texts), got in zip(TOKEN_PROBES, results):
        call = (
            f"request_tokens({definitions[:24]!r}{'...' if len(definitions) > 24 else ''}, "
            f"<{len(texts)} result{'' if len(texts) == 1 else 's'}>)"
        )
        want = _want(definitions, texts)
        if (raised := probe_error(got)) is not None:
            return failed(f"{call} raised {raised}; a request may carry no results at all")
        if type(got) is float:
            return failed(f"{call} returned {got}: a token estimate is a whole number; use // instead of /")
        if type(got) is not int:
            return failed(f"{call} returned a {type(got).__name__}; return a whole number (int)")
        if got == want:
            continue
        if got == len(definitions) + sum(map(len, texts)):
            return failed(
                f"{call} returned {got}, the number of characters; estimate each piece as characters // 4"
            )
        if got == len((definitions + " " + " ".join(texts)).split()):
            return failed(f"{call} returned {got}, the number of words; count characters with len(text)")
        if texts and got == estimate_tokens(definitions):
            return failed(
                f"{call} returned {got}, the definitions only; each result is sent too, so add them"
            )
        if definitions and got == sum(map(estimate_tokens, texts)):
            return failed(
                f"{call} returned {got}, the results only; the definitions ride along on every request"
            )
        if got == estimate_tokens(definitions + "".join(texts)):
            return failed(
                f"{call} returned {got}, expected {want}: estimate each piece on its own "
                "(characters // 4), then add the estimates"
            )
        return failed(
            f"{call} returned {got}, expected {want}: characters // 4 for the definitions and for "
            "each result, added up"
        )
    return passed(
        "definitions plus every result, each at characters // 4: right for requests it had not seen "
        "(an estimate, not a tokenizer)."
    )


EXERCISES = [
    Exercise(
        "ex00-tokens",
        "00_start_here",
        "request_tokens",
        1,
        _judge_tokens,
        kind="function",
        probes=TOKEN_PROBES,
        prompt="Write request_tokens(definitions_text, result_texts): characters // 4 for each piece, added up.",
        wrong_answers=(
            WrongAnswer(lambda d, rs: len(d) + sum(map(len, rs)), "number of characters"),
            WrongAnswer(
                lambda d, rs: len(d) / CHARS_PER_TOKEN + sum(len(r) / CHARS_PER_TOKEN for r in rs),
                "use // instead of /",
            ),
            WrongAnswer(lambda d, rs: estimate_tokens(d), "add them"),
            WrongAnswer(lambda d, rs: sum(estimate_tokens(r) for r in rs), "ride along"),
            WrongAnswer(lambda d, rs: estimate_tokens(d + "".join(rs)), "each piece on its own"),
        ),
    ),
]
