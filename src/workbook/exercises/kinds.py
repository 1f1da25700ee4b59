"""What an exercise is (:class:`Exercise`, :class:`WrongAnswer`) and what only the grader holds for it
(:class:`Grading`): plain values, importing nothing of the course, so a lesson module, the registry of
references and the package's lookups all point here and never back at each other.
"""

from __future__ import annotations

import pkgutil
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal


class LazyProbes(Sequence[tuple]):
    """Probes a lesson computes with the subject package (a dispatcher's errors, a deployment's facts),
    worked out on first use rather than when the exercise is declared.

    `make check` reads a lesson's exercises in the terminal before the notebook runs; computing these
    there loaded pandas and the tools first (over a second of the wait in lessons 09 and 11). It reads,
    compares, hashes and prints as the tuple it stands for, so a grader, a handout or a test sees no
    difference.
    """

    def __init__(self, make: Callable[[], Sequence[tuple]]) -> None:
        self._make = make
        self._value: tuple[tuple, ...] | None = None

    def _all(self) -> tuple[tuple, ...]:
        if self._value is None:
            self._value = tuple(self._make())
        return self._value

    def __getitem__(self, index: Any) -> Any:
        return self._all()[index]

    def __len__(self) -> int:
        return len(self._all())

    def __iter__(self) -> Iterator[tuple]:
        return iter(self._all())

    def __eq__(self, other: object) -> bool:
        other = other._all() if isinstance(other, LazyProbes) else other
        return isinstance(other, tuple) and self._all() == other

    def __hash__(self) -> int:
        return hash(self._all())

    def __repr__(self) -> str:
        return repr(self._all())


@dataclass(frozen=True)
class WrongAnswer:
    """A plausible mistake and a fragment of the hint the check must print for it."""

    answer: Any
    hint_contains: str
    why: str = ""


@dataclass(frozen=True)
class Exercise:
    grade_id: str  # the nbgrader grade_id of the answer cell
    notebook: str  # e.g. "02_coldchain_data"
    answer: str  # the name the answer cell defines
    points: int
    judge: Callable[[Any], Any]  # plain data -> workbook.verdicts.Verdict
    kind: Literal["value", "function", "manual", "prediction"] = "value"
    probes: tuple[tuple, ...] | LazyProbes = ()  # for functions: the argument tuples the check calls it with
    wrong_answers: tuple[WrongAnswer, ...] = field(default=(), repr=False)
    prompt: str = ""  # one line for feedback files: what the exercise asks

    @property
    def scored(self) -> bool:
        """Whether it earns points: every kind but a prediction."""
        return self.kind != "prediction"


@dataclass(frozen=True)
class Grading:
    """What only the grader holds for one exercise (see ``workbook.exercises.references``).

    ``reference`` is the right function (a callable, or "module:name" of a graded function in
    ``tooldesign``, which the student edition stubs), or for a value exercise the right value (or a
    function of no arguments computing it). ``generate(rng)`` draws one argument tuple; the grader
    draws ``draws`` of them per run from a secret seed and compares the learner's results with the
    reference's, using ``same(got, want)`` when plain equality is not the rule. ``public`` marks a
    judge that holds no answer key (it checks properties with the subject package), so the student
    edition may ship it as it is. ``stubs`` names more graded functions of ``tooldesign`` ("module:name")
    that give this answer away; ``package_uses`` makes the calls the package itself needs from them
    on the course data, which the student edition's stubs go on answering.
    """

    reference: Any = None
    generate: Callable[[Any], tuple] | None = None
    draws: int = 12
    same: Callable[[Any, Any], bool] | None = None
    public: bool = False
    stubs: tuple[str, ...] = ()
    package_uses: Callable[[], Any] | None = None

    def reference_function(self) -> Callable | None:
        """The reference as a callable, importing a "module:name" reference on first use."""
        if isinstance(self.reference, str) and ":" in self.reference:
            return pkgutil.resolve_name(self.reference)
        return self.reference if callable(self.reference) else None

    def right_value(self) -> Any:
        value = self.reference
        return value() if callable(value) else value


NO_GRADING = Grading()
