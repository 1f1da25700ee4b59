"""Lesson 17: results that carry instructions. Free text in results, a scripted attack, defences measured.

``results`` returns the order notes and customer remarks raw, quoted and labelled, or not at all;
``reader`` is the scripted agent that obeys what it reads; ``attack`` runs one poisoned record
through the dispatcher and its approval gate; ``lint_rule`` flags unlabelled free text in results;
``measure`` counts, per defence, the poisoned records that reach a write proposal;
``widgets`` holds the defence toggle. ``tooldesign injection`` (or ``python -m tooldesign.injection``)
prints the tables.
"""

from tooldesign.injection.attack import Outcome, run_record, seeded_notes
from tooldesign.injection.lint_rule import FREE_TEXT_RULE, free_text_paths
from tooldesign.injection.measure import DEFENCES, defence_rows, lint_rows
from tooldesign.injection.reader import LABEL_AWARE, LITERAL, Reader
from tooldesign.injection.results import VARIANTS, noted_set, quoted

__all__ = [
    "DEFENCES",
    "FREE_TEXT_RULE",
    "LABEL_AWARE",
    "LITERAL",
    "Outcome",
    "Reader",
    "VARIANTS",
    "defence_rows",
    "free_text_paths",
    "lint_rows",
    "noted_set",
    "quoted",
    "run_record",
    "seeded_notes",
]
