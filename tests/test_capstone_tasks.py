"""The task checker of the capstone's end-to-end tasks: a right end state passes whatever the order
of the calls; a wrong draft, a missing one, an extra write or a wrong answer fails."""

import pytest

from tooldesign.capstone import AgentReport, CallOutcome, CallRecord, StopReason, scripted
from tooldesign.capstone.reference import reference_loop
from tooldesign.capstone.tasks import TASKS, ClerkTask, EndState, end_state, judge, summary, task_rows

WRITES = ("release_request_create",)
BY_NAME = {t.name: t for t in TASKS}


def report(calls, answer=None, stop=StopReason.ANSWERED):
    records = tuple(CallRecord(f"toolu_{i}", name, args, outcome) for i, (name, args, outcome) in enumerate(calls))
    return AgentReport(answer, len(records) + 1, records, stop, ())


READ = ("sales_order_get_block_summary", {"sales_order": "4711", "detail": "concise"}, CallOutcome.RAN)
CREDIT = ("customer_get_credit_exposure", {"customer": "10023", "sales_order": "4711"}, CallOutcome.RAN)
DRAFT_4711 = ("release_request_create", {"sales_order": "4711", "justification": "x"}, CallOutcome.PENDING)
DRAFT_4723 = ("release_request_create", {"sales_order": "4723", "justification": "x"}, CallOutcome.PENDING)


def verdict(task, calls, answer=None):
    return judge(BY_NAME[task], end_state(report(calls, answer), WRITES))


def test_there_are_at_least_eight_tasks_with_distinct_names():
    assert len(TASKS) >= 8 and len({t.name for t in TASKS}) == len(TASKS)
    assert any(t.drafts for t in TASKS) and any(t.facts for t in TASKS)


@pytest.mark.parametrize("calls", [[READ, CREDIT, DRAFT_4711], [CREDIT, READ, DRAFT_4711], [DRAFT_4711],
                                   [READ, DRAFT_4711, DRAFT_4711]])
def test_the_right_draft_passes_in_any_order(calls):
    assert verdict("release 4711", calls).success


@pytest.mark.parametrize("answer", [
    "Customer 10023's exposure is 52,500 EUR against a limit of 50,000 EUR.",
    "Limit 50000 EUR; exposure 52500 EUR.",
    "The limit is 50.000 EUR and the exposure 52.500 EUR.",
])
def test_a_right_answer_passes_however_it_is_written(answer):
    assert verdict("exposure 10023", [CREDIT, READ], answer).success
    assert verdict("exposure 10023", [READ, CREDIT], answer).success


def test_a_wrong_draft_fails():
    v = verdict("release 4711", [READ, DRAFT_4723])
    assert not v.success and any("4723" in p for p in v.problems) and any("4711" in p for p in v.problems)


def test_a_missing_draft_fails():
    v = verdict("release 4723", [READ], "Order 4723 can be released.")
    assert not v.success and "no release request proposed for 4723" in v.problems


def test_an_extra_draft_fails_even_with_the_right_one():
    v = verdict("release 4711", [DRAFT_4711, DRAFT_4723])
    assert not v.success and "nobody asked about: 4723" in v.problems[0]


def test_a_draft_on_a_question_fails_even_with_the_right_answer():
    v = verdict("who approves 4711", [CREDIT, DRAFT_4711], "The CREDIT_MANAGER approves it.")
    assert not v.success and any("4711" in p for p in v.problems)


def test_another_write_fails():
    end = EndState(frozenset({"4711"}), ("update_order",), None)
    v = judge(BY_NAME["release 4711"], end)
    assert not v.success and "other writes proposed: update_order" in v.problems


def test_a_write_that_ran_counts_as_a_change():
    ran = ("release_request_create", {"sales_order": "4723", "justification": "x"}, CallOutcome.RAN)
    assert not verdict("release 4711", [DRAFT_4711, ran]).success


def test_a_refused_write_changed_nothing():
    refused = ("release_request_create", {"sales_order": "4723"}, CallOutcome.REFUSED)
    assert verdict("release 4711", [refused, DRAFT_4711]).success


@pytest.mark.parametrize("answer", [None, "", "Order 4711 is blocked.", "It is blocked by the pricing team."])
def test_a_wrong_or_missing_answer_fails(answer):
    v = verdict("exposure 10023", [CREDIT], answer)
    assert not v.success


def test_a_half_right_answer_fails_and_names_what_it_lacks():
    v = verdict("price 4725", [READ], "Order 4725 is blocked: the customer disputes the price.")
    assert not v.success and "3[,.]?900" in v.problems[0]


def test_a_task_without_an_end_is_refused():
    with pytest.raises(ValueError, match="no end"):
        ClerkTask("empty", "Do something.")


def test_the_loop_runs_the_tasks_on_both_sets_and_the_checker_tells_scripts_apart():
    models = {b: (lambda b=b: scripted(b, 0)) for b in ("well_behaved", "needs_a_person")}
    rows = task_rows(reference_loop(), models)
    assert {r.tool_set for r in rows} == {"mirror", "designed"} and len(rows) == 2 * 2 * len(TASKS)
    drafted = [r for r in rows if r.tool_set == "designed" and r.model == "needs_a_person"]
    # the script proposes a release of 4711 whatever it is asked: right only where that was the task
    assert [r.task for r in drafted if r.success] == ["release 4711"]
    assert all(r.tokens > 0 and r.steps >= 1 for r in rows)
    table = summary(rows)
    assert {(t["tool set"], t["model"]) for t in table} == {(s, m) for s in ("mirror", "designed") for m in models}
