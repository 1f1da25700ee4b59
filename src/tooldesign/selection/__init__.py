"""The selection test: does the first tool called match the job the clerk asked for?

``run_selection(picker, tools, cases, set_name)`` asks a picker for the first tool of every case
and judges each answer. The cases come in three sets kept apart (``case_set("tuning" |
"development" | "held-out")``); the held-out score is the headline (``report.score_rows``).
Pickers share one interface (:class:`Picker`): the crude word-matching stand-in and a BM25 ranker
run offline; real models (OpenAI-compatible endpoints, Anthropic, SAP's generative AI hub, a local
Ollama server) live in ``tooldesign.selection.models`` and are opt-in; ``record`` keeps their runs;
``widgets`` holds notebook 06's request tester.
"""

from tooldesign.selection.cases import (
    ALL_CASES,
    CASES,
    NO_CALL_CASES,
    Case,
    CaseSet,
    case_set,
    case_sets,
    expected_for,
)
from tooldesign.selection.pickers import (
    BM25Picker,
    PickedTool,
    Picker,
    WordMatchPicker,
    offline_picker,
    tool_text,
    words,
)
from tooldesign.selection.score import SelectionResult, SelectionRow, judge, run_selection

__all__ = [
    "ALL_CASES",
    "CASES",
    "NO_CALL_CASES",
    "Case",
    "CaseSet",
    "case_set",
    "case_sets",
    "expected_for",
    "BM25Picker",
    "PickedTool",
    "Picker",
    "WordMatchPicker",
    "offline_picker",
    "tool_text",
    "words",
    "SelectionRow",
    "SelectionResult",
    "judge",
    "run_selection",
]
