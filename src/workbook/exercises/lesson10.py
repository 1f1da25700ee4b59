"""Notebook 10: four levels of tool definition, in the fictional measurement network."""

from __future__ import annotations

from workbook.exercises.kinds import Exercise, WrongAnswer
from workbook.verdicts import failed, passed, probe_error

# ---- exercise 1: an example call in the wire format -------------------------------------------

EXAMPLE_CALL = "tuketim ( onceki = 30500 , simdiki = 30562 )"


def _judge_example_call(answer) -> object:
    """Judge the call the text says, not how it is typed: spacing and field order do not matter."""
    from tooldesign.levels import parse_call

    if type(answer) is not str:
        return failed(f"example_call should be a string, not a {type(answer).__name__}")
    try:
        name, arguments = parse_call(answer)
    except ValueError as error:
        return failed(f"that is not a call yet: {error}")
    if name != "tuketim":
        return failed(f"the call is to {name}; the example is for tuketim, written first as the catalog does")
    if {"previous", "current"} & set(arguments):
        return failed("the wire words stay Turkish: the fields are onceki and simdiki")
    if set(arguments) != {"onceki", "simdiki"}:
        missing = sorted({"onceki", "simdiki"} - set(arguments))
        extra = sorted(set(arguments) - {"onceki", "simdiki"})
        parts = ([f"missing: {', '.join(missing)}"] if missing else []) + (
            [f"not declared: {', '.join(extra)}"] if extra else []
        )
        return failed(f"tuketim declares exactly onceki and simdiki; {'; '.join(parts)}")
    if any(type(value) is not int for value in arguments.values()):
        return failed("both indexes are whole numbers, written without quotes or separators: 30500, 30562")
    if (arguments["onceki"], arguments["simdiki"]) == (30562, 30500):
        return failed(
            "the indexes are swapped: onceki is the previous, smaller index (30500); "
            "showing that is the example's whole job"
        )
    if (arguments["onceki"], arguments["simdiki"]) != (30500, 30562):
        return failed("use this period's readings: onceki = 30500 and simdiki = 30562")
    return passed("the example shows what the schema cannot: the smaller index goes to onceki.")


# ---- exercise 2: what a swap returns ----------------------------------------------------------

PREVIOUS, CURRENT, ROLLOVER = 52359, 52376, 100_000
SWAPPED_M3 = PREVIOUS - CURRENT + ROLLOVER  # 99983


def _judge_swapped(answer) -> object:
    if type(answer) is float and answer.is_integer():
        answer = int(answer)
    if type(answer) is not int:
        return failed(f"swapped_m3 should be a whole number of m3, not a {type(answer).__name__}")
    if answer == CURRENT - PREVIOUS:
        return failed(
            f"{answer} m3 is the right consumption; the question is what the tool returns "
            "when onceki and simdiki trade places"
        )
    if answer == PREVIOUS - CURRENT:
        return failed(
            f"{answer} is negative; the tool reads a negative difference as a meter that "
            "rolled over and adds 100000"
        )
    if answer != SWAPPED_M3:
        return failed(
            "swap the two indexes, take current minus previous, and apply the rollover rule "
            "(meter_difference)"
        )
    return passed(f"{SWAPPED_M3} m3: a valid call, no error, and an answer off by almost 100000.")


# ---- exercise 3: tokens per correct answer ----------------------------------------------------


def _runs(*rows: tuple) -> list[dict]:
    return [{"tokens": t, "answer": a, "expected": e} for t, a, e in rows]


TPC_PROBES: tuple[tuple[list[dict]], ...] = (
    (_runs((900, 52, 52), (1500, 99948, 52), (700, "SY01", "SY01")),),
    (_runs((1000, 5, 5)),),
    (_runs((400, None, 0), (600, 0, 0), (800, 3198028, 460)),),
    (_runs((1200, "TR01", "SY01"), (900, None, 52)),),
    ([],),
)
TPC_EXPECTED = [1550.0, 1000.0, 1800.0, None, None]


def _judge_tokens_per_correct(results) -> object:
    for (runs,), got, want in zip(TPC_PROBES, results, TPC_EXPECTED):
        call = f"tokens_per_correct(<{len(runs)} runs>)"
        if (raised := probe_error(got)) is not None:
            if "ZeroDivision" in raised:
                return failed(f"{call} divided by zero: when no run is correct, return None")
            return failed(f"{call} raised {raised}")
        if want is None:
            if got is not None:
                return failed(f"{call} returned {got!r} although no run is correct; return None")
            continue
        if type(got) not in (int, float):
            return failed(f"{call} returned a {type(got).__name__}; return the number")
        correct = [r for r in runs if r["answer"] == r["expected"]]
        if abs(got - sum(r["tokens"] for r in correct) / len(correct)) < 1e-6 and abs(got - want) > 1e-6:
            return failed(
                f"{call} returned {got:g}: count the tokens of every run, the failed ones "
                "too; they are part of the price of each correct answer"
            )
        if abs(got - sum(r["tokens"] for r in runs) / len(runs)) < 1e-6 and abs(got - want) > 1e-6:
            return failed(f"{call} returned {got:g}, the tokens per run; divide by the correct answers")
        if abs(got - want) > 1e-6:
            return failed(f"{call} returned {got:g}; expected all tokens over the number of correct answers")
    return passed("all tokens over correct answers, and None when nothing was correct.")


def _only_correct_tokens(runs):
    correct = [r for r in runs if r["answer"] == r["expected"]]
    return sum(r["tokens"] for r in correct) / len(correct) if correct else None


def _per_run(runs):
    return sum(r["tokens"] for r in runs) / len(runs) if runs else None


def _no_guard(runs):
    return sum(r["tokens"] for r in runs) / sum(r["answer"] == r["expected"] for r in runs)


# ---- exercise 4: a fifth level ----------------------------------------------------------------

FIFTH = {"catalog_tokens": 77, "correct": 23, "tokens": 21632}
_CATALOG_HINTS = {
    164: "that is level four's catalog: drop the description and the schema",
    138: "the description is still in: set shows_description=False",
    103: "the schema is still in: set shows_schema=False",
    97: "the example is missing and the description and schema are in: show only the example",
    10: "that is the name-only catalog: set shows_example=True",
}


def _judge_fifth(answer) -> object:
    if type(answer) is not dict:
        return failed(f"fifth_level should be a dict, not a {type(answer).__name__}")
    missing = sorted(set(FIFTH) - set(answer))
    if missing:
        return failed(
            f"fifth_level needs {'the key' if len(missing) == 1 else 'the keys'} {', '.join(missing)}"
        )
    tokens, correct, spent = answer["catalog_tokens"], answer["correct"], answer["tokens"]
    if tokens != FIFTH["catalog_tokens"]:
        return failed(
            _CATALOG_HINTS.get(
                tokens,
                "catalog_tokens(your_level) counts the catalog of the level you built; show the example only",
            )
        )
    if type(correct) is float and 0 < correct <= 1:
        return failed("correct is a count of tasks (of 24), not a share: use measure(...).correct")
    if correct == 18:
        return failed("the example call stops the swap: swap_share=0.0")
    if correct == 20:
        return failed("every field is filled: fill_share=1.0")
    if correct != FIFTH["correct"]:
        return failed("check the three shares: selection factor 0.86, fill share 1.0, swap share 0.0")
    if spent == 19447:
        return failed("the tokens fit a selection factor of 1.0; the design assumes 0.86")
    if spent != FIFTH["tokens"]:
        return failed(
            "measure your level at the published seed with the default budget of 8 steps, and report .tokens"
        )
    return passed("77 catalog tokens, 23 of 24 correct, 21,632 tokens: about 941 per correct answer.")


EXERCISES = [
    Exercise(
        "ex10-example-call",
        "10_definition_levels",
        "example_call",
        1,
        _judge_example_call,
        prompt="Write tuketim's example call for indexes 30500 -> 30562 in the wire format.",
        wrong_answers=(
            WrongAnswer("tuketim ( onceki = 30562 , simdiki = 30500 )", "swapped"),
            WrongAnswer("tuketim(simdiki=30500, onceki=30562)", "swapped"),
            WrongAnswer("tuketim ( onceki = 30500 , simdiki = 30563 )", "this period's readings"),
            WrongAnswer("tarife ( onceki = 30500 , simdiki = 30562 )", "the example is for tuketim"),
            WrongAnswer("tuketim ( onceki = 30500 )", "missing: simdiki"),
            WrongAnswer("tuketim ( onceki = 30500 , simdiki = 30562 , m3 = 62 )", "not declared: m3"),
            WrongAnswer("tuketim ( onceki = '30500' , simdiki = '30562' )", "without quotes"),
            WrongAnswer("tuketim onceki = 30500 , simdiki = 30562", "not a call yet"),
            WrongAnswer("tuketim ( previous = 30500 , current = 30562 )", "Turkish"),
            WrongAnswer(30562 - 30500, "string"),
        ),
    ),
    Exercise(
        "ex10-swapped-m3",
        "10_definition_levels",
        "swapped_m3",
        0,
        _judge_swapped,
        kind="prediction",
        prompt="What does tuketim return for A031 (52359 -> 52376) with the indexes swapped?",
        wrong_answers=(
            WrongAnswer(17, "right consumption"),
            WrongAnswer(-17, "adds 100000"),
            WrongAnswer(100_017, "rollover rule"),
        ),
    ),
    Exercise(
        "ex10-tokens-per-correct",
        "10_definition_levels",
        "tokens_per_correct",
        2,
        _judge_tokens_per_correct,
        kind="function",
        probes=TPC_PROBES,
        prompt="Write tokens_per_correct(runs): all tokens over correct answers, None if none.",
        wrong_answers=(
            WrongAnswer(_only_correct_tokens, "failed ones too"),
            WrongAnswer(_per_run, "tokens per run"),
            WrongAnswer(_no_guard, "return None"),
        ),
    ),
    Exercise(
        "ex10-fifth-level",
        "10_definition_levels",
        "fifth_level",
        2,
        _judge_fifth,
        prompt="Build the 'name + example call' level and report its catalog tokens, correct "
        "answers and tokens.",
        wrong_answers=(
            WrongAnswer({"catalog_tokens": 164, "correct": 23, "tokens": 27886}, "level four"),
            WrongAnswer({"catalog_tokens": 138, "correct": 23, "tokens": 28098}, "shows_description"),
            WrongAnswer({"catalog_tokens": 77, "correct": 18, "tokens": 21632}, "swap_share"),
            WrongAnswer({"catalog_tokens": 77, "correct": 23, "tokens": 19447}, "0.86"),
            WrongAnswer({"catalog_tokens": 77, "correct": 0.9583, "tokens": 21632}, "count"),
        ),
    ),
]
