"""Four levels of tool definition, measured in a fictional agent loop.

The modules follow the lesson (notebook 10, definition_levels):

``stream``       the seeded random stream every draw comes from
``environment``  60 subscribers, 5 documents, the tariff
``tools``        the five tools (in the course's one tool shape) and their declared fields
``tasks``        24 tasks, each with a known tool sequence and answer
``definitions``  the four levels, the catalog, and the call boundary
``loop``         the agent loop with its step budget
``measure``      the table: calls, errors, success, steps, tokens
``sweep``        hundreds of seeds, intervals and the run-to-run band
``plots``, ``widgets``  the pictures and the explorer

Tokens are counted by the piece rule of ``tooldesign.tokens``. Everything is fictional and
offline; no model or server is called.
"""

from tooldesign.levels.definitions import (
    LEVELS,
    Level,
    call_tool,
    catalog,
    catalog_line,
    catalog_tokens,
    levels_with,
    parse_call,
    wire_call,
)
from tooldesign.levels.environment import DOCUMENTS, SEED, SUBSCRIBERS
from tooldesign.levels.loop import STEP_BUDGET, TaskRun, run_task
from tooldesign.levels.measure import PUBLISHED, SEEDS, LevelResult, level_table, measure, trace_frame
from tooldesign.levels.sweep import LevelGap, SweepResult, sweep
from tooldesign.levels.tasks import TASKS, Task, correct_answer, task_by_name
from tooldesign.levels.tools import TOOL_NAMES, TOOLS

__all__ = [
    "DOCUMENTS",
    "LEVELS",
    "PUBLISHED",
    "SEED",
    "SEEDS",
    "STEP_BUDGET",
    "SUBSCRIBERS",
    "TASKS",
    "TOOLS",
    "TOOL_NAMES",
    "Level",
    "LevelResult",
    "TaskRun",
    "SweepResult",
    "Task",
    "LevelGap",
    "call_tool",
    "catalog",
    "catalog_line",
    "catalog_tokens",
    "correct_answer",
    "level_table",
    "levels_with",
    "measure",
    "parse_call",
    "run_task",
    "sweep",
    "task_by_name",
    "trace_frame",
    "wire_call",
]
