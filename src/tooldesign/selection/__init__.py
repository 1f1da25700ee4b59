"""The selection test: does the first tool called match the job the clerk asked for?

``run_selection(picker, tools)`` asks a picker for the first tool of every request in
``CASES`` and ``NO_CALL_CASES`` and judges each answer. Pickers share one interface
(:class:`Picker`): the crude word-matching stand-in and a BM25 ranker run offline; real models
(OpenAI-compatible endpoints, Anthropic, SAP's generative AI hub) live in
``tooldesign.selection.models`` and are opt-in.
"""
from tooldesign.selection.cases import ALL_CASES, CASES, NO_CALL_CASES, Case, expected_for
from tooldesign.selection.pickers import (BM25Picker, Choice, Picker, WordMatchPicker, offline_picker, tool_text,
                                          words)
from tooldesign.selection.score import Row, SelectionResult, judge, run_selection

__all__ = ["ALL_CASES", "CASES", "NO_CALL_CASES", "Case", "expected_for", "BM25Picker", "Choice", "Picker",
           "WordMatchPicker", "offline_picker", "tool_text", "words", "Row", "SelectionResult", "judge",
           "run_selection"]
