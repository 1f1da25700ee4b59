"""The mirrored set: a faithful first draft, with whole records, codes and bare errors."""
import json

from tooldesign.tools import tool_set
from tooldesign.tools.base import result_size
from tooldesign.tools.mirror import MIRROR_NAMES, load_sap
from tooldesign.tools.schema import check_definition


def test_seven_tools_in_api_order():
    assert tool_set("mirror").names == list(MIRROR_NAMES)
    assert len(MIRROR_NAMES) == 7


def test_definitions_are_valid_but_thin():
    for tool in tool_set("mirror"):
        assert check_definition(tool) == []
        assert len(tool.description.split(".")) == 2  # one sentence
        assert tool.annotations == {}


def test_get_order_returns_the_whole_record_with_codes():
    record = tool_set("mirror")["get_order"].run({"id": "4711"})
    assert record["TotalCreditCheckStatus"] == "B"
    assert record["__metadata"]["type"].endswith("A_SalesOrderType")
    assert 700 <= result_size(record) <= 1000


def test_details_add_items_and_status_keeps_only_codes():
    mirror = tool_set("mirror")
    details = mirror["get_order_details"].run({"id": "4711"})
    assert [i["Material"] for i in details["to_Item"]["results"]] == ["TG12", "TG14"]
    status = mirror["get_order_status"].run({"id": "4725"})
    assert status["DeliveryBlockReason"] == "02" and "SoldToParty" not in status


def test_bare_errors():
    mirror = tool_set("mirror")
    assert mirror["get_order"].run({"id": "SO-4711"}) == {"error": "400 Bad Request"}
    assert mirror["get_order"].run({"id": "4799"}) == {"error": "404"}
    assert mirror["get_bp"].run({"id": "99999"}) == {"error": "404"}
    assert mirror["query"].run({"entity": "A_Nothing"}) == {"error": "404"}
    assert mirror["query"].run({"entity": "A_SalesOrder", "filter": "SoldToParty = 1"}) == {"error": "400 Bad Request"}


def test_credit_and_partner_are_bare_numbers_and_raw_fields():
    mirror = tool_set("mirror")
    assert mirror["get_credit"].run({"id": "10023"}) == {"limit": 50000.0, "open": 50700.0}
    partner = mirror["get_bp"].run({"id": "10051"})
    assert partner["BusinessPartner"] == "10051" and partner["postal_code"] == ""


def test_query_filters_odata_style_and_returns_everything():
    result = tool_set("mirror")["query"].run({"entity": "A_SalesOrder", "filter": "SoldToParty eq '10023'"})
    rows = result["d"]["results"]
    assert len(rows) == 7 and {r["SoldToParty"] for r in rows} == {"10023"}
    assert 5000 <= result_size(result) <= 7000
    both = tool_set("mirror")["query"].run(
        {"entity": "A_SalesOrder", "filter": "SoldToParty eq '10023' and SalesOrder eq '4711'"})
    assert [r["SalesOrder"] for r in both["d"]["results"]] == ["4711"]


def test_update_order_never_changes_anything():
    before = json.dumps(load_sap().orders, sort_keys=True)
    mirror = tool_set("mirror")
    blank = {field: "" for field in ("TotalCreditCheckStatus", "DeliveryBlockReason")}
    assert mirror["update_order"].run({"id": "4711", "fields": blank}) == {"error": "403"}
    assert json.dumps(load_sap().orders, sort_keys=True) == before
    assert mirror["get_order"].run({"id": "4711"})["TotalCreditCheckStatus"] == "B"


def test_mirror_survives_odd_arguments():
    mirror = tool_set("mirror")
    for args in (None, [], "4711", {"id": 4711}, {"id": None}):
        for tool in mirror:
            assert isinstance(tool.run(args), dict)
