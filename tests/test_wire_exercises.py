"""Lesson 18's exercises beyond the generic both-ways tests: other right wordings, edge cases."""

from __future__ import annotations

import random

import pytest

from workbook.checks import evaluate
from workbook.exercises import lesson18 as ex


def answer_in_reverse(content, outputs):
    """Right, written differently: results in reverse order, is_error always stated."""
    ids = [b["id"] for b in content if b["type"] == "tool_use"][::-1]
    return {"content": [{"tool_use_id": i, "type": "tool_result", "content": outputs[i]["text"],
                         "is_error": outputs[i]["is_error"]} for i in ids], "role": "user"}


def answer_with_comprehension(content, outputs):
    def block(b):
        out = {"type": "tool_result", "tool_use_id": b["id"], "content": outputs[b["id"]]["text"]}
        return {**out, "is_error": True} if outputs[b["id"]]["is_error"] else out

    return {"role": "user", "content": [block(b) for b in content if b.get("type") == "tool_use"]}


@pytest.mark.parametrize("answer", [answer_in_reverse, answer_with_comprehension, ex._answer_turn])
def test_answer_turn_accepts_other_right_wordings(answer):
    assert evaluate("ex18-answer-turn", answer).passed


@pytest.mark.parametrize("wrong, hint", [
    (lambda c, o: {"role": "user", "content": [{"type": "tool_result", "tool_use_id": b["id"],
                                                "content": o[b["id"]]["text"], "is_error": "yes"}
                                               for b in c if b["type"] == "tool_use"]}, "is_error"),
    (lambda c, o: {"role": "user", "content": []}, "one tool_result per tool_use"),
    (lambda c, o: {"role": "user", "content": "done"}, "list of tool_result"),
    (lambda c, o: {"role": "user", "content": [{"type": "tool_result", "tool_use_id": b["id"], "content": "ok"}
                                               for b in c if b["type"] == "tool_use"]}, "text of the output"),
    (lambda c, o: None, "message dict"),
])
def test_answer_turn_names_each_mistake(wrong, hint):
    verdict = evaluate("ex18-answer-turn", wrong)
    assert not verdict.passed and hint in verdict.message


def test_answer_turn_reference_agrees_with_the_judge_on_drawn_inputs():
    rng = random.Random(7)
    for _ in range(50):
        content, outputs = ex._gen_answer(rng)
        assert ex._answer_problem(ex._answer_turn(content, outputs), content, outputs) is None
        assert ex._same_answer(answer_in_reverse(content, outputs), ex._answer_turn(content, outputs))


def chat_tool_other_wording(definition):
    out = {"function": {"parameters": definition["input_schema"], "name": definition["name"],
                        "description": definition["description"]}, "type": "function"}
    if definition.get("strict") is not None:
        out["function"]["strict"] = definition["strict"]
    return out


def test_to_chat_tool_accepts_another_wording():
    assert evaluate("ex18-chat-tool", chat_tool_other_wording).passed


def test_to_chat_tool_reference_matches_the_package_dialect():
    from tooldesign.tools.designed import build_designed_set
    from tooldesign.wire import dialects

    for tool in build_designed_set():
        assert ex._to_chat_tool(dict(dialects.anthropic_tool(tool))) == dialects.chat_tool(tool)


def test_cache_breaks_agree_with_the_package_model():
    """The exercise's answers and tooldesign.wire.cache give the same verdict for the changes it can model."""
    from tooldesign.wire.cache import cache_verdict

    base = {"tools": [{"name": "b"}, {"name": "a"}], "system": "s", "tool_choice": {"type": "auto"},
            "messages": [{"role": "user", "content": "q"}, {"role": "user", "content": "r"},
                         {"role": "user", "content": "s"}]}
    modelled = {
        ex.CHANGES[0]: {"messages": base["messages"] + [{"role": "user", "content": "and the other order?"}]},
        ex.CHANGES[1]: {"tools": base["tools"][:1]},
        ex.CHANGES[2]: {"tools": [{**base["tools"][0], "input_examples": [{"q": 1}]}, base["tools"][1]]},
        ex.CHANGES[3]: {"tool_choice": {"type": "tool", "name": "a"}},
        ex.CHANGES[4]: {"messages": [base["messages"][0], {"role": "user", "content": "r, shorter"}, base["messages"][2]]},
        ex.CHANGES[5]: {"system": "s for customer 10023"},
        ex.CHANGES[6]: {"messages": base["messages"][1:]},
    }
    for change, edit in modelled.items():
        assert cache_verdict(base, {**base, **edit}).broken_at.value == ex.BREAKS[change], change


def test_cache_breaks_refuse_unknown_parts_and_extra_changes():
    assert "one of" in evaluate("ex18-cache-breaks", {**ex.BREAKS, ex.CHANGES[0]: "cache"}).message
    assert "only the changes" in evaluate("ex18-cache-breaks", {**ex.BREAKS, "other": "none"}).message
    assert evaluate("ex18-cache-breaks", dict(reversed(list(ex.BREAKS.items())))).passed
