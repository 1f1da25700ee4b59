"""Answers borrowed from the package: an answer cell that calls or copies a graded exercise's neighbour.

The student edition ships the subject package, and the package holds, beside the graded functions it
stubs, pieces that compute (part of) an exercise's answer: the lesson's example policy that the
approval exercise asks the learner to write in their own way, the corrected descriptions a later
cell uses, the package's own claim rule. Wrapping one of them passes any comparison, because it *is*
the answer. So the grader reads each answer cell for them: a cell that names a neighbour (calls it,
imports it, reads it), or copies a neighbour's code or text, earns no points for that exercise and is
flagged for the instructor, who may give them back by hand. A prediction (``kind="prediction"``) needs
no entry: its answer is what a shipped instrument prints, so it is never scored (see ``workbook.exercises``).

Neighbours are named here, per exercise, as "module:name" in ``tooldesign`` (or "tool:name", a tool of the
course's tool sets, which an answer reaches by its name as text); the graded functions the
registry already names (its references and ``stubs``) count too, so nothing is listed twice.
"""

from __future__ import annotations

import ast
import inspect
import io
import keyword
import pkgutil
import re
import tokenize
from dataclasses import dataclass
from functools import cache

# grade_id -> what in the package computes (part of) that exercise's answer, beyond its registered stubs
NEIGHBOURS: dict[str, tuple[str, ...]] = {
    # the rule itself, and the designed tools that report which of the course's orders are blocked
    "ex01-blocked-orders": (
        "tooldesign.data.sap:is_blocked",
        "tool:sales_order_search",
        "tool:sales_order_get_block_summary",
    ),
    # the designed credit tool computes the exposure of every course customer the grader draws
    "ex01-credit-exposure": (
        "tool:customer_get_credit_exposure",
        "tooldesign.tools.designed:_credit_exposure",
        "tooldesign.dispatch.gate:checked_exposure",
    ),
    "ex02-claims": ("tooldesign.data.coldchain:claim_eur",),
    # a rule-abiding description the package ships (the consolidation lesson's check tool) passes the
    # judge word for word: pasting it is not writing one
    "ex07-broken": ("tooldesign.scale.consolidate:CHECK_DESCRIPTION",),
    "ex08-descriptions": ("tooldesign.codemode.coldchain_tools:CORRECTED",),
    # the explorer builds the very catalog the reference counts fillers in; the registry and catalog
    # builder together do the same
    "ex09-fillers": (
        "tooldesign.codemode.sizelimit:explore",
        "tooldesign.codemode.sizelimit:demo_registry",
        "tooldesign.codemode.catalog:catalog_for",
        "tooldesign.codemode.sizelimit:two_orders",
    ),
    "ex12-approval": ("tooldesign.dispatch.gate:release_policy", "tooldesign.dispatch.gate:stated_exposure"),
    "ex16-page": ("tooldesign.loop.shrink:page_of", "tooldesign.loop.shrink:paginate"),
}
# The same, where an honest answer may well read like the neighbour, so a call is flagged and a likeness
# is not: modules the student edition leaves out whole (workbook.handout.TOOLDESIGN_LEFT_OUT), which an
# answer can only name, and short conversions whose one right form is the neighbour's.
CALLS_ONLY: dict[str, tuple[str, ...]] = {
    "ex19-agent-loop": ("tooldesign.capstone.reference:reference_loop",),
    # the consolidation rule's finding quotes each catch-all field's name: parsing it out is the answer;
    # an honest answer reads just like its loop, so only a use is flagged
    "ex13-catch-all": (
        "tooldesign.scale.consolidate:_catch_all",
        "tooldesign.scale.consolidate:CATCH_ALL_RULE",
        "tooldesign.scale.consolidate:RULES",
    ),
    # the capstone's OpenAI adapter and the wire lesson's dialects convert a definition for Chat
    # Completions; an honest conversion reads just like them, so only a call is flagged
    "ex18-chat-tool": (
        "tooldesign.capstone.agent:_chat_tool",
        "tooldesign.wire.dialects:chat_tool",
        "tooldesign.selection.models:openai_tools",
    ),
}
COPY_TOKENS = 6  # a run of this many tokens (names made alike) is a copied line, not a coincidence
COPY_SHARE = 0.5  # ... and half of a neighbour's runs in one answer is a copy of it
TEXT_CHARACTERS = 40  # a string of the package this long, in an answer, was pasted


@dataclass(frozen=True)
class Borrowed:
    grade_id: str
    neighbour: str  # "module:name"
    how: str  # "calls" or "copies"

    @property
    def note(self) -> str:
        """For the gradebook (the instructor): which exercise, what it used, and how."""
        return (
            f"review {self.grade_id}: its answer {self.how} the package's {self.neighbour.partition(':')[2]}"
        )

    @property
    def reason(self) -> str:
        """For the learner's feedback: why the answer scores 0, and what to do."""
        name = self.neighbour.partition(":")[2]
        return (
            f"your answer {self.how} the package's {name}, which computes this exercise's answer; "
            "write the answer in your own code (your instructor reviews this one)"
        )


def neighbours(grade_id: str) -> tuple[str, ...]:
    """Everything in the package whose use gives this exercise's answer away."""
    from workbook.exercises import grading_for

    grading = grading_for(grade_id)
    found = [*NEIGHBOURS.get(grade_id, ()), *CALLS_ONLY.get(grade_id, ())]
    if isinstance(grading.reference, str) and ":" in grading.reference:
        found.append(grading.reference)
    found.extend(grading.stubs)
    return tuple(dict.fromkeys(found))


def borrowed(grade_id: str, answer: str, released: str = "") -> Borrowed | None:
    """The first neighbour the answer cell calls or copies (and the released cell did not), or None."""
    found = neighbours(grade_id)
    if not found:
        return None
    used = _names(answer) - _names(released)
    texts = _texts(answer) - _texts(released)
    for target in found:
        kind, _, name = target.partition(":")
        if name in (texts if kind == "tool" else used):
            return Borrowed(grade_id, target, "calls")
        if kind == "tool" and name in _joined(answer) and name not in _joined(released):
            return Borrowed(grade_id, target, "reaches by a computed name for")
    if _reaches_by_computed_name(answer, found):
        return Borrowed(grade_id, found[0], "reaches by a computed name for")
    # Copies: only of what the edition ships as it is. A graded function of the package is a stub
    # there, and the honest answer may well read like the course's own version of it.
    for target in NEIGHBOURS.get(grade_id, ()):
        if _copies(answer, target):
            return Borrowed(grade_id, target, "copies")
    return None


def _texts(source: str) -> set[str]:
    """The strings an answer cell writes (a tool's name looked up in a tool set)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    return {n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)}


def _joined(source: str) -> str:
    """The cell with its strings run together ("customer_" + "get_credit_exposure" reads as one)."""
    return re.sub(r"[\"']\s*\+?\s*[fr]?[\"']", "", source)


def _names(source: str) -> set[str]:
    """Every name an answer cell takes from elsewhere: attributes, imports, names given as text, and
    plain names it reads without defining them itself (its own ``claims = {}`` is not the package's)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return set()
    taken: set[str] = set()
    read: set[str] = set()
    defined: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (defined if isinstance(node.ctx, ast.Store) else read).add(node.id)
        elif isinstance(node, ast.Attribute):
            taken.add(node.attr)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            taken.update(alias.name.rpartition(".")[2] for alias in node.names)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defined.add(node.name)
        elif isinstance(node, ast.arg):
            defined.add(node.arg)
        elif isinstance(node, ast.Call) and _called_name(node.func) in BY_NAME:
            # getattr(gate, "release_policy"), attrgetter("CORRECTED"), vars(module).get("claims")
            taken.update(
                arg.value.rpartition(".")[2]
                for arg in node.args
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str)
            )
    return taken | (read - defined)


def _reaches_by_computed_name(answer: str, found: tuple[str, ...]) -> bool:
    """getattr(module, "release_" + "policy"), vars(module)[name]: a name no reader can see, taken
    from a module that holds a neighbour (or a package above it, which may re-export it)."""
    try:
        tree = ast.parse(answer)
    except SyntaxError:
        return False
    modules = {t.partition(":")[0] for t in found if not t.startswith("tool:")}
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module)
            imported.update(f"{node.module}.{alias.name}" for alias in node.names)
    if not any(
        m == i or m.startswith(i + ".") for m in modules for i in imported if i.startswith("tooldesign")
    ):
        return False
    for node in ast.walk(tree):
        called = _called_name(node.func) if isinstance(node, ast.Call) else ""
        if called == "vars" or (
            called in ("getattr", "attrgetter")
            and any(not isinstance(arg, ast.Constant) for arg in node.args[1:])  # type: ignore[attr-defined]
        ):
            return True
        if isinstance(node, ast.Attribute) and node.attr == "__dict__":
            return True
    return False


BY_NAME = {"getattr", "attrgetter", "import_module", "__import__", "get", "resolve_name", "__getattribute__"}


def _called_name(func: ast.expr) -> str:
    return func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""


@cache
def _neighbour(target: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(token runs of its code, its long strings) for one neighbour; empty when it cannot be read."""
    if target.startswith("tool:"):
        return (), ()
    try:
        value = pkgutil.resolve_name(target)
    except (ImportError, AttributeError, ValueError):
        return (), ()
    texts = tuple(sorted(_strings(value)))
    try:
        source = inspect.getsource(value) if callable(value) else ""
    except (OSError, TypeError):
        source = ""
    return tuple(sorted(_runs(_body(source)))), texts


def _strings(value: object) -> set[str]:
    if isinstance(value, str):
        return {value} if len(value) >= TEXT_CHARACTERS else set()
    if isinstance(value, dict):
        return set().union(*(_strings(v) for v in value.values())) if value else set()
    if isinstance(value, (list, tuple)):
        return set().union(*(_strings(v) for v in value)) if value else set()
    return set()


def _body(source: str) -> str:
    """A function's code without its docstring: a docstring says what, which an honest answer may too."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return source
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                node.body = node.body[1:] or [ast.Pass()]
    return ast.unparse(tree)


def _tokens(source: str) -> list[str]:
    """The code's tokens with every name made alike (a renamed copy is still a copy)."""
    out = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.NAME and not keyword.iskeyword(token.string):
                out.append("NAME")
            elif token.type in (tokenize.NAME, tokenize.OP, tokenize.NUMBER, tokenize.STRING):
                out.append(token.string)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    return out


def _runs(source: str) -> set[str]:
    tokens = _tokens(source)
    runs = {" ".join(tokens[i : i + COPY_TOKENS]) for i in range(len(tokens) - COPY_TOKENS + 1)}
    # runs made of names and punctuation only ("NAME ( NAME , NAME )") are any code's, not a copy
    return {run for run in runs if any(part not in "NAME()[]{},.:=" for part in run.split())}


def _copies(answer: str, target: str) -> bool:
    runs, texts = _neighbour(target)
    flat = " ".join(answer.split())
    if any(" ".join(text.split()) in flat for text in texts):
        return True
    # pasted sentences (a text copied with a word changed here and there): two long ones are no accident
    sentences = {s for text in texts for s in re.split(r"(?<=[.;:!?])\s+", " ".join(text.split()))}
    if sum(1 for s in sentences if len(s) >= TEXT_CHARACTERS and s in flat) >= 2:
        return True
    if len(runs) < 8:  # too short to tell a copy from the same idea written plainly
        return False
    mine = _runs(_body(answer) if answer.strip() else answer)
    return len(mine & set(runs)) >= COPY_SHARE * len(runs)
