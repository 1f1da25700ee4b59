"""The code-mode registry: the table's shape, the database's rules, create vs merge, the verification query."""
from __future__ import annotations

import sqlite3

import pytest

from tooldesign.codemode import coldchain_tools as cc
from tooldesign.codemode.registry import (MAX_DESCRIPTION_CHARS, VERIFICATION_QUERY, DescriptionTooLong,
                                          Registry, UnknownTool)


@pytest.fixture
def registry(tmp_path):
    with Registry(tmp_path / "tools.sqlite") as reg:
        yield reg


def test_table_has_the_columns_of_the_source(registry):
    columns = [row[1] for row in registry.query("PRAGMA table_info(tools)")]
    for name in ("code", "description", "json_schema", "tags", "code_mode_access", "active"):
        assert name in columns


def test_registry_is_a_real_file_that_persists(tmp_path):
    path = tmp_path / "tools.sqlite"
    with Registry(path) as reg:
        reg.create_tool("CC_X", "x", tags=["coldchain"], code_mode_access="code")
    assert path.read_bytes().startswith(b"SQLite format 3")
    with Registry(path) as again:
        row = again.get("CC_X")
    assert (row.code_mode_access, row.tags, row.active) == ("code", ("coldchain",), True)


def test_create_defaults_access_to_both(registry):
    registry.create_tool("CC_A", "a")
    assert registry.get("CC_A").code_mode_access == "both"


def test_create_refuses_a_second_tool_with_the_same_code(registry):
    registry.create_tool("CC_A", "a")
    with pytest.raises(ValueError, match="already registered; use merge_tool"):
        registry.create_tool("CC_A", "again")


def test_merge_inserts_with_both_and_keeps_the_stored_access_when_not_given(registry):
    registry.merge_tool("CC_A", "first")
    assert registry.get("CC_A").code_mode_access == "both"
    registry.merge_tool("CC_A", "second", code_mode_access="code")
    registry.merge_tool("CC_A", "third: an old script that never mentions access")
    row = registry.get("CC_A")
    assert (row.description[:5], row.code_mode_access) == ("third", "code")  # the deployment trap
    registry.merge_tool("CC_A", "fourth", code_mode_access="both")
    assert registry.get("CC_A").code_mode_access == "both"


def test_merge_keeps_tags_function_and_active_when_not_given(registry):
    registry.merge_tool("CC_A", "a", tags=["coldchain"], function_call="m:f", active=False)
    registry.merge_tool("CC_A", "b")
    row = registry.get("CC_A")
    assert (row.tags, row.function_call, row.active) == (("coldchain",), "m:f", False)


def test_merge_updates_in_place_so_the_store_order_stays(registry):
    for code in ("CC_A", "CC_B", "CC_C"):
        registry.merge_tool(code, code)
    first_id = registry.get("CC_A").id
    assert registry.merge_tool("CC_A", "changed") == first_id
    assert [row.code for row in registry.rows()] == ["CC_A", "CC_B", "CC_C"]


def test_redeploying_the_cold_chain_tools_keeps_code_access(registry):
    cc.register(registry, access={cc.LIST: "code", cc.READINGS: "code", cc.LIMITS: "both"})
    cc.register(registry, cc.DRAFT)  # a later script without access values
    assert [row[1] for row in registry.verify()] == ["both", "code", "code"]


@pytest.mark.parametrize("method", ["create_tool", "merge_tool"])
def test_description_at_the_limit_is_kept_and_one_more_is_refused(registry, method):
    getattr(registry, method)("CC_OK", "x" * MAX_DESCRIPTION_CHARS)
    with pytest.raises(DescriptionTooLong, match=r"4,001 characters.*at most 4,000"):
        getattr(registry, method)("CC_LONG", "x" * (MAX_DESCRIPTION_CHARS + 1))
    assert [row.code for row in registry.rows()] == ["CC_OK"]


def test_the_database_itself_refuses_bad_values(registry):
    registry.create_tool("CC_A", "a")
    with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
        registry.query("UPDATE tools SET code_mode_access = 'hidden' WHERE code = 'CC_A'")
    with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
        registry.query("UPDATE tools SET description = ? WHERE code = 'CC_A'", ("y" * 4001,))
    assert registry.get("CC_A").code_mode_access == "both"


def test_an_unknown_access_value_is_refused_before_the_database(registry):
    with pytest.raises(ValueError, match="one of direct, code, both"):
        registry.create_tool("CC_A", "a", code_mode_access="hidden")
    registry.create_tool("CC_A", "a")
    with pytest.raises(ValueError, match="one of direct, code, both"):
        registry.set_access("CC_A", "Code")


def test_unknown_tools_are_named(registry):
    with pytest.raises(UnknownTool, match="no tool named CC_NONE"):
        registry.get("CC_NONE")
    with pytest.raises(UnknownTool):
        registry.set_access("CC_NONE", "code")


def test_verification_query_runs_as_written_and_escapes_the_underscore(registry):
    assert r"like 'CC\_%' escape '\'" in VERIFICATION_QUERY
    cc.register(registry, access={cc.LIST: "code", cc.READINGS: "code"})
    registry.create_tool("CCX_NOT_COLD_CHAIN", "the underscore must not match any character")
    registry.create_tool("OTHER", "other")
    assert registry.query(VERIFICATION_QUERY) == [
        ("CC_GET_LIMITS", "both", 1), ("CC_GET_READINGS", "code", 1), ("CC_LIST_SHIPMENTS", "code", 1)]
    # without the escape the underscore is a wildcard and the wrong tool slips in
    loose = registry.query("select code from tools where code like 'CC_%' order by code")
    assert ("CCX_NOT_COLD_CHAIN",) in loose


def test_callable_lists_follow_access_and_active(registry):
    registry.create_tool("D", "d", code_mode_access="direct")
    registry.create_tool("C", "c", code_mode_access="code")
    registry.create_tool("B", "b")
    registry.create_tool("OFF", "off", active=False)
    assert [row.code for row in registry.code_callable()] == ["C", "B"]
    assert [row.code for row in registry.direct_callable()] == ["D", "B"]
    registry.set_active("B", False)
    assert [row.code for row in registry.code_callable()] == ["C"]


def test_tags_select_rows(registry):
    registry.create_tool("A", "a", tags=["coldchain"])
    registry.create_tool("B", "b", tags=["filler"])
    registry.create_tool("C", "c", tags=["coldchain", "filler"])
    assert [row.code for row in registry.rows(["coldchain"])] == ["A", "C"]
    assert [row.code for row in registry.rows()] == ["A", "B", "C"]


def test_argument_names_come_from_the_schema(registry):
    cc.register(registry)
    assert registry.get(cc.READINGS).argument_names == ["shipment_id"]
    assert registry.get(cc.LIMITS).argument_names == []


def test_delete(registry):
    registry.create_tool("A", "a")
    registry.delete_tool("A")
    assert len(registry) == 0
