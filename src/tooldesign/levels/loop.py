"""The agent loop, with every call passing through the definition layer.

The agent is a stand-in, not a model: at each step it either calls the
next tool of the task's sequence (with a share that falls as the task gets
deeper and that the definition level multiplies), calls a random tool, or,
once the sequence is done, usually stops. Its "knowledge" is a dict of the
fields it has seen; the call boundary decides which of them it passes.

Two streams drive a run, both derived from the seed and the task name:
one for the agent's choices and one for the definition layer, so that a
change of level never shifts the agent's choices, only what its calls carry.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tooldesign.levels.definitions import LEVELS, Level, call_tool, catalog_tokens
from tooldesign.levels.environment import SEED
from tooldesign.levels.stream import Stream, fnv1a
from tooldesign.levels.tasks import Task
from tooldesign.levels.tools import TOOL_NAMES

STEP_BUDGET = 8  # the same at every level (TM7)
STOP_SHARE = 0.88  # after the last tool of the sequence, chance to stop

# Prompt cost per step, in lesson tokens: a fixed frame, plus each earlier
# call as it sits in the history, plus the catalog; each result adds more.
FRAME_TOKENS = 60
HISTORY_TOKENS = 22
RESULT_TOKENS = 30

# Which result field becomes the agent's answer after a successful call.
ANSWER_FIELDS = {"tuketim": "m3", "tarife": "tutar", "belge_ara": "kod"}


def right_tool_share(depth: int) -> float:
    """Chance to pick the right tool at position ``depth`` (1 = first) of a sequence.

    It falls by 0.09 per position from 0.80 and never below 0.34: long
    tasks are harder to keep on track.
    """
    return max(0.34, 0.80 - 0.09 * (depth - 1))


@dataclass
class TraceStep:
    """One step of a run, kept for reading a trace."""

    number: int
    tool: str
    target: str | None  # the tool the sequence wanted, or None once done
    arguments: dict
    result: dict

    @property
    def failed(self) -> bool:
        return "hata" in self.result


@dataclass
class TaskRun:
    """What one task left behind after the loop."""

    task: Task
    level: Level
    steps: int = 0
    tokens: int = 0
    errors: int = 0
    foreign: int = 0  # valid calls to a tool outside the sequence
    answer: object = None
    trace: list[TraceStep] = field(default_factory=list)

    @property
    def calls(self) -> int:
        return len(self.trace)


def run_task(task: Task, level: Level | int = 4, seed: int = SEED, max_steps: int = STEP_BUDGET) -> TaskRun:
    """Run the agent on one task at one definition level.

    The answer is whatever the last answering tool returned (TM8): the
    run is judged on what it leaves, not on whether it stopped by itself.
    """
    if isinstance(level, int):
        level = LEVELS[level]
    choose = Stream(seed ^ fnv1a(task.name)).next
    draw = Stream(seed ^ fnv1a(task.name + "tanim")).next
    catalog_cost = catalog_tokens(level)
    sequence = task.sequence
    state: dict[str, object] = {"abone": task.subscriber, "anahtar": task.request, "sutun": "bedel"}
    run = TaskRun(task, level)
    done = 0  # tools of the sequence completed so far
    while run.steps < max_steps:
        run.steps += 1
        run.tokens += FRAME_TOKENS + HISTORY_TOKENS * len(run.trace) + catalog_cost
        if done < len(sequence):
            target = sequence[done]
            if choose() < right_tool_share(done + 1) * level.selection_factor:
                tool = target
            else:  # a random tool, which may still be the right one
                tool = TOOL_NAMES[int(choose() * len(TOOL_NAMES))]
        else:
            target = None
            if choose() < STOP_SHARE:
                break
            tool = TOOL_NAMES[int(choose() * len(TOOL_NAMES))]
        if tool == "kayit_yaz":
            state["deger"] = run.answer  # the value to write is the answer so far
        arguments, result = call_tool(tool, state, level, draw)
        run.trace.append(TraceStep(run.steps, tool, target, arguments, result))
        run.tokens += RESULT_TOKENS
        if "hata" in result:
            run.errors += 1  # a failed call spends a step and advances nothing
            continue
        run.foreign += tool not in sequence
        state.update(result)
        if tool in ANSWER_FIELDS:
            run.answer = result[ANSWER_FIELDS[tool]]
        if tool == target:
            done += 1
    return run
