"""The 24 fictional tasks, each solved by a known sequence of tools.

Knowing the right sequence is what makes the simulation measurable: at
every step the lesson knows which tool the agent *should* call next, and
can count calls to tools outside the sequence.
"""

from __future__ import annotations

from dataclasses import dataclass

from tooldesign.levels.environment import (
    SEED,
    SUBSCRIBER_COUNT,
    SUBSCRIBERS,
    charge,
    meter_difference,
    subscriber_id,
)
from tooldesign.levels.stream import Stream, pick

TASK_COUNT = 24

# kind -> (share of tasks, request template, tool sequence)
KINDS: dict[str, tuple[float, str, tuple[str, ...]]] = {
    "charge": (0.30, "{sub} abonesinin bu donem bedeli nedir", ("sayac_oku", "tuketim", "tarife")),
    "consumption": (0.22, "{sub} abonesinin bu donem tuketimi kac metrekup", ("sayac_oku", "tuketim")),
    "document": (0.20, "sayac donusunde endeks farki nasil hesaplanir", ("belge_ara",)),
    "record": (
        0.28,
        "{sub} abonesinin bedelini hesapla ve kayda yaz",
        ("sayac_oku", "tuketim", "tarife", "kayit_yaz"),
    ),
}
DOCUMENT_ANSWER = "SY01"  # the rollover rule answers every document task


@dataclass(frozen=True)
class Task:
    """One request, the subscriber it is about, and the tools that solve it."""

    name: str
    kind: str
    subscriber: str
    request: str
    sequence: tuple[str, ...]


def build_tasks(seed: int = SEED) -> list[Task]:
    """Draw the task list: per task a subscriber, then a kind by its share.

    Each task has its own stream (seed + 9973 * i); the subscriber is drawn
    first even for document tasks, which do not use it.
    """
    kinds = list(KINDS)
    shares = [KINDS[k][0] for k in kinds]
    tasks = []
    for i in range(TASK_COUNT):
        draw = Stream(seed + 9973 * i).next
        sub = subscriber_id(1 + int(draw() * SUBSCRIBER_COUNT))
        kind = kinds[pick(draw(), shares)]
        _, template, sequence = KINDS[kind]
        tasks.append(Task(f"G{i + 1:02d}", kind, sub, template.format(sub=sub), sequence))
    return tasks


TASKS = build_tasks()


def correct_answer(task: Task, subscribers: dict[str, dict] = SUBSCRIBERS) -> int | str:
    """The answer the loop must leave behind, computed straight from the records.

    It uses the environment directly, not the tools, so a tool misuse can
    never make a wrong answer look right.
    """
    if task.kind == "document":
        return DOCUMENT_ANSWER
    record = subscribers[task.subscriber]
    m3 = meter_difference(record["onceki"], record["simdiki"])
    if task.kind == "consumption":
        return m3
    return charge(m3, record["tip"])  # charge and record tasks


def task_by_name(name: str, tasks: list[Task] = TASKS) -> Task:
    """Look a task up by its name, e.g. ``task_by_name("G03")``."""
    for task in tasks:
        if task.name == name:
            return task
    raise KeyError(name)
