"""Run a program the way code mode does: its only power is callTool.

A model in code mode writes a program instead of making tool calls one by one. The runner executes
that program with nothing but ``callTool`` on the tools in the catalog, a handful of safe built-ins
and ``print``. What the program prints is all that goes back to the model.

Three layers keep the program in its box:

1. Before anything runs, the ``ast`` module reads the program and refuses imports, names and
   attributes with double underscores, frame and generator internals, ``open``/``eval``/``exec``
   and friends, classes, ``async``, bare ``except`` and ``finally``.
2. It runs with a built-ins dictionary holding only the safe functions below.
3. A call budget and a time limit stop a runaway loop with a clear error, and a depth limit stops
   runaway recursion. The time limit uses ``sys.settrace`` (checked on every line), not signals,
   so it works in a Jupyter kernel and on Windows. The stop is a ``BaseException``, which
   ``except Exception`` in the program cannot swallow; ``finally`` and bare ``except`` are refused
   because they could run on after it.

This is a teaching model of a sandbox, not a security boundary: one operation that runs inside C
(a gigantic multiplication, say) is not interrupted, and memory is not limited. Never run untrusted
code with it on a machine that matters.
"""
from __future__ import annotations

import ast
import builtins
import importlib
import json
import sys
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

from tooldesign.tools.base import result_size

__all__ = [
    "CallBudgetExceeded", "DepthLimitExceeded", "ProgramRejected", "ProgramStopped", "RunResult", "TimeLimitExceeded",
    "ToolCall", "ToolError", "check_program", "handlers_for", "run_program",
]

FILENAME = "<program>"
DEFAULT_MAX_CALLS = 50
DEFAULT_TIME_LIMIT = 5.0
MAX_OUTPUT_CHARS = 20_000
MAX_RANGE = 1_000_000
MAX_DEPTH = 200  # nested calls of the program's own functions; far below Python's recursion limit

Handler = Callable[[Mapping[str, Any]], Any]


class ProgramRejected(ValueError):
    """The program asks for something a code-mode program cannot have; nothing was run."""


class ToolError(Exception):
    """A tool call failed. A program may catch this one and carry on."""


class ProgramStopped(BaseException):
    """The runner stopped the program. A BaseException, so ``except Exception`` lets it through."""


class CallBudgetExceeded(ProgramStopped):
    pass


class TimeLimitExceeded(ProgramStopped):
    pass


class DepthLimitExceeded(ProgramStopped):
    """Runaway recursion, stopped before Python's own RecursionError, which a program could catch."""


# ---------- what a program may use ----------

_SAFE_NAMES = (
    "abs", "all", "any", "bool", "dict", "divmod", "enumerate", "filter", "float", "format", "int",
    "isinstance", "len", "list", "map", "max", "min", "pow", "repr", "reversed", "round", "set",
    "slice", "sorted", "str", "sum", "tuple", "zip",
    # exceptions a program may raise or catch
    "ArithmeticError", "Exception", "IndexError", "KeyError", "LookupError", "RuntimeError",
    "StopIteration", "TypeError", "ValueError", "ZeroDivisionError",
)

# Names refused before the program runs, with the reason the error message gives.
_BLOCKED_NAMES = {
    "open": "a program has no files",
    "eval": "a program cannot run code it builds", "exec": "a program cannot run code it builds",
    "compile": "a program cannot run code it builds",
    "globals": "a program cannot reach the runner's internals", "locals": "a program cannot reach the runner's internals",
    "vars": "a program cannot reach the runner's internals", "getattr": "attribute access by name is not available",
    "setattr": "attribute access by name is not available", "delattr": "attribute access by name is not available",
    "type": "a program cannot create types", "object": "a program cannot create types",
    "super": "a program cannot create types", "dir": "a program cannot inspect the runner",
    "input": "a program runs without a person at the keyboard", "breakpoint": "a program cannot open a debugger",
    "help": "a program runs without a person at the keyboard",
    "exit": "a program ends when its last line has run", "quit": "a program ends when its last line has run",
    "BaseException": "the runner's stop signals cannot be caught",
}

# Attributes without underscores that still lead from an ordinary object to the interpreter's frames.
_BLOCKED_ATTRIBUTES = {
    "gi_frame", "gi_code", "gi_yieldfrom", "cr_frame", "cr_code", "cr_await", "ag_frame", "ag_code",
    "f_back", "f_globals", "f_locals", "f_builtins", "f_code", "tb_frame", "tb_next",
}


def _why_refused(node: ast.AST) -> str | None:
    """The reason a node is not allowed in a program, or None when it is fine."""
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return "import is not available: a program's only power is callTool"
    if isinstance(node, ast.Attribute) and (node.attr.startswith("_") or node.attr in _BLOCKED_ATTRIBUTES):
        return f"attribute .{node.attr} is not available to a program"
    if isinstance(node, ast.Name):
        if node.id.startswith("__"):
            return f"{node.id} is not available to a program"
        if node.id in _BLOCKED_NAMES:
            return f"{node.id} is not available: {_BLOCKED_NAMES[node.id]}"
    if isinstance(node, ast.ClassDef):
        return "class definitions are not available: use dicts and functions"
    if isinstance(node, (ast.AsyncFunctionDef, ast.Await, ast.AsyncFor, ast.AsyncWith)):
        return "callTool is an ordinary function: write the program without async and await"
    if isinstance(node, ast.ExceptHandler) and node.type is None:
        return "a bare except is not available: catch Exception instead"
    if isinstance(node, ast.Try) and node.finalbody:
        return "finally is not available: it could keep running after the runner stops the program"
    if sys.version_info >= (3, 11) and isinstance(node, ast.TryStar):
        return "except* is not available to a program"
    return None


def check_program(source: str) -> ast.Module:
    """Parse the program and refuse what it may not do; return the tree that will run.

    Raises ProgramRejected naming the line, before a single line has run.
    """
    try:
        tree = ast.parse(source, filename=FILENAME)
    except SyntaxError as error:
        raise ProgramRejected(f"line {error.lineno}: SyntaxError: {error.msg}") from None
    for node in ast.walk(tree):
        reason = _why_refused(node)
        if reason:
            raise ProgramRejected(f"line {getattr(node, 'lineno', '?')}: {reason}")
    return tree


# ---------- the record of a run ----------

@dataclass(frozen=True)
class ToolCall:
    code: str
    arguments: dict
    result_chars: int
    error: str | None = None


@dataclass(frozen=True)
class RunResult:
    """What happened, and what of it would reach the model.

    ``chars_returned`` counts the characters of tool results handed to the program; they stay in
    the program. ``chars_to_context`` counts what run_code gives back to the model: the printed
    output, plus the error when there was one.
    """
    output: str
    error: str | None
    calls: tuple[ToolCall, ...] = ()
    lines_run: int = 0
    seconds: float = field(default=0.0, compare=False)

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def tool_calls(self) -> int:
        return len(self.calls)

    @property
    def chars_returned(self) -> int:
        return sum(call.result_chars for call in self.calls)

    @property
    def context_text(self) -> str:
        """The result of run_code as the model reads it."""
        if self.error is None:
            return self.output
        separator = "" if not self.output or self.output.endswith("\n") else "\n"
        return f"{self.output}{separator}ERROR: {self.error}"

    @property
    def chars_to_context(self) -> int:
        return len(self.context_text)

    def summary(self) -> str:
        status = "ok" if self.ok else f"stopped: {self.error}"
        return (f"{self.tool_calls} tool calls | {self.chars_returned:,} characters returned to the program "
                f"| {self.chars_to_context:,} characters to the model's context | {status}")


# ---------- running ----------

class _Run:
    """The state of one run: the call log, the printed output and the limits."""

    def __init__(self, tools: Mapping[str, Handler], max_calls: int, time_limit: float,
                 max_lines: int | None) -> None:
        self.tools = dict(tools)
        self.max_calls, self.time_limit, self.max_lines = max_calls, time_limit, max_lines
        self.calls: list[ToolCall] = []
        self.printed: list[str] = []
        self.printed_chars = 0
        self.lines = 0
        self.stop: ProgramStopped | None = None
        self.deadline = 0.0

    # --- the program's powers ---

    def call_tool(self, code: str, arguments: Mapping[str, Any] | None = None) -> Any:
        if self.stop is None and time.monotonic() > self.deadline:  # also checked here, in case tracing was lost
            self.stop = TimeLimitExceeded(f"time limit of {self.time_limit:g} s reached; "
                                          "the program was stopped (a loop that never ends?)")
        if self.stop is not None:
            raise self.stop
        if len(self.calls) >= self.max_calls:
            self.stop = CallBudgetExceeded(
                f"call budget of {self.max_calls} tool calls used up; the program was stopped at call "
                f"{len(self.calls) + 1}. A program that needs more calls should fetch in bulk.")
            raise self.stop
        if code not in self.tools:
            self.calls.append(ToolCall(str(code), {}, 0, "not callable"))
            known = ", ".join(self.tools) or "none"
            raise ToolError(f"{code} is not in the catalog, so a program cannot call it. Callable: {known}")
        try:
            arguments = json.loads(json.dumps(dict(arguments or {})))  # plain data in, nothing else
        except (TypeError, ValueError) as error:
            self.calls.append(ToolCall(code, {}, 0, "bad arguments"))
            raise ToolError(f"{code}: arguments must be a dict of plain data ({error})") from None
        try:
            result = self.tools[code](arguments)
        except Exception as error:  # a failing tool is the program's problem to handle, not the runner's
            self.calls.append(ToolCall(code, arguments, 0, str(error)))
            raise ToolError(f"{code}: {error}") from None
        self.calls.append(ToolCall(code, arguments, result_size(result)))
        return json.loads(json.dumps(result))  # the program gets a copy, never the tool's own objects

    def print(self, *values: Any, sep: str = " ", end: str = "\n") -> None:
        text = str(sep).join(str(value) for value in values) + str(end)
        room = MAX_OUTPUT_CHARS - self.printed_chars
        if room <= 0:
            return
        if len(text) > room:
            text = text[:room] + f"\n[output cut at {MAX_OUTPUT_CHARS:,} characters]\n"
        self.printed.append(text)
        self.printed_chars += len(text)

    def range(self, *args: int) -> range:
        span = range(*args)
        if len(span) > MAX_RANGE:
            raise ValueError(f"range of {len(span):,} numbers is longer than a program may loop ({MAX_RANGE:,})")
        return span

    def namespace(self) -> dict:
        safe = {name: getattr(builtins, name) for name in _SAFE_NAMES}
        safe.update(print=self.print, range=self.range, ToolError=ToolError)
        return {"__builtins__": safe, "__name__": "program", "callTool": self.call_tool}

    # --- the time limit ---

    def trace(self, frame: Any, event: str, arg: Any) -> Any:
        # Only the program's own frames are traced; tools and the runner run at full speed.
        if frame.f_code.co_filename != FILENAME:
            return None
        depth, outer = 0, frame
        while outer is not None:
            depth += outer.f_code.co_filename == FILENAME
            outer = outer.f_back
        if depth > MAX_DEPTH and self.stop is None:
            # Python's RecursionError would be catchable, and could even strike inside this tracer,
            # which switches tracing off for good; an uncatchable stop well before it avoids both.
            self.stop = DepthLimitExceeded(f"{MAX_DEPTH} nested calls reached; the program was stopped "
                                           "(a recursion that never ends?)")
        if self.stop is not None:
            raise self.stop
        return self.trace_line

    def trace_line(self, frame: Any, event: str, arg: Any) -> Any:
        if event == "line":
            self.lines += 1
            if self.stop is None:
                if self.max_lines is not None and self.lines > self.max_lines:
                    self.stop = TimeLimitExceeded(f"line limit of {self.max_lines:,} lines reached; "
                                                  "the program was stopped (a loop that never ends?)")
                elif time.monotonic() > self.deadline:
                    self.stop = TimeLimitExceeded(f"time limit of {self.time_limit:g} s reached; "
                                                  "the program was stopped (a loop that never ends?)")
            if self.stop is not None:
                raise self.stop
        return self.trace_line


def _program_line(error: BaseException) -> str:
    """'line N: ' for the innermost frame of the program in the traceback, or ''."""
    line = None
    tb = error.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == FILENAME:
            line = tb.tb_lineno
        tb = tb.tb_next
    return f"line {line}: " if line else ""


def run_program(program: str, tools: Mapping[str, Handler], *, max_calls: int = DEFAULT_MAX_CALLS,
                time_limit: float = DEFAULT_TIME_LIMIT, max_lines: int | None = None) -> RunResult:
    """Run ``program`` with ``callTool`` bound to ``tools`` (code -> handler) and report what happened.

    Nothing the program does raises here: a refusal, a tool error, the call budget or the time limit
    all end up in ``RunResult.error``, because in code mode that text is what the model gets back.
    """
    state = _Run(tools, max_calls, time_limit, max_lines)
    try:
        code = compile(check_program(program), FILENAME, "exec")
    except ProgramRejected as error:
        return RunResult("", f"ProgramRejected: {error}")
    error_text = None
    previous = sys.gettrace()  # a debugger or coverage tool may be tracing; hand it back afterwards
    started = time.monotonic()
    state.deadline = started + time_limit
    sys.settrace(state.trace)
    try:
        exec(code, state.namespace())
    except ProgramStopped:
        pass  # reported from state.stop below, which also catches a stop the program tried to hide
    except Exception as error:
        error_text = f"{_program_line(error)}{type(error).__name__}: {error}"
    finally:
        sys.settrace(previous)
    if state.stop is not None:
        error_text = f"{type(state.stop).__name__}: {state.stop}"
    return RunResult("".join(state.printed), error_text, tuple(state.calls), state.lines,
                     time.monotonic() - started)


def handlers_for(function_calls: Mapping[str, str | None]) -> dict[str, Handler]:
    """Resolve 'module:function' paths (the registry's function_call column) into callables.

    A code without a function gets a handler that fails with a clear message, so calling a filler
    tool says what happened instead of vanishing.
    """
    handlers: dict[str, Handler] = {}
    for code, path in function_calls.items():
        if path:
            module, _, name = path.partition(":")
            handlers[code] = getattr(importlib.import_module(module), name)
        else:
            handlers[code] = _no_function(code)
    return handlers


def _no_function(code: str) -> Handler:
    def handler(arguments: Mapping[str, Any]) -> Any:
        raise ToolError(f"{code} is registered without a function to call")
    return handler
