"""One question asked three ways, measured: which shipments earn a claim, and for how much?

1. **classic**: the model calls every tool itself, 1 + 24 + 1 = 26 calls, and every reading passes
   through its context.
2. **code mode**: the model also has run_code. The bulk tools are still in its own tool list
   (access ``both``), and the scripted stand-in looks at the shipment list and at one shipment's
   readings directly before it writes its program: whatever a model can call, it may call.
3. **code mode, bulk tools code only**: CC_LIST_SHIPMENTS and CC_GET_READINGS are set to ``code``.
   The model's list now holds CC_GET_LIMITS and run_code; the one way to the readings is a program,
   and only the program's printed result enters the context.

The "model" here is a script, so the figures are what this course's harness measures in
characters (tokens are estimated as characters / 4). A real model's input tokens are higher: it is
sent the whole conversation again on every round trip. The figures UC AI's lesson reported for a
real model are kept beside them in ``REPORTED``, labeled as reported.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from tooldesign import DATA_DIR, palette
from tooldesign.codemode import coldchain_tools as cc
from tooldesign.codemode.catalog import RUN_CODE, catalog_for, model_tool_names, run_code_definition
from tooldesign.codemode.registry import Registry
from tooldesign.codemode.runner import RunResult, handlers_for, run_program
from tooldesign.data import coldchain
from tooldesign.tokens import chars_to_tokens
from tooldesign.tools.base import result_size
from tooldesign.wording import count

__all__ = [
    "CORRECTED_PROGRAM",
    "DRAFT_PROGRAM",
    "REPORTED",
    "REPORTED_SOURCE",
    "ContextItem",
    "ContextRun",
    "all_runs",
    "classic_run",
    "code_mode_run",
    "compare_runs",
    "plot_runs",
    "recorded_program",
    "run_recorded",
    "savings",
]

PROGRAMS_DIR = DATA_DIR / "codemode"
DRAFT_PROGRAM = "draft_catalog_program.js"
CORRECTED_PROGRAM = "corrected_catalog_program.js"

RUN_NAMES = ("classic", "code mode", "code mode, bulk code only")

# Reported by UC AI's lesson "Tell the program what your tools return" (the course's source for
# notebooks 08 and 09; R20 in docs/references.md) for a real model, not measured by this course. The lesson
# names the model and date of its last run only, beside the recorded answer.
REPORTED_SOURCE = 'UC AI, "Tell the program what your tools return" (lesson 4 of UC AI\'s code-mode course)'
REPORTED = pd.DataFrame(
    {
        "run": list(RUN_NAMES),
        "tool calls (reported)": [26, 5, 1],
        "input tokens (reported)": [34_413, 20_280, 3_981],
        "seconds (reported)": [46.6, 48.0, 15.4],
        "model and date (reported)": ["not named", "not named", "claude-sonnet-4-6, 2026-08-25"],
    }
)


def recorded_program(
    name: str = CORRECTED_PROGRAM, folder: Path = PROGRAMS_DIR, *, with_label: bool = True
) -> str:
    """The text of a recorded program: a program a model might write, kept under data/codemode/.

    Each file is JavaScript, as the lesson's source has models write it, and opens with ``//``
    lines that label it as a recording; ``with_label=False`` drops them, which is the program as
    a model would send it and what the runs measure.
    """
    text = (Path(folder) / name).read_text(encoding="utf-8")
    if with_label:
        return text
    lines = text.splitlines(keepends=True)
    while lines and (lines[0].startswith("//") or not lines[0].strip()):
        lines.pop(0)
    return "".join(lines)


@dataclass(frozen=True)
class ContextItem:
    """One thing that enters the model's context, and its size in characters."""

    kind: str  # "tool definitions", "tool call", "tool result", "program", "program output"
    name: str
    chars: int


@dataclass(frozen=True)
class ContextRun:
    """One way of asking the question, measured by what enters the model's context."""

    run: str
    direct_tools: tuple[str, ...]
    model_calls: int
    program_calls: int
    context: tuple[ContextItem, ...]
    answer: str

    @property
    def context_chars(self) -> int:
        return sum(item.chars for item in self.context)

    def chars_by_kind(self) -> dict[str, int]:
        totals: Counter[str] = Counter()
        for item in self.context:
            totals[item.kind] += item.chars
        return dict(totals)


def _chars(value: Any) -> int:
    return len(value) if isinstance(value, str) else result_size(value)


def _result_line(claims: Iterable[tuple[str, float]]) -> str:
    claims = list(claims)
    total = sum(eur for _, eur in claims)
    return "RESULT: " + ", ".join(number for number, _ in claims) + f" | {total:g}"


def classic_run() -> ContextRun:
    """The model calls each tool itself; every result, all readings included, lands in its context."""
    tools = cc.tool_set(cc.CORRECTED)
    context = [ContextItem("tool definitions", "3 tools", _chars(json.dumps(tools.definitions())))]

    def call(code: str, arguments: dict) -> Any:
        result = tools[code].run(arguments)
        context.append(ContextItem("tool call", code, _chars(json.dumps(arguments))))
        context.append(ContextItem("tool result", code, _chars(result)))
        return result

    shipments = call(cc.LIST, {})
    logs = [call(cc.READINGS, {"shipment_id": s["shipment_id"]}) for s in shipments]
    limits = {row["product_class"]: row for row in call(cc.LIMITS, {})}
    # The stand-in reasons over what is in its context with the course's claim rule.
    claims = []
    for shipment, log in zip(shipments, logs):
        rule = limits[shipment["product_class"]]
        minutes = coldchain.longest_breach_minutes(
            [r["temp_c"] for r in log["readings"]], rule["max_temp_c"], rule["sample_minutes"]
        )
        eur = coldchain.claim_eur(minutes, rule["max_minutes_above"], rule["claim_per_hour_eur"])
        if eur:
            claims.append((shipment["shipment_number"], eur))
    calls = len(shipments) + 2
    return ContextRun(RUN_NAMES[0], tuple(tools.names), calls, 0, tuple(context), _result_line(claims))


def run_recorded(registry: Registry, program: str, tags: Iterable[str] | None = (cc.TAG,)) -> RunResult:
    """Run a program against what the registry offers it: the tools in its catalog, nothing else."""
    catalog = catalog_for(registry, tags)
    handlers = handlers_for({code: registry.get(code).function_call for code in catalog.codes})
    return run_program(program, handlers)


# The stand-in's look at the bulk data before it writes a program, made only while it can.
_PEEKS: tuple[tuple[str, dict[str, Any]], ...] = ((cc.LIST, {}), (cc.READINGS, {"shipment_id": 108}))


def code_mode_run(registry: Registry, program: str | None = None) -> ContextRun:
    """Measure a code-mode run against the registry as it is configured now.

    The stand-in makes the peeks in ``_PEEKS`` that the model's tool list still allows, then sends
    one program to run_code.
    """
    program = recorded_program(with_label=False) if program is None else program
    direct = model_tool_names(registry, [cc.TAG])
    definitions = [registry.get(code) for code in direct if code != RUN_CODE]
    catalog = catalog_for(registry, [cc.TAG])
    sent = [
        {"name": row.code, "description": row.description, "parameters": row.json_schema}
        for row in definitions
    ] + [run_code_definition(catalog)]
    context = [ContextItem("tool definitions", count(len(sent), "tool"), _chars(json.dumps(sent)))]
    model_calls = 0
    for code, arguments in _PEEKS:
        if code in direct:
            model_calls += 1
            context.append(ContextItem("tool call", code, _chars(json.dumps(arguments))))
            context.append(ContextItem("tool result", code, _chars(cc.HANDLERS[code](arguments))))
    result = run_recorded(registry, program)
    model_calls += 1
    context.append(ContextItem("program", RUN_CODE, len(program)))
    context.append(ContextItem("program output", RUN_CODE, result.chars_to_context))
    # The answer is the printout's last line, or the runner's line when the program failed.
    printed = result.output.strip().splitlines()
    answer = f"ERROR: {result.error}" if result.error is not None else (printed[-1] if printed else "")
    name = RUN_NAMES[2] if cc.READINGS not in direct else RUN_NAMES[1]
    return ContextRun(name, tuple(direct), model_calls, result.tool_calls, tuple(context), answer)


def _registry(path: str | Path) -> Registry:
    registry = Registry(path)
    cc.register(registry, cc.CORRECTED, access=dict.fromkeys(cc.CODES, "both"))
    return registry


def all_runs(path: str | Path = ":memory:") -> list[ContextRun]:
    """The three runs; the registry at ``path`` ends with the bulk tools set to code."""
    with _registry(path) as registry:
        records = [classic_run(), code_mode_run(registry)]
        for code in (cc.LIST, cc.READINGS):
            registry.set_access(code, "code")
        records.append(code_mode_run(registry))
    return records


def compare_runs(path: str | Path = ":memory:") -> pd.DataFrame:
    """The measured table: calls, characters into the model's context, and the answer."""
    rows = [
        {
            "run": record.run,
            "model's tools": ", ".join(record.direct_tools),
            "model tool calls": record.model_calls,
            "calls inside the program": record.program_calls,
            "chars into context": record.context_chars,
            "tokens (estimate)": chars_to_tokens(record.context_chars),
            "answer": record.answer,
        }
        for record in all_runs(path)
    ]
    return pd.DataFrame(rows)


def savings(table: pd.DataFrame) -> pd.DataFrame:
    """Where the saving comes from: each step's characters into the context, and its share of the
    classic run's characters that the step removed."""
    chars = table.set_index("run")["chars into context"]
    classic = chars[RUN_NAMES[0]]
    steps = [
        ("run_code: the program makes the calls", RUN_NAMES[0], RUN_NAMES[1]),
        ("then the bulk tools set to 'code'", RUN_NAMES[1], RUN_NAMES[2]),
    ]
    return pd.DataFrame(
        [
            {
                "step": step,
                "chars before": chars[before],
                "chars after": chars[after],
                "share of the classic run removed": f"{(chars[before] - chars[after]) / classic:.0%}",
            }
            for step, before, after in steps
        ]
    )


def plot_runs(table: pd.DataFrame, reported: pd.DataFrame = REPORTED):
    """Two bar charts: tool calls and characters into the context, per run."""
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 3.8))
    names = [name.replace(", ", ",\n") for name in table["run"]]
    left.bar(names, table["model tool calls"], color=palette.BLUE, label="made by the model (measured)")
    left.bar(
        names,
        table["calls inside the program"],
        bottom=table["model tool calls"],
        color=palette.LIGHT_BLUE,
        label="made inside the program (measured)",
    )
    left.plot(names, reported["tool calls (reported)"], "kD", label="real model (reported by UC AI)")
    top = max(table["model tool calls"] + table["calls inside the program"])
    left.set(title="Tool calls per run", ylabel="tool calls", xlabel="run", ylim=(0, top * 1.6))
    left.legend(fontsize=8, loc="upper right")  # above the bars, in the room the y limit leaves
    right.bar(names, table["chars into context"], color=palette.ORANGE)
    right.set(
        title="What enters the model's context (measured)",
        ylabel="characters",
        xlabel="run",
        ylim=(0, max(table["chars into context"]) * 1.12),
    )
    for x, chars in enumerate(table["chars into context"]):
        right.annotate(f"{chars:,}", (x, chars), ha="center", va="bottom", fontsize=8)
    fig.tight_layout()
    return fig
