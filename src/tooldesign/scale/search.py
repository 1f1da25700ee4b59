"""Tool search: declare every definition deferred, and let a search bring back references to the k that fit.

With a large catalog most tools sit idle on any one request, yet every loaded definition is billed
on every call. Tool search loads one small definition (``tool_search``) and declares the rest with
``defer_loading: true``: the API keeps them out of the model's context. The model calls the search
with the job it needs done; the search answers with ``tool_reference`` blocks naming the top k, not
with definitions, and the API expands each reference into the deferred definition it names, after
the cached prefix (Anthropic, Tool search tool, R29; OpenAI's deferred functions work the same way,
R41). The model then picks among those. The price is one extra round trip before the first real call.

The measurement here is offline: BM25 ranks the catalog for the search, ``expand`` stands in for
the API's expansion, and an offline picker makes the choice among the k found (all stand-ins, not
models). Tokens are estimates (characters / 4) of the tool text each model call carries, plus the
request. Each request is counted as a fresh conversation, so every one pays the extra round trip;
in a longer conversation a tool found once stays loaded.

Run ``tooldesign scale search`` (or ``python -m tooldesign.scale.search``) to print the table.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from tooldesign.loop.caching import ANTHROPIC_CACHE, CacheSplit
from tooldesign.scale.growth import MAX_SIZE, SCALE_CASES, SEED, catalog, definition_tokens
from tooldesign.selection import BM25Picker, Case, Picker, expected_for, judge, offline_picker
from tooldesign.tokens import ESTIMATE_RULE, estimate_tokens
from tooldesign.tools.base import Tool, ToolSet

KS = (1, 2, 3, 5, 10)

SEARCH_DESCRIPTION = (
    "Finds the tools that fit a job, from a catalog too large to load in full. Returns references to the "
    "best matches, and their definitions are loaded for you to call next. Use it first whenever no loaded "
    "tool fits the request. Describe the job in the user's words; it reads only and changes nothing."
)
SEARCH_PARAMETERS = {
    "type": "object",
    "additionalProperties": False,
    "required": ["job"],
    "properties": {
        "job": {
            "type": "string",
            "description": "The job in a few words, for example 'why is sales order 4711 blocked'.",
        }
    },
}


def search_tool(tools: Sequence[Tool], k: int, ranker: Picker | None = None) -> Tool:
    """The one tool loaded up front: it ranks ``tools`` for a job and returns references to the top k.

    A reference names a deferred tool; it is not a definition the model could call by itself. The
    API turns it into the definition declared (deferred) in the request: ``expand`` below.
    """
    ranker = ranker or BM25Picker()

    def handler(arguments: dict) -> dict:
        found = top_k(str(arguments.get("job", "")), tools, k, ranker)
        return {"found": [reference(t.name) for t in found]}

    return Tool(
        "tool_search",
        SEARCH_DESCRIPTION,
        SEARCH_PARAMETERS,
        handler,
        dict(readOnlyHint=True, openWorldHint=False),
    )


def reference(name: str) -> dict[str, str]:
    """A ``tool_reference`` block, as Anthropic's API takes it in a tool result (R29)."""
    return {"type": "tool_reference", "tool_name": name}


def expand(references: Sequence[dict], tools: ToolSet) -> list[Tool]:
    """What the API does with references: the deferred definitions they name, in order.

    A reference to a tool the catalog does not hold is an error, as a real API refuses it
    (lesson 18's capture server shows that refusal).
    """
    unknown = [r.get("tool_name") for r in references if r.get("tool_name") not in tools.names]
    if unknown:
        raise ValueError(f"tool_reference names a tool not in the catalog: {', '.join(map(str, unknown))}")
    return [tools[r["tool_name"]] for r in references]


def top_k(job: str, tools: Sequence[Tool], k: int, ranker: Picker | None = None) -> list[Tool]:
    """The k tools the ranker scores highest for ``job``; a score of zero never counts as a match."""
    ranking = (ranker or BM25Picker()).pick(job, list(tools)).ranking
    by_name = {t.name: t for t in tools}
    return [by_name[name] for name, score in ranking[:k] if score > 0]


@dataclass(frozen=True)
class SearchOutcome:
    """One request answered with tool search."""

    request: str
    found: tuple[str, ...]
    chosen: str | None
    right: bool
    in_top_k: bool
    tokens: int
    round_trips: int
    # Of ``tokens``, how many a warm prompt cache would re-read instead of charging in full: the
    # definitions every request repeats and, with search, the whole first call (deferred loading).
    from_cache: int = 0


def with_search(
    case: Case, tools: ToolSet, k: int, picker: Picker, ranker: Picker | None = None
) -> SearchOutcome:
    """Two model calls: the first sees only tool_search and calls it; the second sees what it found.

    The second call carries the search's references and, expanded by the API, the definitions they name.
    """
    search = search_tool(list(tools), k, ranker)
    call: dict[str, Any] = {
        "type": "tool_use",
        "id": "call_search",
        "name": "tool_search",
        "input": {"job": case.request},
    }
    result = search.run(call["input"])
    found = expand(result["found"], tools)
    found_names = tuple(t.name for t in found)
    chosen = picker.pick(case.request, found).tool if found else None
    expected = expected_for(case, tools.name)
    first = definition_tokens([search]) + estimate_tokens(case.request)
    second = first + estimate_tokens(call) + estimate_tokens(json.dumps(result)) + definition_tokens(found)
    right_in = expected is not None and any(n in expected for n in found_names)
    return SearchOutcome(
        case.request,
        found_names,
        chosen,
        judge(expected, chosen),
        right_in or expected == (),
        first + second,
        2,
        definition_tokens([search]) + first,
    )


def load_all(case: Case, tools: ToolSet, picker: Picker) -> SearchOutcome:
    """One model call with every definition loaded."""
    chosen = picker.pick(case.request, tools).tool
    expected = expected_for(case, tools.name)
    return SearchOutcome(
        case.request,
        tuple(tools.names),
        chosen,
        judge(expected, chosen),
        True,
        definition_tokens(tools) + estimate_tokens(case.request),
        1,
        definition_tokens(tools),
    )


@dataclass(frozen=True)
class Summary:
    """Totals over the cases for one way of loading tools."""

    label: str
    k: int | None
    accuracy: float
    recall: float
    tokens_per_request: float
    round_trips: int
    cached_per_request: float = 0.0


def _summary(label: str, k: int | None, outcomes: Sequence[SearchOutcome]) -> Summary:
    n = len(outcomes)
    return Summary(
        label,
        k,
        round(sum(o.right for o in outcomes) / n, 4),
        round(sum(o.in_top_k for o in outcomes) / n, 4),
        round(sum(o.tokens for o in outcomes) / n, 1),
        outcomes[0].round_trips,
        round(sum(o.from_cache for o in outcomes) / n, 1),
    )


def compare(
    size: int = MAX_SIZE, ks: Sequence[int] = KS, picker: str = "words", cases: Sequence[Case] = SCALE_CASES
) -> list[Summary]:
    """Load everything versus tool search with each k, on the same catalog and requests."""
    tools = catalog(size, shuffle=SEED)
    chooser = offline_picker(picker)
    ranker = BM25Picker()
    rows = [_summary("load all", None, [load_all(c, tools, chooser) for c in cases])]
    for k in ks:
        rows.append(_summary(f"search, k={k}", k, [with_search(c, tools, k, chooser, ranker) for c in cases]))
    return rows


@lru_cache(maxsize=8)
def compare_cached(size: int = MAX_SIZE, picker: str = "words") -> tuple[Summary, ...]:
    return tuple(compare(size, picker=picker))


def best_k(budget: float, rows: Sequence[Summary]) -> int | None:
    """The k with the best accuracy whose tokens per request fit ``budget``; the smaller k on a tie."""
    fitting = [(r.accuracy, -r.k, r.k) for r in rows if r.k is not None and r.tokens_per_request <= budget]
    return max(fitting)[2] if fitting else None


def table(rows: Sequence[Summary]) -> list[dict]:
    return [
        {
            "loading": r.label,
            "accuracy": f"{r.accuracy:.0%}",
            "right tool among those loaded": f"{r.recall:.0%}",
            "tokens per request (estimate)": r.tokens_per_request,
            "read from cache (warm)": r.cached_per_request,
            "at full price": round(r.tokens_per_request - r.cached_per_request, 1),
            "cost with Anthropic cache (full-price tokens)": round(
                CacheSplit(round(r.tokens_per_request), round(r.cached_per_request)).cost(ANTHROPIC_CACHE)
            ),
            "model calls": r.round_trips,
        }
        for r in rows
    ]


def _report() -> None:
    print(
        f"Tool search over the {MAX_SIZE}-tool catalog, {len(SCALE_CASES)} requests. BM25 ranks for the search; "
        "the word-matching stand-in chooses among the loaded tools (stand-ins, not models). Tokens are "
        f"estimates ({ESTIMATE_RULE}) summed over the model calls a request needs."
    )
    print(f"\n{'loading':<14} {'accuracy':>8} {'in loaded':>9} {'tokens':>8} {'calls':>5}")
    for r in compare():
        print(
            f"{r.label:<14} {r.accuracy:>8.0%} {r.recall:>9.0%} {r.tokens_per_request:>8.0f} {r.round_trips:>5}"
        )


def main(argv: Sequence[str] | None = None, prog: str = "python -m tooldesign.scale.search") -> int:
    """``tooldesign scale search`` and its ``python -m`` spelling; bad input ends in one line."""
    from tooldesign.command_line import run_report

    return run_report(
        _report, argv, prog=prog, description="Tool search against loading every definition (lesson 13)."
    )


if __name__ == "__main__":
    raise SystemExit(main())
