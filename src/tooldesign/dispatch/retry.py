"""Transient failures: the tool itself tries again, waiting longer each time, and stops after a fixed count.

A timeout that clears on its own should never reach the conversation: the tool waits, tries
again, and waits longer each time. When the attempts run out, the failure goes back as an
actionable error, never as an invented value. Time comes from an injectable clock, so tests
run the whole schedule in microseconds with a fake clock that never sleeps.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from tooldesign.dispatch.errors import ToolFailure
from tooldesign.tools.base import Tool


class Clock(Protocol):
    def now(self) -> float: ...

    def sleep(self, seconds: float) -> None: ...


class SystemClock:
    """The real clock, for real tools."""

    def now(self) -> float:
        return time.monotonic()

    def sleep(self, seconds: float) -> None:
        time.sleep(seconds)


@dataclass
class FakeClock:
    """A clock that only moves when asked to sleep, and remembers every sleep."""

    t: float = 0.0
    sleeps: list[float] = field(default_factory=list)

    def now(self) -> float:
        return self.t

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.t += seconds


class TransientError(Exception):
    """A failure worth retrying: it may clear by itself (a timeout, a busy service)."""


TRANSIENT: tuple[type[BaseException], ...] = (TransientError, TimeoutError, ConnectionError)


@dataclass(frozen=True)
class RetryPolicy:
    """At most ``max_attempts`` tries; the wait doubles (``factor``) from ``base_delay`` up to ``max_delay``."""

    max_attempts: int = 4
    base_delay: float = 0.5
    factor: float = 2.0
    max_delay: float = 8.0

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise ValueError("max_attempts must be at least 1; an unbounded retry is the failure mode")

    def delays(self) -> list[float]:
        """The waits between attempts: one fewer than the attempts."""
        return [min(self.base_delay * self.factor**n, self.max_delay) for n in range(self.max_attempts - 1)]


@dataclass(frozen=True)
class Attempts:
    """What a retried call did: how often it ran, how long it waited, and how it ended."""

    value: Any
    attempts: int
    waited: tuple[float, ...]
    error: BaseException | None

    @property
    def succeeded(self) -> bool:
        return self.error is None


def call_with_retry(
    fn: Callable[[], Any],
    policy: RetryPolicy = RetryPolicy(),
    clock: Clock | None = None,
    transient: tuple[type[BaseException], ...] = TRANSIENT,
) -> Attempts:
    """Call ``fn`` until it succeeds, a non-transient error occurs, or the attempts run out."""
    clock = clock or SystemClock()
    waits = policy.delays()
    waited: list[float] = []
    for attempt in range(1, policy.max_attempts + 1):
        try:
            return Attempts(fn(), attempt, tuple(waited), None)
        except transient as err:
            if attempt == policy.max_attempts:
                return Attempts(None, attempt, tuple(waited), err)
            clock.sleep(waits[attempt - 1])
            waited.append(waits[attempt - 1])
    raise AssertionError("unreachable: the loop returns on the last attempt")


def retrying(tool: Tool, policy: RetryPolicy = RetryPolicy(), clock: Clock | None = None) -> Tool:
    """The same tool, its handler wrapped in the retry. Exhaustion becomes an actionable ToolFailure."""

    def handler(arguments: dict) -> Any:
        outcome = call_with_retry(lambda: tool.run(arguments), policy, clock)
        if outcome.succeeded:
            return outcome.value
        raise ToolFailure(
            f"{tool.name} did not get an answer from its service after {outcome.attempts} attempts "
            f"over {sum(outcome.waited):g} s ({type(outcome.error).__name__})",
            expected="the service to answer; it is probably busy, not your input",
            instead="Try again in a few minutes or tell the user the data is unavailable right now",
        )

    return Tool(tool.name, tool.description, tool.parameters, handler, tool.annotations)


@dataclass
class Flaky:
    """A service stand-in that times out ``failures`` times, then answers with ``value``."""

    value: Any
    failures: int
    calls: int = 0

    def __call__(self, arguments: dict | None = None) -> Any:
        self.calls += 1
        if self.calls <= self.failures:
            raise TimeoutError(f"timed out (call {self.calls})")
        return self.value


def schedule(policy: RetryPolicy, failures: int) -> list[dict]:
    """A table of one run against a service failing ``failures`` times, measured on a fake clock."""
    clock, service = FakeClock(), Flaky({"ok": True}, failures)
    outcome = call_with_retry(service, policy, clock)
    rows, t = [], 0.0
    for n in range(1, outcome.attempts + 1):
        last = n == outcome.attempts
        rows.append(
            {
                "attempt": n,
                "starts at (s)": t,
                "outcome": ("answer" if outcome.succeeded else "timeout, give up") if last else "timeout",
                "then waits (s)": "-" if last else outcome.waited[n - 1],  # a dash, not NaN in a table
            }
        )
        t += 0 if last else outcome.waited[n - 1]
    return rows
