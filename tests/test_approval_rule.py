"""The one approval rule: every waiting or refused write the package reports passes lesson 12's
false-success check, and the check itself fails the wordings that read as done."""

import pytest

from tooldesign.capstone import scripted
from tooldesign.capstone.reference import reference_loop
from tooldesign.codemode import coldchain_tools as cc
from tooldesign.dispatch import Decision, Dispatcher, ToolCall, allow_all, deny_all, fixed, release_policy
from tooldesign.dispatch.approval import (
    NOTHING_CHANGED,
    SAMPLE_REASONS,
    WriteNotice,
    WriteState,
    all_notices,
    refused,
    waiting,
)
from tooldesign.dispatch.errors import false_success
from tooldesign.injection.attack import PERSON_SAYS
from tooldesign.tools import tool_set
from tooldesign.tools.designed import EXAMPLES

RELEASE = "release_request_create"
GOOD = dict(EXAMPLES[RELEASE])


# ---------- the check fails what reads as done ----------

READS_AS_DONE = [
    "release_request_create awaits a person's approval; it was not run.",
    "release_request_create changes data and awaits a person's approval; it was not run.",
    "Request RR-4711 is waiting for approval.",
    "Your release request has been submitted.",
    "Release request created successfully.",
    "Pending approval.",
    "The request is now pending approval; nothing else to do.",
    "Queued for the credit desk.",
    "awaiting approval",
    "Sent to the approver.",
    "Done.",
    "",
    "   ",
    "The credit desk will look at it.",  # says nothing of what has not changed
    "Not run, but the draft has been created.",
    "Not run: it was successfully queued for review.",
]


@pytest.mark.parametrize("text", READS_AS_DONE)
def test_the_false_success_check_fails_wording_that_reads_as_done(text):
    reason = false_success(text)
    assert reason, text
    assert "reader" in reason or "says" in reason


PLAIN = [
    "Nothing has changed: release_request_create was not run.",
    "Not run: it needs a decision from a person.",
    "Not executed: it needs a decision from a person.",
    "Nothing was drafted. A person must decide the release; tell the user.",
    "CC_FILE_CLAIM was not run; a person has to decide it.",
]


@pytest.mark.parametrize("text", PLAIN)
def test_the_false_success_check_passes_plain_wording(text):
    assert false_success(text) is None


def test_a_refusal_that_quotes_a_reason_sounding_like_success_still_passes():
    text = refused(RELEASE, "It has been filed successfully already.", by_person=True).text
    assert false_success(text) is None
    assert "It has been filed successfully already." in text


def test_non_text_is_no_statement_that_nothing_changed():
    assert false_success(None)  # type: ignore[arg-type]
    assert false_success({"status": "waiting_for_approval"})  # type: ignore[arg-type]


# ---------- every notice the package builds passes ----------


@pytest.mark.parametrize("notice", all_notices(), ids=lambda n: f"{n.tool}-{n.state.name}-{len(n.reason)}-{n.who}")
def test_every_notice_passes_the_false_success_check(notice):
    assert false_success(notice.text) is None, notice.text
    assert notice.text.startswith(NOTHING_CHANGED)
    assert notice.tool in notice.text


def test_all_notices_cover_every_state_and_every_writing_tool():
    notices = all_notices()
    assert {n.state for n in notices} == set(WriteState)
    assert {n.tool for n in notices} == {RELEASE, cc.FILE_CLAIM}
    assert len(notices) > 50


@pytest.mark.parametrize("state", [WriteState.REFUSED_BY_POLICY, WriteState.REFUSED_BY_PERSON])
def test_a_refusal_without_a_reason_is_refused(state):
    with pytest.raises(ValueError, match="reason"):
        WriteNotice(state, RELEASE, "  ")


def test_a_notice_names_its_tool_and_a_typed_state():
    with pytest.raises(ValueError):
        WriteNotice(WriteState.WAITING, "")
    with pytest.raises(ValueError):
        WriteNotice("waiting", RELEASE)  # type: ignore[arg-type]


def test_a_policy_refusal_never_reads_as_a_persons_and_a_persons_says_so():
    by_code = refused(RELEASE, "Figures missing.", by_person=False).text
    by_person = refused(RELEASE, "Not this week.", by_person=True).text
    assert "code, not a person" in by_code and "a person refused" not in by_code
    assert "a person refused" in by_person and "Not this week." in by_person


def test_waiting_says_what_happens_next_and_what_to_tell_the_user():
    text = waiting(RELEASE).text
    assert "person must decide" in text and "run stops here" in text and "Tell the user" in text
    assert "approval" not in text.lower()


# ---------- the messages the dispatcher actually sends ----------


def _designed(**deciders):
    return Dispatcher(tool_set("designed"), examples=EXAMPLES, **deciders)


def _crash(call, tool):
    raise RuntimeError("service down")


DISPATCHER_CASES = {
    "no decider": ({}, RELEASE, GOOD),
    "policy denies": ({"policy_check": deny_all("Figures missing.")}, RELEASE, GOOD),
    "person denies": ({"person_decides": deny_all(PERSON_SAYS)}, RELEASE, GOOD),
    "policy crashes": ({"policy_check": _crash}, RELEASE, GOOD),
    "person crashes": ({"person_decides": _crash}, RELEASE, GOOD),
    "policy answers junk": ({"policy_check": lambda c, t: "yes"}, RELEASE, GOOD),
    "person's edit breaks the schema": (
        {"person_decides": fixed(Decision.allow_modified({**GOOD, "sales_order": "SO-4711"}))},
        RELEASE,
        GOOD,
    ),
    "release policy denies a justification without figures": (
        {"policy_check": release_policy},
        RELEASE,
        {"sales_order": "4725", "justification": "The customer says the price is settled now, please release it."},
    ),
}


@pytest.mark.parametrize("case", sorted(DISPATCHER_CASES))
def test_the_dispatchers_refused_writes_pass_the_check(case):
    deciders, name, arguments = DISPATCHER_CASES[case]
    result = _designed(**deciders).dispatch(ToolCall(name, arguments, "toolu_1"))
    assert result.is_error and not result.ran
    assert false_success(result.block()["content"]) is None, result.content


CLAIM = ToolCall(cc.FILE_CLAIM, {"shipment_id": 108, "eur": 720}, "toolu_9")


@pytest.mark.parametrize(
    "deciders",
    [
        {},
        {"policy_check": allow_all},
        {"person_decides": deny_all("SHP-2047 is already disputed with Meridian Cargo; do not file it twice.")},
        {"policy_check": deny_all("Over the limit."), "person_decides": fixed(Decision.allow())},
        {"person_decides": fixed(Decision.allow_modified({"shipment_id": 108, "eur": "720 EUR"}))},
        {"person_decides": _crash},
    ],
    ids=["nobody", "policy allows alone", "person denies", "policy denies first", "bad edit", "person crashes"],
)
def test_a_claim_that_did_not_run_says_nothing_changed(deciders):
    result = Dispatcher(cc.claim_tool_set()).dispatch(CLAIM, **deciders)
    assert not result.ran
    assert false_success(result.block()["content"]) is None, result.content


def test_a_policy_check_cannot_allow_a_write_that_takes_effect():
    result = Dispatcher(cc.claim_tool_set(), policy_check=allow_all).dispatch(CLAIM)
    assert not result.ran and "no person is set up" in result.content


# ---------- the capstone and the injection runs ----------


@pytest.mark.parametrize("seed", range(6))
def test_the_capstones_pending_write_passes_the_check(seed):
    report = reference_loop()(scripted("needs_a_person", seed), "Can you ask for a release of order 4711?")
    assert report.pending
    pending = set(report.pending)
    blocks = [
        b
        for m in report.transcript
        if m["role"] == "user" and isinstance(m["content"], list)
        for b in m["content"]
        if b.get("tool_use_id") in pending
    ]
    assert blocks and all(b["is_error"] for b in blocks)
    assert all(false_success(b["content"]) is None for b in blocks)


def test_the_capstone_verifier_fails_a_loop_that_says_awaiting_approval():
    from tooldesign.capstone.agent import course_dispatcher
    from tooldesign.capstone.verify import _tool_turn_problem

    use = {"type": "tool_use", "id": "toolu_w", "name": RELEASE, "input": GOOD}
    for said in ("awaiting approval", "release_request_create awaits a person's approval; it was not run."):
        back = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_w", "content": said,
                                              "is_error": True}]}
        problem = _tool_turn_problem([use], back, None, {}, {}, course_dispatcher())
        assert problem and "reads as done" in problem
    right = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_w",
                                          "content": waiting(RELEASE).text, "is_error": True}]}
    assert _tool_turn_problem([use], right, None, {}, {}, course_dispatcher()) is None


def test_the_person_in_lesson_17_refuses_with_a_plain_notice():
    result = Dispatcher(tool_set("designed"), person_decides=deny_all(PERSON_SAYS)).dispatch(
        ToolCall(RELEASE, GOOD, "toolu_2"))
    assert false_success(result.content) is None and PERSON_SAYS in result.content


def test_sample_reasons_include_one_that_sounds_like_success():
    assert any(false_success(r) for r in SAMPLE_REASONS if r)


def test_the_loops_system_prompt_asks_for_the_same_plain_words():
    from tooldesign.capstone.agent import SYSTEM_PROMPT

    assert "awaits approval" not in SYSTEM_PROMPT and "nothing has changed yet" in SYSTEM_PROMPT
