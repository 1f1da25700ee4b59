"""The isolate tried as an attacker would: every program is stopped or contained, in one line.

Each case is a JavaScript program a model (or someone steering it) might send to run_code. The
runner must end it with a clear one-line error, or let it finish having shown that the thing it
reached for is not there, and the only Python it may ever reach is the tool handlers, through
callTool. Limits are small so the suite stays quick; nothing here measures speed.
"""
from __future__ import annotations

import json
import os
import sys
import threading
import time
from pathlib import Path

import pytest

from tooldesign.codemode.runner import run_program

TIME_LIMIT = 1.0
# A program that can only end at the time limit spins until it: a short limit proves the same stop
# (the limit is still what ends it, however slow the machine) and keeps a core free for the other tests.
LOOP_CASE_TIME_LIMIT = 0.25
MEMORY_CASE_TIME_LIMIT = 20.0
GENEROUS = 60.0  # only a hang takes this long, however loaded the machine


class Spy:
    """Tool handlers that record every call that reaches Python."""

    def __init__(self) -> None:
        self.seen: list[tuple[str, dict]] = []

    def tools(self) -> dict:
        def limits(arguments):
            self.seen.append(("CC_GET_LIMITS", arguments))
            return [{"product_class": "FROZEN", "max_temp_c": -18.0}]

        def echo(arguments):
            self.seen.append(("ECHO", arguments))
            return {"echo": arguments}

        def broken(arguments):
            self.seen.append(("BROKEN", arguments))
            raise RuntimeError("the tool failed\nTraceback (most recent call last): secret /home/path")

        return {"CC_GET_LIMITS": limits, "ECHO": echo, "BROKEN": broken}


# (id, program, what the run must end with). "limit:X" means stopped by limit X; "error:TEXT"
# means an error line containing TEXT; "out:TEXT" means it finished and printed TEXT.
CASES = [
    # code built from strings
    ("constructor-constructor", "this.constructor.constructor('return this')()", "error:Code generation from strings disallowed"),
    ("Function", "Function('return process')()", "error:Code generation from strings disallowed"),
    ("new-Function", "new Function('return 1')", "error:Code generation from strings disallowed"),
    ("eval", "eval('1 + 1')", "error:Code generation from strings disallowed"),
    ("indirect-eval", "(0, eval)('globalThis')", "error:Code generation from strings disallowed"),
    ("async-function-constructor", "(async function () {}).constructor('return 1')", "error:Code generation from strings disallowed"),
    ("generator-constructor", "(function* () {}).constructor('yield 1')", "error:Code generation from strings disallowed"),
    ("callTool-constructor", "callTool.constructor('return 1')()", "error:Code generation from strings disallowed"),
    ("regexp-to-function", "({}).toString.constructor('return this')()", "error:Code generation from strings disallowed"),
    # the outside world
    ("require", "require('fs')", "error:require is not defined"),
    ("dynamic-import", "await import('fs')", "error:Error:"),
    ("static-import", "import fs from 'fs';", "error:SyntaxError"),
    ("process", "process.env.HOME", "error:process is not defined"),
    ("fetch", "await fetch('http://127.0.0.1/')", "error:fetch is not defined"),
    ("XMLHttpRequest", "new XMLHttpRequest()", "error:XMLHttpRequest is not defined"),
    ("setTimeout", "setTimeout(() => {}, 10)", "error:setTimeout is not a function"),
    ("setInterval", "setInterval(() => {}, 10)", "error:setInterval is not defined"),
    ("timer-class", "new __TimerManager()", "error:TypeError"),
    ("WebAssembly", "new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]))", "error:WebAssembly is not defined"),
    ("SharedArrayBuffer", "new SharedArrayBuffer(8)", "error:SharedArrayBuffer is not defined"),
    ("Atomics.wait", "Atomics.wait(new Int32Array(4), 0, 0, 100000)", "error:Atomics is not defined"),
    ("globalThis-probe",
     "const wanted = ['require', 'process', 'fetch', 'module', 'exports', '__dirname', 'Deno', 'Bun', 'setTimeout',\n"
     "  'setInterval', 'setImmediate', 'queueMicrotask', 'XMLHttpRequest', 'WebSocket', 'importScripts',\n"
     "  'WebAssembly', 'SharedArrayBuffer', 'Atomics', 'os', 'std', 'print', 'load', 'read', 'readline', 'quit'];\n"
     "console.log(JSON.stringify(wanted.filter((name) => typeof globalThis[name] !== 'undefined')))",
     "out:[]"),
    ("own-properties-probe",
     "const names = Object.getOwnPropertyNames(globalThis).filter((n) => typeof globalThis[n] === 'function' && /^[a-z]/.test(n));\n"
     "console.log(JSON.stringify(names.filter((n) => !['parseFloat', 'parseInt', 'decodeURI', 'decodeURIComponent',\n"
     "  'encodeURI', 'encodeURIComponent', 'escape', 'unescape', 'eval', 'isFinite', 'isNaN', 'callTool'].includes(n))))",
     "out:[]"),
    # the bridge itself
    ("overwrite-callTool",
     "callTool = () => 'forged'; globalThis.callTool = 1; delete globalThis.callTool;\n"
     "console.log(typeof callTool, JSON.stringify(await callTool('ECHO', { a: 1 })))",
     'out:function {"echo":{"a":1}}'),
    ("forge-replies",
     "JSON.parse = () => ({ ok: true, result: 'forged' }); Object.prototype.ok = true;\n"
     "try { await callTool('CC_DROP_TABLES', {}) } catch (e) { console.log(e.message.split('.')[0]) }",
     "out:CC_DROP_TABLES is not in the catalog, so a program cannot call it"),
    ("stringify-returns-object",
     "JSON.stringify = () => ({ evil: true }); console.log(JSON.stringify(await callTool('ECHO', { a: 2 })))",
     "out:{\"evil\":true}"),
    ("withResolvers-hijack",
     "let caught = 0; const original = Promise.withResolvers;\n"
     "Promise.withResolvers = function () { caught++; return original.call(Promise) };\n"
     "await callTool('CC_GET_LIMITS', {}); console.log(caught, Promise.withResolvers === original)",
     "out:0 true"),
    ("prepareStackTrace-frames",
     "Error.prepareStackTrace = (e, frames) => frames.map((f) => typeof f.getFunction());\n"
     "try { await callTool('ECHO', { f: () => 1 }) } catch (e) { console.log(typeof Error.prepareStackTrace, JSON.stringify(e.stack)) }",
     'out:undefined "Error: callTool'),  # the hook is fixed before the program runs: no program code runs on a stack read
    ("strict-caller", "console.log(callTool.caller)", "error:may not be accessed on strict mode functions"),
    ("console-replaced", "console.log = () => {}; console = null; console.log('still here')", "out:still here"),
    ("finish-replaced", "globalThis.__codemodeFinish = () => 'x'; throw new Error('boom')", "error:Error: boom (line 1)"),
    ("break-out-of-wrapper", "}); while (true) {} (async () => {", "error:SyntaxError"),
    # arguments that are not plain data
    ("bigint-args", "await callTool('ECHO', { n: 1n })", "error:plain JSON data (a bigint is not JSON data)"),
    ("function-args", "await callTool('ECHO', { f() {} })", "error:a function is not JSON data"),
    ("symbol-code", "await callTool(Symbol('CC_GET_LIMITS'), {})", "error:code must be a tool code string"),
    ("symbol-args", "await callTool('ECHO', { s: Symbol.iterator })", "error:a symbol is not JSON data"),
    ("nan-args", "await callTool('ECHO', { x: NaN })", "error:NaN is not a JSON number"),
    ("date-args", "await callTool('ECHO', { when: new Date(0) })", "error:only plain objects"),
    ("map-args", "await callTool('ECHO', new Map([['a', 1]]))", "error:only plain objects"),
    ("array-args", "await callTool('ECHO', [1, 2])", "error:args must be an object"),
    ("cyclic-args", "const a = {}; a.self = a; await callTool('ECHO', a)", "error:nested more than 32 levels"),
    ("toJSON-reentrant",
     "await callTool('ECHO', { toJSON() { callTool('ECHO', {}); return {} } })", "error:a function is not JSON data"),
    ("proxy-args",
     "await callTool('ECHO', new Proxy({}, { ownKeys() { throw new Error('trap') } }))", "error:plain JSON data (trap)"),
    ("getter-args", "await callTool('ECHO', { get x() { return 5 } })", "out:"),
    # tools that fail, and tools that are not there
    ("tool-raises", "await callTool('BROKEN', {})", "error:BROKEN: the tool failed"),
    ("tool-raises-caught",
     "try { await callTool('BROKEN', {}) } catch (e) { console.log('caught:', e.message) }", "out:caught: BROKEN: the tool failed"),
    ("not-in-catalog", "await callTool('CC_WRITE_CLAIM', { eur: 1000000 })", "error:CC_WRITE_CLAIM is not in the catalog"),
    # limits
    ("infinite-loop", "while (true) {}", "limit:time"),
    ("loop-after-await", "await callTool('CC_GET_LIMITS', {}); for (;;) {}", "limit:time"),
    ("async-infinite-loop", "while (true) await null", "limit:time"),
    ("never-settles", "await new Promise(() => {})", "limit:time"),
    ("catch-everything-loop", "for (;;) { try { while (true) {} } catch (e) {} }", "limit:time"),
    ("getter-bomb-in-log", "console.log({ get a() { while (true) {} } })", "limit:time"),
    ("recursion-that-catches", "function f() { try { return f() } catch (e) { return f() } } f()", "limit:time"),
    ("promise-flood", "for (;;) Promise.resolve().then(() => {})", "limit:memory"),
    ("async-recursion", "async function f() { await null; return f() } await f()", "limit:memory"),
    ("array-growth", "const a = []; while (true) a.push('x'.repeat(1000) + Math.random())", "limit:memory"),
    ("one-huge-array", "new Array(2 ** 30).fill(1)", "limit:memory"),
    ("huge-string", "let s = 'x'; while (true) s += s", "error:RangeError: Invalid string length"),
    ("typed-arrays", "const b = []; for (;;) b.push(new Uint8Array(1 << 24))", "error:Uint8Array is not defined"),
    ("array-buffer", "new ArrayBuffer(1 << 20, { maxByteLength: 1 << 30 })", "error:ArrayBuffer is not defined"),
    ("data-view", "new DataView({})", "error:DataView is not defined"),
    ("binary-probe",
     "console.log(JSON.stringify(['ArrayBuffer', 'DataView', 'Int8Array', 'Uint8Array', 'Float64Array', 'BigInt64Array',\n"
     "  'Float16Array', 'Uint8ClampedArray'].filter((name) => typeof globalThis[name] !== 'undefined')))", "out:[]"),
    ("huge-arguments", "await callTool('ECHO', { blob: 'x'.repeat(2000000) })", "error:at most 1000000 can be sent"),
    ("parallel-flood",
     "await Promise.all(Array.from({ length: 100000 }, () => callTool('CC_GET_LIMITS', {})))", "limit:calls"),
    ("regexp-backtracking", "/^(a+)+$/.test('a'.repeat(40) + 'b')", "limit:time"),
    ("sort-comparator-loop", "[3, 2, 1].sort(() => { while (true) {} })", "limit:time"),
    ("json-reviver-loop", "JSON.parse('[1]', () => { for (;;) {} })", "limit:time"),
    ("symbol-toPrimitive-in-log", "console.log(`${{ [Symbol.toPrimitive]() { for (;;) {} } }}`)", "limit:time"),
    ("getter-on-prototype",
     "Object.defineProperty(Object.prototype, 'ok', { get() { return true } });\n"
     "try { await callTool('NOPE', {}) } catch (e) { console.log('refused') }", "out:refused"),
    ("array-iterator-hijack",
     "Array.prototype[Symbol.iterator] = function* () {};\n"
     "console.log(JSON.stringify(await callTool('ECHO', { list: [1, 2, () => 3].slice(0, 2) })))", 'out:{"echo":{"list":[1,2]}}'),
    ("deep-recursion", "function f() { return f() } f()", "error:RangeError: Maximum call stack size exceeded"),
    ("call-flood", "for (;;) await callTool('CC_GET_LIMITS', {})", "limit:calls"),
    ("call-flood-caught", "for (;;) { try { await callTool('CC_GET_LIMITS', {}) } catch (e) {} }", "limit:calls"),
    ("parallel-calls",
     "await Promise.all(Array.from({ length: 200 }, () => callTool('CC_GET_LIMITS', {})))", "limit:calls"),
    ("calls-to-nowhere", "for (;;) { try { await callTool('NOPE', {}) } catch (e) {} }", "limit:calls"),
    # what the program throws
    ("throw-number", "throw 42", "error:the program threw 42"),
    ("throw-proxy", "throw new Proxy({}, { get() { throw 1 } })", "error:cannot be described"),
    ("throw-multiline", "throw new Error('one\\ntwo\\nthree')", "error:Error: one (line 1)"),
]

BUDGET = 5


@pytest.mark.parametrize("case_id, program, expected", CASES, ids=[case[0] for case in CASES])
def test_each_program_is_stopped_or_contained(case_id, program, expected):
    spy = Spy()
    started = time.monotonic()
    # A memory or call-budget case gets time enough that only its own limit can stop it, however slow
    # the machine (100,000 calls queued on a loaded machine can take longer than the usual second).
    time_limit = {"limit:memory": MEMORY_CASE_TIME_LIMIT, "limit:calls": MEMORY_CASE_TIME_LIMIT,
                  "limit:time": LOOP_CASE_TIME_LIMIT}.get(expected, TIME_LIMIT)
    result = run_program(program, spy.tools(), time_limit_s=time_limit, memory_limit_mb=32, call_budget=BUDGET)
    assert time.monotonic() - started < GENEROUS
    kind, _, text = expected.partition(":")
    if kind == "limit":
        assert result.limit == text, (result.limit, result.error)
        assert result.error and "\n" not in result.error
    elif kind == "error":
        assert result.limit is None, result.error
        assert result.error is not None and text in result.error, result.error
        assert "\n" not in result.error
    else:
        assert result.error is None, result.error
        assert result.output.strip().startswith(text), result.output
    # Nothing reaches Python but callTool, and that only with plain data for known tools.
    assert len(spy.seen) == len(result.calls) - sum(call.error == "not callable" for call in result.calls)
    for code, arguments in spy.seen:
        assert code in {"CC_GET_LIMITS", "ECHO", "BROKEN"}
        json.dumps(arguments)
    assert len(result.calls) <= BUDGET


def test_the_suite_is_large():
    assert len(CASES) >= 70


def test_a_tool_error_carries_its_first_line_only():
    result = run_program("await callTool('BROKEN', {})", Spy().tools(), time_limit_s=TIME_LIMIT)
    assert "Traceback" not in result.error and "/home/path" not in result.error


def test_the_engine_has_no_view_of_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("CODEMODE_SECRET", "do-not-print")
    program = ("const found = [];\n"
               "for (const name of Object.getOwnPropertyNames(globalThis)) {\n"
               "  try { if (String(globalThis[name]).includes('do-not-print')) found.push(name) } catch (e) {}\n"
               "}\n"
               "console.log(found.length)")
    result = run_program(program, {}, time_limit_s=TIME_LIMIT)
    assert result.output == "0\n" and result.error is None
    assert os.environ["CODEMODE_SECRET"] == "do-not-print"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads the child's memory from /proc")
@pytest.mark.parametrize("program", [
    "const a = []; while (true) a.push('x'.repeat(1000) + Math.random())",
    "new Array(2 ** 30).fill(1)",
    "const a = []; for (;;) a.push(new Intl.Collator('de', { sensitivity: 'base' }))",
])
def test_the_child_process_stays_within_its_memory(program):
    """The engine's process never grows far past its limits, whatever the program allocates."""
    peak = []
    done = threading.Event()

    def watch():
        while not done.is_set():
            for status in Path("/proc").glob("[0-9]*/status"):
                try:
                    if b"js_host.py" in (status.parent / "cmdline").read_bytes():
                        rss = next(int(line.split()[1]) for line in status.read_text().splitlines()
                                   if line.startswith("VmRSS"))
                        peak.append(rss // 1024)
                except (OSError, StopIteration, ValueError):
                    continue
            time.sleep(0.02)

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    result = run_program(program, {}, time_limit_s=MEMORY_CASE_TIME_LIMIT, memory_limit_mb=32)
    done.set()
    watcher.join()
    assert result.error is not None
    assert max(peak, default=0) < 192 + 3 * 32 + 150  # the data cap, plus the shared libraries mapped


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs a reading of the child's size")
def test_the_runner_watches_the_engine_even_without_the_operating_systems_cap(tmp_path, monkeypatch):
    """Where no OS cap exists (macOS, Windows), watching the child's size still stops memory that
    V8 keeps outside its heap. Simulated here with a copy of the host that sets no cap."""
    from tooldesign.codemode import js_host, runner

    source = Path(js_host.__file__).read_text(encoding="utf-8")
    uncapped = source.replace('    cap_process_memory(int(settings["memory_limit_mb"]))\n', "")
    assert uncapped != source
    host = tmp_path / "js_host_uncapped.py"
    host.write_text(uncapped, encoding="utf-8")
    monkeypatch.setattr(runner, "HOST", host)
    result = run_program("const a = []; for (;;) a.push(new Intl.Collator('de', { sensitivity: 'base' }))", {},
                         time_limit_s=MEMORY_CASE_TIME_LIMIT, memory_limit_mb=32)
    assert result.limit == "memory", result.error


def test_reading_the_size_of_an_ended_process_is_no_error():
    import subprocess

    from tooldesign.codemode.runner import resident_mb

    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    assert resident_mb(child) is None
