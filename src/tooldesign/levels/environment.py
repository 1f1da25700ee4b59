"""The fictional measurement network the agent works in.

Everything here is invented: 60 water subscribers with a meter reading
each, five short documents, and a tiered tariff. Nothing calls a real
utility, model or server. The records are built from the seeded stream, so
the same seed gives the same network on every machine.

Wire words stay Turkish because they are counted in tokens:
``onceki``/``simdiki`` = previous/current meter index, ``tip`` = type,
``bolge`` = region, ``mesken``/``isyeri`` = residential/commercial.
"""

from __future__ import annotations

from tooldesign.levels.stream import Stream

SEED = 20260218  # the published run; the second run uses SEED + 1
SUBSCRIBER_COUNT = 60

REGIONS = ("dogu", "bati", "kuzey", "guney", "merkez")
TYPES = ("mesken", "isyeri")

# A meter counts up to 99999 and starts again at 0: when the current index
# is below the previous one, the difference needs this added back.
ROLLOVER = 100_000

# Tariff: (upper bound of the band in m3, price per m3); above the last
# band every m3 costs ABOVE_LAST. Commercial subscribers pay double.
TIERS = ((10, 4), (25, 7), (40, 11))
ABOVE_LAST = 16
COMMERCIAL_FACTOR = 2

# The five documents the search tool can return (code -> text).
DOCUMENTS = dict(
    TR01="tarife basamaklari 10 25 40 metrekup ve ustu",
    TR02="isyeri abonesinde birim ucret iki katidir",
    SY01="endeks farki tuketimi verir sayac donusu 100000 eklenir",
    AR01="ariza kaydi acildiginda saha ekibi iki gun icinde gider",
    KS01="planli kesinti duyurusu bir hafta once yayimlanir",
)


def subscriber_id(number: int) -> str:
    """Subscriber ids run A001 ... A060."""
    return f"A{number:03d}"


def build_subscribers(seed: int = SEED) -> dict[str, dict]:
    """Draw the 60 subscriber records.

    Each subscriber has its own stream (seed + 31 * i), and the draws come
    in a fixed order: previous index, region, type, then the period's
    consumption (0..69 m3) that gives the current index.
    """
    records = {}
    for i in range(SUBSCRIBER_COUNT):
        draw = Stream(seed + 31 * i).next
        previous = 10_000 + int(draw() * 80_000)
        region = REGIONS[int(draw() * len(REGIONS))]
        kind = TYPES[int(draw() * len(TYPES))]
        records[subscriber_id(i + 1)] = {
            "bolge": region,
            "tip": kind,
            "onceki": previous,
            "simdiki": previous + int(draw() * 70),
        }
    return records


SUBSCRIBERS = build_subscribers()


def meter_difference(previous: int, current: int) -> int:
    """Consumption in m3 between two indexes, with the rollover rule.

    This rule is what turns a swapped pair of indexes into a plausible
    looking number near 100000 instead of an error.
    """
    diff = current - previous
    return diff + ROLLOVER if diff < 0 else diff


def charge(m3: int, kind: str) -> int:
    """Period charge for ``m3`` cubic metres under the tiered tariff."""
    remaining, lower, total = m3, 0, 0
    for upper, price in TIERS:
        in_band = min(remaining, upper - lower)
        if in_band <= 0:
            break
        total += in_band * price
        remaining -= in_band
        lower = upper
    total += remaining * ABOVE_LAST
    return total * (COMMERCIAL_FACTOR if kind == "isyeri" else 1)
