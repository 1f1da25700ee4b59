"""Notebook 12: answers in a learner's own words pass, and the answer keys match the package. (Every
exercise is proven both ways in test_exercises.py.)"""
from __future__ import annotations

import pytest

from tooldesign.loop import run_task
from workbook.checks import FAIL, PASS, evaluate


def carried_tokens(fixed_chars, result_chars):
    return sum(fixed_chars + sum(result_chars[:k]) for k in range(len(result_chars) + 1)) // 4


def carried_tokens_other_words(fixed_chars, result_chars):
    total, conversation = fixed_chars, 0
    for size in result_chars:
        conversation += size
        total += fixed_chars + conversation
    return total // 4


def truncate(text, limit):
    if len(text) <= limit:
        return text
    return text[:limit] + f"\n[cut: {len(text) - limit:,} of {len(text):,} characters not shown]"


def truncate_other_words(text, limit):
    return text if len(text) <= limit else f"{text[:limit]} ... ({len(text) - limit} more characters left out)"


def page(rows, cursor, size):
    end = cursor + size
    return {"results": rows[cursor:end], "total": len(rows), "next_cursor": end if end < len(rows) else None}


def page_other_order(rows, cursor, size):
    more = cursor + size < len(rows)
    return {"next_cursor": str(cursor + size) if more else None, "total": len(rows),
            "results": list(rows)[cursor:cursor + size]}


CORRECT = [("ex12-carried-tokens", carried_tokens), ("ex12-carried-tokens", carried_tokens_other_words),
           ("ex12-truncate-with-note", truncate), ("ex12-truncate-with-note", truncate_other_words),
           ("ex12-page", page), ("ex12-page", page_other_order)]


@pytest.mark.parametrize("grade_id, answer", CORRECT)
def test_a_correct_answer_in_a_learners_own_words_passes(grade_id, answer):
    verdict = evaluate(grade_id, answer)
    assert verdict.status == PASS, verdict.message


def test_carried_tokens_agrees_with_the_measured_runs():
    for set_name in ("mirror", "designed"):
        run = run_task(set_name)
        assert carried_tokens(run.calls[0].chars, [e.chars for e in run.exchanges]) == run.total_tokens


def test_a_truncation_that_never_cuts_fails():
    assert evaluate("ex12-truncate-with-note", lambda text, limit: text).status == FAIL


def test_a_page_as_a_list_fails_with_a_hint():
    verdict = evaluate("ex12-page", lambda rows, cursor, size: rows[cursor:cursor + size])
    assert verdict.status == FAIL and "dict" in verdict.message


def test_the_graders_drawn_inputs_agree_with_the_package_and_refuse_a_silent_cut():
    import random

    from tooldesign.loop.shrink import truncate_text
    from workbook.exercises import lesson12 as lesson

    rng = random.Random(20261201)
    for _ in range(200):
        fixed, sizes = lesson._gen_carried(rng)
        assert lesson._carried(fixed, sizes) == carried_tokens_other_words(fixed, sizes)
        text, limit = lesson._gen_truncate(rng)
        want = lesson._truncated(text, limit)
        assert lesson._same_truncation(truncate_text(text, limit), want)
        assert lesson._same_truncation(truncate_other_words(text, limit), want)
        if len(text) > limit:
            assert not lesson._same_truncation(text[:limit], want)
        rows, cursor, size = lesson._gen_page(rng)
        assert lesson._same_page(page_other_order(rows, cursor, size), lesson._page(rows, cursor, size))
