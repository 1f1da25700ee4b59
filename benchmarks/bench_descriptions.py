"""The designed descriptions before and after issue 24: the keyword-stuffed wording against the plain one.

Run: .venv/bin/python benchmarks/bench_descriptions.py
Prints, for each wording of the same five tools, the offline stand-ins' scores on the tuning, development
and held-out cases (right first tool over tool requests), the definitions' tokens per call (an estimate,
characters / 4), their cost across a 10-step loop, and the lint findings. The stand-ins count shared
words: a higher score here says the words are there, not that a model or a clerk finds the text clear.
"""

from __future__ import annotations

from tooldesign.selection.cases import SET_ORDER
from tooldesign.selection.report import score_rows, wording_rows
from tooldesign.tokens import ESTIMATE_LABEL

WORDINGS = ("designed-keyword-stuffed", "designed")


def main() -> None:
    rows = {(r.tool_set, r.picker, r.case_set): r for r in score_rows(WORDINGS)}
    width = max(len(w) for w in WORDINGS)
    print(f"{'wording':<{width}}  picker  " + "  ".join(f"{c:>16}" for c in SET_ORDER))
    for wording in WORDINGS:
        for picker in ("words", "bm25"):
            cells = (rows[wording, picker, c] for c in SET_ORDER)
            print(
                f"{wording:<{width}}  {picker:<6}  "
                + "  ".join(f"{f'{r.right}/{r.total} ({r.share:.0%})':>16}" for r in cells)
            )
    print()
    print(f"{'wording':<{width}}  tokens/call  10-step loop  lint findings  longest description")
    for cost in wording_rows(WORDINGS):
        print(
            f"{cost.tool_set:<{width}}  {cost.tokens_per_call:>11}  {cost.loop_tokens:>12}  "
            f"{cost.findings:>13}  {cost.longest_words:>13} words"
        )
    print(f"\ntokens: {ESTIMATE_LABEL}; stand-ins are offline pickers, not models")


if __name__ == "__main__":
    main()
