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
  // Every built-in the bridge uses is taken here, before the program's first line, and called
  // through Reflect.apply, so a program that replaces JSON.stringify, Function.prototype.call,
  // Array.prototype.map, String or Object.keys changes what it sees itself, never what the bridge
  // does. The bridge reads each value of the program's once: a getter or a Proxy cannot show one
  // thing to a check and another to the serialisation, because the check is the serialisation.
  const apply = Reflect.apply, defineOwn = Reflect.defineProperty;
  const stringify = JSON.stringify, parse = JSON.parse, S = String, ErrorCtor = Error;
  const isArray = Array.isArray, keys = Object.keys, getProto = Object.getPrototypeOf;
  const freeze = Object.freeze, ObjectProto = Object.prototype, isFinite_ = Number.isFinite;
  const StringProto = String.prototype;
  const slice = StringProto.slice, indexOf = StringProto.indexOf, toWellFormed = StringProto.toWellFormed;
  const exec = RegExp.prototype.exec, fnToString = Function.prototype.toString;
  const cut = (text, end) => apply(slice, text, [0, end]);
  // Lone surrogates cannot cross as UTF-8; they become U+FFFD, as a browser would show them.
  const wellFormed = (text) => apply(toWellFormed, text, []);
  const MAX_PAYLOAD = 1000000;
  const define = (name, value) => defineOwn(G, name, {value, writable: false, enumerable: false,
                                                       configurable: false});

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
  // It finds Promise by its global name, so the name stays bound to the real one as well.
  freeze(Promise);
  freeze(Promise.prototype);
  defineOwn(G, 'Promise', {value: Promise, writable: false, enumerable: false, configurable: false});
  // mini-racer hands a resolved value over by writing it to index 0 of a new array. An accessor a
  // program put on Array.prototype[0] (or on Object.prototype[0]) would swallow it and leave the
  // call unanswered; plain data properties here, fixed for the run, keep those writes the array's
  // own. A program can still write arr[0] and read holes as undefined.
  for (let i = 0; i < 8; i++) defineOwn(Array.prototype, i, {value: undefined, writable: true,
                                                            enumerable: false, configurable: false});
  // V8 calls Error.prepareStackTrace when a stack is read; the bridge reads the stack of what the
  // program threw, so no program code may run there.
  defineOwn(ErrorCtor, 'prepareStackTrace', {value: undefined, writable: false, configurable: false});

  // ---- one serialiser, for callTool's arguments and for printing ----
  // strict (callTool): only JSON data goes (plain objects, arrays, strings, finite numbers,
  // booleans, null), nested at most 32 levels, at most `room` characters; anything else throws
  // one sentence. lenient (console.log): what JSON.stringify would show, toJSON included, cut at
  // `room` characters instead of failing.
  const TOO_BIG = freeze({});
  const encode = (value, strict, depth, room) => {
    let out = '';
    const add = (text) => {
      out += text;
      if (out.length > room) throw TOO_BIG;
    };
    const walk = (value, depth) => {
      if (depth > (strict ? 32 : 64)) {
        throw new ErrorCtor(strict ? 'it is nested more than 32 levels deep'
                                   : 'it is nested more than 64 levels deep, or refers to itself');
      }
      const kind = typeof value;
      if (!strict && value !== null && (kind === 'object' || kind === 'bigint')) {
        const toJSON = value.toJSON;  // read once, called once, as JSON.stringify would
        if (typeof toJSON === 'function') return walk(apply(toJSON, value, ['']), depth + 1);
      }
      if (value === null) return add('null'), true;
      if (kind === 'boolean') return add(value ? 'true' : 'false'), true;
      if (kind === 'number') {
        if (isFinite_(value)) return add('' + value), true;
        if (strict) throw new ErrorCtor(`${'' + value} is not a JSON number`);
        return add('null'), true;
      }
      if (kind === 'string') {
        // a string longer than the room left is cut before it is quoted: no huge copy is made
        return add(stringify(value.length > room ? cut(value, room + 1) : value)), true;
      }
      if (kind === 'bigint' && !strict) return add('' + value), true;
      if (kind !== 'object') {
        if (strict) throw new ErrorCtor(`a ${kind} is not JSON data`);
        return false;  // left out of an object, null in an array, as JSON.stringify does
      }
      if (isArray(value)) {
        const length = value.length;  // read once
        const count = typeof length === 'number' && length > 0 ? length : 0;
        add('[');
        for (let i = 0; i < count; i++) {
          if (i) add(',');
          if (!walk(value[i], depth + 1)) add('null');  // each element read once
        }
        return add(']'), true;
      }
      if (strict) {
        const proto = getProto(value);
        if (proto !== ObjectProto && proto !== null) {
          throw new ErrorCtor('only plain objects ({ ... }) and arrays can be sent');
        }
      }
      const names = keys(value);  // read once
      add('{');
      let first = true;
      for (let i = 0; i < names.length; i++) {
        const name = names[i];
        const before = out;
        add((first ? '' : ',') + stringify(name) + ':');
        if (walk(value[name], depth + 1)) first = false;  // each property read once
        else out = before;
      }
      return add('}'), true;
    };
    try {
      return walk(value, depth) ? out : undefined;
    } catch (error) {
      if (error === TOO_BIG && !strict) return cut(out, room + 1);
      throw error;
    }
  };

  // What a thrown value says, as one string, without running program code twice.
  const said = (value) => {
    if (typeof value === 'string') return value;
    try { return S(value); } catch (_) { return '[a value that cannot be shown]'; }
  };

  // ---- printing: console.log, captured and capped ----
  // Printed text waits here and crosses with the next tool call or when the run ends, so callTool
  // stays the one bridge out of the isolate.
  let printed = 0, stopped = false, pending = '';
  const show = (value, room) => {
    const kind = typeof value;
    if (kind === 'string') return value.length > room ? cut(value, room + 1) : value;
    if (kind === 'function') {
      try { return apply(fnToString, value, []); } catch (_) { return '[a function]'; }
    }
    if (value === null || (kind !== 'object' && kind !== 'bigint')) return S(value);  // primitives only
    try {
      const text = encode(value, false, 0, room);
      return text === undefined ? 'undefined' : text;
    } catch (error) {
      const why = error !== null && typeof error === 'object' ? said(error.message) : said(error);
      return `[a value that cannot be printed: ${cut(why, 200)}]`;
    }
  };
  const log = (...values) => {
    if (stopped) return;
    const room = outputCap - printed;
    let text = '';
    for (let i = 0; i < values.length && text.length <= room; i++) {
      text += (i ? ' ' : '') + show(values[i], room - text.length);
    }
    text += '\n';
    if (text.length > room) {
      text = cut(text, room) + `\n[output cut at ${outputCap} characters]\n`;
      stopped = true;
    }
    printed += text.length;
    pending += wellFormed(text);
  };
  const takePending = () => { const text = pending; pending = ''; return text; };
  define('console', freeze({log, info: log, warn: log, error: log, debug: log, table: log, dir: log}));

  // ---- callTool: plain data out, plain data back ----
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
      payload = '[' + stringify(code) + ',' + encode(args, true, 0, MAX_PAYLOAD) + ']';
    } catch (error) {
      if (error === TOO_BIG) {
        throw new ErrorCtor(`callTool("${code}", args): the arguments take more than ${MAX_PAYLOAD} ` +
                            `characters; at most ${MAX_PAYLOAD} can be sent. Send ids, not data.`);
      }
      const why = error !== null && typeof error === 'object' ? said(error.message) : said(error);
      throw new ErrorCtor(`callTool("${code}", args): args must be plain JSON data (${cut(why, 200)})`);
    }
    // The runner ends the program at the call over the budget; calls beyond that one are never
    // sent, so a flood of parallel calls cannot pile up outside the isolate.
    if (++sent > callBudget + 1) return new Promise(() => {});
    const reply = parse(await bridgeCall(wellFormed(payload), takePending()));
    if (reply.ok) return reply.result;
    throw new ErrorCtor(reply.error);
  }
  define('callTool', freeze(callTool));

  // ---- how the run ends: null, or one line describing what the program threw ----
  const WHERE = /<anonymous>:(\d+):\d+/;
  const describe = (error) => {
    try {
      if (error !== null && (typeof error === 'object' || typeof error === 'function')) {
        const message = said(error.message), name = said(error.name);  // each read once
        let stack = '';
        try { stack = said(error.stack); } catch (_) {}
        const end = apply(indexOf, message, ['\n']);
        const where = apply(exec, WHERE, [stack]);
        return wellFormed(`${name}: ${end < 0 ? message : cut(message, end)}` +
                          (where ? ` (line ${where[1]})` : ''));
      }
      return wellFormed(`the program threw ${said(error)}`);
    } catch (_) {
      return 'the program threw a value that cannot be described';
    }
  };
  const then = Promise.prototype.then;
  define('__codemodeFinish', freeze((promise) => apply(then, promise, [() => null, describe])));
  define('__codemodeOutput', freeze(takePending));
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
