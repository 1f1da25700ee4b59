"""Published real-model figures, shown beside the course's stand-ins: someone else's measurements, labelled so.

The course's tests and builds run without a model, so its own figures come from stand-ins (a
word-matching picker, BM25, scripted readers, a simulation). Beside each such figure a lesson shows
the closest published measurements with real models: what was measured, on which models, the figure
as its source gives it (never more precisely), where it was read and when, and how the setup differs
from the lesson's. ``FIGURES`` is the one home of that data; ``evidence_table(lesson)`` renders the
rows for one lesson as a Markdown table whose reference numbers link to the course's references (docs/references.md).

A figure is only here if it was read on a stored copy of its source; the references row of its reference
says which page, and ``docs/currency.csv`` says when to read it again.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Published", "FIGURES", "LESSONS", "figures_for", "evidence_table", "show_evidence"]

READ_ON = "5 December 2026"
READ_AGAIN_ON = "6 December 2026"  # the figures for lessons 12 and 16


@dataclass(frozen=True)
class Published:
    """One published figure: what was measured, on which models, the figure, and its source."""

    key: str
    lessons: tuple[str, ...]
    measured: str
    models: str
    figure: str
    ref: str  # the reference number in docs/references.md, e.g. "R13"
    url: str
    read_on: str
    differs: str  # one sentence: how the source's setup differs from the lesson's

    @property
    def anchor(self) -> str:
        return self.ref.lower()


FIGURES: tuple[Published, ...] = (
    Published(
        "tool-search-accuracy",
        ("06", "13"),
        "tool selection accuracy on Anthropic's internal MCP evaluations, every tool loaded vs the Tool Search Tool",
        "Claude Opus 4; Claude Opus 4.5",
        "49% → 74% (Opus 4); 79.5% → 88.1% (Opus 4.5)",
        "R13",
        "https://www.anthropic.com/engineering/advanced-tool-use",
        READ_ON,
        "A large library of real MCP tools searched by the model itself; the lesson ranks the clerk's tools with a stand-in and no model.",
    ),
    Published(
        "tool-search-limit",
        ("06", "07", "13"),
        "where tool selection starts to suffer, and the context that tool search saves",
        "Claude (Anthropic's documentation; no evaluation table given)",
        "selection degrades beyond 30–50 tools; about 55k tokens of definitions for five servers, cut by over 85%",
        "R29",
        "https://platform.claude.com/docs/en/agents-and-tools/tool-use/tool-search-tool",
        READ_ON,
        "Vendor guidance from its own tests, not a benchmark with cases one can rerun; the lesson's sets hold far fewer tools.",
    ),
    Published(
        "rag-mcp",
        ("13",),
        "tool selection accuracy with every tool's description in the prompt vs retrieving candidates first (RAG-MCP)",
        "the LLMs of the paper's MCP stress test (named in the paper, not in its abstract)",
        "13.62% → 43.13%; prompt tokens cut by over 50%",
        "R60",
        "https://arxiv.org/html/2505.03275v1",
        READ_ON,
        "Thousands of MCP servers' descriptions and semantic retrieval; the lesson's scale test retrieves with BM25 among generated look-alike tools.",
    ),
    Published(
        "livemcpbench",
        ("13", "19"),
        "task success on 95 everyday tasks over 70 MCP servers with 527 tools, the agent retrieving its tools",
        "10 LLMs",
        "best 78.95% (Claude Sonnet 4), most 30–50%; retrieval errors nearly half of all failures",
        "R62",
        "https://openreview.net/forum?id=0sPCSssY2r",
        READ_ON,
        "Whole tasks judged by an LLM, across hundreds of tools; the course scores a stand-in's first pick, or one scripted task.",
    ),
    Published(
        "mcp-universe",
        ("19",),
        "task success on 231 tasks against 11 real MCP servers, checked by execution-based evaluators",
        "GPT-5; Grok-4; Claude 4.0 Sonnet (and others)",
        "43.72%; 33.33%; 29.44%",
        "R61",
        "https://mcp-universe.github.io",
        READ_ON,
        "Long tasks on live servers (maps, GitHub, finance, browsers); the capstone runs nine clerk tasks on local data with scripted models, checked against known end states.",
    ),
    Published(
        "programmatic-tool-calling",
        ("08", "09"),
        "average tokens on complex research tasks, tool calls one by one vs calls made from code (Programmatic Tool Calling)",
        "Claude (Anthropic's internal testing)",
        "43,588 → 27,297 tokens (37% fewer)",
        "R13",
        "https://www.anthropic.com/engineering/advanced-tool-use",
        READ_ON,
        "A real model writing the code in a sandbox; the lesson's code-mode figures count the characters of fixed scripts.",
    ),
    Published(
        "cloudflare-code-mode",
        ("08", "09"),
        "context needed for the whole Cloudflare API (2,500+ endpoints): one tool per endpoint vs two code-mode tools",
        "none: a count of definition tokens, no model's answers",
        "about 1.17 million → about 1,000 tokens",
        "R63",
        "https://blog.cloudflare.com/code-mode-mcp/",
        READ_ON,
        "Cloudflare's own estimate for its API; the lesson's catalog is the clerk's few dozen tools, counted by characters / 4.",
    ),
    Published(
        "tool-use-examples",
        ("10",),
        "accuracy on complex parameter handling, schema only vs schema with input examples",
        "Claude (Anthropic's internal testing)",
        "72% → 90%",
        "R13",
        "https://www.anthropic.com/engineering/advanced-tool-use",
        READ_ON,
        "A real model filling in parameters; the lesson's definition levels are scored by a simulated reader.",
    ),
    Published(
        "position-bias",
        ("06", "07", "11"),
        "which of several functionally equivalent tools a model picks, and what moves the choice",
        "7 LLMs",
        "no single rate in the abstract: models fixate on one provider or prefer earlier-listed tools; rewording descriptions shifts the picks",
        "R64",
        "https://arxiv.org/html/2510.00307v1",
        READ_ON,
        "Equivalent tools from rival providers; the lesson's tools differ in what they do and the right pick is known.",
    ),
    Published(
        "mcp-attacks",
        ("17",),
        "how often 12 kinds of MCP attack (injected tool descriptions, user-impersonating results, false errors ...) succeed",
        "nine LLM agents (version 1 of the paper), 2,000 attack instances",
        "no single rate in the abstract: attacks succeed at every stage; models better at tool calling are more vulnerable",
        "R65",
        "https://arxiv.org/html/2510.15994v1",
        READ_ON,
        "Real tools over MCP and real models; the lesson's poisoned records are read by scripted readers.",
    ),
    Published(
        "false-success",
        ("12",),
        "how many failed runs end with the agent claiming success the environment's state contradicts (false success)",
        "8 model families (9,876 tau2-bench runs); 4 model families (1,879 AppWorld runs)",
        "45–48% of failures in single-control tau2-bench domains, 3% in dual-control telecom, 75.8% among AppWorld "
        "self-assessing coding-agent runs with explicit status claims; no LLM judge above AUROC 0.65 on tau2-bench",
        "R66",
        "https://arxiv.org/html/2606.09863",
        READ_AGAIN_ON,
        "Agents' own claims checked against recorded benchmark runs; in the lesson a tool reports a false success and a stand-in reader believes it.",
    ),
    Published(
        "response-format",
        ("16",),
        "tokens of one Slack tool's response, detailed (with IDs such as thread_ts) vs concise (thread content only)",
        "none: Anthropic's token counts of its own example, no model's answers",
        "206 → 72 tokens (about ⅓); Claude Code cuts tool responses at 25,000 tokens by default",
        "R12",
        "https://www.anthropic.com/engineering/writing-tools-for-agents",
        READ_AGAIN_ON,
        "One example response counted in Claude's tokens, with no task behind it; the lesson counts its own results by characters / 4 and weighs tokens saved against facts lost.",
    ),
    Published(
        "prompt-caching-launch",
        ("16",),
        "latency and cost of long prompts with prompt caching, from early users at its launch",
        "Claude 3.5 Sonnet and Claude 3 Haiku, the models with caching at launch (the report names none per row)",
        "up to 90% lower cost and up to 85% lower latency for long prompts; a 10-turn conversation with a long "
        "system prompt: latency 75% lower, cost 53% lower",
        "R67",
        "https://www.anthropic.com/news/prompt-caching",
        READ_AGAIN_ON,
        "Long fixed prompts on 2024's models, reported by the vendor; the lesson prices its own loop's growing prefix from the dated price table, with no model and no clock.",
    ),
)

LESSONS: tuple[str, ...] = tuple(sorted({lesson for f in FIGURES for lesson in f.lessons}))


def figures_for(lesson: str) -> tuple[Published, ...]:
    """The published figures a lesson shows, in FIGURES' order."""
    if lesson not in LESSONS:
        raise ValueError(
            f"no published figures for lesson {lesson!r}; lessons with some: {', '.join(LESSONS)}"
        )
    return tuple(f for f in FIGURES if lesson in f.lessons)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def evidence_table(lesson: str, references: str = "../docs/references.md") -> str:
    """A Markdown table of the published figures for ``lesson``: someone else's measurements, labelled."""
    rows = [
        "Published measurements with real models (someone else's figures, not this course's):",
        "",
        "| measured | models | figure | source | how it differs from this lesson |",
        "|---|---|---|---|---|",
    ]
    for f in figures_for(lesson):
        source = f"[{f.ref}]({references}#{f.anchor}), [page]({f.url}), read {f.read_on}"
        rows.append(
            f"| {_cell(f.measured)} | {_cell(f.models)} | {_cell(f.figure)} | {source} | {_cell(f.differs)} |"
        )
    return "\n".join(rows)


def show_evidence(lesson: str):
    """What a notebook puts in its output: the table, rendered as Markdown."""
    from IPython.display import Markdown

    return Markdown(evidence_table(lesson))
