"""The same arguments, spelled differently, differ as strings and are equal once parsed."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st

from tooldesign.dispatch.serialisation import (DIFFERENT_VALUES, ArgumentsNotParsed, comparison, parse_arguments,
                                               same_arguments, spellings)

ARGS = {"sales_order": "4725", "justification": "Preis/Rabatt strittig: Genève, 3 900 €", "detail": "concise"}


@pytest.mark.parametrize("label", ["\\u escapes", "escaped slashes", "keys reordered", "spaces and newlines"])
def test_each_spelling_differs_as_a_string_and_parses_equal(label):
    variants = spellings(ARGS)
    assert variants[label] != variants["compact, UTF-8"]
    assert same_arguments(variants[label], variants["compact, UTF-8"])
    assert json.loads(variants[label]) == ARGS


def test_the_escapes_are_really_there():
    variants = spellings(ARGS)
    assert "\\u00e8" in variants["\\u escapes"] and "\\u20ac" in variants["\\u escapes"]
    assert "\\/" in variants["escaped slashes"]
    assert variants["keys reordered"].startswith('{"detail"')


def test_comparison_table():
    rows = comparison(ARGS)
    assert [r["same string"] for r in rows] == [True, False, False, False, False]
    assert all(r["same once parsed"] for r in rows)


@pytest.mark.parametrize("a,b,why", DIFFERENT_VALUES)
def test_parsing_keeps_real_differences(a, b, why):
    assert a != b and not same_arguments(a, b)


def test_parse_accepts_dicts_and_rejects_non_objects():
    assert parse_arguments({"a": 1}) == {"a": 1}
    assert parse_arguments(b'{"a": 1}') == {"a": 1}
    for bad in ('["4711"]', "4711", "{oops", None):
        with pytest.raises(ArgumentsNotParsed):
            parse_arguments(bad)


text = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=12)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(text, text | st.integers() | st.booleans() | st.none(), max_size=5))
def test_every_spelling_of_any_arguments_parses_equal(args):
    for spelled in spellings(args).values():
        assert same_arguments(spelled, args)
