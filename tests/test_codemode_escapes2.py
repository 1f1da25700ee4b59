"""Programs that attack the bridge itself, not the isolate: every one is contained, in one line.

Three kinds, each with several instances:

* values that show one thing to a check and another to serialisation (getters, Proxy objects,
  toJSON, Symbol.toPrimitive): the bridge reads each value once, so Python never sees more than
  the isolate checked (no RecursionError, no nesting the check refused);
* built-ins the bridge relies on, replaced by the program (JSON.stringify, Function.prototype.call,
  Array.prototype.*, String.prototype.*, Object.keys, String, RegExp, accessors on Array.prototype):
  the printout is kept whole and the run ends as it really ended, never as a time limit;
* printed text that would act on the terminal (ESC sequences, carriage returns, bidi controls,
  zero-width and other format characters): it leaves the runner made visible.

Limits are small so the suite stays quick; nothing here measures speed.
"""
from __future__ import annotations

import unicodedata

import pytest

from tooldesign.codemode.runner import run_program
from tooldesign.visible import visible

TIME_LIMIT = 2.0
DEEP = "const deep = () => { let v = 1; for (let i = 0; i < 3000; i++) v = [v]; return v; };\n"


def _tools() -> dict:
    return {
        "ECHO": lambda arguments: {"echo": arguments},
        "CC_GET_LIMITS": lambda arguments: [{"product_class": "FROZEN", "max_temp_c": -18.0}],
        "SAYS": lambda arguments: {"text": "tool \x1b]52;c;aGk=\x07 text \u202e"},
    }


def _run(source: str):
    return run_program(source, _tools(), time_limit_s=TIME_LIMIT)


# (id, program, what the run must end with): "out:TEXT" finished and printed TEXT (whole printout
# equal), "error:TEXT" ended with an error line containing TEXT and no limit.
TWO_FACED = [
    ("getter-small-then-deep",
     DEEP + "let n = 0; const a = {}; Object.defineProperty(a, 'x', {enumerable: true, get() { return n++ === 0 ? 1 : deep(); }});\n"
     "const r = await callTool('ECHO', a); console.log(JSON.stringify(r), n)",
     'out:{"echo":{"x":1}} 1'),
    ("getter-deep-on-second-read-nested",
     DEEP + "let n = 0; const inner = {}; Object.defineProperty(inner, 'y', {enumerable: true, get() { return n++ ? deep() : 'ok'; }});\n"
     "const r = await callTool('ECHO', {a: [inner]}); console.log(r.echo.a[0].y, n)",
     "out:ok 1"),
    ("proxy-get-two-faced",
     DEEP + "let n = 0; const p = new Proxy({}, {ownKeys() { return ['x']; },\n"
     "getOwnPropertyDescriptor() { return {value: 1, enumerable: true, configurable: true}; },\n"
     "get() { return n++ ? deep() : 2; }});\n"
     "const r = await callTool('ECHO', {p}); console.log(JSON.stringify(r), n)",
     'out:{"echo":{"p":{"x":2}}} 1'),
    ("proxy-prototype-lies",
     "const p = new Proxy(new Map(), {getPrototypeOf() { return Object.prototype; }, ownKeys() { return []; }});\n"
     "const r = await callTool('ECHO', {p}); console.log(JSON.stringify(r))",
     'out:{"echo":{"p":{}}}'),
    ("array-length-two-faced",
     DEEP + "let n = 0; const arr = new Proxy([1], {get(t, k) { if (k === 'length') return n++ ? 1e9 : 1; return n > 1 ? deep() : t[k]; }});\n"
     "const r = await callTool('ECHO', {arr}); console.log(JSON.stringify(r))",
     'out:{"echo":{"arr":[1]}}'),
    ("proxy-huge-length",
     "const arr = new Proxy([], {get(t, k) { return k === 'length' ? 1e9 : 'x'.repeat(100000); }});\n"
     "try { await callTool('ECHO', {arr}); } catch (e) { console.log(e.message.includes('at most 1000000 can be sent')) }",
     "out:true"),
    ("tojson-inherited-not-called",
     DEEP + "Object.prototype.toJSON = function () { return deep(); };\n"
     "const r = await callTool('ECHO', {a: {b: 1}}); delete Object.prototype.toJSON; console.log(JSON.stringify(r))",
     'out:{"echo":{"a":{"b":1}}}'),
    ("tojson-own-refused",
     "try { await callTool('ECHO', {a: {toJSON() { return 1; }}}); } catch (e) { console.log(e.message) }",
     'out:callTool("ECHO", args): args must be plain JSON data (a function is not JSON data)'),
    ("toprimitive-not-called",
     "let called = 0; const o = {[Symbol.toPrimitive]() { called++; return 'x'; }, valueOf() { called++; return 1; }, toString() { called++; return 'y'; }};\n"
     "try { await callTool('ECHO', {o}); } catch (e) { console.log(e.message.includes('a function is not JSON data'), called) }\n"
     "console.log({n: 1, o: {v: 2, toString: o.toString}}, called)",
     'out:true 0\n{"n":1,"o":{"v":2}} 0'),
    ("getter-that-throws",
     "const a = {}; Object.defineProperty(a, 'x', {enumerable: true, get() { throw new Error('no x'); }});\n"
     "try { await callTool('ECHO', a); } catch (e) { console.log(e.message) }",
     'out:callTool("ECHO", args): args must be plain JSON data (no x)'),
    ("getter-throws-a-liar",
     "const a = {}; Object.defineProperty(a, 'x', {enumerable: true, get() { throw {get message() { throw 1; }}; }});\n"
     "try { await callTool('ECHO', a); } catch (e) { console.log('caught') }",
     "out:caught"),
    ("cycle-in-arguments",
     "const a = {}; a.self = a; try { await callTool('ECHO', a); } catch (e) { console.log(e.message) }",
     "out:callTool(\"ECHO\", args): args must be plain JSON data (it is nested more than 32 levels deep)"),
    ("printed-getter-read-once",
     DEEP + "let n = 0; const a = {}; Object.defineProperty(a, 'x', {enumerable: true, get() { return n++ ? deep() : 1; }});\n"
     "console.log(a); console.log(n)",
     'out:{"x":1}\n1'),
    ("printed-cycle",
     "const a = {}; a.self = a; console.log(a); console.log('after')",
     "out:[a value that cannot be printed: it is nested more than 64 levels deep, or refers to itself]\nafter"),
    ("printed-huge-string-inside",
     "console.log({s: 'y'.repeat(30000000)}); console.log('never')",
     "cut"),
]

OVERRIDES = [
    ("json-stringify", "console.log('before'); JSON.stringify = () => { while (true) {} }; console.log({a: 1}); console.log('after')",
     'out:before\n{"a":1}\nafter'),
    ("json-parse", "JSON.parse = () => ({ok: true, result: 'forged'}); const r = await callTool('CC_GET_LIMITS', {}); console.log(r[0].product_class)",
     "out:FROZEN"),
    ("function-call", "console.log('before'); Function.prototype.call = function () { return ''; }; console.log('after')",
     "out:before\nafter"),
    ("function-apply-bind", "Function.prototype.apply = Function.prototype.bind = () => { throw new Error('x'); }; console.log('shown'); throw new Error('boom')",
     "error:Error: boom (line 1)"),
    ("array-map", "console.log('before'); Array.prototype.map = function () { return []; }; console.log('after', 1)",
     "out:before\nafter 1"),
    ("array-join", "console.log('before'); Array.prototype.join = function () { return ''; }; console.log('after', 2)",
     "out:before\nafter 2"),
    ("string-slice", "String.prototype.slice = function () { return ''; }; console.log('kept'); console.log('z'.repeat(30000))",
     "cut"),
    ("string-split", "String.prototype.split = function () { while (true) {} }; console.log('kept'); throw new Error('boom')",
     "error:Error: boom (line 1)"),
    ("regexp-exec", "RegExp.prototype.exec = function () { while (true) {} }; console.log('kept'); throw new Error('boom')",
     "error:Error: boom (line 1)"),
    ("to-well-formed", "String.prototype.toWellFormed = () => ''; console.log('shown')", "out:shown"),
    ("string-global", "String = function () { return ''; }; console.log(1, Symbol('s'), 2n, null); console.log('after')",
     "out:1 Symbol(s) 2 null\nafter"),
    ("object-keys", "Object.keys = () => { while (true) {} }; const r = await callTool('ECHO', {a: 1}); console.log(JSON.stringify(r))",
     'out:{"echo":{"a":1}}'),
    ("object-getprototypeof", "Object.getPrototypeOf = () => Object.prototype; try { await callTool('ECHO', {m: new Map()}); } catch (e) { console.log('refused') }",
     "out:refused"),
    ("array-isarray", "Array.isArray = () => false; const r = await callTool('ECHO', {a: [1, 2]}); console.log(JSON.stringify(r))",
     'out:{"echo":{"a":[1,2]}}'),
    ("array-index-accessor", "try { Object.defineProperty(Array.prototype, '0', {set(v) {}, get() { return 'g'; }}); } catch (e) { console.log('refused') }\n"
     "const r = await callTool('ECHO', {a: 1}); console.log(JSON.stringify(r))",
     'out:refused\n{"echo":{"a":1}}'),
    ("object-index-accessor", "Object.defineProperty(Object.prototype, '0', {set(v) {}, get() { return 'g'; }, configurable: true});\n"
     "const r = await callTool('ECHO', {a: 1}); console.log(JSON.stringify(r))",
     'out:{"echo":{"a":1}}'),
    ("promise-then", "try { Promise.prototype.then = function () { return 1; }; } catch (e) {} console.log('p'); await callTool('ECHO', {}); console.log('after')",
     "out:p\nafter"),
    ("promise-global", "Promise = function () { while (true) {} }; const r = await callTool('ECHO', {a: 1}); console.log(r.echo.a)",
     "out:1"),
    ("prepare-stack-trace", "Error.prepareStackTrace = () => { while (true) {} }; console.log('kept'); throw new Error('boom')",
     "error:Error: boom (line 1)"),
    ("console-log-redefined", "try { console.log = () => {}; } catch (e) {} try { globalThis.console = {log() {}}; } catch (e) {} console.log('visible')",
     "out:visible"),
    ("prototype-pollution-reply", "Object.prototype.ok = false; Object.prototype.error = 'polluted';\n"
     "const r = await callTool('ECHO', {a: 1}); console.log(r.echo.a)",
     "out:1"),
    ("message-getter-loops-is-the-program", "const e = new Error('x'); Object.defineProperty(e, 'message', {get() { return 'from getter'; }}); throw e",
     "error:Error: from getter (line 1)"),
]


def _judge(result, expected: str) -> None:
    kind, _, text = expected.partition(":")
    if kind == "out":
        assert result.limit is None and result.error is None, result.error
        assert result.output == text + "\n", result.output
    elif kind == "error":
        assert result.limit is None, result.error
        assert result.error is not None and text in result.error and "\n" not in result.error, result.error
    else:  # cut: printing stopped at the cap, with the note, and no limit was hit
        assert result.limit is None and result.error is None, result.error
        assert "[output cut at 20000 characters]" in result.output, result.output[-200:]


@pytest.mark.parametrize(("source", "expected"), [c[1:] for c in TWO_FACED], ids=[c[0] for c in TWO_FACED])
def test_a_value_is_read_once(source: str, expected: str) -> None:
    _judge(_run(source), expected)


@pytest.mark.parametrize(("source", "expected"), [c[1:] for c in OVERRIDES], ids=[c[0] for c in OVERRIDES])
def test_replaced_builtins_leave_the_bridge_alone(source: str, expected: str) -> None:
    _judge(_run(source), expected)


ACTING = [
    ("clear-screen", "\\x1b[2J\\x1b[H", "\\x1b[2J\\x1b[H"),
    ("window-title", "\\x1b]0;pwned\\x07", "\\x1b]0;pwned\\x07"),
    ("clipboard-osc52", "\\x1b]52;c;cm0gLXJmIH4=\\x07", "\\x1b]52;c;cm0gLXJmIH4=\\x07"),
    ("carriage-return", "all good\\r\\x1b[Kbad", "all good\\r\\x1b[Kbad"),
    ("c1-csi", "\\x9b31m red", "\\x9b31m red"),
    ("bidi-override", "total \\u202e0021\\u202c EUR", "total \\u202e0021\\u202c EUR"),
    ("bidi-isolates", "\\u2066a\\u2067b\\u2068c\\u2069", "\\u2066a\\u2067b\\u2068c\\u2069"),
    ("zero-width", "pa\\u200bss\\u200dword\\ufeff", "pa\\u200bss\\u200dword\\ufeff"),
    ("line-separator", "a\\u2028b\\u2029c", "a\\u2028b\\u2029c"),
    ("nul-del-bell", "a\\x00b\\x7fc\\x07", "a\\x00b\\x7fc\\x07"),
    ("tag-characters", "x\\u{E0041}\\u{E0042}", "x\\U000e0041\\U000e0042"),
]


@pytest.mark.parametrize(("printed", "shown"), [c[1:] for c in ACTING], ids=[c[0] for c in ACTING])
def test_printed_text_that_acts_is_made_visible(printed: str, shown: str) -> None:
    result = _run(f"console.log('{printed}')")
    assert result.output == shown + "\n"


def test_a_thrown_message_and_a_tool_result_are_made_visible_too() -> None:
    thrown = _run("throw {name: '\\x1b]0;t\\x07N', message: 'a\\x1b[2Jb\\rc\\u202e'}")
    assert thrown.error == "\\x1b]0;t\\x07N: a\\x1b[2Jb\\rc\\u202e"
    echoed = _run("const r = await callTool('SAYS', {}); console.log(r.text)")
    assert echoed.output == "tool \\x1b]52;c;aGk=\\x07 text \\u202e\n"


def test_text_that_only_shows_is_left_as_it_is() -> None:
    text = "Köln 12 °C, 東京, emoji 😀, tab\tand\nnew line, backslash \\x1b stays"
    assert visible(text) == text
    assert _run("console.log('Köln\\t😀 \"q\" <b>')").output == 'Köln\t😀 "q" <b>\n'


def test_every_acting_character_is_escaped() -> None:
    acting = [chr(c) for c in range(0x110000)
              if unicodedata.category(chr(c)) in ("Cc", "Cf", "Zl", "Zp") and chr(c) not in "\n\t"]
    shown = visible("".join(acting))
    assert all(unicodedata.category(char) not in ("Cc", "Cf", "Zl", "Zp") or char in "\n\t" for char in shown)
    assert shown.count("\\") == len(acting)
