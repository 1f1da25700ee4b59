"""Notebook 12: writes, errors and tool_choice. The policy check in front of a draft."""

from __future__ import annotations

import re
from typing import Any

from workbook.exercises.kinds import Exercise, WrongAnswer
from workbook.verdicts import failed, passed, placeholder_problem, probe_error

NOTEBOOK = "12_writes_errors_and_tool_choice"


# ---------- exercise 1: the policy check in front of a draft ----------

# Every probe passes the release schema: the dispatcher asks the policy check about nothing else.
GOOD = "Exposure of 52,500 EUR sits 5% above the 50,000 EUR limit; always paid on time."
APPROVAL_PROBES = (
    (
        {
            "sales_order": "4725",
            "justification": "The customer says the price dispute is settled, please release.",
        },
    ),
    ({"sales_order": "4711", "justification": GOOD},),
    (
        {
            "sales_order": "4711",
            "justification": "Exposure 50,700 EUR is just over the 50,000 EUR limit; always paid on time.",
        },
    ),
    ({"sales_order": "4723", "justification": "Postal code fixed; order value 640 EUR, no credit issue."},),
    (
        {
            "sales_order": "4723",
            "justification": "Value € 640, exposure € 4,740, the address is complete now.",
        },
    ),
    (
        {
            "sales_order": "4725",
            "justification": "Net 3,900 EUR after the agreed discount; exposure 12,000 EUR, far "
            "below the 80,000 EUR limit.",
        },
    ),
    (
        {
            "sales_order": "4711",
            "justification": "Exposure: 52500 EUR, 5% over the 50,000 EUR limit, paid on time.",
        },
    ),
)
# What the judge wants: "deny", "allow", or the exposure (EUR) the corrected justification must state.
APPROVAL_EXPECTED: tuple[str | float, ...] = ("deny", "allow", 52500.0, "allow", "allow", 15900.0, "allow")
_NUMBER = re.compile(r"\d[\d,.]*\d|\d")


def _words_around_figures(text: str) -> str:
    """The justification with every number masked: what an edit of one figure must leave alone."""
    return " ".join(_NUMBER.sub("#", text).split())


def _judge_edit(call: str, args: dict, updated: Any, want: float) -> str | None:
    """Why an allow-with-changes answer is wrong, or None if it is right."""
    from tooldesign.dispatch.gate import stated_exposure
    from tooldesign.dispatch.validate import problems
    from tooldesign.tools import tool_set

    figure = f"{want:,.0f} EUR"
    if type(updated) is not dict:
        return (
            f"{call}: the stated exposure is not what the credit check reports ({figure}); allow it with "
            "updated_input, the whole input with that figure corrected"
        )
    if set(updated) != set(args):
        return f"{call}: updated_input replaces the whole input: keep sales_order and every field, change the figure"
    refused = problems(tool_set("designed")["release_request_create"], updated)
    if refused:
        return f"{call}: the dispatcher would refuse your edit before it runs ({refused[0].sentence()})"
    if updated["sales_order"] != args["sales_order"]:
        return f"{call}: the order is right; keep sales_order {args['sales_order']!r} and correct only the figure"
    why = updated["justification"]
    stated = stated_exposure(why) if type(why) is str else None
    if stated is None or stated.value != want:
        return f"{call}: the corrected justification should state the exposure as {figure}, the credit check's figure"
    if _words_around_figures(why) != _words_around_figures(args["justification"]):
        return f"{call}: change only the exposure figure and keep the rest of the justification as it was"
    return None


def _judge_approval(results: Any) -> object:
    for (args,), got, want in zip(APPROVAL_PROBES, results, APPROVAL_EXPECTED):
        call = f"release_check({args})"
        if (raised := probe_error(got)) is not None:
            return failed(f"{call} raised {raised}")
        if type(got) is not dict or got.get("behavior") not in ("allow", "deny"):
            return failed(f"{call} returned {got!r}; return a dict with behavior 'allow' or 'deny'")
        if want == "deny":
            if got["behavior"] != "deny":
                return failed(f"{call} was allowed, but its justification has no figure in EUR: deny it")
            message = got.get("message")
            if type(message) is not str or not message.strip():
                return failed(f"{call}: a denial needs a message the model reads, or it is left guessing")
            if "EUR" not in message and "€" not in message:
                return failed(
                    f"{call}: say in the message what the credit desk needs (the figures in EUR), so the "
                    "model can fix the request"
                )
            held = placeholder_problem(message, "the denial's message", least_words=4)
            if held:
                return failed(f"{call}: {held}; the model reads it to fix the request")
            continue
        if got["behavior"] != "allow":
            return failed(f"{call} was denied, but it names a figure in EUR: allow it")
        updated = got.get("updated_input")
        if want == "allow":
            if updated is not None:
                return failed(
                    f"{call} needs no change (any exposure it states is the credit check's, compared as a "
                    "number, not as text): allow it as proposed, without updated_input"
                )
            continue
        wrong = _judge_edit(call, args, updated, float(want))  # neither "deny" nor "allow": a figure
        if wrong:
            return failed(wrong)
    return passed("the policy check allows, corrects the figure and denies exactly as the rule says.")


def _figure_fix(arguments: dict, checked: float | None) -> str:
    """A helper of the wrong answers below: the justification with the stated exposure replaced."""
    from tooldesign.dispatch.gate import stated_exposure

    why = arguments["justification"]
    stated = stated_exposure(why)
    # The wrong answers call this only for a known order whose justification states a figure.
    assert stated is not None and checked is not None
    return why[: stated.start] + f"{checked:,.0f}" + why[stated.end :]


def _has_figure(text):
    return re.search(r"\d\s*(EUR|€)|(EUR|€)\s*\d", text)


def _allow_everything(arguments):
    return {"behavior": "allow"}


def _silent_denial(arguments):
    if not _has_figure(arguments["justification"]):
        return {"behavior": "deny"}
    return {"behavior": "allow"}


def _right_but_denies_with(message):
    """The rule done right, except that a denial says only ``message``."""

    def approve(arguments):
        from tooldesign.dispatch.gate import checked_exposure, stated_exposure

        if not _has_figure(arguments["justification"]):
            return {"behavior": "deny", "message": message}
        checked = checked_exposure(arguments["sales_order"])
        stated = stated_exposure(arguments["justification"])
        if stated and stated.value != checked:
            return {
                "behavior": "allow",
                "updated_input": {**arguments, "justification": _figure_fix(arguments, checked)},
            }
        return {"behavior": "allow"}

    return approve


def _no_correction(arguments):
    if not _has_figure(arguments["justification"]):
        return {"behavior": "deny", "message": "State the exposure and limit in EUR."}
    return {"behavior": "allow"}


def _drops_sales_order(arguments):
    from tooldesign.dispatch.gate import checked_exposure, stated_exposure

    if not _has_figure(arguments["justification"]):
        return {"behavior": "deny", "message": "State the exposure and limit in EUR."}
    checked = checked_exposure(arguments["sales_order"])
    stated = stated_exposure(arguments["justification"])
    if stated and stated.value != checked:
        return {"behavior": "allow", "updated_input": {"justification": _figure_fix(arguments, checked)}}
    return {"behavior": "allow"}


def _compares_text(arguments):
    """Looks for the figure as the credit desk writes it, so "52500 EUR" counts as wrong."""
    from tooldesign.dispatch.gate import checked_exposure, stated_exposure

    if not _has_figure(arguments["justification"]):
        return {"behavior": "deny", "message": "State the exposure and limit in EUR."}
    checked = checked_exposure(arguments["sales_order"])
    stated = stated_exposure(arguments["justification"])
    if stated and stated.text != f"{checked:,.0f}":
        return {
            "behavior": "allow",
            "updated_input": {**arguments, "justification": _figure_fix(arguments, checked)},
        }
    return {"behavior": "allow"}


def _appends_a_note(arguments):
    """Adds the right figure after the wrong one instead of correcting it."""
    from tooldesign.dispatch.gate import checked_exposure, stated_exposure

    if not _has_figure(arguments["justification"]):
        return {"behavior": "deny", "message": "State the exposure and limit in EUR."}
    checked = checked_exposure(arguments["sales_order"])
    stated = stated_exposure(arguments["justification"])
    if stated and stated.value != checked:
        why = f"{arguments['justification']} Credit check: exposure {checked:,.0f} EUR."
        return {"behavior": "allow", "updated_input": {**arguments, "justification": why}}
    return {"behavior": "allow"}


def _rewrites_the_order(arguments):
    """Corrects the figure but writes the order number the way the paper form does: the schema refuses it."""
    from tooldesign.dispatch.gate import checked_exposure, stated_exposure

    if not _has_figure(arguments["justification"]):
        return {"behavior": "deny", "message": "State the exposure and limit in EUR."}
    checked = checked_exposure(arguments["sales_order"])
    stated = stated_exposure(arguments["justification"])
    if stated and stated.value != checked:
        return {
            "behavior": "allow",
            "updated_input": {
                "sales_order": "SO-" + arguments["sales_order"],
                "justification": _figure_fix(arguments, checked),
            },
        }
    return {"behavior": "allow"}


EXERCISES = [
    Exercise(
        "ex12-approval",
        NOTEBOOK,
        "release_check",
        3,
        _judge_approval,
        kind="function",
        probes=APPROVAL_PROBES,
        prompt="Write release_check(arguments): the policy check (code) in front of release_request_create, by the "
        "stated rule: "
        "deny without figures in EUR, correct a stated exposure the credit check contradicts, allow the "
        "rest.",
        wrong_answers=(
            WrongAnswer(_allow_everything, "deny it"),
            WrongAnswer(_silent_denial, "needs a message"),
            WrongAnswer(_right_but_denies_with("EUR"), "in words"),
            WrongAnswer(_right_but_denies_with("TODO lorem ipsum EUR"), "placeholder words"),
            WrongAnswer(_right_but_denies_with("xxx EUR yyy zzz"), "placeholder words"),
            WrongAnswer(_no_correction, "credit check reports"),
            WrongAnswer(_drops_sales_order, "whole input"),
            WrongAnswer(_compares_text, "compared as a number"),
            WrongAnswer(_appends_a_note, "state the exposure as 52,500 EUR"),
            WrongAnswer(_rewrites_the_order, "refuse your edit"),
        ),
    ),
]
