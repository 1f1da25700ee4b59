"""Notebook 12: answers in a learner's own words pass, and the answer keys match the package. (Every
exercise is proven both ways in test_exercises.py.)"""
from __future__ import annotations

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


CORRECT = [("ex12-keep-fields", keep_fields), ("ex12-keep-fields", keep_fields_other_words),
           ("ex12-keep-fields", lambda questions: tuple(reversed(keep_fields(questions)))),
           ("ex12-truncate-with-note", truncate), ("ex12-truncate-with-note", truncate_other_words),
           ("ex12-page", page), ("ex12-page", page_other_order)]


@pytest.mark.parametrize("grade_id, answer", CORRECT)
def test_a_correct_answer_in_a_learners_own_words_passes(grade_id, answer):
    verdict = evaluate(grade_id, answer)
    assert verdict.status == PASS, verdict.message


def test_the_kept_fields_are_fields_of_the_record_the_mirror_returns():
    import json

    from workbook.exercises import lesson12 as lesson

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
    verdict = evaluate("ex12-keep-fields", wrong)
    assert verdict.status == FAIL and hint in verdict.message, verdict.message
    if "can't be answered" in verdict.message:  # the hint says which question, never which field to add
        from workbook.exercises.lesson12 import ORDER_FIELDS
        assert not any(f in verdict.message for f in ORDER_FIELDS if f != "SalesOrder"), verdict.message


def test_the_stub_is_not_done_yet():
    def stub(questions):
        raise NotImplementedError
    verdict = evaluate("ex12-keep-fields", stub)
    assert verdict.status != PASS


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
        (questions,) = lesson._gen_keep(rng)
        want = lesson._keep_fields(questions)
        assert lesson._same_fields(keep_fields_other_words(questions), want)
        assert lesson._same_fields(set(keep_fields(questions)), want)
        assert not lesson._same_fields(keep_fields(questions)[1:], want)
        assert not lesson._same_fields(keep_fields(questions) + ["PricingDate"], want)
        if questions:
            forgotten = [q for q in questions if q != questions[0]]  # one question left out entirely
            assert not lesson._same_fields(keep_fields(forgotten), want)
        text, limit = lesson._gen_truncate(rng)
        want = lesson._truncated(text, limit)
        assert lesson._same_truncation(truncate_text(text, limit), want)
        assert lesson._same_truncation(truncate_other_words(text, limit), want)
        if len(text) > limit:
            assert not lesson._same_truncation(text[:limit], want)
        rows, cursor, size = lesson._gen_page(rng)
        assert lesson._same_page(page_other_order(rows, cursor, size), lesson._page(rows, cursor, size))
