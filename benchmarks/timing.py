"""The one timing helper the benchmarks share: a median over repeats, so one slow run does not decide a figure."""
from __future__ import annotations

import statistics
import time
from typing import Callable


def median_seconds(action: Callable[[], object], repeat: int = 10) -> float:
    """Median wall-clock seconds of ``repeat`` calls of ``action``."""
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def median_ms(action: Callable[[], object], repeat: int = 10) -> float:
    return median_seconds(action, repeat) * 1000


def median_us(action: Callable[[], object], repeat: int = 200) -> float:
    return median_seconds(action, repeat) * 1e6
