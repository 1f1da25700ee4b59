"""The process that holds the V8 isolate for one program. Run by ``runner.py``, never imported.

Why a separate process: V8 stops most runaway programs itself (a time limit, a hard memory
limit), but a few allocations make it abort the whole process it lives in. Here that process is
this one, so the Python that started it (a notebook kernel, the CLI, the tests) always survives
and can start the next program.

It talks to its parent in JSON lines. The parent sends one line of settings with the program,
then one reply per tool call. This process sends ``ready``, ``out`` (printed text), ``call``
(a tool call to run) and finally ``end``. Only the standard library and mini-racer are imported,
so the process starts fast and the program's engine is all it holds.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import sys
import threading
from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from py_mini_racer import MiniRacer

# The JavaScript side, installed in the fresh isolate before the program runs. It receives the one
# Python bridge and keeps it inside its closure: the program only ever sees callTool and console,
# and what crosses is strings, never objects.
PRELUDE = r"""
(bridgeCall, outputCap, callBudget) => {
  'use strict';
  const G = globalThis;
  const stringify = JSON.stringify, parse = JSON.parse, S = String;
  const isArray = Array.isArray, keys = Object.keys, getProto = Object.getPrototypeOf;
  const ObjectProto = Object.prototype, ErrorCtor = Error, isFinite_ = Number.isFinite;
  // Lone surrogates cannot cross as UTF-8; they become U+FFFD, as a browser would show them.
  const toWellFormed = String.prototype.toWellFormed;
  const wellFormed = (text) => toWellFormed.call(text);
  const MAX_PAYLOAD = 1000000;
  const define = (name, value) => Object.defineProperty(G, name, {value, writable: false,
                                                                  enumerable: false, configurable: false});

  // Nothing that waits, shares memory or reaches outside the isolate stays reachable. The timer
  // functions are declared with var, which makes them undeletable; they become undefined instead.
  // Binary buffers go too: their memory lives outside V8's heap, where the isolate's hard memory
  // limit does not count it, and no program that calls tools for JSON needs them.
  for (const name of ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', '__timer_manager',
                      'SharedArrayBuffer', 'Atomics', 'WebAssembly', 'console', 'ArrayBuffer', 'DataView',
                      'Int8Array', 'Uint8Array', 'Uint8ClampedArray', 'Int16Array', 'Uint16Array', 'Int32Array',
                      'Uint32Array', 'Float16Array', 'Float32Array', 'Float64Array', 'BigInt64Array',
                      'BigUint64Array']) {
    try { delete G[name]; } catch (_) {}
    try { if (name in G) G[name] = undefined; } catch (_) {}
  }

  // mini-racer's bridge builds each call's promise with Promise.withResolvers at call time; frozen,
  // a program cannot swap it for a function that would catch the bridge on the call stack.
  Object.freeze(Promise);
  Object.freeze(Promise.prototype);

  // ---- printing: console.log, captured and capped ----
  // Printed text waits here and crosses with the next tool call or when the run ends, so callTool
  // stays the one bridge out of the isolate.
  let printed = 0, cut = false, pending = '';
  const show = (value) => {
    if (typeof value === 'string') return value;
    try {
      const text = (value !== null && typeof value === 'object') ? stringify(value) : undefined;
      return text === undefined ? S(value) : text;
    } catch (_) {
      try { return S(value); } catch (_) { return '[a value that cannot be printed]'; }
    }
  };
  const log = (...values) => {
    if (cut) return;
    let text = values.map(show).join(' ') + '\n';
    if (printed + text.length > outputCap) {
      text = text.slice(0, outputCap - printed) + `\n[output cut at ${outputCap} characters]\n`;
      cut = true;
    }
    printed += text.length;
    pending += wellFormed(text);
  };
  const takePending = () => { const text = pending; pending = ''; return text; };
  define('console', Object.freeze({log, info: log, warn: log, error: log, debug: log, table: log, dir: log}));

  // ---- callTool: plain data out, plain data back ----
  const plain = (value, depth) => {
    if (depth > 32) return 'it is nested more than 32 levels deep';
    if (value === null || typeof value === 'string' || typeof value === 'boolean') return null;
    if (typeof value === 'number') return isFinite_(value) ? null : `${value} is not a JSON number`;
    if (typeof value !== 'object') return `a ${typeof value} is not JSON data`;
    if (isArray(value)) {
      for (let i = 0; i < value.length; i++) { const why = plain(value[i], depth + 1); if (why) return why; }
      return null;
    }
    const proto = getProto(value);
    if (proto !== ObjectProto && proto !== null) return 'only plain objects ({ ... }) and arrays can be sent';
    for (const key of keys(value)) { const why = plain(value[key], depth + 1); if (why) return why; }
    return null;
  };
  let sent = 0;
  async function callTool(code, args) {
    if (typeof code !== 'string') {
      throw new ErrorCtor('callTool(code, args): code must be a tool code string, such as "CC_GET_LIMITS"');
    }
    if (args === undefined) args = {};
    if (args === null || typeof args !== 'object' || isArray(args)) {
      throw new ErrorCtor(`callTool("${code}", args): args must be an object, such as { shipment_id: 108 }`);
    }
    let payload;
    try {
      const why = plain(args, 0);
      if (why) throw new ErrorCtor(why);
      payload = stringify([code, args]);
    } catch (error) {
      throw new ErrorCtor(`callTool("${code}", args): args must be plain JSON data (${S(error && error.message)})`);
    }
    if (payload.length > MAX_PAYLOAD) {
      throw new ErrorCtor(`callTool("${code}", args): the arguments take ${payload.length} characters; ` +
                          `at most ${MAX_PAYLOAD} can be sent. Send ids, not data.`);
    }
    // The runner ends the program at the call over the budget; calls beyond that one are never
    // sent, so a flood of parallel calls cannot pile up outside the isolate.
    if (++sent > callBudget + 1) return new Promise(() => {});
    const reply = parse(await bridgeCall(payload, takePending()));
    if (reply.ok) return reply.result;
    throw new ErrorCtor(reply.error);
  }
  define('callTool', Object.freeze(callTool));

  // ---- how the run ends: null, or one line describing what the program threw ----
  const describe = (error) => {
    try {
      if (error !== null && (typeof error === 'object' || typeof error === 'function')) {
        const first = S(error.message).split('\n')[0];
        const where = /<anonymous>:(\d+):\d+/.exec(S(error.stack));
        return wellFormed(`${S(error.name)}: ${first}` + (where ? ` (line ${where[1]})` : ''));
      }
      return wellFormed(`the program threw ${S(error)}`);
    } catch (_) {
      return 'the program threw a value that cannot be described';
    }
  };
  define('__codemodeFinish', Object.freeze((promise) => promise.then(() => null, describe)));
  define('__codemodeOutput', Object.freeze(takePending));
}
//# sourceURL=codemode-prelude.js
"""

# Flags for the engine, set once per process: no JIT (and so no WebAssembly), no eval or
# new Function, and one thread.
BASE_FLAGS = ("--single-threaded", "--jitless", "--disallow-code-generation-from-strings")

_write_lock = threading.Lock()


def send(message: dict) -> None:
    line = json.dumps(message, ensure_ascii=True) + "\n"
    with _write_lock:
        sys.stdout.write(line)
        sys.stdout.flush()


def wrap(source: str) -> str:
    """The program inside an async function, on the same lines, so top-level await works and the
    line numbers in errors are the program's own."""
    return f"__codemodeFinish((async () => {{{source}\n}})())"


def end(kind: str | None, message: str | None = None) -> None:
    send({"t": "end", "kind": kind, "message": message})
    sys.stdout.flush()
    os._exit(0)  # whatever the isolate is still doing, this process is done


async def run(settings: dict) -> None:
    from py_mini_racer import (
        JSFunction,
        JSOOMException,
        JSParseException,
        JSPromise,
        JSTimeoutException,
        MiniRacer,
    )

    loop = asyncio.get_running_loop()
    one_call_at_a_time = asyncio.Lock()

    async def bridge_call(payload: object, printed: object = "") -> str:
        if type(printed) is str and printed:
            send({"t": "out", "text": printed})
        if type(payload) is not str:
            return json.dumps({"ok": False, "error": "callTool: arguments must be plain JSON data"})
        async with one_call_at_a_time:
            send({"t": "call", "payload": payload})
            reply = await loop.run_in_executor(None, sys.stdin.readline)
        if not reply:
            end("engine", "the runner stopped answering tool calls")
        return reply

    racer = MiniRacer()
    racer.set_hard_memory_limit(int(settings["memory_limit_mb"]) * 1024 * 1024)
    # Drop the timer class mini-racer declares at top level (a binding of the script scope).
    racer.eval("if (typeof __TimerManager !== 'undefined') __TimerManager = undefined;")
    async with racer.wrap_py_function(bridge_call) as js_call:
        install = cast(JSFunction, racer.eval(PRELUDE))  # PRELUDE is one arrow function
        install(js_call, int(settings["output_cap"]), int(settings["call_budget"]))
        send({"t": "ready"})

        async def program() -> object:
            # wrap() makes the program an async function call, so its value is a promise.
            promise = cast(JSPromise, await racer.eval_cancelable(wrap(settings["source"])))
            return await promise

        kind, message = None, None
        try:
            outcome = await asyncio.wait_for(program(), timeout=float(settings["time_limit_s"]))
            if outcome is not None:
                kind, message = "error", str(outcome)[:500]
        except (asyncio.TimeoutError, JSTimeoutException):
            kind = "time"
        except JSOOMException:
            kind = "memory"
        except JSParseException as error:
            kind, message = "error", _syntax_error(str(error))
        except Exception as error:  # the engine refused or stopped the program some other way
            kind, message = "error", _first_line(str(error))
        if racer.was_hard_memory_limit_reached():
            kind, message = "memory", None
        await drain(racer)
        end(kind, message)


async def drain(racer: MiniRacer) -> None:
    """Send what the program printed since its last tool call. Best effort: an isolate still busy
    (a program spinning in promise callbacks) gets half a second, then its last lines are lost."""
    try:
        text = await asyncio.wait_for(racer.eval_cancelable("__codemodeOutput()"), timeout=0.5)
    except Exception:  # still busy, or out of memory: nothing more to hand over
        return
    if type(text) is str and text:
        send({"t": "out", "text": text})


def _syntax_error(text: str) -> str:
    """V8's "<anonymous>:3: SyntaxError: ..." as "SyntaxError: ... (line 3)"."""
    line = _first_line(text)
    found = re.match(r"<anonymous>:(\d+): (.*)", line)
    return f"{found.group(2)} (line {found.group(1)})" if found else line


def _first_line(text: str) -> str:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[0][:500] if lines else "the engine refused the program"


def os_memory_cap(memory_limit_mb: int) -> int:
    """Bytes of data this process may map: the isolate's limit, V8's ceiling above it, and room for
    Python and the engine itself. A backstop for memory V8 does not count in its heap."""
    return (192 + 3 * int(memory_limit_mb)) * 1024 * 1024


def cap_process_memory(memory_limit_mb: int) -> None:
    """Where the operating system enforces it (Linux), cap this process's data. Elsewhere the
    isolate's hard limit and the missing binary buffers are the guard."""
    try:
        import resource
    except ImportError:  # Windows
        return
    if not sys.platform.startswith("linux") or not hasattr(resource, "RLIMIT_DATA"):
        return
    cap = os_memory_cap(memory_limit_mb)
    _soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
    if hard != resource.RLIM_INFINITY:
        cap = min(cap, hard)
    resource.setrlimit(resource.RLIMIT_DATA, (cap, hard))


def main() -> None:
    settings = json.loads(sys.stdin.readline())
    cap_process_memory(int(settings["memory_limit_mb"]))
    from py_mini_racer import init_mini_racer

    # V8's own heap ceiling sits above the hard limit, so the limit normally stops a program first
    # and the ceiling only catches what slips past it (this process then aborts, and the parent
    # reports the memory limit).
    ceiling = 2 * int(settings["memory_limit_mb"]) + 32
    init_mini_racer(flags=[*BASE_FLAGS, f"--max-old-space-size={ceiling}"])
    asyncio.run(run(settings))


if __name__ == "__main__":
    main()
