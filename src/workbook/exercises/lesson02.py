"""Notebook 02: the fictional cold-chain shipments, their readings and the claims."""

from __future__ import annotations

from workbook.checks import failed, passed, probe_error, whole_number
from workbook.exercises import Exercise, WrongAnswer

# Hidden cases for longest_breach_minutes(temps, max_temp_c, sample_minutes) and the right minutes.
BREACH_PROBES: tuple[tuple[list[float], float, int], ...] = (
    ([4.1, 8.6, 9.2, 7.9, 8.4], 8.0, 30),  # a run of two, then one: 60
    ([-19.0, -17.2, -16.8, -17.5, -18.3, -17.9], -18.0, 30),  # three, then one: 90
    ([8.0, 8.0, 8.0], 8.0, 30),  # touching the limit is not above it: 0
    ([], -18.0, 30),  # no readings: 0
    ([9.0, 9.1, 9.3, 9.0, 9.2], 8.0, 15),  # all five above, every 15 minutes: 75
    ([-20.0, -17.0, -20.0, -17.0, -20.0, -17.0], -18.0, 30),  # three single readings: 30
)
BREACH_EXPECTED = [60, 90, 0, 0, 75, 30]


def _judge_breach(results) -> object:
    for (temps, limit, minutes), got, want in zip(BREACH_PROBES, results, BREACH_EXPECTED):
        call = f"longest_breach_minutes({temps}, {limit}, {minutes})"
        if (raised := probe_error(got)) is not None:
            return failed(f"{call} raised {raised}; it must handle every list, even an empty one")
        got = whole_number(got)
        if type(got) is not int:
            return failed(f"{call} returned a {type(got).__name__}; return whole minutes (int)")
        if got == want:
            continue
        above = sum(t > limit for t in temps)
        if got == above * minutes:
            return failed(
                f"{call} returned {got}: that counts every reading above the limit; count only the "
                "longest run of consecutive readings above it"
            )
        if limit in temps and got > want:
            return failed(
                f"{call} returned {got}: a reading equal to the limit is not above it (use >, not >=)"
            )
        if minutes != 30 and got == want // minutes * 30:
            return failed(f"{call} returned {got}: multiply by sample_minutes, not by 30")
        return failed(
            f"{call} returned {got}, expected {want}: the run length in readings times sample_minutes"
        )
    return passed("longest run above the limit, in minutes, for six cases it had not seen.")


def _total_above(temps, max_temp_c, sample_minutes):
    return sum(t > max_temp_c for t in temps) * sample_minutes


def _at_or_above(temps, max_temp_c, sample_minutes):
    longest = run = 0
    for temp in temps:
        run = run + 1 if temp >= max_temp_c else 0
        longest = max(longest, run)
    return longest * sample_minutes


CLAIMS = {"SHP-2047": 720, "SHP-2052": 240, "SHP-2061": 960}


def _judge_claims(answer) -> object:
    if type(answer) is not dict:
        return failed(f"claims should be a dict of shipment number -> euros, not a {type(answer).__name__}")
    if any(k.isdigit() for k in answer):
        return failed("use the shipment numbers ('SHP-2047') as keys, not the numeric shipment_id")
    values = {k: whole_number(v) for k, v in answer.items()}
    if any(type(v) is not int for v in values.values()):
        return failed("claims are whole euros: every started hour times claim_per_hour_eur")
    # The hints name no shipment the learner has not already written down with a claim of 0: a hint that
    # said which shipments were wrong would let a learner find the answer by trying them one at a time.
    if any(v == 0 for v in values.values()):
        return failed(
            "some of your shipments have a claim of 0: keep only shipments whose claim is above zero"
        )
    if set(values) == set(CLAIMS) and values != CLAIMS:
        if values == {"SHP-2047": 600, "SHP-2052": 180, "SHP-2061": 840}:
            return failed(
                "right shipments, wrong amounts: the rule pays every STARTED hour, so round the hours "
                "up (math.ceil) before multiplying"
            )
        return failed(
            "right shipments, wrong amounts: claim = started hours of the longest breach x "
            "claim_per_hour_eur of the shipment's class"
        )
    if set(values) > set(CLAIMS):
        return failed(
            "too many claims: some of your shipments never stay above the limit for more than "
            "max_minutes_above (a breach of exactly 60 minutes is allowed)"
        )
    if set(values) != set(CLAIMS):
        return failed(
            "not the right shipments: apply the rule to every shipment, each product class with its own "
            "limits, and keep those whose longest breach is longer than the allowance"
        )
    return passed("three claims, EUR 1,920 in total.")


EXERCISES = [
    Exercise(
        "ex02-longest-breach",
        "02_coldchain_data",
        "longest_breach_minutes",
        2,
        _judge_breach,
        kind="function",
        probes=BREACH_PROBES,
        prompt="Write longest_breach_minutes(temps, max_temp_c, sample_minutes).",
        wrong_answers=(
            WrongAnswer(_total_above, "longest run"),
            WrongAnswer(_at_or_above, "equal to the limit"),
        ),
    ),
    Exercise(
        "ex02-claims",
        "02_coldchain_data",
        "claims",
        2,
        _judge_claims,
        prompt="Build the dict of shipment number -> claim in euros for every shipment with a claim.",
        wrong_answers=(
            WrongAnswer({"SHP-2047": 600, "SHP-2052": 180, "SHP-2061": 840}, "STARTED hour"),
            WrongAnswer({"SHP-2044": 0, "SHP-2047": 720, "SHP-2052": 240, "SHP-2061": 960}, "a claim of 0"),
            WrongAnswer({"SHP-2047": 720, "SHP-2061": 960}, "not the right shipments"),
            WrongAnswer({"SHP-2047": 720, "SHP-2050": 240, "SHP-2061": 960}, "not the right shipments"),
            WrongAnswer(
                {"SHP-2047": 720, "SHP-2052": 240, "SHP-2061": 960, "SHP-2050": 240}, "exactly 60 minutes"
            ),
            WrongAnswer({"108": 720, "113": 240, "122": 960}, "shipment numbers"),
        ),
    ),
]
