"""Notebook 13: answers in a learner's own words pass, and the answer keys match the package. (Every
exercise is proven both ways in test_exercises.py.)"""
from __future__ import annotations

import pytest

from tooldesign.lint import lint
from tooldesign.scale import consolidate, growth
from tooldesign.tools.base import Tool
from workbook.checks import PASS, evaluate
from workbook.exercises.lesson13 import CATCH_EXPECTED, CATCH_PROBES


def choose_k(rows, budget):
    fitting = [r for r in rows if r["tokens"] <= budget]
    return max(fitting, key=lambda r: (r["accuracy"], -r["k"]))["k"] if fitting else None


def catch_all_fields(definition):
    props = definition["parameters"].get("properties", {})
    return sorted((name for name, spec in props.items()
                   if name.lower() in consolidate.CHOICE_WORDS
                   and "string" in (spec.get("type") if isinstance(spec.get("type"), list) else [spec.get("type")])
                   and not {"enum", "pattern"} & set(spec)), reverse=True)  # another order passes too


def loss_per_tool():
    curves = {"neighbours first": growth.measure(order="neighbours first", pickers=("bm25",)),
              "unrelated first": growth.measure(order="unrelated first", pickers=("bm25",))}
    out = {}
    for order, points in curves.items():
        start = next(p for p in points if p.tools == 5).accuracy["bm25"]
        end = next(p for p in points if p.tools == 25).accuracy["bm25"]
        out[order] = (start - end) * 100 / 20
    return out


LOSS = loss_per_tool()


def test_choose_k_written_as_a_learner_might_passes():
    verdict = evaluate("ex13-choose-k", choose_k)
    assert verdict.status == PASS, verdict.message


def test_loss_key_follows_the_measured_curves_and_shows_overlap_costs_more():
    from workbook.exercises.lesson13 import loss_key

    key = loss_key()
    assert key == pytest.approx(LOSS)
    # With the plain descriptions BM25 loses about as much either way; the words stand-in (notebook 13's
    # other curve) still loses more while the neighbours join.
    assert key["neighbours first"] >= key["unrelated first"] > 0
    words = loss_key("words")
    assert words["neighbours first"] > words["unrelated first"] > 0


def test_the_measured_loss_passes_rounded_to_two_places_too():
    assert evaluate("ex13-loss-per-tool", LOSS).status == PASS
    rounded = {k: round(v, 2) for k, v in LOSS.items()}
    assert evaluate("ex13-loss-per-tool", rounded).status == PASS


def test_catch_all_answer_passes_and_its_key_agrees_with_the_lint_rule():
    assert evaluate("ex13-catch-all", catch_all_fields).status == PASS
    for (definition,), want in zip(CATCH_PROBES, CATCH_EXPECTED):
        tool = Tool(definition["name"], definition["description"], definition["parameters"], lambda a: a)
        flagged = bool(list(consolidate.CATCH_ALL_RULE.check(tool, [tool])))
        assert flagged == bool(want) == bool(catch_all_fields(definition)), definition["name"]
        named = [f for f in consolidate.CATCH_ALL_RULE.check(tool, [tool])]
        assert len(named) == len(want) and all(f"'{name}'" in text for name, text in zip(want, named))
    assert [f.rule for f in lint(consolidate.catch_all(), extra=consolidate.RULES).findings].count("param-catch-all") == 1
