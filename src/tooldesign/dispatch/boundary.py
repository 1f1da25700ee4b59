"""The boundary clause: two tools, a set of ambiguous requests, and what the descriptions decide.

``search_customers`` returns customer profiles; ``search_orders`` returns orders with their items and
delivery state. A request such as "pull up everything on Nordhafen" fits both, and the choice is
made on the descriptions alone. A boundary clause is the sentence that settles it: it names the
requests this tool does not serve and the tool that serves them ("Not for ... (use search_orders).").

What this module can and cannot measure:

* The offline stand-ins cannot measure a clause. They count shared words and cannot read "not",
  so they skip every sentence that names another tool (see ``tooldesign.selection.pickers.tool_text``),
  in every tool set alike. A clause is therefore invisible to them: ``scores()`` shows the same
  figures with and without clauses. No picker here reads a clause by a rule of its own.
* What a clause does to selection is measured with a real model, opt-in: ``model_scores(picker)``.
* Offline, a clause is judged by its structure (``clause_verdict``): does it name an existing
  neighbouring tool exactly, say which requests go there, and stay short? The guidance behind those
  three tests, with its sources, is in ``GUIDANCE``.

Run ``tooldesign boundary`` (or ``python -m tooldesign.dispatch.boundary``) to print the offline table.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tooldesign.data import sap
from tooldesign.selection import Picker, offline_picker
from tooldesign.tools.base import NotJSON, Tool, ToolSet, echo, json_plain
from tooldesign.wording import count

CUSTOMERS, ORDERS = "search_customers", "search_orders"
READ_ONLY = dict(readOnlyHint=True, openWorldHint=False)

# Documentation for a colleague: says what each tool does, and nothing about the ground they share.
PLAIN = {
    CUSTOMERS: (
        "Searches the customer master by name or customer number. Returns the matching customers "
        "with address, country, credit limit and open items. Use it to look up a customer."
    ),
    ORDERS: (
        "Searches sales orders by customer or by order number. Returns each order with its line items, "
        "net value and delivery state. Use it to look up orders."
    ),
}
# The same, each with a boundary clause naming the disputed requests and the tool that serves them.
CLAUSES = {
    CUSTOMERS: (
        "Not for what a customer ordered, bought or received, its items and deliveries, or anything "
        "on hold or stuck (use search_orders)."
    ),
    ORDERS: (
        "Not for a customer as a whole: everything on or about a customer, the account, or who is behind "
        "a name or number (use search_customers)."
    ),
}


def with_clauses(plain: Mapping[str, str] = PLAIN, clauses: Mapping[str, str] = CLAUSES) -> dict[str, str]:
    return {name: f"{text} {clauses.get(name, '')}".strip() for name, text in plain.items()}


@dataclass(frozen=True)
class Request:
    text: str
    expected: str
    why: str


# The course's rule, which the clauses state: the customer as a party goes to search_customers; what the
# customer ordered, received or is waiting for goes to search_orders.
REQUESTS: tuple[Request, ...] = (
    Request("Pull up everything on Nordhafen.", CUSTOMERS, "the customer as a whole"),
    Request("Tell me about Donau Retail.", CUSTOMERS, "the customer as a whole"),
    Request("Show me the account of Lac Leman Instruments.", CUSTOMERS, "the account"),
    Request("Who is behind 10051?", CUSTOMERS, "who the customer is"),
    Request("Give me the full picture on 10023.", CUSTOMERS, "the customer as a whole"),
    Request("Look up 4711.", ORDERS, "a four-digit order number"),
    Request("Anything stuck for Lac Leman Instruments?", ORDERS, "orders on hold"),
    Request("Where is the stuff Nordhafen bought?", ORDERS, "what was bought, and its delivery"),
    Request("What did Donau Retail receive from us?", ORDERS, "what was delivered"),
    Request("Is anything for Nordhafen on hold?", ORDERS, "orders on hold"),
)


# ---------- the two tools over the SAP data ----------


def _text(arguments: Any, name: str) -> str:
    """The one text field these tools read, as plain text; anything else reads as "" and finds nothing."""
    try:
        value = json_plain(arguments).get(name, "") if isinstance(arguments, Mapping) else ""
    except NotJSON:
        return ""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = str(value)  # a number sent for a number-like field still names it
    return value.strip() if isinstance(value, str) else ""


def _find_customers(arguments: Mapping[str, Any]) -> dict:
    wanted = _text(arguments, "customer").lower()
    frame = sap.customers()
    hits = frame[(frame["customer"] == wanted) | frame["name"].str.lower().str.contains(wanted, regex=False)]
    if not wanted or hits.empty:
        return {
            "error": f"No customer matches {echo(wanted)}. Give part of the name or the number, for example "
            "'Nordhafen' or '10023'."
        }
    return {
        "customers": [
            {k: r[k] for k in ("customer", "name", "city", "country", "credit_limit", "open_items")}
            for _, r in hits.iterrows()
        ]
    }


def _find_orders(arguments: Mapping[str, Any]) -> dict:
    wanted = _text(arguments, "customer_or_order")
    headers, items, customers = sap.orders(), sap.items(), sap.customers()
    names = customers[customers["name"].str.lower().str.contains(wanted.lower(), regex=False)][
        "customer"
    ].tolist()
    chosen = headers[
        (headers["SalesOrder"] == wanted)
        | (headers["SoldToParty"] == wanted)
        | headers["SoldToParty"].isin(names if wanted else [])
    ]
    if chosen.empty:
        return {
            "error": f"No order matches {echo(wanted)}. Give an order number such as '4711', a customer number "
            "or part of a customer's name."
        }
    reasons = sap.block_reasons()
    return {
        "orders": [
            {
                "sales_order": h["SalesOrder"],
                "customer": h["SoldToParty"],
                "net_value": float(h["TotalNetAmount"]),
                "delivery_state": sap.block_text(h, reasons) or "free to deliver",
                "items": items[items["SalesOrder"] == h["SalesOrder"]]["SalesOrderItemText"].tolist(),
            }
            for _, h in chosen.iterrows()
        ]
    }


def tools(descriptions: Mapping[str, str] = PLAIN) -> ToolSet:
    """The two tools with the given descriptions; schemas and handlers stay the same."""
    customer = {
        "type": "string",
        "description": "Part of the customer's name or the customer number, "
        "for example 'Nordhafen' or '10023'.",
    }
    order = {
        "type": "string",
        "description": "An order number such as '4711', a customer number or part of a customer's name.",
    }
    return ToolSet(
        "boundary",
        (
            Tool(
                CUSTOMERS,
                descriptions[CUSTOMERS],
                {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["customer"],
                    "properties": {"customer": customer},
                },
                _find_customers,
                READ_ONLY,
            ),
            Tool(
                ORDERS,
                descriptions[ORDERS],
                {
                    "type": "object",
                    "additionalProperties": False,
                    "required": ["customer_or_order"],
                    "properties": {"customer_or_order": order},
                },
                _find_orders,
                READ_ONLY,
            ),
        ),
    )


# ---------- the guidance, with its sources ----------


@dataclass(frozen=True)
class Guidance:
    advice: str
    source: str


GUIDANCE: tuple[Guidance, ...] = (
    Guidance(
        "Differentiate tools by when to use each, not only by what each does: a wrong tool being called "
        "is usually an ambiguous description.",
        "Anthropic, Troubleshooting tool use (Claude Platform Docs, accessed 2026-09-09), "
        "https://platform.claude.com/docs/en/agents-and-tools/tool-use/troubleshooting-tool-use",
    ),
    Guidance(
        "A description says what the tool does, when it should be used and how it behaves; the API builds "
        "the model's system prompt from the definitions, so they are what the choice is made on.",
        "Anthropic, Define tools (Claude Platform Docs, accessed 2026-09-09), "
        "https://platform.claude.com/docs/en/agents-and-tools/tool-use/define-tools",
    ),
    Guidance(
        "Describe a tool as you would to a new colleague, and namespace related tools under a common "
        "prefix so the set reads as territories.",
        "Anthropic, Writing effective tools for AI agents (Anthropic Engineering, accessed 2026-09-09), "
        "https://www.anthropic.com/engineering/writing-tools-for-agents",
    ),
    Guidance(
        "Give every description a boundary clause: the requests this tool does not serve and the tool that "
        "serves them. Keep the description to three or four sentences; longer is not safer.",
        "Chapter 9, 'The Description Is the Input, Not the Documentation', the source text this course's "
        "lessons on tool definitions follow",
    ),
)


# ---------- offline: a clause cannot be measured, only its shape judged ----------


@dataclass(frozen=True)
class BoundaryPick:
    """One request's first tool under a set of descriptions, beside the tool it needs."""

    request: str
    expected: str
    chosen: str | None

    @property
    def right(self) -> bool:
        return self.chosen == self.expected


def decide(
    descriptions: Mapping[str, str], picker: Picker | str = "words", requests: Sequence[Request] = REQUESTS
) -> list[BoundaryPick]:
    """Each request's first tool under ``descriptions``, chosen by ``picker`` (a name or a Picker)."""
    chooser = offline_picker(picker) if isinstance(picker, str) else picker
    offered = tools(descriptions)
    return [BoundaryPick(r.text, r.expected, chooser.pick(r.text, offered).tool) for r in requests]


def score(
    descriptions: Mapping[str, str], picker: Picker | str = "words", requests: Sequence[Request] = REQUESTS
) -> int:
    return sum(d.right for d in decide(descriptions, picker, requests))


VARIANTS = {"without clauses": PLAIN, "with clauses": with_clauses()}


def table(pickers: Sequence[Picker | str] = ("words",)) -> list[dict]:
    """One row per request: the expected tool and the choice under each variant and picker."""

    def label(p: Picker | str) -> str:
        return p if isinstance(p, str) else getattr(p, "model", p.label)

    columns = {
        f"{variant}, {label(p)}": decide(descriptions, p)
        for variant, descriptions in VARIANTS.items()
        for p in pickers
    }
    rows = []
    for n, request in enumerate(REQUESTS):
        row: dict[str, Any] = {"request": request.text, "expected": request.expected}
        for name, decisions in columns.items():
            chosen = decisions[n].chosen
            row[name] = (chosen or "(no call)") + ("" if decisions[n].right else "  x")
        rows.append(row)
    return rows


def scores(pickers: Sequence[Picker | str] = ("words", "bm25")) -> list[dict]:
    """Right first tools per variant and picker. With the offline stand-ins both variants score the
    same, because they skip the clause: that is the limit of a word matcher, not a finding."""
    out = []
    for p in pickers:
        label = p if isinstance(p, str) else p.label
        for variant, descriptions in VARIANTS.items():
            out.append(
                {
                    "picker": label,
                    "descriptions": variant,
                    "right": score(descriptions, p),
                    "of": len(REQUESTS),
                }
            )
    return out


def model_scores(picker: Picker) -> list[dict]:
    """The same comparison with a real model (opt-in: 20 model calls). Label the figures with the model
    and the date you ran it; a run can differ from the next one."""
    if getattr(picker, "offline", True):
        raise ValueError(
            "model_scores needs a real-model picker (tooldesign.selection.models.model_picker); "
            "the offline stand-ins cannot see a clause"
        )
    return scores([picker])


_TOOL_NAME = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")
_CUE = re.compile(
    r"\b(not for|not about|not meant for|instead|do not use|don't use|never use|rather than)\b", re.I
)
_SELF_CLAIM = re.compile(
    r"\b(use (it|this)( tool)? (for|when)|it (covers|handles|serves|answers|is for)|this tool "
    r"(covers|handles|serves|answers|is for))\b",
    re.I,
)
_FUNCTION_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "for",
        "to",
        "and",
        "or",
        "but",
        "nor",
        "is",
        "are",
        "be",
        "as",
        "on",
        "in",
        "at",
        "by",
        "with",
        "about",
        "from",
        "into",
        "than",
        "that",
        "this",
        "these",
        "those",
        "it",
        "its",
        "their",
        "them",
        "they",
        "who",
        "what",
        "which",
        "whose",
        "whom",
        "when",
        "where",
        "how",
        "why",
        "whether",
        "if",
        "not",
        "no",
        "use",
        "go",
        "goes",
        "send",
        "such",
        "like",
        "any",
        "all",
        "each",
        "every",
        "other",
        "instead",
        "rather",
        "do",
        "does",
        "don't",
        "never",
        "belongs",
        "belong",
        "serves",
        "handles",
    ]
)
_VAGUE = frozenset(
    [
        "anything",
        "everything",
        "else",
        "other",
        "others",
        "stuff",
        "things",
        "thing",
        "requests",
        "request",
        "questions",
        "question",
        "cases",
        "case",
        "misc",
        "something",
        "all",
    ]
)
MAX_CLAUSE_WORDS = 40


@dataclass(frozen=True)
class ClauseVerdict:
    """What the structure of a clause shows: which neighbour it names, the words that say which requests
    go there, its length, and every problem found (empty when the clause has the shape of a good one)."""

    neighbour: str | None
    request_words: tuple[str, ...]
    words: int
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.problems


def _redirect_to(clause: str, neighbour: str) -> bool:
    """True when the clause hands requests to ``neighbour``: a "not for / instead" cue, or the neighbour as
    the object of use / go to / ask, or the neighbour as the subject of serves / handles."""
    if _CUE.search(clause):
        return True
    name = re.escape(neighbour)
    before = rf"\b(use|using|to|ask|call|try|with)\s+(the\s+)?(tool\s+)?`?{name}"
    after = rf"{name}`?\s+(serves|handles|answers|covers|takes|is for|does|owns|gets)\b"
    return bool(re.search(before, clause, re.I) or re.search(after, clause, re.I))


# Words that join the words naming the requests into a sentence: articles, prepositions, pronouns and
# verbs. "and" and "or" are not among them (a keyword list uses them too), nor the words of the cue
# itself ("not for", "use ... instead"), which every clause has.
_JOINERS = (_FUNCTION_WORDS - {"and", "or", "nor", "but", "not", "no", "for", "use", "instead", "rather",
                                "do", "does", "don't", "never", "go", "goes", "send", "all", "any", "each",
                                "every", "other"}) | {
    "has", "have", "had", "was", "were", "ask", "asks", "asked", "want", "wants", "need", "needs", "says",
    "mean", "means", "concern", "concerns", "concerning", "involve", "involves", "involving", "over", "beyond",
    "our", "your", "his", "her", "we", "you", "he", "she", "one", "themselves", "itself", "there",
}  # fmt: skip
_LIST_SEPARATORS = r"[,;/|:·•&+\n]|\s[-–—]\s"


def _unjoined(text: str) -> int:
    """How many words name the requests when nothing joins them (0 when a joining word is there)."""
    words = [w.lower() for w in re.findall(r"[A-Za-z]+(?:'[A-Za-z]+)?", _CUE.sub(" ", text))]
    if any(w in _JOINERS or w.endswith("'s") for w in words):
        return 0
    return sum(1 for w in words if w not in _FUNCTION_WORDS and w not in _VAGUE)


def _keyword_list(clause: str) -> str | None:
    """Why ``clause`` reads as a list of keywords rather than a sentence, or None."""
    text = _TOOL_NAME.sub(" ", clause)
    unjoined = _unjoined(text)
    if unjoined >= 3:
        return f"{unjoined} words with no article, preposition or verb to join them into a sentence"
    tokens = re.findall(r"[A-Za-z']+|[,;/|()]", text)
    run = longest = 0
    for token in tokens:
        if token.lower() in _FUNCTION_WORDS or not token[0].isalpha():
            run = 0
        else:
            run += 1
            longest = max(longest, run)
    if longest >= 5:
        return f"{longest} content words in a row with nothing to join them"
    bare, phrases = _list_items(text)
    if (bare >= 3 and bare > 2 * phrases) or (bare >= 2 and not phrases):
        return f"{bare} single words between commas"
    chain = re.search(r"\b[A-Za-z']+(?:\s+(?:or|and)\s+[A-Za-z']+){3,}", text, re.I)
    if chain:
        return f"'{chain.group(0)}' strings single words together"
    stems = [w.lower()[:5] for w in re.findall(r"[A-Za-z]+", text) if w.lower() not in _FUNCTION_WORDS]
    repeated = sorted({w for w in stems if stems.count(w) >= 3})
    if repeated:
        return f"'{repeated[0]}...' repeated {stems.count(repeated[0])} times"
    return None


def _list_items(text: str) -> tuple[int, int]:
    """(bare words, phrases) among the items between commas: "customer, account or profile" is three
    bare words; "a customer as a whole, their account" is two phrases. A sentence may list a few
    things, but its items are phrases (an article, a possessive, a verb); a keyword list is bare words.
    Counting items, not commas, judges "customer, account, profile" like a list of ten."""
    text = re.sub(r"\([^)]*\)", " ", text)  # "(use search_customers)"
    text = _CUE.sub(" ", text)
    bare = phrases = 0
    for item in re.split(_LIST_SEPARATORS, text):
        words = [w.lower() for w in re.findall(r"[A-Za-z']+", item)]
        if not words:
            continue
        content, joins = words[0::2], words[1::2]  # "account or profile": word, join, word
        if len(words) % 2 and all(w not in _FUNCTION_WORDS for w in content) and set(joins) <= {"or", "and"}:
            bare += len(content)
        else:
            phrases += 1
    return bare, phrases


def _particular(clause: str) -> str | None:
    """Order or customer numbers, or two or more proper names: words copied from particular requests."""
    number = re.search(r"\d{3,}", clause)
    if number:
        return number.group(0)
    names = [m.group(1) for m in re.finditer(r"(?<![.:!?(]\s)(?<!^)\b([A-Z][a-z]+)\b", clause.strip())]
    return ", ".join(names[:3]) if len(names) >= 2 else None


def clause_verdict(
    clause: Any, tool: str = ORDERS, names: Sequence[str] = (CUSTOMERS, ORDERS)
) -> ClauseVerdict:
    """Judge a boundary clause for ``tool`` by its structure, whatever words it uses.

    A good clause (1) names an existing neighbouring tool exactly, (2) says which requests go there, in
    words of its own, and (3) stays short: one or two sentences, at most ``MAX_CLAUSE_WORDS`` words, a
    sentence rather than a list of keywords. It must hand the requests over, not claim them.
    """
    if type(clause) is not str or not clause.strip():
        return ClauseVerdict(None, (), 0, ("write the clause as one sentence (a string)",))
    neighbours = [n for n in names if n != tool]
    named = _TOOL_NAME.findall(clause)
    problems: list[str] = []
    unknown = [n for n in named if n not in names]
    neighbour = next((n for n in named if n in neighbours), None)
    if unknown:
        problems.append(
            f"{unknown[0]!r} is not a tool in this set; name the neighbour exactly as it is called: "
            f"{' or '.join(neighbours)}"
        )
    elif neighbour is None:
        if tool in named:
            problems.append(
                f"the clause names {tool} itself; name the tool that serves those requests instead: "
                f"{' or '.join(neighbours)}"
            )
        else:
            problems.append(
                f"name the tool that serves those requests, exactly as it is called: "
                f"{' or '.join(neighbours)}"
            )
    if _SELF_CLAIM.search(clause) and not re.search(r"\bnot\b", clause, re.I):
        problems.append(
            f"the clause claims the requests for {tool}; a boundary clause hands them to its neighbour"
        )
    elif neighbour and not _redirect_to(clause, neighbour):
        problems.append(
            f"say that these requests go to {neighbour} ('Not for ... (use {neighbour}).' or "
            f"'For ..., use {neighbour} instead.')"
        )
    words = len(re.findall(r"\S+", clause))
    sentence_count = len([s for s in re.split(r"(?<=[.!?])\s+", clause.strip()) if re.search(r"[A-Za-z]", s)])
    content = tuple(
        w for w in re.findall(r"[A-Za-z']+", _TOOL_NAME.sub(" ", clause)) if w.lower() not in _FUNCTION_WORDS
    )
    specific = [w for w in content if w.lower() not in _VAGUE]
    if len(specific) < 2:
        problems.append(
            f"say which requests go to {neighbour or 'the neighbour'}: name the kind of question, "
            "not just 'other requests'"
        )
    if words > MAX_CLAUSE_WORDS or sentence_count > 2:
        problems.append(
            f"{count(words, 'word')} in {count(sentence_count, 'sentence')}; keep the clause to one sentence of at "
            f"most {MAX_CLAUSE_WORDS} words, or it competes with the rest of the description"
        )
    particular = _particular(clause)
    if particular:
        problems.append(
            f"it names particular records ({particular}); a clause describes a kind of request, so it "
            "also holds for requests nobody has written yet"
        )
    listed = _keyword_list(clause)
    if listed:
        problems.append(
            f"it reads as a keyword list ({listed}); write a sentence that says which requests "
            "go to the neighbour: keywords teach a word matcher, not a reader"
        )
    return ClauseVerdict(neighbour, content, words, tuple(problems))


def _report() -> None:
    print("Ambiguous requests, two tools; offline pickers (stand-ins, not models). They skip any sentence")
    print("that names another tool, so a clause cannot change their figures:")
    for row in scores():
        print(f"  {row['descriptions']:<16} {row['picker']:<6} {row['right']}/{row['of']}")


def main(argv: Sequence[str] | None = None, prog: str = "python -m tooldesign.dispatch.boundary") -> int:
    """``tooldesign boundary`` and its ``python -m`` spelling; bad input ends in one line."""
    from tooldesign.command_line import run_report

    return run_report(
        _report,
        argv,
        prog=prog,
        description="Boundary clauses on ambiguous requests, offline pickers (lesson 11).",
    )


if __name__ == "__main__":
    raise SystemExit(main())
