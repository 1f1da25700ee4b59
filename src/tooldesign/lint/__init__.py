"""Design rules for tool definitions, checked without a model.

A model chooses a tool from its name, description and parameter schema alone, so most design
mistakes are visible in the text before any model runs. Each rule below has an id, says what it
checks and why, and returns findings a person can act on. ``lint(tools)`` runs every rule over a
tool set and reports the findings plus the definitions' size in tokens (an estimate).

The description rules carry the course's one rule for a description (notebook 04): three or four
short sentences (``desc-sentences``, ``desc-long``: at most four and 80 words), saying when to use the
tool (``desc-when``) and ending with the boundary clause (``desc-boundary``), with no list of synonyms
(``desc-alternatives``). A synonym list raises an offline word matcher's score; a reader gains nothing.

A clean lint proves little on its own: it catches the easy mistakes so that the selection test
(``tooldesign.selection``) can focus on behaviour.

Rules are plain functions, so you can add your own: a tool rule takes ``(tool, tools)`` and
returns a list of messages; pass it to ``lint(tools, extra=[Rule(...)])``.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from tooldesign.strict_subset import subset_problems
from tooldesign.tokens import ESTIMATE_LABEL, estimate_tokens
from tooldesign.tools.base import Tool, ToolSet
from tooldesign.tools.schema import NAME_PATTERN, strict_problems
from tooldesign.wording import count

__all__ = [
    "Rule",
    "Finding",
    "LintReport",
    "RULES",
    "lint",
    "lint_tool",
    "rule_table",
    "tool_rule",
    "GENERIC_PARAMETERS",
    "VAGUE_WORDS",
    "VERBS",
    "TOOL_LIMIT",
    "MAX_SENTENCES",
    "MAX_WORDS",
    "sentences",
    "word_count",
    "stuffed_lists",
    "WHEN_CLAUSE",
    "BOUNDARY_WORDS",
]

GENERIC_PARAMETERS = frozenset(
    {
        "id",
        "key",
        "data",
        "value",
        "values",
        "fields",
        "filter",
        "entity",
        "user",
        "input",
        "query",
        "params",
        "payload",
        "object",
        "item",
        "text",
        "name",
    }
)
VERBS = frozenset(
    {
        "get",
        "list",
        "search",
        "find",
        "create",
        "update",
        "delete",
        "check",
        "set",
        "post",
        "read",
        "query",
        "add",
        "remove",
        "cancel",
        "approve",
        "send",
        "fetch",
        "compute",
        "explain",
        "draft",
        "submit",
        "release",
        "change",
    }
)
WRITE_WORDS = (
    "write",
    "create",
    "update",
    "change",
    "set",
    "post",
    "submit",
    "approve",
    "release",
    "cancel",
    "remove",
    "delete",
)
# Words that say nothing about what a tool returns ("Returns data."): a rule that wants a result
# named can ignore them (notebook 05 writes such a rule).
VAGUE_WORDS = frozenset(
    {
        "the",
        "a",
        "an",
        "it",
        "its",
        "this",
        "that",
        "tool",
        "is",
        "are",
        "be",
        "as",
        "all",
        "any",
        "data",
        "result",
        "results",
        "information",
        "info",
        "details",
        "output",
        "value",
        "values",
        "response",
        "something",
        "stuff",
        "everything",
    }
)
TOOL_LIMIT = (
    20  # OpenAI's function-calling guide: fewer than 20 functions at the start of a turn, a soft limit
)
# The course's one rule for a description (notebook 04): three or four short sentences, in the order
# what it does, what it returns, when to use it, the boundary clause. Anthropic asks for "at least three
# to four sentences"; the chapter the course follows says three or four and "longer is not safer". The
# course reads the two together as a floor of three and a ceiling of four, with a word budget so that
# four sentences stay short.
MAX_SENTENCES = 4
MAX_WORDS = 80
# A list of alternatives: this many items in one list joined by commas and "or"; a list joined by "and"
# usually names different things (the returned fields, say), so it needs more items, and the sentence
# that says what the tool returns may list as many fields as it returns.
MIN_ALTERNATIVES = 4
MIN_AND_ITEMS = 6
MAX_OR_PER_SENTENCE = 2
SHORT_ITEM_WORDS = 3


@dataclass(frozen=True)
class Finding:
    rule: str
    tool: str | None  # None: the finding is about the whole set
    message: str

    def __str__(self) -> str:
        return f"[{self.rule}] {self.tool + ': ' if self.tool else ''}{self.message}"


ToolCheck = Callable[[Tool, Sequence[Tool]], Iterable[str]]
SetCheck = Callable[[Sequence[Tool]], Iterable[str]]


@dataclass(frozen=True)
class Rule:
    """One design rule. ``scope`` "tool" runs ``check(tool, tools)`` per tool; "set" runs ``check(tools)``."""

    id: str
    title: str
    why: str
    check: Callable[..., Iterable[str]] = field(repr=False)
    scope: str = "tool"


def tool_rule(rule_id: str, title: str, why: str = "") -> Callable[[ToolCheck], Rule]:
    """Decorator that turns ``def check(tool, tools) -> list[str]`` into a Rule (for your own rules)."""

    def wrap(check: ToolCheck) -> Rule:
        return Rule(rule_id, title, why or (check.__doc__ or "").strip(), check, "tool")

    return wrap


# ---------- helpers the rules share ----------


def sentences(text: str) -> list[str]:
    """Sentences as a reader counts them: split after . ! or ? followed by a space or the end."""
    return [s for s in re.split(r"(?<=[.!?])\s+", text.strip()) if re.search(r"[A-Za-z]", s)]


def word_count(text: str) -> int:
    """Words as a reader counts them: runs of letters, digits, apostrophes, hyphens and underscores."""
    return len(re.findall(r"[A-Za-z0-9][A-Za-z0-9'’_\-]*", text))


_OR = re.compile(r"\s*,\s*(?:(or)\s+)?|\s+(or)\s+", re.I)
_AND = re.compile(r"\s*,\s*(?:(and)\s+)?|\s+(and)\s+", re.I)


def _runs(segment: str, separator: re.Pattern[str] = _OR) -> list[tuple[list[str], set[str]]]:
    """Lists in one clause: each run of short items with the item either side of it (the first and the
    last item of a list carry the clause's other words), and the joins between them ("or", "and", ",")."""
    pieces = separator.split(segment)
    # split() interleaves: item, conjunction after a comma, bare conjunction, item, ...
    items, joins = [pieces[0]], []
    for i in range(1, len(pieces), 3):
        joins.append((pieces[i] or pieces[i + 1] or ",").lower())
        items.append(pieces[i + 2])
    short = [0 < word_count(item) <= SHORT_ITEM_WORDS for item in items]
    runs: list[tuple[list[str], set[str]]] = []
    index = 0
    while index < len(items):
        if not short[index]:
            index += 1
            continue
        end = index
        while end + 1 < len(items) and short[end + 1]:
            end += 1
        first, last = max(index - 1, 0), min(end + 1, len(items) - 1)
        runs.append(([i.strip() for i in items[first : last + 1]], set(joins[first:last])))
        index = end + 1
    return runs


def stuffed_lists(text: str) -> list[str]:
    """The lists of alternatives in ``text``, one line each: what a synonym list looks like mechanically.

    Per sentence and clause (split at ; : and brackets, so a gloss in brackets is a clause of its own):
    a list of at least four items joined by commas and "or" whose inner items are short (three words or
    fewer); more than two "or" in one sentence; or, outside the sentence that says what the tool
    returns, a list of at least six short items joined by commas and "and". A list joined by "and"
    usually names different things (the fields a tool returns, say), hence the higher bar and the
    exemption; alternatives name one job several ways, and a reader needs it named once.
    """
    found: list[str] = []
    for sentence in sentences(text):
        before = len(found)
        returns = bool(re.match(r"\s*(it\s+)?returns\b", sentence, re.I))
        for clause in re.split(r"[;:()\[\]]", sentence):
            for segment in re.split(r",?\s+and\s+", clause):  # "and" ends a list of alternatives
                for run, kinds in _runs(segment):
                    if "or" in kinds and len(run) >= MIN_ALTERNATIVES:
                        found.append(", ".join(run))
            if returns:
                continue
            for run, kinds in _runs(re.sub(r"\s+or\s+", " / ", clause), _AND):
                if "and" in kinds and len(run) >= MIN_AND_ITEMS:
                    found.append(", ".join(run))
        ors = len(re.findall(r"\bor\b", sentence, re.I))
        if ors > MAX_OR_PER_SENTENCE and len(found) == before:
            found.append(f"{ors} times 'or' in: {sentence[:60]}")
    return found


def _name_parts(name: str) -> list[str]:
    return [p for p in re.split(r"[_\-]+|(?<=[a-z])(?=[A-Z])", name) if p]


def _properties(tool: Tool) -> dict[str, Any]:
    props = tool.parameters.get("properties", {})
    return props if isinstance(props, dict) else {}


def _others(tool: Tool, tools: Sequence[Tool]) -> list[str]:
    return [t.name for t in tools if t.name != tool.name]


def _writes(tool: Tool) -> bool:
    """Declared as writing, or named like a write: either way a person must approve."""
    declared = tool.annotations.get("readOnlyHint") is False
    return declared or any(word in _name_parts(tool.name.lower()) for word in WRITE_WORDS)


WHEN_CLAUSE = re.compile(r"\b(use (it|this|this tool)\b|when the user\b|call (it|this) when\b)", re.I)
BOUNDARY_WORDS = re.compile(r"\b(not for|do not use|don't use|never use|instead)\b", re.I)
_APPROVE = re.compile(r"\bapprov", re.I)


# ---------- tool rules ----------


def _name_pattern(tool: Tool, tools: Sequence[Tool]) -> list[str]:
    if re.fullmatch(NAME_PATTERN, tool.name):
        return []
    return ["use letters, digits, _ or - only, 1 to 64 characters"]


def _name_shape(tool: Tool, tools: Sequence[Tool]) -> list[str]:
    parts = [p.lower() for p in _name_parts(tool.name)]
    if len(parts) >= 3 and any(p in VERBS for p in parts[1:]):
        return []
    return ["name the object, the verb and the detail, e.g. sales_order_get_block_summary"]


def _desc_sentences(tool: Tool, tools: Sequence[Tool]) -> list[str]:
    found = len(sentences(tool.description))
    if found >= 3:
        return []
    return [
        f"{count(found, 'sentence')}; write three or four: what it does, what it returns, when to use it, "
        "and the boundary clause"
    ]


def _desc_long(tool: Tool, tools: Sequence[Tool]) -> list[str]:
    count, words = len(sentences(tool.description)), word_count(tool.description)
    if count <= MAX_SENTENCES and words <= MAX_WORDS:
        return []
    return [
        f"{count} sentences, {words} words; keep it to {MAX_SENTENCES} short sentences and at most "
        f"{MAX_WORDS} words: what it does, what it returns, when to use it, the boundary clause"
    ]


def _desc_alternatives(tool: Tool, tools: Sequence[Tool]) -> list[str]:
    return [
        f"a list of alternatives ({clipped}): name the job once in plain words; a synonym list helps a "
        "word matcher, not a reader"
        for clipped in (
            item if len(item) <= 70 else item[:67] + "..." for item in stuffed_lists(tool.description)
        )
    ]


def _desc_when(tool: Tool, tools: Sequence[Tool]) -> list[str]:
    if WHEN_CLAUSE.search(tool.description):
        return []
    return ["no when-to-use clause ('Use it when ...'): the model cannot tell when to pick it"]


def _desc_boundary(tool: Tool, tools: Sequence[Tool]) -> list[str]:
    others = _others(tool, tools)
    if not others:
        return []
    for sentence in sentences(tool.description):
        if BOUNDARY_WORDS.search(sentence) and any(name in sentence for name in others):
            return []
    return [
        "no boundary clause: say what it is not for and name the tool to use instead "
        "('Not for X (use other_tool).')"
    ]


def _param_described(tool: Tool, tools: Sequence[Tool]) -> list[str]:
    return [
        f"'{name}' has no description; say what goes in and its format"
        for name, spec in _properties(tool).items()
        if not (isinstance(spec, dict) and str(spec.get("description", "")).strip())
    ]


def _param_generic(tool: Tool, tools: Sequence[Tool]) -> list[str]:
    return [
        f"'{name}' is a generic name; say what goes in, e.g. 'sales_order' or 'customer'"
        for name in _properties(tool)
        if name.lower() in GENERIC_PARAMETERS
    ]


def _param_free_form(tool: Tool, tools: Sequence[Tool]) -> list[str]:
    return [
        f"'{p.path.split('/')[-1]}' is a free-form object; list the fields it accepts"
        for p in strict_problems(tool.parameters)
        if p.rule == "strict-free-form"
    ]


def _strict(rule_ids: tuple[str, ...]) -> ToolCheck:
    def check(tool: Tool, tools: Sequence[Tool]) -> list[str]:
        return [f"{p.path}: {p.message}" for p in strict_problems(tool.parameters) if p.rule in rule_ids]

    return check


def _strict_subset(tool: Tool, tools: Sequence[Tool]) -> list[str]:
    """Keywords outside OpenAI's strict-mode subset: the schema validates, but a strict request is refused."""
    problems = subset_problems(tool.parameters)
    if not problems:
        return []
    where = ", ".join(f"'{p.keyword}' at {p.path}" for p in problems)
    return [
        f"{where}: outside OpenAI's strict-mode subset, so a strict request is refused; state the rule in "
        "the description and check it at dispatch"
    ]


def _read_only_hint(tool: Tool, tools: Sequence[Tool]) -> list[str]:
    if "readOnlyHint" in tool.annotations:
        return []
    return ["declare readOnlyHint; without it MCP's default says the tool may write"]


def _approval(tool: Tool, tools: Sequence[Tool]) -> list[str]:
    if not _writes(tool) or _APPROVE.search(tool.description):
        return []
    return ["it writes: say that a person approves, and enforce that in code"]


# ---------- set rules ----------


def _set_size(tools: Sequence[Tool]) -> list[str]:
    if len(tools) < TOOL_LIMIT:
        return []
    return [f"{len(tools)} tools; offer fewer than {TOOL_LIMIT} at once, or let the model search for tools"]


_STOP = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "for",
        "to",
        "and",
        "or",
        "it",
        "its",
        "is",
        "are",
        "this",
        "that",
        "with",
        "by",
        "in",
        "on",
        "one",
        "get",
    ]
)


def _word_set(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", text.lower()) if w not in _STOP}


def _jaccard(a: set[str], b: set[str]) -> float:
    return len(a & b) / len(a | b) if a | b else 0.0


def _twins(tools: Sequence[Tool]) -> list[str]:
    out = []
    for i, a in enumerate(tools):
        for b in tools[i + 1 :]:
            pa, pb = set(_name_parts(a.name.lower())), set(_name_parts(b.name.lower()))
            names = len(pa & pb) >= 2 and _jaccard(pa, pb) >= 0.5
            da, db = _word_set(a.description), _word_set(b.description)
            texts = len(da & db) >= 2 and _jaccard(da, db) >= 0.6
            if names or texts:
                what = " and ".join(w for w, hit in (("names", names), ("descriptions", texts)) if hit)
                out.append(
                    f"'{a.name}' and '{b.name}' have near-twin {what}; merge them or say in both "
                    "descriptions when to use which"
                )
    return out


RULES: tuple[Rule, ...] = (
    Rule(
        "name-pattern",
        "name matches ^[a-zA-Z0-9_-]{1,64}$",
        "APIs reject other names; the course keeps names short",
        _name_pattern,
    ),
    Rule(
        "name-shape",
        "name reads object_verb_detail",
        "a shared object prefix groups related tools; the verb and detail say the job",
        _name_shape,
    ),
    Rule(
        "desc-sentences",
        "description has at least three sentences",
        "the description is the main thing a model chooses by",
        _desc_sentences,
    ),
    Rule(
        "desc-long",
        f"description has at most {MAX_SENTENCES} sentences and {MAX_WORDS} words",
        "longer is not safer: a trigger buried in a long text is not read while choosing, and every word is "
        "sent with every call",
        _desc_long,
    ),
    Rule(
        "desc-alternatives",
        "no list of alternatives (a, b, c or d) in one sentence",
        "a synonym list is written for a word matcher; a reader needs the job named once, plainly",
        _desc_alternatives,
    ),
    Rule(
        "desc-when",
        "description says when to use the tool",
        "without a trigger the model matches on surface words",
        _desc_when,
    ),
    Rule(
        "desc-boundary",
        "description says what it is not for and names the neighbouring tool",
        "the choice between two close tools turns on this sentence",
        _desc_boundary,
    ),
    Rule(
        "param-described",
        "every parameter has a description",
        "formats a schema cannot express (digits only, no prefix) live there",
        _param_described,
    ),
    Rule(
        "param-generic",
        "no generic parameter names (id, filter, fields ...)",
        "a generic name invites the wrong value",
        _param_generic,
    ),
    Rule(
        "param-free-form",
        "no free-form objects",
        "an object without listed fields lets the model send anything",
        _param_free_form,
    ),
    Rule(
        "strict-closed",
        "every object sets additionalProperties false",
        "OpenAI's strict mode needs closed objects",
        _strict(("strict-closed",)),
    ),
    Rule(
        "strict-required",
        "every property is required (null for 'not given')",
        "OpenAI's strict mode needs every field required",
        _strict(("strict-required",)),
    ),
    Rule(
        "strict-syntax",
        "object at the top level, patterns strict mode can compile",
        "a schema strict mode cannot compile is refused (Anthropic lists the pattern constructs)",
        _strict(("strict-root", "strict-pattern")),
    ),
    Rule(
        "strict-subset",
        "no keywords outside OpenAI's strict subset (allOf, not, if/then/else ...)",
        "strict mode accepts a documented subset of JSON Schema; other keywords get the request refused",
        _strict_subset,
    ),
    Rule(
        "safety-read-only-hint",
        "annotations declare readOnlyHint",
        "MCP's default for a missing hint is 'may write', so clients must ask every time",
        _read_only_hint,
    ),
    Rule(
        "safety-approval",
        "a tool that writes says a person approves",
        "no change to SAP data without a person's approval, enforced in code",
        _approval,
    ),
    Rule(
        "set-size",
        f"fewer than {TOOL_LIMIT} tools in a set",
        "more and overlapping tools make choosing harder and cost on every call",
        _set_size,
        "set",
    ),
    Rule(
        "set-twins",
        "no near-twin names or descriptions",
        "two tools that differ by one word leave the model guessing",
        _twins,
        "set",
    ),
)


@dataclass(frozen=True)
class LintReport:
    set_name: str
    tool_names: tuple[str, ...]
    findings: tuple[Finding, ...]
    definition_chars: int
    tokens: int  # an estimate (characters / 4) of the definitions sent with every model call

    @property
    def count(self) -> int:
        return len(self.findings)

    @property
    def ok(self) -> bool:
        return not self.findings

    def by_tool(self) -> dict[str, list[Finding]]:
        table: dict[str, list[Finding]] = {name: [] for name in self.tool_names}
        for finding in self.findings:
            if finding.tool is not None:
                table.setdefault(finding.tool, []).append(finding)
        return table

    def by_rule(self) -> dict[str, int]:
        return dict(Counter(finding.rule for finding in self.findings))

    def set_findings(self) -> list[Finding]:
        return [f for f in self.findings if f.tool is None]

    def summary(self) -> str:
        return (
            f"{self.set_name}: {count(len(self.tool_names), 'tool')}, {count(self.count, 'finding')}, definitions about "
            f"{self.tokens:,} tokens ({ESTIMATE_LABEL}), sent with every model call"
        )

    def format(self, details: bool = True) -> str:
        """The report as text: a summary line, one line per tool, and each finding when ``details``."""
        lines = [f"== {self.summary()}"]
        for name, found in self.by_tool().items():
            lines.append(f"  {'ok' if not found else f'{len(found)}x':<4} {name}")
            if details:
                lines.extend(f"         [{f.rule}] {f.message}" for f in found)
        lines.extend(f"  [{f.rule}] {f.message}" for f in self.set_findings())
        return "\n".join(lines)


def lint_tool(tool: Tool, tools: Sequence[Tool] = (), rules: Sequence[Rule] = RULES) -> list[Finding]:
    """Findings of the tool rules for one tool; ``tools`` is its set (the boundary rule needs it)."""
    neighbours = list(tools) or [tool]
    return [
        Finding(rule.id, tool.name, message)
        for rule in rules
        if rule.scope == "tool"
        for message in rule.check(tool, neighbours)
    ]


def lint(
    tools: ToolSet | Sequence[Tool],
    rules: Sequence[Rule] = RULES,
    extra: Sequence[Rule] = (),
    set_name: str | None = None,
) -> LintReport:
    """Run every rule over a tool set and report the findings and the definitions' token estimate."""
    tool_list = list(tools)
    everything = list(rules) + list(extra)
    findings = [f for tool in tool_list for f in lint_tool(tool, tool_list, everything)]
    findings += [
        Finding(rule.id, None, message)
        for rule in everything
        if rule.scope == "set"
        for message in rule.check(tool_list)
    ]
    text = json.dumps([t.definition() for t in tool_list])
    name = set_name if set_name else getattr(tools, "name", "tools")
    return LintReport(
        name, tuple(t.name for t in tool_list), tuple(findings), len(text), estimate_tokens(text)
    )


def rule_table(rules: Sequence[Rule] = RULES) -> list[dict[str, str]]:
    """The rules as rows (id, scope, checks, why), for the notebook's table and the docs."""
    return [{"id": r.id, "scope": r.scope, "checks": r.title, "why": r.why} for r in rules]
