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
    from py_mini_racer import JSFunction

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
  const EvalErrorCtor = EvalError, FunctionProto = Function.prototype;
  // The one way to turn the program's text into code, taken before anything else can: the
  // program becomes the body of an async function of its own, parsed alone, so no text in it can
  // close the function and run outside (V8 refuses a body that is not one whole function body).
  const AsyncFunction = getProto(async function () {}).constructor;
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
  // mini-racer passes every argument of a call from Python into the isolate with the array's push
  // (a tool's reply, the callbacks that learn how the run ended). A push the program replaced would
  // see those values, could swap them, or never return; fixed for the run, the real one runs.
  defineOwn(Array.prototype, 'push', {value: Array.prototype.push, writable: false, enumerable: false,
                                      configurable: false});
  // A reply is a plain object or array; callTool's promise resolves with it, and a promise
  // resolving with an object asks it for `then`. A `then` the program put on Object.prototype or
  // Array.prototype would be called with the reply and could hand the program anything instead.
  // Here `then` reads as undefined on both; assigning one to an object still makes it its own.
  for (const proto of [ObjectProto, Array.prototype]) {
    defineOwn(proto, 'then', {enumerable: false, configurable: false, get: freeze(() => undefined),
      set: freeze(function (value) {
        const kind = typeof this;  // a primitive keeps nothing, as in sloppy code without this lock
        if (this !== null && (kind === 'object' || kind === 'function')) {
          defineOwn(this, 'then', {value, writable: true, enumerable: true, configurable: true});
        }
      })});
  }
  // V8 calls Error.prepareStackTrace when a stack is read; the bridge reads the stack of what the
  // program threw, so no program code may run there.
  defineOwn(ErrorCtor, 'prepareStackTrace', {value: undefined, writable: false, configurable: false});

  // After that, no code is built from strings: eval and every function constructor (reachable
  // as Function, or as .constructor of any function, async function or generator) only refuse.
  const refuse = () => { throw new EvalErrorCtor('Code generation from strings disallowed for this context'); };
  const refuser = (proto) => {
    const stub = function () { return refuse(); };
    defineOwn(stub, 'prototype', {value: proto, writable: false});  // so instanceof still works
    return freeze(stub);
  };
  for (const fn of [function () {}, async function () {}, function* () {}, async function* () {}]) {
    const proto = getProto(fn);
    defineOwn(proto, 'constructor', {value: refuser(proto), writable: false, enumerable: false,
                                     configurable: false});
  }
  define('Function', FunctionProto.constructor);
  define('eval', freeze({eval() { return refuse(); }}.eval));  // a function named eval, as before

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
  // The program's frames carry codemode-program.js (see compile); its line N is line N + 2 of the
  // function V8 builds ("(async function anonymous(" and ") {" come first).
  const WHERE = /codemode-program\.js:(\d+):\d+/;
  const describe = (error) => {
    try {
      if (error !== null && (typeof error === 'object' || typeof error === 'function')) {
        const message = said(error.message), name = said(error.name);  // each read once
        let stack = '';
        try { stack = said(error.stack); } catch (_) {}
        const end = apply(indexOf, message, ['\n']);
        const where = apply(exec, WHERE, [stack]);
        return wellFormed(`${name}: ${end < 0 ? message : cut(message, end)}` +
                          (where ? ` (line ${where[1] - 2})` : ''));
      }
      return wellFormed(`the program threw ${said(error)}`);
    } catch (_) {
      return 'the program threw a value that cannot be described';
    }
  };
  const then = Promise.prototype.then;

  // ---- what the host holds: compile, start, take the printout; none of it is on globalThis ----
  let program = null;
  const compile = (source) => {
    // A SyntaxError here is the program's own; it reaches the host uncaught, with its line.
    program = new AsyncFunction(source + '\n//# sourceURL=codemode-program.js');
    return true;
  };
  const start = () => {
    const body = program;
    program = null;
    if (typeof body !== 'function') return null;
    // An async function never throws where it is called; what it throws rejects its promise.
    return apply(then, apply(body, undefined, []), [() => null, describe]);
  };
  return freeze([compile, start, takePending]);
}
//# sourceURL=codemode-prelude.js
"""

# Flags for the engine, set once per process: no JIT (and so no WebAssembly), and one thread.
# Code from strings stays possible in the engine because the prelude needs it once, to compile the
# program as a function body of its own; the prelude then takes eval and Function away.
BASE_FLAGS = ("--single-threaded", "--jitless")

_write_lock = threading.Lock()


def send(message: dict) -> None:
    line = json.dumps(message, ensure_ascii=True) + "\n"
    with _write_lock:
        sys.stdout.write(line)
        sys.stdout.flush()


def end(kind: str | None, message: str | None = None) -> None:
    send({"t": "end", "kind": kind, "message": message})
    sys.stdout.flush()
    os._exit(0)  # whatever the isolate is still doing, this process is done


async def run(settings: dict) -> None:
    from py_mini_racer import (
        JSArray,
        JSEvalException,
        JSFunction,
        JSOOMException,
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
        # The prelude hands back its three functions to this process alone: nothing the program
        # can reach by name starts it, ends it or takes its printout.
        held = cast(JSArray, install(js_call, int(settings["output_cap"]), int(settings["call_budget"])))
        compile_program, start_program, take_output = (cast(JSFunction, held[i]) for i in range(3))
        send({"t": "ready"})

        async def program() -> object:
            try:
                await compile_program.cancelable()(settings["source"])
            except (JSTimeoutException, JSOOMException):
                raise
            except JSEvalException as error:  # the program's own SyntaxError, as V8 reports it
                return _syntax_error(str(error), settings["source"])
            return await cast(JSPromise, await start_program.cancelable()())

        kind, message = None, None
        try:
            outcome = await asyncio.wait_for(program(), timeout=float(settings["time_limit_s"]))
            # The prelude ends a run with null or one string; anything else is not the program's
            # to say, and no host object's representation is ever shown for it.
            if type(outcome) is str:
                kind, message = "error", outcome[:500]
            elif outcome is not None:
                kind, message = "error", "the program ended in a way the runner cannot describe"
        except (asyncio.TimeoutError, JSTimeoutException):
            kind = "time"
        except JSOOMException:
            kind = "memory"
        except Exception as error:  # the engine refused or stopped the program some other way
            kind, message = "error", _first_line(str(error))
        if racer.was_hard_memory_limit_reached():
            kind, message = "memory", None
        await drain(take_output)
        end(kind, message)


async def drain(take_output: JSFunction) -> None:
    """Send what the program printed since its last tool call. Best effort: an isolate still busy
    (a program spinning in promise callbacks) gets half a second, then its last lines are lost."""
    try:
        text = await asyncio.wait_for(take_output.cancelable()(), timeout=0.5)
    except Exception:  # still busy, or out of memory: nothing more to hand over
        return
    if type(text) is str and text:
        send({"t": "out", "text": text})


def _syntax_error(text: str, source: str) -> str:
    """V8's "codemode-program.js:5: SyntaxError: ..." as "SyntaxError: ... (line 3)".

    V8 numbers the lines of the function it builds around the program, two more than the
    program's own; an error found at the function's end (an unclosed brace) is put on the
    program's last line."""
    line = _first_line(text)
    found = re.match(r"[^\s:]*:(\d+): ((?:SyntaxError|RangeError): .*)", line)
    if not found:
        return line
    last = source.count("\n") + 1
    where = min(max(int(found.group(1)) - 2, 1), last)
    return f"{found.group(2)} (line {where})"


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
