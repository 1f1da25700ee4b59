"""The growing catalog: distractors, tokens (estimate) and offline accuracy."""
from __future__ import annotations

import pytest

from tooldesign.lint import lint
from tooldesign.scale.growth import (EXTRA_CASES, ORDERS, REPORTED, SCALE_CASES, catalog, definition_tokens,
                                     distractors, measure, table)
from tooldesign.tools import tool_set


def test_distractors_are_plausible_and_unique():
    for order in ORDERS:
        extra = distractors(order)
        assert len(extra) == 95 and len({t.name for t in extra}) == 95
        assert not set(t.name for t in extra) & set(tool_set("designed").names)
    report = lint(catalog(100))
    assert {f.rule for f in report.findings} == {"set-size", "set-twins", "desc-boundary"}


def test_catalog_sizes_and_shuffle():
    assert len(catalog(5)) == 5 and len(catalog(100)) == 100
    assert catalog(30, shuffle=1).names == catalog(30, shuffle=1).names != catalog(30).names
    assert sorted(catalog(30, shuffle=1).names) == sorted(catalog(30).names)
    with pytest.raises(ValueError):
        catalog(101)


def test_tokens_grow_with_the_catalog():
    sizes = [definition_tokens(catalog(n)) for n in (5, 20, 50, 100)]
    assert sizes == sorted(sizes) and 900 < sizes[0] < 1400 and sizes[-1] > 10 * sizes[0]


def test_accuracy_falls_as_neighbours_join():
    small, large = measure(sizes=(5, 30), pickers=("bm25",), shuffles=1)
    assert large.accuracy["bm25"] < small.accuracy["bm25"]
    assert table([small])[0]["tools"] == 5


def test_cases_and_reported_figures():
    assert len(SCALE_CASES) == 31 and len(EXTRA_CASES) == 19
    assert REPORTED["tokens_for_50_tools"] == (10_000, 20_000) and REPORTED["soft_limit"] == 20
