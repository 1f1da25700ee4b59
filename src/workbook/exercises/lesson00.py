"""Notebook 00: a warm-up that shows how exercises and checks behave."""
from __future__ import annotations

from workbook.checks import failed, passed
from workbook.exercises import Exercise, WrongAnswer

TOKEN_PROBES = (
    ("Get an order.",),
    ("",),
    ("Find the address fields that are missing in a customer's master data.",),
    ("Draft a release request for a person to approve. It changes nothing itself. " * 3,),
)


def _judge_tokens(results) -> object:
    for (text,), got in zip(TOKEN_PROBES, results):
        call = f"estimate_tokens({text[:30]!r}{'...' if len(text) > 30 else ''})"
        want = len(text) // 4
        if isinstance(got, dict) and "error" in got:
            return failed(f"{call} raised {got['error']}")
        if type(got) is float:
            return failed(f"{call} returned {got}: a token estimate is a whole number; use // instead of /")
        if type(got) is not int:
            return failed(f"{call} returned a {type(got).__name__}; return a whole number (int)")
        if got == len(text) and got != want:
            return failed(f"{call} returned {got}, the number of characters; the estimate divides it by 4")
        if got == len(text.split()) and got != want:
            return failed(f"{call} returned {got}, the number of words; count characters with len(text)")
        if got != want:
            return failed(f"{call} returned {got}, expected {want}: len(text) // 4")
    return passed("characters // 4, right for texts it had not seen (an estimate, not a tokenizer).")


EXERCISES = [
    Exercise("ex00-tokens", "00_start_here", "estimate_tokens", 1, _judge_tokens, kind="function",
             probes=TOKEN_PROBES, prompt="Write estimate_tokens(text): characters // 4.",
             wrong_answers=(WrongAnswer(lambda text: len(text), "number of characters"),
                            WrongAnswer(lambda text: len(text) / 4, "use // instead of /"),
                            WrongAnswer(lambda text: len(text.split()), "number of words"))),
]
