"""Recorded real-model runs: what a model picked, written down so it can be shown later as measured.

``record_runs(picker, ...)`` runs the selection test ``repeat`` times over the chosen case set and tool
sets and returns a :class:`RunRecord`: provider, model, date, temperature, the case set, and for every
request the pick, whether it was right, the input tokens *as the API reported them* and the latency.
``tooldesign.record`` is the one writer of record files (format ``tooldesign-record/2``, which holds one
of these per case set); ``load_record``/``load_records`` here still read the first format
(``tooldesign-selection-run/1``), so a file written before is shown as the old version. The course
ships no record: a figure is only shown as measured if someone measured it.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from tooldesign.input_files import read_input_text
from tooldesign.selection.cases import case_set
from tooldesign.selection.score import run_selection

__all__ = [
    "Pick",
    "RecordedRun",
    "RunRecord",
    "record_runs",
    "load_record",
    "load_records",
    "RecordError",
    "runs_folder",
]

FORMAT = "tooldesign-selection-run/1"  # read, never written again (tooldesign.record writes)


class RecordError(ValueError):
    """A record file cannot be read; the message says which file and why."""


@dataclass(frozen=True)
class Pick:
    request: str
    expected: list[str] | None
    pick: str | None
    right: bool
    no_call_case: bool
    input_tokens: int | None
    latency_s: float | None


@dataclass(frozen=True)
class RecordedRun:
    """One repeat of the selection test over one tool set, as the record keeps it."""

    repeat: int
    tool_set: str
    right: int
    total: int
    declined: int
    no_call: int
    picks: tuple[Pick, ...]


@dataclass(frozen=True)
class RunRecord:
    provider: str
    model: str
    date: str
    temperature: float | None
    case_set: str
    runs: tuple[RecordedRun, ...]

    def scores(self, tool_set: str) -> list[int]:
        """Right tool requests per repeat for ``tool_set``: the run-to-run spread."""
        return [r.right for r in self.runs if r.tool_set == tool_set]

    def summary(self) -> list[dict[str, Any]]:
        """One row per tool set: mean, lowest and highest score over the repeats, and the tokens."""
        rows = []
        for name in dict.fromkeys(r.tool_set for r in self.runs):
            runs = [r for r in self.runs if r.tool_set == name]
            scores = [r.right for r in runs]
            tokens = [p.input_tokens for r in runs for p in r.picks if p.input_tokens is not None]
            latency = [p.latency_s for r in runs for p in r.picks if p.latency_s is not None]
            rows.append(
                {
                    "model": self.model,
                    "provider": self.provider,
                    "date": self.date[:10],
                    "cases": self.case_set,
                    "tool set": name,
                    "repeats": len(runs),
                    "total": runs[0].total,
                    "mean right": round(statistics.mean(scores), 2),
                    "lowest": min(scores),
                    "highest": max(scores),
                    "input tokens per call": round(statistics.mean(tokens)) if tokens else None,
                    "median latency (s)": round(statistics.median(latency), 2) if latency else None,
                }
            )
        return rows


def _run(result: Any, repeat: int) -> RecordedRun:
    picks = tuple(
        Pick(
            row.case.request,
            list(row.expected) if row.expected is not None else None,
            row.choice.tool,
            row.right,
            row.case.no_call,
            row.choice.input_tokens,
            row.choice.latency_s,
        )
        for row in result.rows
    )
    declined, asked = result.declined
    return RecordedRun(repeat, result.set_name, result.right, result.total, declined, asked, picks)


def record_runs(
    picker: Any,
    cases: str = "held-out",
    tool_sets: Sequence[str] = ("mirror", "designed"),
    repeat: int = 1,
    now: datetime | None = None,
) -> RunRecord:
    """Run the test ``repeat`` times per tool set with ``picker`` and keep every pick."""
    from tooldesign.tools import tool_set

    if repeat < 1:
        raise ValueError("--repeat must be 1 or more")
    chosen = case_set(cases)
    runs = [
        _run(run_selection(picker, tool_set(name), chosen.cases, name), k)
        for k in range(1, repeat + 1)
        for name in tool_sets
    ]
    date = (now or datetime.now(timezone.utc)).isoformat(timespec="seconds")
    return RunRecord(
        getattr(picker, "provider", "unknown"),
        getattr(picker, "model", picker.label),
        date,
        getattr(picker, "temperature", None),
        chosen.name,
        tuple(runs),
    )


def runs_from(items: list[dict[str, Any]]) -> tuple[RecordedRun, ...]:
    """Recorded runs from their JSON form, each pick an object again (one reader for both file versions)."""
    return tuple(RecordedRun(**{**r, "picks": tuple(Pick(**p) for p in r["picks"])}) for r in items)


def load_record(path: Path | str) -> RunRecord:
    try:
        data = json.loads(read_input_text(path, what="a selection run record (JSON)"))
        if data.get("format") != FORMAT:
            raise RecordError(f"{path}: not a selection run record (format {data.get('format')!r})")
        runs = runs_from(data["runs"])
        return RunRecord(
            data["provider"], data["model"], data["date"], data["temperature"], data["case_set"], runs
        )
    except RecordError:
        raise
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise RecordError(
            f"{path}: cannot read it as a run record ({type(error).__name__}: {error})"
        ) from None


def runs_folder(start: Path | None = None) -> Path:
    """The course's ``runs/`` folder: beside the nearest pyproject.toml above ``start`` (default: here),
    so a notebook in notebooks/ or solutions/ finds the same records as the command line."""
    from tooldesign.selection.config import RUNS_DIR

    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        if (folder / "pyproject.toml").exists():
            return folder / RUNS_DIR
    return here / RUNS_DIR


def load_records(folder: Path | str = "runs") -> tuple[list[RunRecord], list[str]]:
    """Every record in ``folder`` (``*.json``, sorted by name) and one line per file that could not be read."""
    records, problems = [], []
    for path in sorted(Path(folder).glob("*.json")):
        try:
            records.append(load_record(path))
        except RecordError as error:
            problems.append(str(error))
    return records, problems
