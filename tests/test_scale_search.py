"""Tool search: fewer tokens, one extra round trip, accuracy bounded by what the search finds."""

from __future__ import annotations

import pytest

from tooldesign.scale.growth import SCALE_CASES, catalog
from tooldesign.scale.search import (
    best_k,
    compare_cached,
    expand,
    load_all,
    search_tool,
    top_k,
    with_search,
)
from tooldesign.selection import offline_picker


@pytest.fixture(scope="module")
def rows():
    return compare_cached()


def test_search_tool_returns_k_references_not_definitions():
    tools = catalog(100)
    found = search_tool(list(tools), 3).run({"job": "why is sales order 4711 blocked"})["found"]
    assert len(found) == 3 and all(set(r) == {"type", "tool_name"} for r in found)
    assert all(r["type"] == "tool_reference" for r in found)
    assert "sales_order_get_block_summary" in [r["tool_name"] for r in found]
    assert top_k("zzz", list(tools), 3) == []


def test_expand_loads_the_named_definitions_and_refuses_unknown_names():
    tools = catalog(100)
    refs = search_tool(list(tools), 2).run({"job": "why is sales order 4711 blocked"})["found"]
    assert [t.name for t in expand(refs, tools)] == [r["tool_name"] for r in refs]
    with pytest.raises(ValueError, match="not in the catalog: no_such_tool"):
        expand([{"type": "tool_reference", "tool_name": "no_such_tool"}], tools)


def test_the_second_call_pays_for_the_expanded_definitions():
    tools, picker = catalog(100), offline_picker("words")
    small, large = (with_search(SCALE_CASES[0], tools, k, picker) for k in (1, 5))
    assert large.tokens - small.tokens > 4 * 50  # four more definitions of at least ~50 tokens each


def test_search_costs_a_round_trip_and_far_fewer_tokens(rows):
    everything, *searches = rows
    assert everything.round_trips == 1 and all(r.round_trips == 2 for r in searches)
    assert all(r.tokens_per_request < everything.tokens_per_request / 5 for r in searches)
    tokens = [r.tokens_per_request for r in searches]
    assert tokens == sorted(tokens)
    recalls = [r.recall for r in searches]
    assert recalls == sorted(recalls) and everything.recall == 1.0
    assert all(r.accuracy <= r.recall for r in searches)


def test_best_k_under_a_budget(rows):
    assert best_k(10, rows) is None
    k = best_k(800, rows)
    assert k is not None and next(r for r in rows if r.k == k).tokens_per_request <= 800
    assert best_k(10**6, rows) == min((r for r in rows if r.k), key=lambda r: (-r.accuracy, r.k)).k


def test_one_request_both_ways():
    tools, picker = catalog(100), offline_picker("words")
    both = [(with_search(c, tools, 3, picker), load_all(c, tools, picker)) for c in SCALE_CASES[:8]]
    searched, loaded = next((s, l) for s, l in both if s.right and l.right)
    assert searched.tokens < loaded.tokens and len(searched.found) == 3
