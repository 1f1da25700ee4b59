"""The designed set: small results with names, rules in code, drafts only, errors that guide."""
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tooldesign.data import sap
from tooldesign.tools import tool_set
from tooldesign.tools.base import result_size
from tooldesign.tools.designed import (DESIGNED_NAMES, DRAFTS_ONLY, EXAMPLES, READ_ONLY, DraftStore, approver_for,
                                       build_designed_set)
from tooldesign.tools.schema import check_definition, is_strict_ready, validate_arguments

def sap_text(code: str) -> str:
    """The configured text for a credit-status code, read from the data as the tool does."""
    reasons = sap.block_reasons()
    return reasons[(reasons.field == "TotalCreditCheckStatus") & (reasons.code == code)].text.item()


JUSTIFICATION = "Exposure is 52,500 EUR, 5% over the 50,000 EUR limit; the customer pays on time."


@pytest.fixture
def designed():
    return tool_set("designed")


def test_five_tools_named_object_verb_detail(designed):
    assert designed.names == list(DESIGNED_NAMES)


def test_definitions_valid_strict_ready_and_annotated(designed):
    for tool in designed:
        assert check_definition(tool) == []
        assert is_strict_ready(tool.parameters), tool.name
        assert "readOnlyHint" in tool.annotations
    assert designed["release_request_create"].annotations == DRAFTS_ONLY
    assert all(designed[n].annotations == READ_ONLY for n in DESIGNED_NAMES if n != "release_request_create")


def test_examples_fit_their_schemas(designed):
    for name, example in EXAMPLES.items():
        assert validate_arguments(designed[name], example) == []
        assert "error" not in designed[name].run(example), name


def test_block_summary_concise_and_detailed(designed):
    tool = designed["sales_order_get_block_summary"]
    concise = tool.run({"sales_order": "4711", "detail": "concise"})
    assert concise == {"sales_order": "4711", "customer": "10023", "customer_name": "Nordhafen Tools GmbH",
                       "net_value": 1800.0, "currency": "EUR", "blocked": True, "block_reason": sap_text("B")}
    assert 150 <= result_size(concise) <= 230
    detailed = tool.run({"sales_order": "4725", "detail": "detailed"})
    assert detailed["block_reason"] == "Pricing: the customer disputes the price."
    assert detailed["items"][0]["material"] == "LI07" and detailed["customer_po"] == "PO-4725"
    assert tool.run({"sales_order": "4730", "detail": "concise"})["blocked"] is False


def test_wrong_number_error_is_actionable(designed):
    error = designed["sales_order_get_block_summary"].run({"sales_order": "SO-4711", "detail": "concise"})["error"]
    assert "digits only" in error and "'4711'" in error and '"SO-4711"' in error and "call again" in error


def test_missing_order_names_the_tool_to_use_instead(designed):
    error = designed["sales_order_get_block_summary"].run({"sales_order": "4799", "detail": "concise"})["error"]
    assert "does not exist or you may not see it" in error and "sales_order_search" in error


def test_hidden_records_read_exactly_like_missing_ones():
    hidden = build_designed_set(may_see=lambda customer: customer != "10077")
    for tool, args, ghost in (
            ("sales_order_get_block_summary", {"sales_order": "4725", "detail": "concise"}, {"sales_order": "4726"}),
            ("customer_get_address_gaps", {"customer": "10077"}, {"customer": "10078"}),
            ("release_request_create", {"sales_order": "4725", "justification": JUSTIFICATION},
             {"sales_order": "4726"})):
        seen = hidden[tool].run(args)["error"]
        missing = hidden[tool].run({**args, **ghost})["error"]
        number = next(iter(ghost.values()))
        assert seen.replace(next(iter(args.values())), "N") == missing.replace(number, "N")


def test_credit_exposure_decides_the_approver_in_code(designed):
    result = designed["customer_get_credit_exposure"].run({"customer": "10023", "sales_order": "4711"})
    assert result["exposure"] == 52500.0 and result["percent_over_limit"] == 5.0
    assert result["approver"] == "CREDIT_MANAGER"
    alone = designed["customer_get_credit_exposure"].run({"customer": "10023", "sales_order": None})
    assert alone["order_value"] == 0.0 and alone["approver"] == "CREDIT_MANAGER"  # 50,700 is 1.4% over
    fine = designed["customer_get_credit_exposure"].run({"customer": "10077", "sales_order": "4725"})
    assert fine["approver"] == "none" and fine["percent_over_limit"] == 0.0


@pytest.mark.parametrize("exposure, approver", [(50_000_00, "none"), (50_000_01, "CREDIT_MANAGER"),
                                                (52_500_00, "CREDIT_MANAGER"), (52_500_01, "HEAD_OF_FINANCE")])
def test_approval_rule_boundaries(exposure, approver):
    assert approver_for(exposure, 50_000_00) == approver


def test_credit_exposure_refuses_another_customers_order(designed):
    error = designed["customer_get_credit_exposure"].run({"customer": "10023", "sales_order": "4725"})["error"]
    assert "belongs to customer 10077" in error and "null" in error


def test_address_gaps(designed):
    assert designed["customer_get_address_gaps"].run({"customer": "10051"}) == {
        "customer": "10051", "customer_name": "Donau Retail AG", "missing_fields": ["postal_code"],
        "complete": False}
    assert designed["customer_get_address_gaps"].run({"customer": "10023"})["complete"] is True


def test_search_limits_counts_and_notes(designed):
    search = designed["sales_order_search"]
    default = search.run({"customer": "10023", "blocked_only": False, "limit": None})
    assert (default["total"], default["showing"]) == (7, 5) and "blocked_only" in default["note"]
    assert 450 <= result_size(default) <= 750
    assert [o["sales_order"] for o in default["orders"]][:2] == ["4735", "4734"]  # newest first
    blocked = search.run({"customer": "10023", "blocked_only": True, "limit": None})
    assert blocked["total"] == 1 and "note" not in blocked
    everything = search.run({"customer": "10023", "blocked_only": False, "limit": 20})
    assert everything["showing"] == 7 and "note" not in everything


@pytest.mark.parametrize("limit", [0, 21, 2.5, True, "5"])
def test_search_refuses_a_bad_limit(designed, limit):
    error = designed["sales_order_search"].run({"customer": "10023", "blocked_only": False, "limit": limit})
    assert "1 to 20" in error["error"] and "null" in error["error"]


def test_release_drafts_once_and_returns_the_same_draft():
    store = DraftStore()
    tool = build_designed_set(drafts=store)["release_request_create"]
    first = tool.run({"sales_order": "4711", "justification": JUSTIFICATION})
    second = tool.run({"sales_order": "4711", "justification": JUSTIFICATION + " Again."})
    assert first["request_id"] == second["request_id"] == "RR-4711"
    assert first["status"] == "waiting_for_approval" and "nothing has been released" in first["message"]
    assert second["justification"] == first["justification"] and "already exists" in second["message"]
    assert [d["sales_order"] for d in store.pending()] == ["4711"]


def test_release_refuses_unblocked_orders_and_thin_reasons(designed):
    tool = designed["release_request_create"]
    unblocked = tool.run({"sales_order": "4730", "justification": JUSTIFICATION})["error"]
    assert "not blocked" in unblocked and "sales_order_get_block_summary" in unblocked
    thin = tool.run({"sales_order": "4711", "justification": "customer always pays"})["error"]
    assert "too thin" in thin and "customer_get_credit_exposure" in thin


def test_fresh_sets_do_not_share_drafts():
    a, b = tool_set("designed"), tool_set("designed")
    a["release_request_create"].run({"sales_order": "4711", "justification": JUSTIFICATION})
    fresh = b["release_request_create"].run({"sales_order": "4711", "justification": JUSTIFICATION})
    assert "Draft created" in fresh["message"]


def test_shape_errors_name_the_fields_and_give_an_example(designed):
    tool = designed["sales_order_search"]
    assert "Its fields are customer, blocked_only, limit" in tool.run({"customer": "1", "sort": "x"})["error"]
    missing = tool.run({"customer": "10023"})["error"]
    assert "blocked_only, limit is missing" in missing and "Example" in missing
    assert "JSON object" in tool.run(["10023"])["error"]


JSON = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
                    | st.text(max_size=12),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
                    max_leaves=8)
FIELD_NAMES = st.sampled_from(["sales_order", "customer", "detail", "blocked_only", "limit", "justification"])
PLAUSIBLE = st.sampled_from(["4711", "4725", "4730", "10023", "10051", "concise", "detailed", "", " 4711", "٤٧١١"])
ARGUMENTS = JSON | st.dictionaries(FIELD_NAMES, JSON | PLAUSIBLE, max_size=4)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from(DESIGNED_NAMES), arguments=ARGUMENTS)
def test_no_designed_handler_raises_on_any_json(name, arguments):
    result = tool_set("designed")[name].run(arguments)
    assert isinstance(result, dict)
    json.dumps(result)  # always serialisable
    if "error" in result:
        assert isinstance(result["error"], str) and len(result["error"]) > 30


def test_the_keyword_stuffed_variant_keeps_the_tools_and_changes_only_the_words():
    from tooldesign.tools import VARIANT_NAMES
    from tooldesign.tools.designed import DESCRIPTIONS, KEYWORD_STUFFED_DESCRIPTIONS

    plain, stuffed = tool_set("designed"), tool_set("designed-keyword-stuffed")
    assert "designed-keyword-stuffed" in VARIANT_NAMES and stuffed.name == "designed-keyword-stuffed"
    assert plain.names == stuffed.names
    for a, b in zip(plain, stuffed):
        assert a.parameters == b.parameters and a.annotations == b.annotations
        assert a.description == DESCRIPTIONS[a.name] != b.description == KEYWORD_STUFFED_DESCRIPTIONS[b.name]
    assert stuffed["customer_get_address_gaps"].run({"customer": "10051"}) == plain[
        "customer_get_address_gaps"].run({"customer": "10051"})
    with pytest.raises(ValueError, match="designed-keyword-stuffed"):
        tool_set("designed-tuned")
