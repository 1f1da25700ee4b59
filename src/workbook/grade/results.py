"""The grader's results as types: enums and frozen dataclasses shared by every part.

``Claim`` is what a kernel request came to or what the probe in the kernel claimed (the kernel
client and the runner); ``Status`` and ``GradeVerdict`` are a row's and an exercise's outcome, and
``Row`` / ``ExerciseResult`` carry them through the runner, the batch, the journal, the gradebook
and the feedback. Spelling them as dict keys in six places let them drift apart. A :class:`Row` crosses process boundaries (pickled from a
worker) and is stored in the journal as JSON (``to_dict`` / ``from_dict``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, replace
from enum import Enum
from typing import Any


class Status(str, Enum):
    """A row's status, most severe first: a row takes the most severe problem found."""

    GRADER_ERROR = "grader-error"  # the grader's own fault: graded again next run
    REFUSED = "refused"  # not a regular file (a symlink, a device, a fifo)
    NOT_A_NOTEBOOK = "not-a-notebook"
    WRONG_NOTEBOOK = "wrong-notebook"
    CRASHED = "crashed"  # the kernel (or the grading process with it) died
    MEMORY_LIMIT = "memory-limit"
    DISK_LIMIT = "disk-limit"
    TIMEOUT = "timeout"
    DUPLICATE_ANSWERS = "duplicate-answers"
    MISSING_ANSWERS = "missing-answers"
    OUTPUT_LIMIT = "output-limit"
    MISSING = "missing"  # a roster learner with no submission for this notebook: zero points
    GRADED = "graded"

    def __str__(self) -> str:
        return self.value


SEVERITY = tuple(Status)
RETRY = (Status.GRADER_ERROR,)  # rows that say nothing about the learner's work


class Claim(str, Enum):
    """What a kernel request came to, or what the kernel claimed about an answer (parsed outside it).

    Names equal values on purpose: a member hashes like its name, so it finds the same dict entries
    as the plain text the probe in the kernel sends ("ok", "not_done", ...).
    """

    ok = "ok"  # the request ran / the answer came out as plain data
    error = "error"  # the code raised
    timeout = "timeout"  # over the time limit, stopped by an interrupt
    stuck = "stuck"  # over the time limit and deaf to the interrupt
    dead = "dead"  # the kernel died
    broken = "broken"  # the kernel stopped speaking the Jupyter protocol
    disk = "disk"  # the work folder outgrew its quota
    missing = "missing"  # the answer's name is not defined
    not_done = "not_done"  # the stub (..., NotImplementedError)
    not_plain = "not_plain"  # not plain data
    too_big = "too_big"  # more text than the grader reads
    unreadable = "unreadable"  # the claim itself is not a literal of the expected shape
    not_reached = "not_reached"  # the notebook stopped before this answer was taken out

    def __str__(self) -> str:
        return self.value


PROBE_CLAIMS = {Claim.ok, Claim.missing, Claim.not_done, Claim.not_plain, Claim.too_big, Claim.error}


class GradeVerdict(str, Enum):
    """How one exercise was graded; ``MANUAL`` leaves the points to a person (pending until a hand
    grade arrives), ``HAND`` is one a person graded (``--hand-grades``)."""

    PASS = "pass"
    FAIL = "fail"
    NOT_DONE = "not_done"
    MANUAL = "manual"
    HAND = "hand"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class ExerciseResult:
    grade_id: str
    points: float
    max: float
    verdict: GradeVerdict
    message: str
    hidden: bool = False
    prompt: str = ""

    @property
    def pending(self) -> bool:
        """Hand-graded and not graded by a person yet: counts in ``max``, never as 0 of ``max``."""
        return self.verdict is GradeVerdict.MANUAL


@dataclass(frozen=True)
class Row:
    """One submitted file: a gradebook row plus what its feedback needs."""

    learner: str
    notebook: str
    file: str
    status: Status
    reason: str
    total: float
    max: float
    exercises: tuple[ExerciseResult, ...] = ()
    notes: tuple[str, ...] = ()
    sandbox: str = "bwrap"  # "bwrap", or "unsandboxed" (the score is not to be trusted)

    @property
    def pending(self) -> float:
        """Points of this file still waiting for a person's grade (included in ``max``)."""
        return number(sum(e.max for e in self.exercises if e.pending))

    def recounted(self) -> Row:
        """``total`` and ``max`` from the exercises: every exercise counts in ``max``, a pending one
        adds nothing to ``total``. A row with no exercises (unreadable file) keeps what it says."""
        if not self.exercises:
            return self
        return replace(
            self,
            total=number(sum(e.points for e in self.exercises if not e.pending)),
            max=number(sum(e.max for e in self.exercises)),
        )

    def with_reason(self, extra: str) -> Row:
        return replace(self, reason="; ".join(filter(None, [self.reason, extra])))

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["status"] = self.status.value
        data["exercises"] = [{**e, "verdict": e["verdict"].value} for e in data["exercises"]]
        data["notes"] = list(self.notes)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Row:
        exercises = tuple(
            ExerciseResult(**{**e, "verdict": GradeVerdict(e["verdict"])}) for e in data["exercises"]
        )
        return cls(
            **{
                **data,
                "status": Status(data["status"]),
                "exercises": exercises,
                "notes": tuple(data.get("notes", ())),
                "sandbox": data.get("sandbox", "bwrap"),
            }
        )


def number(value: float) -> float | int:
    """Points as a person writes them: 2, not 2.0; 1.5 stays."""
    return int(value) if float(value).is_integer() else round(value, 2)


def encodable(text: str) -> str:
    """``text`` with any lone surrogate (from a learner's exception, or a name that is not UTF-8)
    written as its escape, so every file the grader writes can hold it as UTF-8."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")
