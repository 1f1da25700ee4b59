"""The catalog: everything a program is told about the tools it may call.

The mechanism and its figures are UC AI's, as its lesson "Tell the program what your tools return"
describes them (R20 in docs/references.md): the tool ``uc_ai__run_code``, the catalog lines, the budget
of 31,855 bytes and the warning in the log. Other code-mode products choose their own.

In code mode the model gets one extra tool, ``run_code``, whose description holds a fixed preamble
and then one line per code-callable tool: its code, its argument names and its description. No
types, no required flags, no schema, nothing about the result. For a program, the description is
the whole reference.

The catalog has to fit in one description, so it has a byte budget. A tool whose line does not fit
is skipped and the next one is tried; nothing fails, and a single warning in the log is the only
trace. Which tools are skipped follows the order the store returns them in, which nobody promises.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from tooldesign.codemode.registry import Registry, ToolRow
from tooldesign.wording import count

__all__ = [
    "BUDGET_BYTES",
    "Catalog",
    "CatalogEntry",
    "PREAMBLE",
    "RUN_CODE",
    "build_catalog",
    "catalog_for",
    "catalog_line",
    "model_tool_names",
    "single_line",
    "register_fillers",
    "run_code_definition",
]

LOG = logging.getLogger(__name__)
BUDGET_BYTES = 31_855  # UC AI's catalog budget (R20)
RUN_CODE = "run_code"
FILLER_TAG = "filler"

PREAMBLE = """\
run_code runs a short JavaScript program and gives you back what it prints. Use it when an answer \
takes many tool calls or a lot of data: the program makes the calls and does the arithmetic, and \
only its printed lines come back to you.

Writing the program:
- await callTool(code, arguments) calls one of the tools listed below. arguments is an object of \
plain data; the result is plain data (objects, arrays, strings, numbers).
- await works at the top level. Print with console.log; nothing else comes back to you.
- The program runs in an isolated JavaScript engine: no require or import, no files, no network, \
no timers, no eval.
- Print the answer in a few lines, never the raw data.
- A run stops after a set number of tool calls, seconds or megabytes; errors come back as one line.
- Only the tools below exist for a program. Their descriptions are all you know about them.

The tools a program can call (the call, then what it does):
"""


def single_line(text: str) -> str:
    """Newlines and tabs become spaces, so every tool keeps exactly one line of the catalog.

    A line break inside a description would end that tool's entry early and start a line that
    belongs to no tool, or that even looks like the entry of another one.
    """
    return text.translate(str.maketrans("\r\n\t", "   "))


def catalog_line(code: str, argument_names: Sequence[str], description: str) -> str:
    """One catalog entry, written as the call a program would make, with the description after it
    as a ``//`` comment, the way the lesson's source lays it out."""
    arguments = f"{{ {', '.join(argument_names)} }}" if argument_names else "{}"
    return f'  await callTool("{code}", {arguments})  // {single_line(description)}'


@dataclass(frozen=True)
class CatalogEntry:
    code: str
    line: str

    @property
    def size_bytes(self) -> int:
        """Bytes the entry costs, its newline included: the budget counts UTF-8 bytes."""
        return len(self.line.encode("utf-8")) + 1

    @classmethod
    def from_row(cls, row: ToolRow) -> CatalogEntry:
        return cls(row.code, catalog_line(row.code, row.argument_names, row.description))


@dataclass(frozen=True)
class Catalog:
    preamble: str
    included: tuple[CatalogEntry, ...]
    left_out: tuple[CatalogEntry, ...]
    budget: int = BUDGET_BYTES
    warning: str | None = field(default=None, compare=False)

    @property
    def text(self) -> str:
        """The description of run_code: the preamble, then one line per tool that fitted."""
        return self.preamble + "".join(entry.line + "\n" for entry in self.included)

    @property
    def size_bytes(self) -> int:
        return len(self.text.encode("utf-8"))

    @property
    def spare_bytes(self) -> int:
        return self.budget - self.size_bytes

    @property
    def codes(self) -> list[str]:
        return [entry.code for entry in self.included]

    @property
    def left_out_codes(self) -> list[str]:
        return [entry.code for entry in self.left_out]

    @property
    def code_callable_count(self) -> int:
        return len(self.included) + len(self.left_out)

    def report(self) -> str:
        """The four lines that tell you whether a program can call every tool you think it can."""
        left = f" tools: {', '.join(self.left_out_codes)}" if self.left_out else ""
        return "\n".join(
            [
                f"preamble + catalog:  {self.size_bytes:,} bytes of {self.budget:,}",
                f"code-callable tools: {self.code_callable_count}",
                f"in the catalog:      {len(self.included)}",
                f"LEFT OUT:            {len(self.left_out)}{left}",
            ]
        )


def _warning(left_out: int, budget: int) -> str:
    return (
        f"code-mode catalog budget of {count(budget, 'byte')} reached: {count(left_out, 'code-callable tool')} "
        f"left out, and a program cannot call them. Shorten the descriptions of code-callable tools, set "
        f"tools that no program calls to 'direct', or select fewer tools by tag."
    )


def build_catalog(
    rows: Iterable[ToolRow],
    *,
    budget: int = BUDGET_BYTES,
    preamble: str = PREAMBLE,
    logger: logging.Logger | None = LOG,
) -> Catalog:
    """Fit the code-callable rows into the budget, in the order given.

    A row that does not fit is skipped and the next one is tried, so a small tool late in the
    order can still get in after a big one was dropped. Nothing raises: when tools were left out,
    one warning goes to ``logger`` (pass None to keep quiet, as the explorer widget does) and the
    catalog lists them in ``left_out``.
    """
    used = len(preamble.encode("utf-8"))
    if used > budget:
        raise ValueError(
            f"the preamble alone ({count(used, 'byte')}) is over the budget of {count(budget, 'byte')}"
        )
    included, left_out = [], []
    for row in rows:
        if not row.code_callable:
            continue
        entry = CatalogEntry.from_row(row)
        if used + entry.size_bytes <= budget:
            included.append(entry)
            used += entry.size_bytes
        else:
            left_out.append(entry)
    warning = _warning(len(left_out), budget) if left_out else None
    if warning and logger is not None:
        logger.warning(warning)
    return Catalog(preamble, tuple(included), tuple(left_out), budget, warning)


def catalog_for(
    registry: Registry,
    tags: Iterable[str] | None = None,
    *,
    budget: int = BUDGET_BYTES,
    logger: logging.Logger | None = LOG,
) -> Catalog:
    """The catalog a run would get from this registry, taking rows in store order."""
    return build_catalog(registry.code_callable(tags), budget=budget, logger=logger)


def run_code_definition(catalog: Catalog) -> dict:
    """The run_code tool as the model is sent it: the catalog is its description."""
    return {
        "name": RUN_CODE,
        "description": catalog.text,
        "parameters": {
            "type": "object",
            "required": ["program"],
            "additionalProperties": False,
            "properties": {"program": {"type": "string", "description": "The JavaScript program to run."}},
        },
    }


def model_tool_names(registry: Registry, tags: Iterable[str] | None = None) -> list[str]:
    """The names in the model's own tool list: direct-callable tools, plus run_code when a program
    has anything to call."""
    tags = None if tags is None else list(tags)
    names = [row.code for row in registry.direct_callable(tags)]
    return names + ([RUN_CODE] if registry.code_callable(tags) else [])


def filler_description(number: int, padding: int) -> str:
    """A filler's description: one honest sentence, then ``padding`` characters of padding."""
    head = f"Filler tool {number}, registered only to fill the catalog. "
    return head + ("pad " * (padding // 4 + 1))[:padding]


def register_fillers(
    registry: Registry,
    count: int = 9,
    padding: int = 3900,
    *,
    numbers: Sequence[int] | None = None,
    code_mode_access: str = "both",
) -> list[str]:
    """Register filler tools CC_FILLER_<n> with long descriptions; return their codes.

    ``numbers`` picks which fillers and in which order they are inserted, which is the order the
    store will return them in.
    """
    codes = []
    for number in numbers or range(1, count + 1):
        code = f"CC_FILLER_{number}"
        registry.merge_tool(
            code,
            filler_description(number, padding),
            {"type": "object", "properties": {}},
            tags=[FILLER_TAG],
            code_mode_access=code_mode_access,
        )
        codes.append(code)
    return codes
