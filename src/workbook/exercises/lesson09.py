"""Notebook 09: code mode's sandbox, each tool's access decided from what it does, and how many fillers fit."""

from __future__ import annotations

from typing import Any

from tooldesign.wording import count
from workbook.exercises.kinds import Exercise, LazyProbes, WrongAnswer
from workbook.verdicts import failed, passed, probe_error, whole_number

NOTEBOOK = "09_code_mode_access"
LIST, READINGS, LIMITS = "CC_LIST_SHIPMENTS", "CC_GET_READINGS", "CC_GET_LIMITS"
CODES = (LIST, READINGS, LIMITS)


# ---------- exercise 1: access values decided from what a tool does, stated explicitly ----------

FILE_CLAIM = "CC_FILE_CLAIM"
DEPLOYED = (LIST, READINGS, LIMITS, FILE_CLAIM)
ACCESS = ("direct", "code", "both")

# What earlier deployments may have left in a registry before yours runs: (story, access by code).
PRIOR_STATES = (
    ("a new, empty registry", None),
    ("a registry where an earlier script set CC_GET_LIMITS to 'code'", {LIMITS: "code"}),
    ("a registry where an earlier script set every CC_ tool to 'direct'", dict.fromkeys(DEPLOYED, "direct")),
    ("a registry where an earlier script set the two bulk tools to 'both'", {LIST: "both", READINGS: "both"}),
    ("a registry where someone once made CC_FILE_CLAIM callable by programs ('both')", {FILE_CLAIM: "both"}),
)


def _tool(code: str, writes: bool, irreversible: bool, result_chars: int, person_asks: bool) -> dict:
    return {
        "name": code,
        "writes": writes,
        "irreversible": irreversible,
        "result_chars": result_chars,
        "person_asks": person_asks,
    }


def _access_probes() -> tuple[tuple[dict], ...]:
    from tooldesign.codemode import coldchain_tools as cc

    facts = cc.deployment_facts()
    # the lesson's four tools first (the check deploys them), then tools the lesson never shows: a write
    # that can be undone, a write with a bulk result a person asks about, a bulk read, a small read
    others = (
        _tool("CC_HOLD_SHIPMENT", True, False, 58, True),
        _tool("CC_REPRICE_ALL_LANES", True, False, 18_400, True),
        _tool("CC_GET_LANE_HISTORY", False, False, 31_900, False),
        _tool("CC_GET_CARRIER", False, False, 186, True),
    )
    return tuple((facts[code],) for code in DEPLOYED) + tuple((tool,) for tool in others)


ACCESS_PROBES = LazyProbes(_access_probes)


def _kind(tool: dict) -> str:
    """Where the lesson's reasons put a probe: a write, bulk data nobody reads, or a small result."""
    if tool["writes"]:
        return "write"
    return "small" if tool["person_asks"] else "bulk"


def _why(tool: dict) -> str:
    size = f"{tool['result_chars']:,} characters"
    return {
        "write": "it writes: a program may do whatever its tools do, as often as its budget allows"
        + ("" if tool["irreversible"] else ", and that a write can be undone brings no person back"),
        "bulk": f"its result is bulk data ({size}) no person asks to read",
        "small": f"its result is small ({size}) and a person may well ask about it; a program may need it too",
    }[_kind(tool)]


_RIGHT = {"write": "direct", "bulk": "code", "small": "both"}
_ADVICE = {
    "bulk": {
        "both": "the model could still pull its data into the context",
        "direct": "a program could not call it, and the model would carry its data",
    },
    "small": {
        "code": "the model could no longer answer a question about it without writing a program",
        "direct": "a program that needs it could not call it",
    },
    "write": {
        "code": "a program could call it in a loop, with no person to approve each call",
        "both": "a program could call it in a loop, with no person to approve each call",
    },
}


def verification_rows_after(deployment_access: dict, prior: dict | None) -> list[list]:
    """Deploy with ``deployment_access`` on a registry in state ``prior``; return the verification rows."""
    from tooldesign.codemode import coldchain_tools as cc
    from tooldesign.codemode.registry import Registry

    with Registry() as registry:
        if prior is not None:
            cc.register_deployment(registry, prior, cc.DRAFT)
        cc.register_deployment(registry, deployment_access)
        return [list(row) for row in registry.verify()]


def _access_value(tool: dict, value: Any) -> str | None:
    """The access value with case and spaces forgiven (None: the function gave none), or raises ValueError."""
    call = f"access_for({tool['name']})"
    if (raised := probe_error(value)) is not None:
        raise ValueError(f"{call} raised {raised}")
    if isinstance(value, str):
        value = value.strip().lower()
    if value is not None and value not in ACCESS:
        raise ValueError(
            f"{call} returned {value!r}, which is not an access value; use 'direct', 'code' or 'both'"
        )
    return value


def _judge_access(results: Any) -> object:
    tools = [tool for (tool,) in ACCESS_PROBES]
    try:
        values = [_access_value(tool, value) for tool, value in zip(tools, results)]
    except ValueError as error:
        return failed(str(error))
    # The lesson's four tools, deployed as a script would, on registries earlier scripts left behind.
    deployment = dict(zip(DEPLOYED, values))
    for story, prior in PRIOR_STATES:
        rows = {row[0]: row[1] for row in verification_rows_after(deployment, prior)}
        for tool in tools[: len(DEPLOYED)]:
            code = tool["name"]
            wrong = _ADVICE[_kind(tool)].get(rows[code])
            if wrong is None:
                continue
            if deployment[code] is None:
                reason = (
                    "a new tool starts at 'both'" if prior is None else "merge_tool keeps the stored access"
                )
                return failed(
                    f"on {story}, {code} ends up '{rows[code]}' because access_for gives nothing for it, so "
                    f"your script passes nothing and {reason}. Return a value for every tool: state it explicitly."
                )
            return failed(
                f"{code} ends up '{rows[code]}': {wrong}. Look again at what it does: {_why(tool)}."
            )
    # Tools the lesson never shows: the same reasons must decide them.
    for tool, value in zip(tools[len(DEPLOYED) :], values[len(DEPLOYED) :]):
        right = _RIGHT[_kind(tool)]
        if value == right:
            continue
        if value is None:
            return failed(
                f"access_for({tool['name']}) gives nothing: a deployment script that passes nothing keeps "
                "whatever an earlier script stored. Return a value for every tool."
            )
        return failed(
            f"access_for({tool['name']}) gives '{value}': {_ADVICE[_kind(tool)][value]}. Look again at what "
            f"it does: {_why(tool)}. Decide from the description, not from the tool's name."
        )
    return passed(
        f"right for the four tools above and for {count(len(tools) - len(DEPLOYED), 'tool')} the lesson never "
        "showed: each lands where what it does puts it, whatever an earlier script left behind."
    )


# Mistakes a learner's access_for may make, as functions over the tool's description.
_LESSON_VALUES = {LIST: "code", READINGS: "code", LIMITS: "both", FILE_CLAIM: "direct"}


def _looks_up_the_lesson(tool: dict) -> str | None:
    return _LESSON_VALUES.get(tool["name"])


def _three_by_hand(tool: dict) -> str | None:
    return {LIST: "code", READINGS: "code", LIMITS: "both"}.get(tool["name"])


def _guesses_from_the_name(tool: dict) -> str:
    code = tool["name"]
    if "CLAIM" in code or "FILE" in code:
        return "direct"
    return "code" if "LIST" in code or "READINGS" in code else "both"


def _only_irreversible_writes_direct(tool: dict) -> str:
    if tool["irreversible"]:
        return "direct"
    return "both" if tool["person_asks"] else "code"


def _by_size_alone(tool: dict) -> str:
    if tool["writes"] and tool["result_chars"] < 1000:
        return "direct"
    return "code" if tool["result_chars"] >= 1000 else "both"


def _writes_to_code(tool: dict) -> str:
    return "code" if tool["writes"] else ("both" if tool["person_asks"] else "code")


# ---------- exercise 2: how many fillers fit ----------


def _sizes() -> dict[str, int]:
    from tooldesign.codemode.sizelimit import entry_bytes

    return entry_bytes()


def _budgets() -> tuple[tuple[int], ...]:
    sizes = _sizes()
    fixed = sizes["preamble"] + sum(sizes[code] for code in CODES)
    filler = sizes["one filler"]
    # exactly room for three (0 bytes to spare), one byte short of it, the lesson's budget, room for
    # everything, and one where forgetting the preamble gains a filler
    budgets = (
        fixed + 3 * filler,
        fixed + 3 * filler - 1,
        31_855,
        20_000,
        fixed,
        60_000,
        fixed + 5 * filler + 1,
        fixed + 4 * filler - 500,
    )
    return tuple((budget,) for budget in budgets)


FILLER_PROBES = LazyProbes(_budgets)


def _judge_fillers(results: Any) -> object:
    from tooldesign.codemode.sizelimit import fillers_that_fit

    budgets = [budget for (budget,) in FILLER_PROBES]
    got = []
    for budget, value in zip(budgets, results):
        call = f"fillers_that_fit({budget})"
        if (raised := probe_error(value)) is not None:
            return failed(f"{call} raised {raised}")
        value = whole_number(value)
        if type(value) is not int:
            return failed(f"{call} returned a {type(value).__name__}; return a whole number of fillers (int)")
        got.append(value)
    want = [fillers_that_fit(budget) for budget in budgets]  # measured by building each catalog
    if got == want:
        return passed(f"right for all {len(budgets)} budgets, the exact edges included.")
    budget, mine, right = next((b, g, w) for b, g, w in zip(budgets, got, want) if g != w)
    lead = f"fillers_that_fit({budget}) returned {mine}, the catalog holds {right}"
    if mine > 9:
        return failed(f"{lead}: only nine fillers are registered")
    for mistake, hint in _FILLER_MISTAKES:
        if got == [mistake(b) for b in budgets]:
            return failed(f"{lead}: {hint}")
    return failed(
        f"{lead}: take the fixed part (preamble and the three tools) off the budget, then count the "
        "whole fillers that fit in what is left"
    )


def _fillers_no_newline(budget: int) -> int:
    sizes = _sizes()
    fixed = sizes["preamble"] + sum(sizes[code] - 1 for code in CODES)
    return max(0, min(9, (budget - fixed) // (sizes["one filler"] - 1)))


def _fillers_strict(budget: int) -> int:
    sizes = _sizes()
    fixed = sizes["preamble"] + sum(sizes[code] for code in CODES)
    count = 0
    while count < 9 and fixed + (count + 1) * sizes["one filler"] < budget:
        count += 1
    return count


def _fillers_uncapped(budget: int) -> int:
    sizes = _sizes()
    return (budget - sizes["preamble"] - sum(sizes[code] for code in CODES)) // sizes["one filler"]


def _fillers_no_preamble(budget: int) -> int:
    sizes = _sizes()
    return max(0, min(9, (budget - sum(sizes[code] for code in CODES)) // sizes["one filler"]))


def _fillers_round_up(budget: int) -> int:
    sizes = _sizes()
    room = budget - sizes["preamble"] - sum(sizes[code] for code in CODES)
    return max(0, min(9, -(-room // sizes["one filler"])))


# Mistakes the check recognises by the whole pattern of answers, with the hint each one gets.
_FILLER_MISTAKES = (
    (_fillers_no_newline, "every line costs one byte more than its text, for its newline"),
    (_fillers_strict, "a filler that fits with 0 bytes to spare is in (<=, not <)"),
    (_fillers_no_preamble, "the preamble counts against the budget too"),
    (_fillers_round_up, "a filler that does not fit whole is left out, so round down"),
)


EXERCISES = [
    Exercise(
        "ex09-access",
        NOTEBOOK,
        "access_for",
        2,
        _judge_access,
        kind="function",
        probes=ACCESS_PROBES,
        prompt="Write access_for(tool): the access value a deployment script passes for a tool, decided from "
        "its description (writes, irreversible, result size, whether a person asks), so every registry ends right.",
        wrong_answers=(
            WrongAnswer(_three_by_hand, "your script passes nothing"),
            WrongAnswer(lambda tool: "both", "pull its data into the context"),
            WrongAnswer(
                lambda tool: "direct" if tool["writes"] else ("both" if tool["person_asks"] else "direct"),
                "could not call it",
            ),
            WrongAnswer(lambda tool: "direct" if tool["writes"] else "code", "answer a question about it"),
            WrongAnswer(
                lambda tool: "both" if tool["person_asks"] or tool["writes"] else "code",
                "no person to approve",
            ),
            WrongAnswer(_writes_to_code, "no person to approve"),
            WrongAnswer(lambda tool: "hidden", "not an access value"),
            WrongAnswer(_looks_up_the_lesson, "gives nothing"),
            WrongAnswer(_guesses_from_the_name, "not from the tool's name"),
            WrongAnswer(_only_irreversible_writes_direct, "can be undone brings no person back"),
            WrongAnswer(_by_size_alone, "not from the tool's name"),
        ),
    ),
    Exercise(
        "ex09-fillers",
        NOTEBOOK,
        "fillers_that_fit",
        2,
        _judge_fillers,
        kind="function",
        probes=FILLER_PROBES,
        prompt="Write fillers_that_fit(budget): how many 3,900-character fillers the catalog holds.",
        wrong_answers=(
            WrongAnswer(_fillers_no_newline, "newline"),
            WrongAnswer(_fillers_strict, "0 bytes to spare"),
            WrongAnswer(_fillers_uncapped, "only nine fillers"),
            WrongAnswer(_fillers_no_preamble, "preamble counts"),
            WrongAnswer(_fillers_round_up, "round down"),
            WrongAnswer(lambda budget: 7, "take the fixed part"),
        ),
    ),
]
