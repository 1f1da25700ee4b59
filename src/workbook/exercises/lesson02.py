"""Notebook 02: the fictional cold-chain shipments, their readings and the claims."""

from __future__ import annotations

import math

from workbook.exercises.kinds import Exercise, WrongAnswer
from workbook.verdicts import failed, known_mistake, passed, probe_error, whole_number

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


FROZEN = {
    "product_class": "FROZEN",
    "max_temp_c": -18.0,
    "sample_minutes": 30,
    "max_minutes_above": 60,
    "claim_per_hour_eur": 240,
}
CHILLED = {
    "product_class": "CHILLED",
    "max_temp_c": 8.0,
    "sample_minutes": 30,
    "max_minutes_above": 60,
    "claim_per_hour_eur": 120,
}
PHARMA = {
    "product_class": "PHARMA",
    "max_temp_c": 8.0,
    "sample_minutes": 10,
    "max_minutes_above": 30,
    "claim_per_hour_eur": 500,
}


def _ship(shipment_id: int, number: str, product_class: str) -> dict:
    return {"shipment_id": shipment_id, "shipment_number": number, "product_class": product_class}


def _log(shipment_id: int, temps: list[float]) -> list[dict]:
    return [{"shipment_id": shipment_id, "temp_c": t} for t in temps]


# The check's cases for claims_for(shipments, readings, limits), each with what it tries: none is the course's
# data, so its printed claims table answers none of them.
CLAIM_PROBES: tuple[tuple[list[dict], list[dict], list[dict]], ...] = (
    # the rule's own example: five readings in a row above -18 °C, 150 minutes, three started hours
    ([_ship(7, "SHP-9107", "FROZEN")], _log(7, [-19.0, -17.5, -17.0, -16.8, -17.2, -17.9, -18.5]), [FROZEN]),
    # exactly the allowance (60 minutes), and a reading at the limit: no claim
    ([_ship(8, "SHP-9108", "CHILLED")], _log(8, [7.0, 8.4, 8.9, 8.0, 8.0, 8.0, 7.5]), [CHILLED, FROZEN]),
    # two short breaches that add up to more than the allowance, then 90 minutes: two started hours
    (
        [_ship(3, "SHP-9103", "CHILLED"), _ship(4, "SHP-9104", "CHILLED")],
        _log(3, [8.5, 8.6, 7.0, 8.2, 8.1, 7.9]) + _log(4, [8.5, 8.6, 8.7, 7.0]),
        [CHILLED],
    ),
    # each class with its own limits: 5 °C is fine for a chilled load, not for a frozen one
    (
        [_ship(11, "SHP-9111", "CHILLED"), _ship(12, "SHP-9112", "FROZEN")],
        _log(11, [5.0, 5.0, 5.0, 5.0]) + _log(12, [-5.0, -5.0, -5.0, -5.0]),
        [FROZEN, CHILLED],
    ),
    # readings every 10 minutes, readings of two shipments interleaved as a logger sends them
    (
        [_ship(21, "SHP-9121", "PHARMA"), _ship(22, "SHP-9122", "PHARMA")],
        [r for pair in zip(_log(21, [8.1, 8.2, 8.3, 8.4]), _log(22, [8.1, 8.2, 7.9, 8.4])) for r in pair],
        [PHARMA],
    ),
    # no shipments at all
    ([], [], [FROZEN, CHILLED]),
)
CLAIM_CASES = (
    "one frozen shipment with a long run above its limit",
    "a chilled run of exactly the allowance, and readings at the limit",
    "two chilled shipments: one with two short breaches, one with a single longer one",
    "a chilled and a frozen shipment at the same temperature",
    "two PHARMA shipments read every 10 minutes, their readings interleaved",
    "no shipments",
)


def _rules(limits: list[dict]) -> dict[str, dict]:
    return {row["product_class"]: row for row in limits}


def _temps(readings: list[dict], shipment_id: int) -> list[float]:
    return [r["temp_c"] for r in readings if r["shipment_id"] == shipment_id]


def _longest(temps: list[float], limit: float, at_limit: bool = False) -> int:
    longest = run = 0
    for temp in temps:
        run = run + 1 if temp > limit or (at_limit and temp == limit) else 0
        longest = max(longest, run)
    return longest


def _claims_with(
    shipments,
    readings,
    limits,
    *,
    hours=math.ceil,
    at_limit=False,
    allowance_pays=False,
    total=False,
    every_30=False,
    by_id=False,
    keep_zero=False,
    one_class=False,
) -> dict:
    rules = _rules(limits)
    found = {}
    for shipment in shipments:
        rule = limits[0] if one_class else rules[shipment["product_class"]]
        temps = _temps(readings, shipment["shipment_id"])
        if total:
            run = sum(t > rule["max_temp_c"] for t in temps)
        else:
            run = _longest(temps, rule["max_temp_c"], at_limit)
        minutes = run * (30 if every_30 else rule["sample_minutes"])
        over = minutes >= rule["max_minutes_above"] if allowance_pays else minutes > rule["max_minutes_above"]
        eur = hours(minutes / 60) * rule["claim_per_hour_eur"] if over and minutes else 0
        if eur or keep_zero:
            found[str(shipment["shipment_id"]) if by_id else shipment["shipment_number"]] = eur
    return found


def reference_claims(shipments: list[dict], readings: list[dict], limits: list[dict]) -> dict[str, int]:
    """The course's claim rule, for any shipments, readings (in time order) and limits."""
    return _claims_with(shipments, readings, limits)


def _floor_hours(s, r, lim):
    return _claims_with(s, r, lim, hours=math.floor)


def _exact_hours(s, r, lim):
    return _claims_with(s, r, lim, hours=lambda h: h)


def _at_limit_counts(s, r, lim):
    return _claims_with(s, r, lim, at_limit=True)


def _allowance_pays(s, r, lim):
    return _claims_with(s, r, lim, allowance_pays=True)


def _all_readings_above(s, r, lim):
    return _claims_with(s, r, lim, total=True)


def _thirty_minutes(s, r, lim):
    return _claims_with(s, r, lim, every_30=True)


def _by_shipment_id(s, r, lim):
    return _claims_with(s, r, lim, by_id=True)


def _with_zeros(s, r, lim):
    return _claims_with(s, r, lim, keep_zero=True)


def _first_class_only(s, r, lim):
    return _claims_with(s, r, lim, one_class=True)


CLAIM_MISTAKES = (
    (_by_shipment_id, "use the shipment numbers (the SHP- numbers) as keys, not the numeric shipment_id"),
    (_with_zeros, "keep only shipments whose claim is above zero: leave the others out"),
    (_floor_hours, "the rule pays every STARTED hour: round the hours up (math.ceil) before multiplying"),
    (_exact_hours, "the rule pays every STARTED hour: round the hours up (math.ceil) before multiplying"),
    (_at_limit_counts, "a reading equal to the limit is not above it (use >, not >=)"),
    (_allowance_pays, "a breach of exactly max_minutes_above is allowed: only a longer one earns a claim"),
    (
        _all_readings_above,
        "that counts every reading above the limit; the rule takes the longest run of consecutive readings",
    ),
    (_thirty_minutes, "a run of n readings lasts n x the class's sample_minutes, not n x 30"),
    (_first_class_only, "each shipment takes the limits of its own product_class"),
)


def _judge_claims(results) -> object:
    for args, case, got in zip(CLAIM_PROBES, CLAIM_CASES, results):
        where = f"on the check's case ({case})"
        if (raised := probe_error(got)) is not None:
            return failed(f"claims_for raised {raised} {where}; it must take any shipments, even none")
        if type(got) is not dict:
            return failed(
                f"claims_for returned a {type(got).__name__} {where}; return a dict of shipment number -> euros"
            )
        values = {k: whole_number(v) for k, v in got.items()}
        want = reference_claims(*args)
        if values == want:
            continue
        hint = known_mistake(args, got, CLAIM_MISTAKES)
        if hint is None and any(type(v) is not int for v in values.values()):
            hint = "claims are whole euros: every started hour times claim_per_hour_eur"
        # The hint names the case and the rule broken, never which shipments should be there or their amounts.
        return failed(
            f"{where}: "
            + (
                hint
                or "not the claims: take each shipment's longest run of readings strictly above its class's "
                "max_temp_c, keep it when it lasts longer than max_minutes_above, and pay every started hour"
            )
        )
    return passed("the claim rule, for shipments, readings and limits it had not seen as well.")


EXERCISES = [
    Exercise(
        "ex02-longest-breach",
        "02_coldchain_data",
        "longest_breach_minutes",
        2,
        _judge_breach,
        kind="function",
        probes=BREACH_PROBES,
        prompt=(
            "Write longest_breach_minutes(temps, max_temp_c, sample_minutes): the minutes of the longest run "
            "of consecutive readings strictly above max_temp_c (0 when there is none)."
        ),
        wrong_answers=(
            WrongAnswer(_total_above, "longest run"),
            WrongAnswer(_at_or_above, "equal to the limit"),
        ),
    ),
    Exercise(
        "ex02-claims",
        "02_coldchain_data",
        "claims_for",
        2,
        _judge_claims,
        kind="function",
        probes=CLAIM_PROBES,
        prompt="Write claims_for(shipments, readings, limits): shipment number -> claim in whole euros.",
        wrong_answers=(
            WrongAnswer(_floor_hours, "STARTED hour"),
            WrongAnswer(_exact_hours, "STARTED hour"),
            WrongAnswer(_with_zeros, "above zero"),
            WrongAnswer(_at_limit_counts, "equal to the limit"),
            WrongAnswer(_allowance_pays, "exactly max_minutes_above"),
            WrongAnswer(_all_readings_above, "longest run"),
            WrongAnswer(_thirty_minutes, "sample_minutes"),
            WrongAnswer(_by_shipment_id, "shipment numbers"),
            WrongAnswer(_first_class_only, "its own product_class"),
        ),
    ),
]
