"""The program runner: the recorded programs, its refusals, the call budget, the time limit, the counts."""
from __future__ import annotations

import sys
import time

import pytest

from tooldesign.codemode import coldchain_tools as cc
from tooldesign.codemode import runs
from tooldesign.codemode.runner import (MAX_OUTPUT_CHARS, MAX_RANGE, ProgramRejected, check_program,
                                        handlers_for, run_program)


def run(program: str, **kwargs):
    return run_program(program, cc.HANDLERS, **kwargs)


# ---------- the recorded programs ----------

def test_corrected_program_finds_the_three_claims():
    result = run(runs.recorded_program(runs.CORRECTED_PROGRAM))
    assert result.ok, result.error
    assert result.output.splitlines()[-1] == "RESULT: SHP-2047, SHP-2052, SHP-2061 | 1920"
    assert result.tool_calls == 26
    assert result.chars_returned > 48_000  # every reading reached the program...
    assert result.chars_to_context == len(result.output) < 300  # ...and only the printout the model


def test_draft_program_reports_a_confident_zero():
    text = runs.recorded_program(runs.DRAFT_PROGRAM)
    assert "temperature_celsius" in text and "temp_limit_c" in text
    assert text.startswith("# A program a model might write")
    result = run(text)
    assert result.ok and result.tool_calls == 26
    assert result.output.splitlines()[-1] == "RESULT: none | 0"


def test_recorded_programs_without_their_label_still_run():
    program = runs.recorded_program(with_label=False)
    assert not program.startswith("#")
    assert run(program).output.endswith("| 1920\n")


# ---------- refusals before running ----------

@pytest.mark.parametrize("program, reason", [
    ("import os", "import is not available"),
    ("from pathlib import Path", "import is not available"),
    ("open('data/coldchain/limits.csv').read()", "open is not available: a program has no files"),
    ("__import__('os')", "__import__ is not available"),
    ("x = (1).__class__", "attribute .__class__"),
    ("x = ().__class__.__mro__", "attribute .__"),
    ("getattr(callTool, 'x')", "getattr is not available"),
    ("eval('1 + 1')", "eval is not available"),
    ("exec('x = 1')", "exec is not available"),
    ("print(__builtins__)", "__builtins__ is not available"),
    ("class A:\n    pass", "class definitions"),
    ("async def f():\n    await callTool('CC_GET_LIMITS')", "without async and await"),
    ("try:\n    pass\nexcept:\n    pass", "bare except"),
    ("try:\n    pass\nfinally:\n    pass", "finally is not available"),
    ("def g():\n    yield 1\nf = g().gi_frame", "attribute .gi_frame"),
    ("x = = 1", "SyntaxError"),
])
def test_refused_before_anything_runs(program, reason):
    with pytest.raises(ProgramRejected, match=reason):
        check_program(program)
    result = run("callTool('CC_GET_LIMITS', {})\n" + program)
    assert result.tool_calls == 0 and not result.ok
    assert result.error.startswith("ProgramRejected: line ") and reason in result.error


def test_missing_builtins_are_simply_not_there():
    result = run("x = memoryview(b'')")
    assert result.error == "line 1: NameError: name 'memoryview' is not defined"


def test_ordinary_python_is_allowed():
    program = ("rows = sorted({'a': 2, 'b': 1}.items(), key=lambda kv: kv[1])\n"
               "squares = [n * n for n in range(4)]\n"
               "try:\n    {}['missing']\nexcept KeyError as error:\n    caught = str(error)\n"
               "print(rows, squares, caught, f'{3.14159:.2f}', '{:,}'.format(1920))")
    result = run(program)
    assert result.ok and result.output == "[('b', 1), ('a', 2)] [0, 1, 4, 9] 'missing' 3.14 1,920\n"


# ---------- the call budget and the time limit ----------

def test_call_budget_stops_a_runaway_loop():
    result = run("while True:\n    callTool('CC_GET_LIMITS', {})", max_calls=5)
    assert result.tool_calls == 5
    assert result.error.startswith("CallBudgetExceeded: call budget of 5 tool calls used up")


def test_the_budget_stop_cannot_be_swallowed():
    program = ("n = 0\nwhile True:\n    try:\n        callTool('CC_GET_LIMITS', {})\n"
               "    except Exception:\n        n += 1\nprint('escaped')")
    result = run(program, max_calls=3)
    assert result.error.startswith("CallBudgetExceeded") and "escaped" not in result.output


def test_time_limit_stops_an_endless_loop_quickly():
    started = time.monotonic()
    result = run("n = 0\nwhile True:\n    n += 1", time_limit=0.2)
    assert time.monotonic() - started < 2
    assert result.error == ("TimeLimitExceeded: time limit of 0.2 s reached; "
                            "the program was stopped (a loop that never ends?)")


def test_time_limit_cannot_be_swallowed_by_except_exception():
    program = "while True:\n    try:\n        pass\n    except Exception:\n        pass"
    result = run(program, time_limit=0.2)
    assert result.error.startswith("TimeLimitExceeded")


def test_time_limit_reaches_into_functions_and_comprehensions():
    result = run("def spin():\n    while True:\n        pass\nspin()", time_limit=0.2)
    assert result.error.startswith("TimeLimitExceeded")


def test_line_limit_is_a_deterministic_stop():
    result = run("while True:\n    pass", max_lines=1000)
    assert result.error.startswith("TimeLimitExceeded: line limit of 1,000 lines")
    assert result.lines_run == 1001


def test_tracing_is_handed_back():
    before = sys.gettrace()
    run("while True:\n    pass", max_lines=10)
    run("print(1)")
    assert sys.gettrace() is before


def test_range_is_capped():
    result = run(f"for i in range({MAX_RANGE + 1}):\n    pass")
    assert "longer than a program may loop" in result.error


# ---------- callTool and the counts ----------

def test_tool_outside_the_catalog_is_a_catchable_error():
    program = ("try:\n    callTool('CC_FILLER_8', {})\nexcept ToolError as error:\n    print(error)\n"
               "print(len(callTool('CC_GET_LIMITS', {})))")
    result = run_program(program, {cc.LIMITS: cc.get_limits})
    assert result.ok and result.tool_calls == 2
    assert result.output.startswith("CC_FILLER_8 is not in the catalog, so a program cannot call it.")
    assert result.output.endswith("2\n")


def test_tool_errors_reach_the_program_with_the_line():
    result = run("callTool('CC_GET_READINGS', {'shipment_id': 'SHP-2047'})")
    assert result.error.startswith("line 1: ToolError: CC_GET_READINGS: shipment_id must be the numeric id")


def test_counts_characters_returned_and_to_context():
    result = run("limits = callTool('CC_GET_LIMITS', {})\nprint(len(limits))")
    from tooldesign.tools.base import result_size
    assert result.chars_returned == result_size(cc.get_limits({}))
    assert result.chars_to_context == len("2\n")
    failed = run("print('half')\nx = 1 / 0")
    assert failed.context_text == "half\nERROR: line 2: ZeroDivisionError: division by zero"
    assert failed.chars_to_context == len(failed.context_text)


def test_output_is_cut_at_the_limit():
    result = run(f"print('x' * {MAX_OUTPUT_CHARS * 2})\nprint('more')")
    assert result.output.startswith("x" * 100) and "[output cut at" in result.output
    assert "more" not in result.output


def test_the_program_gets_a_copy_of_each_result():
    run("log = callTool('CC_GET_READINGS', {'shipment_id': 101})\nlog['readings'].clear()")
    assert len(cc.get_readings({"shipment_id": 101})["readings"]) == 49


def test_arguments_must_be_plain_data():
    result = run("callTool('CC_GET_LIMITS', {'x': print})")
    assert "arguments must be a dict of plain data" in result.error


def test_handlers_for_resolves_function_calls():
    handlers = handlers_for({**cc.FUNCTION_CALLS, "CC_FILLER_1": None})
    assert handlers[cc.LIMITS] is cc.get_limits
    result = run_program("callTool('CC_FILLER_1', {})", handlers)
    assert "registered without a function to call" in result.error


def test_runaway_recursion_is_stopped_before_python_would_raise_a_catchable_error():
    program = ("def f(n):\n    return f(n + 1)\ntry:\n    f(0)\nexcept Exception as error:\n    print('caught')\n"
               "while True:\n    pass")
    result = run(program, time_limit=0.3)
    assert result.error.startswith("DepthLimitExceeded: 200 nested calls reached")
    assert "caught" not in result.output


def test_modest_recursion_is_fine():
    result = run("def fact(n):\n    return 1 if n < 2 else n * fact(n - 1)\nprint(fact(150) > 10 ** 200)")
    assert result.ok and result.output == "True\n"


def test_call_tool_checks_the_clock_too():
    from tooldesign.codemode import runner
    state = runner._Run(cc.HANDLERS, 50, 0.0, None)  # a deadline already in the past
    with pytest.raises(runner.TimeLimitExceeded):
        state.call_tool(cc.LIMITS, {})
