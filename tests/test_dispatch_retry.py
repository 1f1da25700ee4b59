"""Transient failures: exponential backoff, a bounded number of attempts, a fake clock, no sleeping."""
from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from tooldesign.dispatch import Dispatcher, FakeClock, RetryPolicy, ToolCall, call_with_retry, retrying
from tooldesign.dispatch.retry import Flaky, schedule
from tooldesign.tools.base import Tool, ToolSet


def test_backoff_doubles_and_is_capped():
    assert RetryPolicy(max_attempts=6, base_delay=0.5, factor=2, max_delay=4).delays() == [0.5, 1, 2, 4, 4]


def test_recovers_inside_the_bound():
    clock, service = FakeClock(), Flaky("answer", failures=2)
    outcome = call_with_retry(service, RetryPolicy(max_attempts=4), clock)
    assert outcome.succeeded and outcome.value == "answer" and outcome.attempts == 3
    assert clock.sleeps == [0.5, 1.0] and clock.now() == 1.5


@given(st.integers(0, 50), st.integers(1, 8))
def test_the_retry_stops_at_its_bound(failures, bound):
    clock, service = FakeClock(), Flaky("answer", failures)
    outcome = call_with_retry(service, RetryPolicy(max_attempts=bound), clock)
    assert service.calls == outcome.attempts == min(failures + 1, bound)
    assert outcome.succeeded == (failures < bound)
    assert len(clock.sleeps) == outcome.attempts - 1


def test_non_transient_errors_are_not_retried():
    calls = []

    def broken():
        calls.append(1)
        raise ValueError("bad input")
    with pytest.raises(ValueError):
        call_with_retry(broken, RetryPolicy(max_attempts=5), FakeClock())
    assert calls == [1]


def test_zero_attempts_is_refused():
    with pytest.raises(ValueError):
        RetryPolicy(max_attempts=0)


def test_exhaustion_reaches_the_model_as_an_actionable_error():
    service = Flaky({"exposure": 52500.0}, failures=10)
    tool = Tool("customer_get_credit_exposure", "d", {"type": "object", "properties": {}}, service,
                {"readOnlyHint": True})
    clock = FakeClock()
    result = Dispatcher(ToolSet("t", (retrying(tool, RetryPolicy(max_attempts=3), clock),))).dispatch(
        ToolCall("customer_get_credit_exposure", {}))
    assert result.is_error and service.calls == 3 and clock.sleeps == [0.5, 1.0]
    assert "after 3 attempts" in result.content and "Try again" in result.content


def test_a_recovered_timeout_never_reaches_the_model():
    service = Flaky({"exposure": 52500.0}, failures=1)
    tool = Tool("customer_get_credit_exposure", "d", {"type": "object", "properties": {}}, service,
                {"readOnlyHint": True})
    result = Dispatcher(ToolSet("t", (retrying(tool, clock=FakeClock()),))).dispatch(
        ToolCall("customer_get_credit_exposure", {}))
    assert not result.is_error and result.content == {"exposure": 52500.0}


def test_schedule_table():
    rows = schedule(RetryPolicy(max_attempts=3), failures=5)
    assert [r["starts at (s)"] for r in rows] == [0.0, 0.5, 1.5]
    assert rows[-1]["outcome"] == "timeout, give up"
    assert schedule(RetryPolicy(), failures=1)[-1]["outcome"] == "answer"
