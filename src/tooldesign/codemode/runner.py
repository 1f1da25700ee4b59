"""Run a code-mode program the way the lesson's source does: JavaScript in a fresh V8 isolate.

A model in code mode writes a JavaScript program instead of making tool calls one by one:

    const limits = await callTool("CC_GET_LIMITS", {});
    console.log(limits.length);

``run_program`` runs it in a new V8 isolate (the ``mini-racer`` package) in a child process of its
own, and reports what it printed, which tools it called and how it ended. The program's only way
out of the isolate is ``await callTool(code, args)``; ``console.log`` is the one way to say
something. There is no ``require``, ``process``, ``fetch``, no timers, no files, and no ``eval`` or
``new Function``.

Who enforces which limit:

* **time**: V8 itself terminates the program when ``time_limit_s`` has passed; this process also
  kills the child if it has not ended soon after (at most a second or a quarter of the limit),
  so nothing can hang the caller. A program stopped while spinning after an ``await`` loses what
  it printed since its last tool call: the engine is too busy to hand it over.
* **memory**: V8's hard memory limit of the isolate (``memory_limit_mb``). An allocation too large
  for V8 to survive aborts the child process only; the caller reports the memory limit and goes on.
  Binary buffers (``ArrayBuffer`` and the typed arrays), whose memory V8 does not count in its
  heap, are removed. What V8 keeps outside its heap all the same (date and number formatters)
  is caught by watching the child's size from here every quarter second, and on Linux the
  operating system also caps the child's data.
* **calls**: ``callTool`` counts, here in the parent; the call over the budget ends the program.
* **output**: printing stops at ``output_cap`` characters, with a note that it was cut.

What no isolate protects is the tools: a program can do whatever its tools do. That is why tools
that write stay out of the catalog.

What the program says and what the runner says never share a channel:

* **the program's text is its own unit.** The source is compiled alone, as the body of an async
  function, by the constructor the prelude took before the program's first line; a program that
  closes braces, backticks or comments to reach outside that body is a SyntaxError, reported with
  its line like any other. How the run ended comes back as typed fields (``RunResult.error``,
  ``RunResult.limit``), never as text the program printed, and never as a host object's
  representation.
* **the bridge uses nothing the program can reach.** Every built-in it calls was taken before the
  program ran; its state (the printout waiting to cross, the call count) lives in a closure; the
  budget, the call log and the results are counted here, in the parent, from what crossed.
* **the runner's lines cannot be forged.** Wherever the printout is shown with the runner's own
  line (``RunResult.context_text``, what ``run_code`` gives the model; ``RunResult.marked_output``,
  what the command line writes), every line the program printed starts with ``PROGRAM_MARK``
  (``"| "``) and the runner's own line (``ERROR: ...``) comes last without it. Carriage returns,
  line separators and other characters that could start a new line on a screen are shown as
  escapes (``tooldesign.visible``), so a newline is the only line break a program has, and after
  each one the mark comes first. A program that prints ``ERROR: ...`` or ``stopped: ...`` shows
  ``| ERROR: ...``.
"""

from __future__ import annotations

import importlib.util
import json
import math
import os
import pkgutil
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tooldesign.tools.base import result_size
from tooldesign.visible import visible
from tooldesign.wording import count

__all__ = [
    "DEFAULT_CALL_BUDGET",
    "DEFAULT_MEMORY_LIMIT_MB",
    "DEFAULT_OUTPUT_CAP",
    "DEFAULT_TIME_LIMIT_S",
    "EngineMissing",
    "PROGRAM_MARK",
    "RunResult",
    "marked",
    "ProgramCall",
    "handlers_for",
    "process_cap_mb",
    "resident_mb",
    "run_program",
]

DEFAULT_TIME_LIMIT_S = 5.0
DEFAULT_MEMORY_LIMIT_MB = 64
DEFAULT_CALL_BUDGET = 50
DEFAULT_OUTPUT_CAP = 20_000
WATCH_EVERY_S = 0.25  # how often this process looks at the size of the engine's process
START_TIMEOUT_S = (
    60.0  # a loaded laptop can take seconds to start a process; only a broken install takes this long
)
HOST = Path(__file__).with_name("js_host.py")
# Starts every line the program printed wherever the runner's own line is shown with it.
PROGRAM_MARK = "| "

Handler = Callable[[Mapping[str, Any]], Any]


class EngineMissing(RuntimeError):
    """mini-racer is not installed, so there is no JavaScript engine to run programs in."""


@dataclass(frozen=True)
class ProgramCall:
    """One callTool the program made, as the runner saw it."""

    code: str
    arguments: dict
    result_chars: int
    error: str | None = None


@dataclass(frozen=True)
class RunResult:
    """What happened, and what of it would reach the model.

    ``output`` is what the program printed; ``error`` is one line saying how it ended when it did
    not end well (None when it did); ``limit`` names the limit that stopped it ("time", "memory",
    "calls"), or is None. ``chars_returned`` counts the tool results handed to the program: they
    stay in the program. ``chars_to_context`` counts what run_code gives back to the model.
    """

    output: str
    calls: tuple[ProgramCall, ...]
    error: str | None
    limit: str | None = None
    seconds: float = field(default=0.0, compare=False)

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def printed(self) -> str:
        """The printed text under another name: what console.log wrote."""
        return self.output

    @property
    def tool_calls(self) -> int:
        return len(self.calls)

    @property
    def chars_returned(self) -> int:
        return sum(call.result_chars for call in self.calls)

    @property
    def marked_output(self) -> str:
        """The printout with every line marked as the program's (see ``marked``)."""
        return marked(self.output)

    @property
    def context_text(self) -> str:
        """The result of run_code as the model reads it: the marked printout, then the runner's
        own line if the program did not end well. Only that last line lacks the mark."""
        shown = self.marked_output
        if self.error is None:
            return shown
        separator = "" if not shown or shown.endswith("\n") else "\n"
        return f"{shown}{separator}ERROR: {self.error}"

    @property
    def chars_to_context(self) -> int:
        return len(self.context_text)

    def summary(self) -> str:
        status = "ok" if self.ok else f"stopped: {self.error}"
        return (
            f"{self.tool_calls} tool calls | {self.chars_returned:,} characters returned to the program "
            f"| {self.chars_to_context:,} characters to the model's context | {status}"
        )


def marked(printed: str) -> str:
    """``printed`` with ``PROGRAM_MARK`` before each of its lines (a bare ``|`` on an empty one).

    The text is expected to have passed ``visible`` already, so ``\\n`` is its only line break.
    """
    if not printed:
        return ""
    body, newline = (printed[:-1], "\n") if printed.endswith("\n") else (printed, "")
    return (
        "\n".join(PROGRAM_MARK + line if line else PROGRAM_MARK.rstrip() for line in body.split("\n"))
        + newline
    )


# ---------- the messages a run can end with ----------


def _time_message(limit: float) -> str:
    return f"time limit of {limit:g} s reached: the program was stopped (a loop that never ends?)"


def _memory_message(limit: int) -> str:
    return f"memory limit of {limit} MB reached: the program was stopped (it kept allocating, or asked for too much at once)"


def _budget_message(budget: int) -> str:
    return (
        f"call budget of {count(budget, 'tool call')} used up: the program was stopped at call {budget + 1} "
        "(a loop that calls too often? fetch in bulk instead)"
    )


# ---------- the parent's side of a run ----------


class _Run:
    """One program's run: the child process, the call log, the printout and the budget."""

    def __init__(
        self,
        source: str,
        tools: Mapping[str, Handler],
        time_limit_s: float,
        memory_limit_mb: int,
        call_budget: int,
        output_cap: int,
    ) -> None:
        self.tools = dict(tools)
        self.time_limit_s, self.memory_limit_mb = time_limit_s, memory_limit_mb
        self.call_budget, self.output_cap = call_budget, output_cap
        self.calls: list[ProgramCall] = []
        self.printed: list[str] = []
        self.printed_chars = 0
        self.messages: queue.Queue = queue.Queue()
        self.stderr_tail = ""
        self.settings = {
            "source": source,
            "time_limit_s": time_limit_s,
            "memory_limit_mb": memory_limit_mb,
            "output_cap": output_cap,
            "call_budget": call_budget,
        }

    # --- the child and its pipes ---

    def start(self) -> subprocess.Popen:
        # The same interpreter and environment as this process, so it finds mini-racer wherever
        # this process does (a venv, a user install); run by path, it imports no course module.
        child = subprocess.Popen(
            [sys.executable, str(HOST)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            encoding="utf-8",
            errors="replace",
        )
        threading.Thread(target=self._read_stdout, args=(child,), daemon=True).start()
        threading.Thread(target=self._read_stderr, args=(child,), daemon=True).start()
        self._send(child, self.settings)
        return child

    def _read_stdout(self, child: subprocess.Popen) -> None:
        assert child.stdout is not None  # start() opens every pipe
        for line in child.stdout:
            try:
                message = json.loads(line)
            except ValueError:
                continue  # the child writes only JSON lines; anything else is noise from the engine
            if isinstance(message, dict):
                self.messages.put(message)
        self.messages.put({"t": "gone"})

    def _read_stderr(self, child: subprocess.Popen) -> None:
        assert child.stderr is not None  # start() opens every pipe
        for line in child.stderr:  # keep the tail: an engine abort explains itself there
            self.stderr_tail = (self.stderr_tail + line)[-4000:]

    @staticmethod
    def _send(child: subprocess.Popen, message: dict) -> bool:
        assert child.stdin is not None  # start() opens every pipe
        try:
            child.stdin.write(json.dumps(message, ensure_ascii=True) + "\n")
            child.stdin.flush()
            return True
        except (BrokenPipeError, OSError, ValueError):
            return False

    # --- what the program does ---

    def print(self, text: str) -> None:
        room = self.output_cap + 200 - self.printed_chars  # the child cuts at the cap; this is a backstop
        if room > 0:
            self.printed.append(text[:room])
            self.printed_chars += len(text[:room])

    def call(self, payload: str) -> dict | None:
        """Run one callTool and return the reply, or None when the call is over the budget."""
        if len(self.calls) >= self.call_budget:
            return None
        try:
            code, arguments = json.loads(payload)
            if not isinstance(code, str) or not isinstance(arguments, dict):
                raise ValueError
        except (TypeError, ValueError, RecursionError):  # the isolate caps nesting; this is a backstop
            self.calls.append(ProgramCall("?", {}, 0, "bad arguments"))
            return {
                "ok": False,
                "error": "callTool(code, args): code must be a string and args an object of plain data",
            }
        if code not in self.tools:
            self.calls.append(ProgramCall(code, arguments, 0, "not callable"))
            known = ", ".join(self.tools) or "none"
            return {
                "ok": False,
                "error": f"{code} is not in the catalog, so a program cannot call it. Callable: {known}",
            }
        try:
            result = self.tools[code](json.loads(payload)[1])  # a copy: the log keeps what the program sent
            text = json.dumps(result, allow_nan=False)
        except (
            Exception
        ) as error:  # a failing tool is the program's to handle; its message is all that crosses
            message = str(error).splitlines()[0] if str(error) else type(error).__name__
            self.calls.append(ProgramCall(code, arguments, 0, message))
            return {"ok": False, "error": f"{code}: {message}"}
        self.calls.append(ProgramCall(code, arguments, result_size(result)))
        return {"ok": True, "result": json.loads(text)}

    # --- the conversation with the child, with a deadline the child cannot move ---

    def converse(self, child: subprocess.Popen) -> tuple[str | None, str | None]:
        """Serve the child until it ends; return (limit, error)."""
        deadline = time.monotonic() + START_TIMEOUT_S
        started = False
        cap = process_cap_mb(self.memory_limit_mb)
        while True:
            try:
                message = self.messages.get(timeout=max(0.0, min(WATCH_EVERY_S, deadline - time.monotonic())))
            except queue.Empty:
                if time.monotonic() < deadline:
                    grown = resident_mb(child)
                    if grown is not None and grown > cap:
                        return "memory", _memory_message(self.memory_limit_mb)
                    continue
                if not started:
                    return "engine", "the JavaScript engine did not start in time; run the program again"
                return "time", _time_message(
                    self.time_limit_s
                )  # the child did not stop itself: it was killed
            kind = message.get("t")
            if kind == "ready" and not started:
                started = True
                # V8 stops the program at the limit. A program spinning after an await keeps the
                # engine too busy to be told, so this process waits a little longer, then kills it.
                deadline = time.monotonic() + self.time_limit_s + max(1.0, self.time_limit_s / 4)
            elif kind == "out" and isinstance(message.get("text"), str):
                self.print(message["text"])
            elif kind == "call" and isinstance(message.get("payload"), str):
                reply = self.call(message["payload"])
                if reply is None:
                    return "calls", _budget_message(self.call_budget)
                self._send(child, reply)
            elif kind == "end":
                return self._ending(message)
            elif kind == "gone":
                return self._crash(child)

    def _ending(self, message: dict) -> tuple[str | None, str | None]:
        ending, text = message.get("kind"), message.get("message")
        if ending is None:
            return None, None
        if ending == "time":
            return "time", _time_message(self.time_limit_s)
        if ending == "memory":
            return "memory", _memory_message(self.memory_limit_mb)
        # Only a string the child sent is the program's words; anything else is never shown as a
        # representation of whatever it is.
        if ending != "error" or not isinstance(text, str) or not text.strip():
            return None, "the program failed"
        return None, text.split("\n")[0][:500]  # the rest is made visible, not cut

    def _crash(self, child: subprocess.Popen) -> tuple[str | None, str | None]:
        """The child ended without saying how; V8 aborts like this when an allocation is beyond it."""
        try:
            code = child.wait(timeout=5)
        except subprocess.TimeoutExpired:
            code = None
        tail = self.stderr_tail.lower()
        if (
            "out of memory" in tail
            or "heap" in tail
            or "allocation failed" in tail
            or "invalid table size" in tail
        ):
            return "memory", _memory_message(self.memory_limit_mb)
        if "No module named" in self.stderr_tail:
            return (
                "engine",
                "mini-racer is not installed in this environment: run pip install -r requirements.txt",
            )
        if code is not None and code < 0:  # killed by a signal: on Linux, most often the data cap above
            return "engine", (
                f"the JavaScript engine stopped on signal {-code}, most likely out of memory; "
                "the program did not finish"
            )
        return (
            "engine",
            f"the JavaScript engine stopped unexpectedly (exit code {code}); the program did not finish",
        )


def resident_mb(child: subprocess.Popen) -> float | None:
    """The child's resident memory in MB, or None where it cannot be read (never an error)."""
    try:
        if sys.platform.startswith("linux"):
            with open(f"/proc/{child.pid}/statm", encoding="ascii") as statm:
                return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
        if sys.platform == "win32":
            return _windows_working_set_mb(child)
        if sys.platform == "darwin":
            shown = subprocess.run(
                ["ps", "-o", "rss=", "-p", str(child.pid)], capture_output=True, text=True, timeout=2
            ).stdout.strip()
            return int(shown) / 1024 if shown else None
    except Exception:  # the process may have just ended, or the platform says no: no reading
        return None
    return None


def _windows_working_set_mb(child: subprocess.Popen) -> float | None:
    if sys.platform != "win32":  # called only on Windows; this also keeps type checkers elsewhere out
        return None
    import ctypes
    from ctypes import wintypes

    class Counters(ctypes.Structure):
        _fields_ = [("cb", wintypes.DWORD), ("PageFaultCount", wintypes.DWORD)] + [
            (name, ctypes.c_size_t)
            for name in (
                "PeakWorkingSetSize",
                "WorkingSetSize",
                "QuotaPeakPagedPoolUsage",
                "QuotaPagedPoolUsage",
                "QuotaPeakNonPagedPoolUsage",
                "QuotaNonPagedPoolUsage",
                "PagefileUsage",
                "PeakPagefileUsage",
            )
        ]

    counters = Counters()
    counters.cb = ctypes.sizeof(Counters)
    handle = wintypes.HANDLE(int(child._handle))  # the process handle Popen holds on Windows
    if not ctypes.windll.psapi.GetProcessMemoryInfo(handle, ctypes.byref(counters), counters.cb):
        return None
    return counters.WorkingSetSize / 2**20


def process_cap_mb(memory_limit_mb: int) -> int:
    """How big the engine's whole process may grow: the isolate's limit, V8's ceiling above it, and
    room for Python and the engine's own libraries. Memory V8 keeps outside its heap (date and
    number formatters, for one) is not counted by the isolate's limit; this catches it."""
    return 256 + 3 * int(memory_limit_mb)


def _stop(child: subprocess.Popen) -> None:
    if child.poll() is None:
        child.kill()
    try:
        child.wait(timeout=10)
    except subprocess.TimeoutExpired:  # pragma: no cover - a process that ignores SIGKILL is the OS's problem
        pass
    for pipe in (child.stdin, child.stdout, child.stderr):
        if pipe is None:
            continue
        try:
            pipe.close()
        except OSError:
            pass


def _check_settings(
    source: Any, time_limit_s: Any, memory_limit_mb: Any, call_budget: Any, output_cap: Any
) -> None:
    if not isinstance(source, str):
        raise TypeError(f"source must be the program's JavaScript text (a str), not {type(source).__name__}")
    try:
        source.encode("utf-8")
    except UnicodeEncodeError as error:
        raise ValueError(
            f"source holds a character that is not text (a lone surrogate at position {error.start}); "
            "write it as an escape such as \\uD800 in the JavaScript instead"
        ) from None
    for name, value, low in (
        ("time_limit_s", time_limit_s, 0.01),
        ("memory_limit_mb", memory_limit_mb, 8),
        ("call_budget", call_budget, 0),
        ("output_cap", output_cap, 1),
    ):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value < math.inf:
            raise ValueError(f"{name} must be a finite number of at least {low:g}, got {value!r}")
    if not isinstance(memory_limit_mb, int) or not isinstance(call_budget, int):
        raise ValueError("memory_limit_mb and call_budget must be whole numbers")


def run_program(
    source: str,
    tools: Mapping[str, Handler],
    *,
    time_limit_s: float = DEFAULT_TIME_LIMIT_S,
    memory_limit_mb: int = DEFAULT_MEMORY_LIMIT_MB,
    call_budget: int = DEFAULT_CALL_BUDGET,
    output_cap: int = DEFAULT_OUTPUT_CAP,
) -> RunResult:
    """Run a JavaScript program in a fresh V8 isolate with ``callTool`` bound to ``tools``.

    ``tools`` maps a tool code to a handler (arguments dict -> JSON-serialisable result): the
    catalog. Nothing the program does raises here: a syntax error, a tool error, or a limit all
    end up in ``RunResult.error``, because in code mode that text is what the model gets back.
    """
    _check_settings(source, time_limit_s, memory_limit_mb, call_budget, output_cap)
    if not isinstance(tools, Mapping) or not all(
        isinstance(code, str) and callable(handler) for code, handler in tools.items()
    ):
        raise TypeError("tools must map each tool code (a str) to a function that takes the arguments dict")
    if importlib.util.find_spec("py_mini_racer") is None:
        raise EngineMissing(
            "mini-racer is not installed, so programs cannot run: pip install -r requirements.txt"
        )
    run = _Run(source, tools, float(time_limit_s), int(memory_limit_mb), int(call_budget), int(output_cap))
    started = time.monotonic()
    child = run.start()
    try:
        limit, error = run.converse(child)
    finally:
        _stop(child)
    if limit == "engine":
        limit = None
    # What the program printed or threw leaves here, and only here, made safe to show.
    shown_error = None if error is None else visible(error)
    return RunResult(
        visible("".join(run.printed)), tuple(run.calls), shown_error, limit, time.monotonic() - started
    )


def handlers_for(function_calls: Mapping[str, str | None]) -> dict[str, Handler]:
    """Resolve 'module:function' paths (the registry's function_call column) into callables.

    A code without a function gets a handler that fails with a clear message, so calling a filler
    tool says what happened instead of vanishing.
    """
    handlers: dict[str, Handler] = {}
    for code, path in function_calls.items():
        if path:
            handlers[code] = pkgutil.resolve_name(path)
        else:
            handlers[code] = _no_function(code)
    return handlers


def _no_function(code: str) -> Handler:
    def handler(arguments: Mapping[str, Any]) -> Any:
        raise LookupError("registered without a function to call")

    return handler
