"""Lesson 16: results across the loop. What a result costs when every later step re-sends it.

``transcript`` runs a scripted task and measures each model call; ``task`` is the clerk's
four-step job on customer 10023 with either tool set; ``shrink`` holds four ways to carry less
(truncation, pagination with a cursor, field selection, a summary); ``facts`` the questions asked
at the end; ``measure`` the tables and plots; ``widgets`` the truncation slider.
``tooldesign loop`` (or ``python -m tooldesign.loop``) prints the tables.
"""

from tooldesign.loop.facts import FACTS, kept, lost
from tooldesign.loop.measure import TECHNIQUES, per_call, technique_rows, techniques
from tooldesign.loop.task import REQUEST, STEPS, run_task
from tooldesign.loop.transcript import SYSTEM_PROMPT, CallCost, Exchange, Run, as_is, run_steps

__all__ = [
    "FACTS",
    "REQUEST",
    "STEPS",
    "SYSTEM_PROMPT",
    "TECHNIQUES",
    "CallCost",
    "Exchange",
    "Run",
    "as_is",
    "kept",
    "lost",
    "per_call",
    "run_steps",
    "run_task",
    "technique_rows",
    "techniques",
]
