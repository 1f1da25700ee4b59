"""``tooldesign record``: one real model measured on the lessons' experiments, written to one dated file.

``record(picker, repeat)`` runs, ``repeat`` times each, the selection test on all three case sets
(lesson 06), the boundary-clause requests (11) and the ``tool_choice`` settings (12), the poisoned
records (17), the capstone task and the nine clerk tasks with known right ends (19, with the mirror
set and the designed set), all through the course's own loop (``capstone_loop``, absent from the
student edition, where that loop is the learner's exercise), and returns a :class:`Record`; ``write``
puts it under ``runs/`` with a new dated name, ``save`` at a path of your choice (``select --record``);
neither ever overwrites a file.
Every pick keeps the input tokens as the API reported them and the latency; every capstone run and
every clerk task the tokens its provider reported (input, output, read from and written to the cache:
``TokenUsage``), summed over its model calls, and their time; a clerk task also its verdict
(``capstone.tasks.judge``), steps and tool calls. A count the API did not report stays not reported,
never 0. ``show_records(name)`` is what the notebooks call: every record found, labelled with
model, provider and date, or one line saying there is none and the command that makes one.

Older files are still read: format ``tooldesign-record/2`` (before the clerk tasks; it has none) and
the first format (``tooldesign-selection-run/1``, which ``select --record`` once wrote), shown as the
old, selection-only version; this module is the only writer, and writes the newest format only.

A rate-limited answer (HTTP 429) is retried a bounded number of times, waiting what its
``retry-after`` header asks (capped); the sleep is a parameter so tests never wait. The retry wraps
the picker's client, so every experiment's calls get it (the selection test's, the injection
trials' multi-turn requests, the tool_choice settings'), not only ``pick``.
"""

from __future__ import annotations

import json
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, fields
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from tooldesign.atomic import write_atomic
from tooldesign.capstone import tasks as clerk_tasks
from tooldesign.capstone.agent import REPORTED_AS, StopReason, TokenUsage
from tooldesign.selection import config
from tooldesign.selection.record import (
    FORMAT as SELECTION_FORMAT,
)
from tooldesign.selection.record import (
    RecordError,
    RunRecord,
    load_record,
    record_runs,
    runs_folder,
    runs_from,
)
from tooldesign.wording import count

__all__ = [
    "FORMAT",
    "SCHEMA",
    "EXPERIMENTS",
    "Record",
    "BoundaryRow",
    "ChoiceRow",
    "InjectionRow",
    "CapstoneRow",
    "TaskRunRow",
    "CAPSTONE_SKIPPED",
    "capstone_loop",
    "RateLimited",
    "patient",
    "record",
    "write",
    "save",
    "read",
    "records_in",
    "show_records",
    "RecordCost",
    "RECORD_COST",
    "how_to_record",
]

FORMAT = "tooldesign-record/3"  # 3: the clerk tasks (``tasks``) added
READABLE = ("tooldesign-record/2", FORMAT)  # what ``read`` takes besides the selection-only format
CASE_SETS = ("tuning", "development", "held-out")
EXPERIMENTS = {  # the name a notebook asks for -> the part of a record it shows
    "selection": "06",
    "boundary": "11",
    "tool_choice": "12",
    "scale": "13",
    "injection": "17",
    "capstone": "19",
    "tasks": "19",
}
MAX_RETRIES = 3
MAX_WAIT_S = 30.0
REPEAT = 3
COMMAND = f".venv/bin/tooldesign record --provider ollama --repeat {REPEAT}"
PRICED_MODEL = config.DEFAULT_MODELS["anthropic"]  # its dated input price is in loop.caching.PRICES


@dataclass(frozen=True)
class RecordCost:
    """What one repeat of ``record`` sends: model calls and input tokens (the course's estimate,
    characters / 4), the nine clerk tasks with both tool sets included. Measured by
    ``benchmarks/bench_record_cost.py`` against the scripted server, so the capstone task and the
    clerk tasks follow the scripted model's calls; a real model may take more or fewer (the clerk
    tasks at most ``TASK_CALLS_AT_MOST``, their step budget times the runs)."""

    calls: int
    input_tokens: int
    task_calls: int  # of ``calls``: the nine clerk tasks with both tool sets
    task_input_tokens: int  # of ``input_tokens``: the same


TASK_CALLS_AT_MOST = len(clerk_tasks.TASKS) * len(clerk_tasks.SETS) * clerk_tasks.MAX_STEPS  # per repeat
RECORD_COST = RecordCost(calls=558, input_tokens=499_054, task_calls=58, task_input_tokens=82_953)


def how_to_record(repeat: int = REPEAT) -> str:
    """One line: the command that makes a record, how many model calls it takes, and what a key costs."""
    from tooldesign.loop.caching import price_of

    price = price_of(PRICED_MODEL)
    calls = RECORD_COST.calls * repeat
    dollars = RECORD_COST.input_tokens * repeat * price.input / 1_000_000
    return (
        f"make one with `{COMMAND}` (a local model, free; {calls:,} model calls, "
        f"{RECORD_COST.task_calls * repeat:,} of them the clerk tasks, which may take up to "
        f"{TASK_CALLS_AT_MOST * repeat:,}; the time is your model's answer time times that) or with `--provider anthropic` and a key (about ${dollars:.2f} of input tokens by the course's "
        f"estimate, at {PRICED_MODEL}'s price read {price.read_on}; output tokens extra)."
    )


@dataclass(frozen=True)
class BoundaryRow:
    repeat: int
    variant: str
    picker: str
    right: int
    of: int


@dataclass(frozen=True)
class ChoiceRow:
    """One lesson-12 setting asked once: the tool_choice sent (Anthropic's spelling, as a label), the
    instruction's label, and the first call the model made (None: it answered in text)."""

    repeat: int
    setting: str
    tool_choice: str
    first_call: str | None
    input_tokens: int | None
    latency_s: float | None


@dataclass(frozen=True)
class CapstoneRow:
    """One run of the capstone task (lesson 19) through the course's loop: how it ended, after how many
    model calls, each proposed call and what became of it, and the transcript, one line per block."""

    repeat: int
    request: str
    stop: str
    steps: int
    answer: str | None
    calls: tuple[tuple[str, str], ...]  # (tool name, outcome: ran, refused, pending, repeated)
    transcript: tuple[str, ...]
    usage: TokenUsage | None = None  # summed over the run's model calls; None: an older record kept none
    latency_s: float | None = None  # wall time of the run's model calls


@dataclass(frozen=True)
class TaskRunRow:
    """One clerk task (``capstone.tasks.TASKS``, lesson 19 section 4) run once with one tool set through
    the course's loop: the judge's verdict and its reasons, how the run ended, after how many model
    calls and tool calls, the tokens as the provider reported them (summed over the run's model calls;
    a field it did not report is None, never 0), and the wall time of those calls."""

    repeat: int
    tool_set: str
    task: str  # the task's name in capstone.tasks.TASKS, e.g. "release 4711"
    success: bool
    problems: tuple[str, ...]  # the judge's reasons, empty when the task ended right
    stop: str
    steps: int
    tool_calls: int
    usage: TokenUsage
    latency_s: float | None


@dataclass(frozen=True)
class InjectionRow:
    repeat: int
    note_id: str
    variant: str
    calls: tuple[tuple[str, str], ...]
    reached_gate: bool


@dataclass(frozen=True)
class Record:
    """One command's measurement. ``selection`` holds one :class:`RunRecord` per case set."""

    format: str
    provider: str
    model: str
    date: str
    temperature: float | None
    repeat: int
    selection: tuple[RunRecord, ...]
    boundary: tuple[BoundaryRow, ...]
    injection: tuple[InjectionRow, ...]
    retries: int
    tool_choice: tuple[ChoiceRow, ...] = ()
    capstone: tuple[CapstoneRow, ...] = ()
    tasks: tuple[TaskRunRow, ...] = ()  # a record of format 2 (before the clerk tasks) has none
    old_version: bool = False  # read from a ``select --record`` file: selection only

    @property
    def label(self) -> str:
        return f"{self.model} ({self.provider}, {self.date[:10]})"


_USAGE = {
    "type": ["object", "null"],
    "required": [f.name for f in fields(TokenUsage)],
    "additionalProperties": False,
    "properties": {f.name: {"type": ["integer", "null"], "minimum": 0} for f in fields(TokenUsage)},
}
_PICK = {
    "type": "object",
    "required": ["request", "expected", "pick", "right", "no_call_case", "input_tokens", "latency_s"],
    "properties": {
        "request": {"type": "string"},
        "expected": {"type": ["array", "null"], "items": {"type": "string"}},
        "pick": {"type": ["string", "null"]},
        "right": {"type": "boolean"},
        "no_call_case": {"type": "boolean"},
        "input_tokens": {"type": ["integer", "null"], "minimum": 0},
        "latency_s": {"type": ["number", "null"], "minimum": 0},
    },
}
SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": [
        "format",
        "provider",
        "model",
        "date",
        "temperature",
        "repeat",
        "selection",
        "boundary",
        "injection",
        "retries",
    ],
    "properties": {
        "format": {"enum": list(READABLE)},
        "provider": {"type": "string"},
        "model": {"type": "string"},
        "date": {"type": "string", "format": "date-time"},
        "temperature": {"type": ["number", "null"]},
        "repeat": {"type": "integer", "minimum": 1},
        "retries": {"type": "integer", "minimum": 0},
        "selection": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["case_set", "runs"],
                "properties": {
                    "case_set": {"enum": list(CASE_SETS)},
                    "runs": {
                        "type": "array",
                        "items": {
                            "type": "object",
                            "required": ["repeat", "tool_set", "right", "total", "picks"],
                            "properties": {"picks": {"type": "array", "items": _PICK}},
                        },
                    },
                },
            },
        },
        "boundary": {
            "type": "array",
            "items": {"type": "object", "required": ["repeat", "variant", "picker", "right", "of"]},
        },
        "injection": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["repeat", "note_id", "variant", "calls", "reached_gate"],
            },
        },
        # optional: a record made before the capstone step was recorded has none
        # (and one made before its tokens were recorded has no usage or latency_s)
        "capstone": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["repeat", "request", "stop", "steps", "answer", "calls", "transcript"],
                "properties": {
                    "stop": {"enum": [s.value for s in StopReason]},
                    "steps": {"type": "integer", "minimum": 0},
                    "answer": {"type": ["string", "null"]},
                    "calls": {"type": "array", "items": {"type": "array", "minItems": 2, "maxItems": 2}},
                    "transcript": {"type": "array", "items": {"type": "string"}},
                    "usage": _USAGE,
                    "latency_s": {"type": ["number", "null"], "minimum": 0},
                },
            },
        },
        # the clerk tasks: required from format 3 on (below), absent from format 2
        "tasks": {
            "type": "array",
            "items": {
                "type": "object",
                "required": [f.name for f in fields(TaskRunRow)],
                "additionalProperties": False,
                "properties": {
                    "repeat": {"type": "integer", "minimum": 1},
                    "tool_set": {"type": "string"},
                    "task": {"type": "string"},
                    "success": {"type": "boolean"},
                    "problems": {"type": "array", "items": {"type": "string"}},
                    "stop": {"enum": [s.value for s in StopReason]},
                    "steps": {"type": "integer", "minimum": 0},
                    "tool_calls": {"type": "integer", "minimum": 0},
                    "usage": {**_USAGE, "type": "object"},
                    "latency_s": {"type": ["number", "null"], "minimum": 0},
                },
            },
        },
        # optional: a record made before the tool_choice settings were recorded has none
        "tool_choice": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["repeat", "setting", "tool_choice", "first_call", "input_tokens", "latency_s"],
                "properties": {
                    "first_call": {"type": ["string", "null"]},
                    "input_tokens": {"type": ["integer", "null"], "minimum": 0},
                    "latency_s": {"type": ["number", "null"], "minimum": 0},
                },
            },
        },
    },
    # format 3 holds the clerk tasks (an empty list where the loop was not shipped or not run);
    # format 2 predates them and has none
    "allOf": [
        {"if": {"properties": {"format": {"const": FORMAT}}}, "then": {"required": ["tasks"]}},
        {"if": {"properties": {"format": {"const": READABLE[0]}}}, "then": {"not": {"required": ["tasks"]}}},
    ],
}


class RateLimited(RuntimeError):
    """Still rate limited after the bounded retries."""


def _retry_after(error: Exception) -> float | None:
    """Seconds the server asked to wait, if the error is a rate limit (HTTP 429); else None."""
    if getattr(error, "status_code", None) != 429:
        return None
    headers = getattr(getattr(error, "response", None), "headers", None) or {}
    try:
        return min(max(float(headers.get("retry-after", 1)), 0.0), MAX_WAIT_S)
    except (TypeError, ValueError):
        return 1.0


class _Retrying:
    """A client seen through ``run``: every method call anywhere below it (``messages.create``,
    ``chat.completions.create``) goes through the bounded 429 retry."""

    def __init__(self, target: Any, run: Callable[..., Any]) -> None:
        self._target, self._run = target, run

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._target, name)
        if callable(value) and not isinstance(value, type):
            return lambda *args, **kwargs: self._run(value, *args, **kwargs)
        if isinstance(value, (str, int, float, bool, type(None))):
            return value
        return _Retrying(value, self._run)


class patient:
    """Wraps a picker: a 429 is retried up to ``MAX_RETRIES`` times after ``retry-after`` seconds.

    The picker's client is replaced by a retrying view of it (its own retries switched off, so the
    wait is ours and a test can inject ``sleep``): whatever experiment uses ``picker.client`` gets the
    same retries. A picker without a client (SAP's hub) is retried around ``pick``."""

    def __init__(self, picker: Any, sleep: Callable[[float], None] = time.sleep) -> None:
        self.picker, self.sleep, self.retries = picker, sleep, 0
        client: Any = getattr(picker, "client", None)
        self.wraps_client = client is not None and hasattr(client, "with_options")
        if self.wraps_client:
            picker.client = _Retrying(client.with_options(max_retries=0), self.call)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.picker, name)

    def call(self, function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """``function(*args, **kwargs)``, retried while the server answers 429."""
        for attempt in range(MAX_RETRIES + 1):
            try:
                return function(*args, **kwargs)
            except Exception as error:
                wait = _retry_after(error)
                if wait is None:
                    raise
                if attempt == MAX_RETRIES:
                    raise RateLimited(f"still rate limited (HTTP 429) after {MAX_RETRIES} retries") from None
                self.retries += 1
                self.sleep(wait)
        raise AssertionError("unreachable")

    def pick(self, request: str, tools: Any, **options: Any) -> Any:
        if self.wraps_client:
            return self.picker.pick(request, tools, **options)
        return self.call(self.picker.pick, request, tools, **options)


def _choice_label(choice: Any) -> str:
    return f"tool {choice['name']}" if choice.get("type") == "tool" else str(choice.get("type"))


def _tool_choice_rows(model: patient, k: int) -> list[ChoiceRow]:
    """Lesson 12's settings, each asked once: which tool did the model call first?"""
    from tooldesign.dispatch.choice import FIRST_STEP_REQUEST, lesson_settings
    from tooldesign.tools import tool_set

    designed = tool_set("designed")
    rows = []
    for setting in lesson_settings():
        picked = model.pick(
            FIRST_STEP_REQUEST, designed, tool_choice=setting.choice, instructions=setting.instructions
        )
        rows.append(
            ChoiceRow(
                k,
                setting.label,
                _choice_label(setting.choice),
                picked.tool,
                picked.input_tokens,
                picked.latency_s,
            )
        )
    return rows


PARTS = ("selection", "boundary", "tool_choice", "injection", "capstone", "tasks")
CAPSTONE_SKIPPED = (
    "capstone step skipped (its task and the nine clerk tasks): the agent loop is lesson 19's "
    "exercise (ex19-agent-loop), which this edition leaves for you to write"
)
CAPSTONE_STEPS = 8  # the loop's step budget for a real model
TRANSCRIPT_LINES = 12  # of the first capstone run, in show_records
TASK_REASON_WIDTH = 48  # characters of the judge's reason shown for a failed clerk task


def capstone_loop() -> Callable[..., Any] | None:
    """The course's own loop (lesson 19's answer), or None where it is not shipped (the student edition)."""
    try:
        from tooldesign.capstone.reference import reference_loop
    except ImportError:
        return None
    return reference_loop()


def _capstone_row(model: patient, k: int, loop: Callable[..., Any]) -> CapstoneRow:
    from tooldesign.capstone.agent import REQUEST, real_model, transcript_lines

    adapter = real_model(model.picker)  # a new one per run: its usage and time are this run's
    report = loop(adapter, REQUEST, CAPSTONE_STEPS)
    return CapstoneRow(
        k,
        REQUEST,
        report.stop.value,
        report.steps,
        report.answer,
        tuple((c.name, c.outcome.value) for c in report.calls),
        tuple(transcript_lines(report)),
        usage=adapter.usage,
        latency_s=adapter.latency_s,
    )


def _task_rows(model: patient, k: int, loop: Callable[..., Any]) -> list[TaskRunRow]:
    """Every clerk task with each tool set, once, through the course's loop with the real model; each
    run gets a new adapter, so its usage and time are that run's alone."""
    from tooldesign.capstone import tasks
    from tooldesign.capstone.agent import real_model
    from tooldesign.tools import tool_set

    rows = []
    for name in tasks.SETS:
        tools = tool_set(name)
        for task in tasks.TASKS:
            adapter = real_model(model.picker)
            report, verdict = tasks.run_task(loop, adapter, task, tools, tasks.MAX_STEPS)
            rows.append(
                TaskRunRow(
                    k,
                    name,
                    task.name,
                    verdict.success,
                    verdict.problems,
                    report.stop.value,
                    report.steps,
                    len(report.calls),
                    adapter.usage,
                    adapter.latency_s,
                )
            )
    return rows


def record(
    picker: Any,
    repeat: int = 1,
    now: datetime | None = None,
    sleep: Callable[[float], None] = time.sleep,
    parts: Sequence[str] = PARTS,
    case_sets: Sequence[str] = CASE_SETS,
) -> Record:
    """Run every experiment ``repeat`` times with a real-model ``picker``; keep every pick.

    SAP's hub picker answers the selection test and the boundary requests only: the tool_choice
    settings and the injection trials build requests the orchestration service takes in another form."""
    from tooldesign.tools import SET_NAMES

    if repeat < 1:
        raise ValueError("--repeat must be 1 or more")
    unknown = [p for p in parts if p not in PARTS]
    if unknown:
        raise ValueError(f"parts must be among {', '.join(PARTS)}, not {', '.join(unknown)}")
    model = patient(picker, sleep)
    sap = getattr(picker, "provider", "") == "sap"
    selection = (
        tuple(record_runs(model, name, SET_NAMES, repeat, now) for name in case_sets)
        if "selection" in parts
        else ()
    )
    boundary: list[BoundaryRow] = []
    choices: list[ChoiceRow] = []
    injection: list[InjectionRow] = []
    capstone: list[CapstoneRow] = []
    clerk: list[TaskRunRow] = []
    loop = capstone_loop() if {"capstone", "tasks"} & set(parts) and not sap else None
    for k in range(1, repeat + 1):
        if "boundary" in parts:
            from tooldesign.dispatch.boundary import model_scores

            boundary += [
                BoundaryRow(k, str(r["descriptions"]), str(r["picker"]), int(r["right"]), int(r["of"]))
                for r in model_scores(model)
            ]
        if "tool_choice" in parts and not sap:
            choices += _tool_choice_rows(model, k)
        if "injection" in parts and not sap:
            from tooldesign.injection.real_model import trial

            injection += [
                InjectionRow(k, t.note_id, t.variant, tuple(t.calls), t.reached_gate)
                for t in trial(picker)  # picker.client is the retrying view: a 429 waits here too
            ]
        if loop is not None and "capstone" in parts:
            capstone.append(_capstone_row(model, k, loop))
        if loop is not None and "tasks" in parts:
            clerk += _task_rows(model, k, loop)
    return Record(
        FORMAT,
        getattr(picker, "provider", "unknown"),
        getattr(picker, "model", getattr(picker, "label", "unknown")),
        (now or datetime.now(timezone.utc)).isoformat(timespec="seconds"),
        getattr(picker, "temperature", None),
        repeat,
        selection,
        tuple(boundary),
        tuple(injection),
        model.retries,
        tool_choice=tuple(choices),
        capstone=tuple(capstone),
        tasks=tuple(clerk),
    )


def _as_json(rec: Record) -> dict[str, Any]:
    data = asdict(rec)
    data.pop("old_version")
    data["selection"] = [
        {"case_set": r.case_set, "runs": [asdict(run) for run in r.runs]} for r in rec.selection
    ]
    return data


def save(rec: Record, path: Path | str) -> Path:
    """Write ``rec`` at ``path``; an existing file is never touched (FileExistsError names it)."""
    target = Path(path)
    if target.exists():
        raise FileExistsError(f"{target} exists; choose a new file name, a record is never overwritten")
    target.parent.mkdir(parents=True, exist_ok=True)
    # Whole or not at all: a run stopped mid-write leaves no half record to be read later; and a file
    # that appeared since the look above (a second run at the same second) is not replaced either.
    text = json.dumps(_as_json(rec), indent=1, ensure_ascii=False) + "\n"
    try:
        return write_atomic(target, text, overwrite=False)
    except FileExistsError:
        raise FileExistsError(
            f"{target} exists; choose a new file name, a record is never overwritten"
        ) from None


def write(rec: Record, folder: Path | str | None = None) -> Path:
    """A new file ``runs/record-PROVIDER-MODEL-DATE[-N].json``; an existing file is never touched."""
    target_dir = Path(folder) if folder is not None else runs_folder()
    slug = "".join(c if c.isalnum() or c in "._-" else "-" for c in f"{rec.provider}-{rec.model}")
    stamp = rec.date[:19].replace(":", "")
    for n in range(1, 10_000):  # the first free name; one taken meanwhile by another run is skipped too
        path = target_dir / (f"record-{slug}-{stamp}.json" if n == 1 else f"record-{slug}-{stamp}-{n}.json")
        if path.exists():
            continue
        try:
            return save(rec, path)
        except FileExistsError:
            continue
    raise FileExistsError(f"{target_dir} holds 9,999 records of {slug} at {stamp}; move some elsewhere")


def read(path: Path | str) -> Record:
    """A record file of either version; RecordError names the file and the fault."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise RecordError(f"{path}: cannot read it as a record ({type(error).__name__}: {error})") from None
    if isinstance(data, dict) and data.get("format") == SELECTION_FORMAT:
        old = load_record(path)
        return Record(
            SELECTION_FORMAT,
            old.provider,
            old.model,
            old.date,
            old.temperature,
            max((r.repeat for r in old.runs), default=1),
            (old,),
            (),
            (),
            0,
            old_version=True,
        )
    import jsonschema

    try:
        jsonschema.validate(data, SCHEMA)
        selection = tuple(
            RunRecord(
                data["provider"],
                data["model"],
                data["date"],
                data["temperature"],
                s["case_set"],
                runs_from(s["runs"]),
            )
            for s in data["selection"]
        )
        return Record(
            data["format"],
            data["provider"],
            data["model"],
            data["date"],
            data["temperature"],
            data["repeat"],
            selection,
            tuple(BoundaryRow(**r) for r in data["boundary"]),
            tuple(
                InjectionRow(**{**r, "calls": tuple(tuple(c) for c in r["calls"])}) for r in data["injection"]
            ),
            data["retries"],
            tool_choice=tuple(ChoiceRow(**r) for r in data.get("tool_choice", [])),
            capstone=tuple(
                CapstoneRow(
                    **{
                        **r,
                        "calls": tuple(tuple(c) for c in r["calls"]),
                        "transcript": tuple(r["transcript"]),
                        "usage": TokenUsage(**r["usage"]) if r.get("usage") is not None else None,
                    }
                )
                for r in data.get("capstone", [])
            ),
            tasks=tuple(
                TaskRunRow(**{**r, "problems": tuple(r["problems"]), "usage": TokenUsage(**r["usage"])})
                for r in data.get("tasks", [])
            ),
        )
    except (jsonschema.ValidationError, KeyError, TypeError) as error:
        message = getattr(error, "message", str(error))
        raise RecordError(f"{path}: not a {' or '.join(READABLE)} record ({message})") from None


def records_in(folder: Path | str | None = None) -> tuple[list[Record], list[str]]:
    """Every record in ``folder`` (default: the course's runs/), and one line per unreadable file."""
    where = Path(folder) if folder is not None else runs_folder()
    found, problems = [], []
    for path in sorted(where.glob("*.json")):
        try:
            found.append(read(path))
        except RecordError as error:
            problems.append(str(error))
    return found, problems


def _spread(values: Sequence[float], digits: int | None = None) -> str:
    def shown(value: float) -> str:
        if digits is not None:
            return f"{value:.{digits}f}"
        # whole numbers as they are (a token count in the millions stays readable), a mean to 2 places
        return str(int(value)) if float(value).is_integer() else f"{value:.2f}".rstrip("0")

    if len(values) == 1:
        return shown(values[0])
    mean = statistics.mean(values)
    return f"{shown(mean)} (lowest {shown(min(values))}, highest {shown(max(values))}, {len(values)} runs)"


def _reported(values: Sequence[float | None], digits: int | None = None) -> str:
    """The spread of a figure over runs, saying where a run did not report it (never counting it as 0)."""
    known = [v for v in values if v is not None]
    if not known:
        return "not reported"
    missing = len(values) - len(known)
    return _spread(known, digits) + (f", not reported in {count(missing, 'run')}" if missing else "")


def _capstone_cost(rec: Record) -> list[str]:
    """The capstone runs' tokens under the provider's own field names, and their time, over repeats:
    one line each, so a record of several runs still reads at a glance."""
    if all(trip.usage is None for trip in rec.capstone):
        return ["  capstone tokens: not recorded (a record made before they were)"]
    names = REPORTED_AS.get(rec.provider, tuple(f.name for f in fields(TokenUsage)))
    usages = [trip.usage or TokenUsage() for trip in rec.capstone]
    return [
        f"  capstone tokens per run, as {rec.provider} reported them:",
        *(
            f"    {name} {_reported([getattr(u, f.name) for u in usages])}"
            for name, f in zip(names, fields(TokenUsage))
        ),
        f"    model time, seconds: {_reported([trip.latency_s for trip in rec.capstone], 2)}",
    ]


def _task_cell(runs: Sequence[TaskRunRow]) -> str:
    """One task with one set over its runs: right, failed (with the judge's first reason), or both."""
    right = sum(r.success for r in runs)
    if right == len(runs):
        return "right" if len(runs) == 1 else f"right in {len(runs)} of {len(runs)} runs"
    reason = next(r.problems[0] if r.problems else r.stop for r in runs if not r.success)
    reason = reason if len(reason) <= TASK_REASON_WIDTH else reason[: TASK_REASON_WIDTH - 1] + "…"
    if right == 0:
        return (
            f"failed: {reason}" if len(runs) == 1 else f"failed in {len(runs)} of {len(runs)} runs: {reason}"
        )
    return f"right in {right} of {len(runs)} runs, failed: {reason}"


def _per_task(values: Sequence[float | None], digits: int = 1) -> str:
    """A mean per task over the runs that reported it; a run that did not is named, never counted as 0."""
    known = [v for v in values if v is not None]
    if not known:
        return "not reported"
    missing = len(values) - len(known)
    mean = f"{statistics.mean(known):,.{digits}f}"
    return mean + (f" (not reported in {count(missing, 'run')})" if missing else "")


def _task_table(rec: Record) -> list[str]:
    """The clerk tasks as this record's model did them: per tool set, the scripted table's columns with
    the tokens its provider reported; then each task's verdict per set."""
    names = REPORTED_AS.get(rec.provider, tuple(f.name for f in fields(TokenUsage)))
    sets = list(dict.fromkeys(r.tool_set for r in rec.tasks))
    header = ("tool set", "tasks right", "steps", "tool calls", names[0], names[1], "seconds")
    body = []
    for name in sets:
        runs = [r for r in rec.tasks if r.tool_set == name]
        body.append(
            (
                name,
                f"{sum(r.success for r in runs):,} of {len(runs):,}",
                _per_task([r.steps for r in runs]),
                _per_task([r.tool_calls for r in runs]),
                _per_task([r.usage.input_tokens for r in runs], 0),
                _per_task([r.usage.output_tokens for r in runs], 0),
                _per_task([r.latency_s for r in runs], 2),
            )
        )
    widths = [max(len(row[i]) for row in (header, *body)) for i in range(len(header))]
    lines = [
        f"  clerk tasks through the course's loop (step budget {clerk_tasks.MAX_STEPS}); means per task of the "
        f"steps, tool calls, tokens as {rec.provider} reported them, and model seconds:",
        *("    " + "  ".join(cell.rjust(w) for cell, w in zip(row, widths)) for row in (header, *body)),
    ]
    tasks = list(dict.fromkeys(r.task for r in rec.tasks))
    table = [["task", *sets]] + [
        [task, *(_task_cell([r for r in rec.tasks if r.task == task and r.tool_set == s]) for s in sets)]
        for task in tasks
    ]
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    lines += ["    " + "  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in table]
    return lines


def _task_summary(rec: Record) -> str:
    """One line for the whole-record view: tasks right per tool set."""
    sets = dict.fromkeys(r.tool_set for r in rec.tasks)
    parts = [
        f"{name} set {sum(r.success for r in rec.tasks if r.tool_set == name):,} of "
        f"{sum(1 for r in rec.tasks if r.tool_set == name):,}"
        for name in sets
    ]
    return "  clerk tasks right: " + "; ".join(parts) + " (show_records('tasks') for the table)"


def _tally(values: Any) -> list[tuple[Any, int]]:
    counts: dict[Any, int] = {}
    for value in values:
        counts[value] = counts.get(value, 0) + 1
    return sorted(counts.items(), key=lambda kv: (-kv[1], str(kv[0])))


def _lines(rec: Record, experiment: str) -> list[str]:
    lines = []
    if experiment in ("selection", "scale", "capstone"):
        for run in rec.selection:
            for row in run.summary():
                scores = run.scores(row["tool set"])
                lines.append(
                    f"  selection, {run.case_set} cases, {row['tool set']}: {_spread(scores)}/{row['total']} "
                    f"right; input tokens per call {row['input tokens per call'] or 'not reported'}"
                )
    if experiment in ("boundary", "capstone"):
        for variant in dict.fromkeys(r.variant for r in rec.boundary):
            rows = [r for r in rec.boundary if r.variant == variant]
            lines.append(
                f"  boundary requests, {variant}: {_spread([r.right for r in rows])}/{rows[0].of} right"
            )
    if experiment in ("tool_choice", "capstone"):
        for label in dict.fromkeys(r.setting for r in rec.tool_choice):
            asked = [r for r in rec.tool_choice if r.setting == label]
            firsts = ", ".join(
                f"{name or '(text, no call)'} {n}" for name, n in _tally(r.first_call for r in asked)
            )
            lines.append(
                f"  {label} (tool_choice {asked[0].tool_choice}): first call {firsts} (of {len(asked)})"
            )
    if experiment == "capstone":
        for trip in rec.capstone:
            calls = ", ".join(f"{name} {outcome}" for name, outcome in trip.calls) or "no calls"
            lines.append(
                f"  capstone task, run {trip.repeat}: {trip.stop} after {count(trip.steps, 'model call')}; {calls}"
            )
        if rec.capstone:  # what the runs cost, then the first run as it went, kept to a screen
            lines += _capstone_cost(rec)
            shown = rec.capstone[0].transcript[:TRANSCRIPT_LINES]
            lines += ["  transcript of run 1:", *(f"    {line}" for line in shown)]
            if len(rec.capstone[0].transcript) > len(shown):
                lines.append(f"    ... {count(len(rec.capstone[0].transcript) - len(shown), 'more line')}")
    if experiment == "capstone" and rec.tasks:
        lines.append(_task_summary(rec))
    if experiment == "tasks" and rec.tasks:
        lines += _task_table(rec)
    if experiment in ("injection", "capstone"):
        for variant in dict.fromkeys(r.variant for r in rec.injection):
            by_repeat: dict[int, int] = {}
            for r in rec.injection:
                if r.variant == variant:
                    by_repeat[r.repeat] = by_repeat.get(r.repeat, 0) + any(
                        name == "release_request_create" for name, _ in r.calls
                    )
            total = sum(1 for r in rec.injection if r.variant == variant and r.repeat == 1)
            lines.append(
                f"  poisoned records, notes {variant}: {_spread(list(by_repeat.values()))}/{total} "
                "reach a write proposal"
            )
    return lines


def show_records(experiment: str = "selection", folder: Path | str | None = None) -> str:
    """What a notebook prints beside its stand-ins: each record's figures for ``experiment``, labelled
    (model, provider, date), or one line saying none was found and the command that makes one."""
    if experiment not in EXPERIMENTS:
        raise ValueError(f"experiment must be one of {', '.join(EXPERIMENTS)}, not {experiment!r}")
    where = Path(folder) if folder is not None else runs_folder()
    found, problems = records_in(where)
    out = [f"(skipped) {p}" for p in problems]
    shown = 0
    for rec in found:
        lines = _lines(rec, experiment)
        if not lines:
            continue
        shown += 1
        old = "; old version, selection only" if rec.old_version else ""
        out.append(
            f"Recorded: {rec.label}, {count(rec.repeat, 'repeat')}, temperature {rec.temperature}{old}"
        )
        out += lines
    if not shown:
        out.append(f"No record in {where.name}/ for this lesson's experiment; {how_to_record()}")
    return "\n".join(out)
