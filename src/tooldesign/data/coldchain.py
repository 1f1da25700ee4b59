"""Fictional cold-chain shipments and their temperature readings.

Twenty-four refrigerated shipments, each logged every 30 minutes for a day (49 readings). The
curves are made of a slow drift, sensor noise and scripted events: door openings, defrost cycles,
near misses that touch or briefly cross the limit, and three real breaches. Every value comes from
a random stream seeded by the shipment number, so a rebuild writes the same bytes.

The claim rule (stated in notebook 02): a shipment earns a claim when its longest run of
consecutive readings above its class's ``max_temp_c`` lasts longer than ``max_minutes_above``.
A run of n readings lasts n x ``sample_minutes``; the claim pays ``claim_per_hour_eur`` for every
started hour of that run.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

import pandas as pd

from tooldesign import DATA_DIR
from tooldesign.data.files import verified, write_csv, write_manifest, write_text

FOLDER = DATA_DIR / "coldchain"
READINGS_PER_SHIPMENT = 49
SAMPLE_MINUTES = 30
LIMIT_FIELDS = ("product_class", "max_temp_c", "sample_minutes", "max_minutes_above", "claim_per_hour_eur")
LIMITS = {
    "FROZEN": {
        "max_temp_c": -18.0,
        "sample_minutes": SAMPLE_MINUTES,
        "max_minutes_above": 60,
        "claim_per_hour_eur": 240,
    },
    "CHILLED": {
        "max_temp_c": 8.0,
        "sample_minutes": SAMPLE_MINUTES,
        "max_minutes_above": 60,
        "claim_per_hour_eur": 120,
    },
}
SETPOINT = {"FROZEN": -21.0, "CHILLED": 4.5}
SHIPMENT_FIELDS = ("shipment_id", "shipment_number", "carrier", "lane", "product_class", "departure")


@dataclass(frozen=True)
class Shipment:
    shipment_id: int
    shipment_number: str
    carrier: str
    lane: str
    product_class: str
    story: str  # which scripted events shape its curve


_ROWS = (
    ("Nordfracht", "Hamburg - Vienna", "CHILLED", "steady"),
    ("Baltic Reefer", "Gdansk - Berlin", "FROZEN", "defrost"),
    ("Meridian Cargo", "Rotterdam - Munich", "FROZEN", "steady"),
    ("Alpenfrost Logistik", "Bremen - Zurich", "CHILLED", "door"),
    ("Iberia Cold Lines", "Valencia - Lyon", "CHILLED", "near_miss_60"),
    ("Nordfracht", "Hamburg - Prague", "FROZEN", "defrost"),
    ("Baltic Reefer", "Gdansk - Copenhagen", "CHILLED", "steady"),
    ("Meridian Cargo", "Rotterdam - Munich", "FROZEN", "breach_5"),
    ("Alpenfrost Logistik", "Bremen - Zurich", "FROZEN", "at_limit"),
    ("Iberia Cold Lines", "Valencia - Lyon", "CHILLED", "door"),
    ("Meridian Cargo", "Antwerp - Milan", "CHILLED", "two_short"),
    ("Nordfracht", "Hamburg - Vienna", "FROZEN", "steady"),
    ("Nordfracht", "Hamburg - Vienna", "CHILLED", "breach_3"),
    ("Baltic Reefer", "Gdansk - Berlin", "FROZEN", "near_miss_60"),
    ("Meridian Cargo", "Rotterdam - Munich", "CHILLED", "steady"),
    ("Iberia Cold Lines", "Valencia - Lyon", "FROZEN", "defrost"),
    ("Alpenfrost Logistik", "Bremen - Zurich", "CHILLED", "door"),
    ("Nordfracht", "Hamburg - Prague", "CHILLED", "steady"),
    ("Meridian Cargo", "Antwerp - Milan", "FROZEN", "two_short"),
    ("Baltic Reefer", "Gdansk - Copenhagen", "CHILLED", "steady"),
    ("Iberia Cold Lines", "Valencia - Lyon", "CHILLED", "at_limit"),
    ("Baltic Reefer", "Gdansk - Berlin", "FROZEN", "breach_7"),
    ("Alpenfrost Logistik", "Bremen - Zurich", "FROZEN", "steady"),
    ("Meridian Cargo", "Rotterdam - Munich", "CHILLED", "door"),
)
SHIPMENTS = tuple(Shipment(101 + n, f"SHP-{2040 + n}", *row) for n, row in enumerate(_ROWS))

# Degrees above the limit, reading by reading, for a breach of each length: a rise, a peak, a recovery.
_BREACH_SHAPES = {3: (0.8, 1.9, 1.1), 5: (0.6, 1.7, 2.4, 1.8, 0.7), 7: (0.5, 1.4, 2.2, 2.6, 2.3, 1.5, 0.7)}


def departure(shipment: Shipment) -> datetime:
    n = shipment.shipment_id - 101
    return datetime(2026, 8, 3, 6) + timedelta(days=n // 3, hours=4 * (n % 3))


def _base_curve(shipment: Shipment, rng: random.Random) -> list[float]:
    """Setpoint, a slow drift over the day, and sensor noise; kept clear of the limit."""
    limit = LIMITS[shipment.product_class]["max_temp_c"]
    phase = rng.uniform(0, 2 * math.pi)
    amplitude = rng.uniform(0.5, 1.0)
    curve = []
    for i in range(READINGS_PER_SHIPMENT):
        noise = rng.uniform(-0.25, 0.25) + rng.uniform(-0.25, 0.25)
        value = SETPOINT[shipment.product_class] + amplitude * math.sin(phase + i * math.pi / 24) + noise
        curve.append(min(value, limit - 0.6))
    return curve


def _apply_story(curve: list[float], shipment: Shipment, rng: random.Random) -> None:
    """Overwrite readings with the shipment's scripted events, relative to its limit."""
    limit = LIMITS[shipment.product_class]["max_temp_c"]
    story = shipment.story

    def above(start: int, offsets: Sequence[float]) -> None:
        curve[start - 1] = limit - 0.6  # the rise starts below the limit
        for k, offset in enumerate(offsets):
            curve[start + k] = limit + offset + rng.uniform(-0.1, 0.1)
        curve[start + len(offsets)] = limit - 0.5
        curve[start + len(offsets) + 1] = limit - 1.4

    if story.startswith("breach_"):
        above(rng.randrange(12, 30), _BREACH_SHAPES[int(story.split("_")[1])])
    elif story == "near_miss_60":
        above(rng.randrange(14, 34), (0.4, 0.9))  # two readings: 60 minutes, not longer
    elif story == "two_short":
        start = rng.randrange(8, 20)
        above(start, (0.5, 1.0))
        above(start + 6, (0.7, 0.6))  # 120 minutes above in all, but never more than 60 at a time
    elif story == "at_limit":
        start = rng.randrange(16, 30)
        curve[start - 1] = limit - 0.4
        curve[start : start + 3] = [limit, limit, limit]  # touching the limit is not above it
        curve[start + 3] = limit - 0.7
    elif story == "door":
        first = rng.randrange(6, 18)
        curve[first] = limit + 0.7  # a long door opening: one reading, 30 minutes above
        curve[first + 1] = limit - 1.0
        second = rng.randrange(28, 44)
        curve[second] = limit - 0.6  # a short one that stays under
    if story == "defrost" or (shipment.product_class == "FROZEN" and story == "steady"):
        # Defrost cycles every eight hours: a sharp rise for one reading, half of it the next.
        for start in range(rng.randrange(3, 9), READINGS_PER_SHIPMENT - 1, 16):
            bump = rng.uniform(1.8, 2.6) if story == "defrost" else rng.uniform(1.0, 1.5)
            curve[start] = min(curve[start] + bump, limit - 0.3)
            curve[start + 1] = min(curve[start + 1] + bump / 2, limit - 0.6)


def readings_for(shipment: Shipment) -> list[dict]:
    """The 49 readings of one shipment, as {ts, temp_c}, in time order."""
    rng = random.Random(f"coldchain-{shipment.shipment_number}")
    curve = _base_curve(shipment, rng)
    _apply_story(curve, shipment, rng)
    start = departure(shipment)
    return [
        {
            "ts": (start + timedelta(minutes=SAMPLE_MINUTES * i)).strftime("%Y-%m-%dT%H:%MZ"),
            "temp_c": round(value, 1),
        }
        for i, value in enumerate(curve)
    ]


def write(folder: Path = FOLDER) -> list[Path]:
    """Write shipments.csv, limits.csv and readings.json under ``folder``."""
    shipments = [
        (
            s.shipment_id,
            s.shipment_number,
            s.carrier,
            s.lane,
            s.product_class,
            departure(s).strftime("%Y-%m-%dT%H:%MZ"),
        )
        for s in SHIPMENTS
    ]
    limits = [
        (name, f"{v['max_temp_c']:.1f}", v["sample_minutes"], v["max_minutes_above"], v["claim_per_hour_eur"])
        for name, v in LIMITS.items()
    ]
    # One shipment per line: the file stays readable in a diff and loads with pandas.
    lines = [
        json.dumps({"shipment_id": s.shipment_id, "readings": readings_for(s)}, separators=(",", ":"))
        for s in SHIPMENTS
    ]
    written = [
        write_csv(folder / "shipments.csv", SHIPMENT_FIELDS, shipments),
        write_csv(folder / "limits.csv", LIMIT_FIELDS, limits),
        write_text(folder / "readings.json", "[\n" + ",\n".join(lines) + "\n]\n"),
    ]
    write_manifest(folder, written)
    return written


# ---------- reading the files back ----------

# Each file and the columns this version of the course reads from it (None: not a table).
TABLES = {"shipments.csv": SHIPMENT_FIELDS, "limits.csv": LIMIT_FIELDS, "readings.json": None}


def _path(name: str, folder: Path) -> Path:
    """The file, checked against the folder's manifest first: damaged data fails loudly, never quietly."""
    return verified(Path(folder) / name, TABLES[name])


def shipments(folder: Path = FOLDER) -> pd.DataFrame:
    return pd.read_csv(_path("shipments.csv", folder))


def limits(folder: Path = FOLDER) -> pd.DataFrame:
    return pd.read_csv(_path("limits.csv", folder))


def readings(folder: Path = FOLDER) -> pd.DataFrame:
    """All readings in one long table: shipment_id, ts (a timestamp), temp_c."""
    raw = json.loads(_path("readings.json", folder).read_text(encoding="utf-8"))
    frame = pd.json_normalize(raw, record_path="readings", meta="shipment_id")
    frame["ts"] = pd.to_datetime(frame["ts"], utc=True)
    return frame[["shipment_id", "ts", "temp_c"]]


def readings_by_shipment(folder: Path = FOLDER) -> dict[int, list[dict]]:
    """Readings as a tool would return them: shipment_id -> [{ts, temp_c}, ...]."""
    raw = json.loads(_path("readings.json", folder).read_text(encoding="utf-8"))
    return {entry["shipment_id"]: entry["readings"] for entry in raw}


# ---------- the claim rule ----------


def longest_breach_minutes(temps: Iterable[float], max_temp_c: float, sample_minutes: int) -> int:
    """Minutes of the longest run of consecutive readings strictly above ``max_temp_c``."""
    longest = run = 0
    for temp in temps:
        run = run + 1 if temp > max_temp_c else 0
        longest = max(longest, run)
    return longest * sample_minutes


def claim_eur(breach_minutes: int, max_minutes_above: int, claim_per_hour_eur: float) -> float:
    """Every started hour of a breach longer than the allowance is paid; otherwise nothing."""
    if breach_minutes <= max_minutes_above:
        return 0
    return math.ceil(breach_minutes / 60) * claim_per_hour_eur


def claims(folder: Path = FOLDER) -> pd.DataFrame:
    """Every shipment with its longest breach and its claim, computed from the files."""
    table = shipments(folder).merge(limits(folder), on="product_class")
    temps = readings(folder).groupby("shipment_id")["temp_c"].apply(list)
    table["longest_breach_min"] = [
        longest_breach_minutes(temps[row.shipment_id], row.max_temp_c, row.sample_minutes)
        for row in table.itertuples()
    ]
    table["claim_eur"] = [
        claim_eur(row.longest_breach_min, row.max_minutes_above, row.claim_per_hour_eur)
        for row in table.itertuples()
    ]
    return table[
        ["shipment_id", "shipment_number", "product_class", "carrier", "longest_breach_min", "claim_eur"]
    ]
