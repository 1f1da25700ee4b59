"""The seeded random stream every part of the simulation draws from.

Why a hand-made stream instead of :mod:`random` or NumPy: the published
figures depend on the exact sequence of numbers, and that sequence must be
the same on every laptop and every Python version. A 32-bit hash to mix the
seed and a linear congruential generator to walk from it are a few lines of
integer arithmetic, so a learner can read the whole source of chance.
"""

from __future__ import annotations

from collections.abc import Sequence

MASK32 = 0xFFFFFFFF

# The MurmurHash3 finaliser ("fmix32"): it spreads neighbouring seeds
# (20260218, 20260219, ...) to unrelated starting points.
_FMIX_A = 0x85EBCA6B
_FMIX_B = 0xC2B2AE35

# The classic Numerical Recipes LCG multiplier and increment.
LCG_MULTIPLIER = 1664525
LCG_INCREMENT = 1013904223

# FNV-1a, 32 bit: turns a task name into a number to mix into the seed.
_FNV_OFFSET = 2166136261
_FNV_PRIME = 16777619


def mix32(seed: int) -> int:
    """Hash a non-negative integer to a 32-bit starting state.

    The input is deliberately not masked first: seeds above 2**32 leak
    their high bits into the first shift, as in the course's reference run.
    """
    x = ((seed ^ (seed >> 16)) * _FMIX_A) & MASK32
    x = ((x ^ (x >> 13)) * _FMIX_B) & MASK32
    return (x ^ (x >> 16)) & MASK32


def fnv1a(text: str) -> int:
    """32-bit FNV-1a over the code points of ``text``.

    Each task gets its own stream by mixing its name into the run seed, so
    adding or reordering tasks never shifts another task's draws.
    """
    h = _FNV_OFFSET
    for ch in text:
        h = ((h ^ ord(ch)) * _FNV_PRIME) & MASK32
    return h


class Stream:
    """A stream of uniform numbers in [0, 1), fully fixed by its seed.

    Call :meth:`next` for each draw. The order of draws is part of the
    model: every ``if stream.next() < share`` in the simulation consumes
    exactly one number, and only when it is reached.
    """

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = mix32(seed)

    def next(self) -> float:
        """Advance the generator one step and return a number in [0, 1)."""
        self.state = (self.state * LCG_MULTIPLIER + LCG_INCREMENT) & MASK32
        return self.state / 4294967296

    def below(self, n: int) -> int:
        """An integer in ``range(n)`` from one draw."""
        return int(self.next() * n)


def pick(u: float, weights: Sequence[float]) -> int:
    """Index whose cumulative weight first exceeds ``u``.

    ``u`` is a draw from :class:`Stream`; the last index catches rounding
    when the weights sum to slightly less than one.
    """
    total = 0.0
    for index, weight in enumerate(weights):
        total += weight
        if u < total:
            return index
    return len(weights) - 1
