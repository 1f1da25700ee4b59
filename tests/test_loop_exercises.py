"""Notebook 16: answers in a learner's own words pass, and the answer keys match the package. (Every
exercise is proven both ways in test_exercises.py.)"""
from __future__ import annotations

import json

import pytest

from tooldesign.loop import run_task
from workbook.checks import FAIL, PASS, evaluate


def keep_fields(questions):
    needs = {"worth": ["TotalNetAmount", "TransactionCurrency"],
             "held": ["DeliveryBlockReason", "HeaderBillingBlockReason", "TotalCreditCheckStatus"],
             "wanted": ["RequestedDeliveryDate"], "their_po": ["PurchaseOrderByCustomer"],
             "whose": ["SoldToParty"], "placed": ["SalesOrderDate"], "items": ["to_Item"]}
    kept = ["SalesOrder"]
    for question in questions:
        kept += [f for f in needs[question] if f not in kept]
    return kept


def keep_fields_other_words(questions):
    """Built in another order, sorted, with the creation date for 'placed' (it answers the same question)."""
    kept = {"SalesOrder"}
    if "placed" in questions:
        kept.add("CreationDate")
    if "items" in questions:
        kept.add("to_Item")
    if "whose" in questions:
        kept.add("SoldToParty")
    if "their_po" in questions:
        kept.add("PurchaseOrderByCustomer")
    if "wanted" in questions:
        kept.add("RequestedDeliveryDate")
    if "held" in questions:
        kept |= {"TotalCreditCheckStatus", "DeliveryBlockReason", "HeaderBillingBlockReason"}
    if "worth" in questions:
        kept |= {"TransactionCurrency", "TotalNetAmount"}
    return sorted(kept)


def cut(rows, limit):
    kept, used = [], 0
    for record in rows:
        used += len(json.dumps(record))
        if used > limit:
            break
        kept.append(record)
    left = len(rows) - len(kept)
    return {"results": kept, "total": len(rows),
            "note": f"{left} of {len(rows)} records are not shown." if left else None}


def cut_other_words(rows, limit):
    """Another loop, another note, the keys in another order: the same cut."""
    sizes = [len(json.dumps(r)) for r in rows]
    count = next((n for n in range(len(rows) + 1) if n == len(rows) or sum(sizes[:n + 1]) > limit), 0)
    hidden = len(rows) - count
    return {"note": None if not hidden else f"This list stops early: {hidden:,} more records were found and "
                                            "left out. Narrow the search to read them.",
            "total": float(len(rows)), "results": list(rows[:count])}


def page(rows, cursor, size):
    end = cursor + size
    return {"results": rows[cursor:end], "total": len(rows), "next_cursor": end if end < len(rows) else None}


def page_other_order(rows, cursor, size):
    more = cursor + size < len(rows)
    return {"next_cursor": str(cursor + size) if more else None, "total": len(rows),
            "results": list(rows)[cursor:cursor + size]}


CORRECT = [("ex16-keep-fields", keep_fields), ("ex16-keep-fields", keep_fields_other_words),
           ("ex16-keep-fields", lambda questions: tuple(reversed(keep_fields(questions)))),
           ("ex16-cut-records", cut), ("ex16-cut-records", cut_other_words),
           ("ex16-page", page), ("ex16-page", page_other_order)]


@pytest.mark.parametrize("grade_id, answer", CORRECT)
def test_a_correct_answer_in_a_learners_own_words_passes(grade_id, answer):
    verdict = evaluate(grade_id, answer)
    assert verdict.status == PASS, verdict.message


def test_the_kept_fields_are_fields_of_the_record_the_mirror_returns():
    import json

    from workbook.exercises import lesson16 as lesson

    record = json.loads(run_task("mirror").exchanges[1].result)
    assert tuple(k for k in record if k != "__metadata") == lesson.ORDER_FIELDS
    for _words, needs in lesson.FOLLOW_UPS.values():
        for need in needs:
            for field in (need,) if isinstance(need, str) else need:
                assert field in record, field  # an empty block field still answers "held?": no


@pytest.mark.parametrize("wrong, hint", [
    (lambda qs: keep_fields(qs) + ["CreatedByUser"], "re-sent on each later"),
    (lambda qs: [f for f in keep_fields(qs) if f != "RequestedDeliveryDate"], "When does the customer want it?"),
    (lambda qs: [f for f in keep_fields(qs) if f != "to_Item"], "What is on the order?"),
    (lambda qs: ["SalesOrder", "TotalNetAmount"] if qs else ["SalesOrder"], "without its unit"),
    (lambda qs: keep_fields(qs) + ["Customer"], "not a field of the order record"),
    (lambda qs: ",".join(keep_fields(qs)), "list of field names"),
    (lambda qs: keep_fields(sorted(set(qs))[:1]), "can't be answered"),
])
def test_a_plausible_wrong_choice_fails_with_a_hint_that_names_the_question_not_the_field(wrong, hint):
    verdict = evaluate("ex16-keep-fields", wrong)
    assert verdict.status == FAIL and hint in verdict.message, verdict.message
    if "can't be answered" in verdict.message:  # the hint says which question, never which field to add
        from workbook.exercises.lesson16 import ORDER_FIELDS
        assert not any(f in verdict.message for f in ORDER_FIELDS if f != "SalesOrder"), verdict.message


def test_the_stub_is_not_done_yet():
    def stub(questions):
        raise NotImplementedError
    verdict = evaluate("ex16-keep-fields", stub)
    assert verdict.status != PASS


def test_a_cut_that_never_cuts_fails():
    verdict = evaluate("ex16-cut-records", lambda rows, limit: {"results": rows, "total": len(rows), "note": None})
    assert verdict.status == FAIL and "more than" in verdict.message


# More mistakes than the registered ones, each with the hint that names the rule it breaks.
def _trimmed_records(rows, limit):  # keeps every record, but only its first field
    got = cut(rows, limit)
    return {**got, "results": [dict(list(r.items())[:1]) for r in got["results"]]}


def _note_in_characters(rows, limit):
    got = cut(rows, limit)
    hidden = len(json.dumps(rows[len(got["results"]):]))
    return {**got, "note": got["note"] and f"{hidden} characters are not shown."}


def _note_as_a_placeholder(rows, limit):
    got = cut(rows, limit)
    return {**got, "note": got["note"] and f"TODO: say {len(rows) - len(got['results'])} xxx"}


def _empty_note(rows, limit):
    got = cut(rows, limit)
    return {**got, "note": "" if got["note"] else None}


def _no_note_key(rows, limit):
    return {k: v for k, v in cut(rows, limit).items() if k != "note"}


def _reversed(rows, limit):
    got = cut(list(reversed(rows)), limit)
    return {**got, "total": len(rows)}


def _raises_on_nothing(rows, limit):
    if not rows:
        raise IndexError("list index out of range")
    return cut(rows, limit)


def _total_as_text(rows, limit):
    return {**cut(rows, limit), "total": str(len(rows))}


@pytest.mark.parametrize("answer, hint", [
    (_trimmed_records, "whole and unchanged"),
    (_note_in_characters, "how many records are not shown"),
    (_note_as_a_placeholder, "placeholder"),
    (_empty_note, "nothing says so"),
    (_no_note_key, "has no note"),
    (_reversed, "from the start"),
    (_raises_on_nothing, "raised"),
    (_total_as_text, "in all"),
])
def test_more_wrong_cuts_fail_with_the_rule_they_break(answer, hint):
    verdict = evaluate("ex16-cut-records", answer)
    assert verdict.status == FAIL and hint in verdict.message, verdict.message


def test_a_page_as_a_list_fails_with_a_hint():
    verdict = evaluate("ex16-page", lambda rows, cursor, size: rows[cursor:cursor + size])
    assert verdict.status == FAIL and "dict" in verdict.message


def test_the_graders_drawn_inputs_agree_with_the_package_and_refuse_a_silent_cut():
    def _silent_cut(rows, limit):
        return {**cut(rows, limit), "note": None}

    import random

    from workbook.exercises import lesson16 as lesson

    rng = random.Random(20261201)
    for _ in range(200):
        (questions,) = lesson._gen_keep(rng)
        want = lesson._keep_fields(questions)
        assert lesson._same_fields(keep_fields_other_words(questions), want)
        assert lesson._same_fields(set(keep_fields(questions)), want)
        assert not lesson._same_fields(keep_fields(questions)[1:], want)
        assert not lesson._same_fields(keep_fields(questions) + ["PricingDate"], want)
        if questions:
            forgotten = [q for q in questions if q != questions[0]]  # one question left out entirely
            assert not lesson._same_fields(keep_fields(forgotten), want)
        rows, limit = lesson._gen_cut(rng)
        want = lesson._cut(rows, limit)
        assert lesson._same_cut(cut(rows, limit), want) and lesson._same_cut(cut_other_words(rows, limit), want)
        assert not lesson._same_cut(_silent_cut(rows, limit), want) or want["note"] is None
        assert not lesson._same_cut(_note_in_characters(rows, limit), want) or want["note"] is None
        assert not lesson._same_cut({**want, "results": rows}, want) or len(want["results"]) == len(rows)
        rows, cursor, size = lesson._gen_page(rng)
        assert lesson._same_page(page_other_order(rows, cursor, size), lesson._page(rows, cursor, size))
