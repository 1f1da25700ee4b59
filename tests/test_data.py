"""The fictional data: the seed's facts hold, and a rebuild writes the very same bytes."""
import json
import math

import pandas as pd
import pytest

from tooldesign import DATA_DIR
from tooldesign.data import DataDirError, build_all, coldchain, sap


def test_rebuild_is_byte_identical_to_the_committed_files(tmp_path):
    written = build_all(tmp_path)
    assert len(written) == 9
    for path in written:
        committed = DATA_DIR / path.relative_to(tmp_path)
        assert path.read_bytes() == committed.read_bytes(), f"{committed} differs from a fresh build"
    again = build_all(tmp_path)
    assert [p.read_bytes() for p in again] == [p.read_bytes() for p in written]


# ---------- SAP order-to-cash ----------

def test_orders_carry_the_api_field_names_and_codes():
    orders = sap.orders()
    assert list(orders["SalesOrder"]) == ["4711", "4723", "4725", "4730", "4731", "4732", "4733", "4734", "4735"]
    assert 24 <= orders.shape[1] <= 30
    assert {"SoldToParty", "TotalNetAmount", "DeliveryBlockReason", "TotalCreditCheckStatus",
            "OverallSDProcessStatus", "HeaderBillingBlockReason"} <= set(orders.columns)
    by_number = orders.set_index("SalesOrder")
    assert by_number.loc["4711", "TotalCreditCheckStatus"] == "B"
    assert by_number.loc["4723", "DeliveryBlockReason"] == "01"
    assert by_number.loc["4725", "DeliveryBlockReason"] == "02"
    assert by_number.loc["4711", "CustomerPaymentTerms"] == "0004", "codes must stay strings"
    values = dict(zip(orders["SalesOrder"], orders["TotalNetAmount"]))
    assert values == {"4711": "1800.00", "4723": "640.00", "4725": "3900.00", "4730": "520.00",
                      "4731": "75.00", "4732": "1210.00", "4733": "300.00", "4734": "980.00", "4735": "60.00"}
    customers_of = orders.groupby("SoldToParty")["SalesOrder"].apply(list).to_dict()
    assert customers_of["10051"] == ["4723"] and customers_of["10077"] == ["4725"]
    assert len(customers_of["10023"]) == 7


def test_items_add_up_to_the_header_value():
    items = sap.items().astype({"NetAmount": float})
    totals = items.groupby("SalesOrder")["NetAmount"].sum()
    for header in sap.orders().itertuples():
        assert math.isclose(totals[header.SalesOrder], float(header.TotalNetAmount))


def test_blocked_rule_and_texts():
    orders = sap.orders()
    blocked = [o for _, o in orders.iterrows() if sap.is_blocked(o)]
    assert [o["SalesOrder"] for o in blocked] == ["4711", "4723", "4725"]
    texts = {o["SalesOrder"]: sap.block_text(o) for o in blocked}
    assert sorted(texts) == ["4711", "4723", "4725"]
    assert texts["4711"] == "Blocked by the credit check."
    assert texts["4723"] == "Incomplete: delivery address data missing."
    assert texts["4725"] == "Pricing: the customer disputes the price."
    free = orders.iloc[3]
    assert not sap.is_blocked(free) and sap.block_text(free) == ""
    billing_only = {**orders.iloc[3].to_dict(), "HeaderBillingBlockReason": "01"}
    assert sap.is_blocked(billing_only)


def test_customer_master_has_one_gap():
    customers = sap.customers().set_index("customer")
    assert list(customers.index) == ["10023", "10051", "10077"]
    assert customers.loc["10023", "credit_limit"] == 50000.0 and customers.loc["10023", "open_items"] == 50700.0
    gaps = [(c, f) for c in customers.index for f in ("street", "postal_code", "city", "country")
            if customers.loc[c, f] == ""]
    assert gaps == [("10051", "postal_code")]


def test_price_conditions_of_4725():
    prices = sap.price_conditions()
    assert prices.to_dict("records") == [{"sales_order": "4725", "list_price": 4300.0, "discount": 400.0,
                                          "net_price": 3900.0, "currency": "EUR"}]


# ---------- cold chain ----------

def test_shipments_readings_and_limits():
    shipments = coldchain.shipments()
    assert len(shipments) == 24 and shipments["shipment_id"].is_unique
    assert set(shipments["product_class"]) == {"FROZEN", "CHILLED"}
    assert shipments["shipment_number"].str.fullmatch(r"SHP-20\d\d").all()
    readings = coldchain.readings()
    counts = readings.groupby("shipment_id").size()
    assert (counts == 49).all() and len(counts) == 24
    steps = readings.groupby("shipment_id")["ts"].diff().dropna().unique()
    assert list(steps) == [pd.Timedelta(minutes=30)]
    limits = coldchain.limits()
    assert list(limits.columns) == ["product_class", "max_temp_c", "sample_minutes", "max_minutes_above",
                                    "claim_per_hour_eur"]
    assert len(limits) == 2


def test_readings_as_json_are_about_48_kb():
    size = len(json.dumps(list(coldchain.readings_by_shipment().values()), separators=(",", ":")))
    assert 45_000 <= size <= 51_000
    first = next(iter(coldchain.readings_by_shipment().values()))[0]
    assert set(first) == {"ts", "temp_c"}


def test_claims_computed_from_the_files_come_to_1920():
    """Computed here from the raw files, independently of coldchain.claims()."""
    shipments = pd.read_csv(DATA_DIR / "coldchain/shipments.csv")
    limits = pd.read_csv(DATA_DIR / "coldchain/limits.csv").set_index("product_class")
    raw = {e["shipment_id"]: [r["temp_c"] for r in e["readings"]]
           for e in json.loads((DATA_DIR / "coldchain/readings.json").read_text())}
    found = {}
    for s in shipments.itertuples():
        lim = limits.loc[s.product_class]
        longest = run = 0
        for t in raw[s.shipment_id]:
            run = run + 1 if t > lim.max_temp_c else 0
            longest = max(longest, run)
        minutes = longest * lim.sample_minutes
        if minutes > lim.max_minutes_above:
            found[s.shipment_number] = (s.product_class, s.carrier, minutes,
                                        math.ceil(minutes / 60) * lim.claim_per_hour_eur)
    assert found == {"SHP-2047": ("FROZEN", "Meridian Cargo", 150, 720),
                     "SHP-2052": ("CHILLED", "Nordfracht", 90, 240),
                     "SHP-2061": ("FROZEN", "Baltic Reefer", 210, 960)}
    assert sum(v[3] for v in found.values()) == 1920
    table = coldchain.claims()
    assert table.loc[table["claim_eur"] > 0, "shipment_number"].tolist() == ["SHP-2047", "SHP-2052", "SHP-2061"]
    assert table["claim_eur"].sum() == 1920


def test_near_misses_stay_under_the_rule():
    table = coldchain.claims()
    near = table[(table["longest_breach_min"] > 0) & (table["claim_eur"] == 0)]
    assert len(near) >= 4
    assert (near["longest_breach_min"] <= 60).all()
    assert (near["longest_breach_min"] == 60).sum() >= 2, "breaches of exactly the allowance are in the data"
    at_limit = [s for s, temps in coldchain.readings_by_shipment().items()
                if any(r["temp_c"] == -18.0 or r["temp_c"] == 8.0 for r in temps)]
    assert at_limit, "some readings sit exactly at a limit"


@pytest.mark.parametrize("minutes, expected", [(0, 0), (30, 0), (60, 0), (90, 480), (150, 720), (210, 960)])
def test_claim_rule_pays_every_started_hour(minutes, expected):
    assert coldchain.claim_eur(minutes, 60, 240) == expected


def test_missing_file_gives_a_one_line_instruction(tmp_path):
    with pytest.raises(FileNotFoundError) as error:
        sap.orders(tmp_path)
    assert ".venv/bin/tooldesign data" in str(error.value) and "\n" not in str(error.value)


def test_unwritable_data_folder_is_explained(tmp_path):
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where a folder should be")
    with pytest.raises(DataDirError) as error:
        build_all(blocker / "data")
    assert "\n" not in str(error.value)


def test_a_table_is_parsed_once_per_version_and_every_caller_gets_its_own_copy(tmp_path):
    """sap's tables are cached by file version: editing a returned frame never reaches the next caller,
    and a rebuilt file (a new version) is read again."""
    import shutil

    from tooldesign.data import sap

    folder = tmp_path / "sap"
    shutil.copytree(sap.FOLDER, folder)
    first = sap.orders(folder)
    first.loc[0, "SalesOrder"] = "EDITED"
    assert sap.orders(folder).loc[0, "SalesOrder"] != "EDITED"
    assert sap.orders(folder) is not sap.orders(folder)
    before = sap._parsed.cache_info().hits
    sap.orders(folder)
    assert sap._parsed.cache_info().hits == before + 1
    sap.write(folder)  # a rebuild writes new files: a new version, read again, with the same content
    misses = sap._parsed.cache_info().misses
    assert sap.orders(folder).equals(sap.orders(sap.FOLDER))
    assert sap._parsed.cache_info().misses >= misses
