"""The JavaScript runner's contract: what a run reports, how each limit ends it, and that the
Python side always survives to run the next program. (Escape attempts: test_codemode_sandbox.py.)"""
from __future__ import annotations

import dataclasses
import subprocess
import sys
import time

import pytest

from tooldesign import REPO_ROOT
from tooldesign.codemode import coldchain_tools as cc
from tooldesign.codemode import runs
from tooldesign.codemode.registry import Registry
from tooldesign.codemode.runner import RunResult, ProgramCall, run_program

GENEROUS = 60.0  # seconds only a hang reaches


def quick(source: str, tools=None, **limits) -> RunResult:
    limits = {"time_limit_s": 1.0, "memory_limit_mb": 32, "call_budget": 10, **limits}
    return run_program(source, cc.HANDLERS if tools is None else tools, **limits)


# ---------- what a run reports ----------

def test_top_level_await_and_console_log_work_as_the_source_writes_them():
    result = quick('const limits = await callTool("CC_GET_LIMITS", {});\n'
                   'console.log(limits.length, limits[0].product_class, { ok: true }, [1, 2], null, undefined);')
    assert result.error is None and result.limit is None
    assert result.output == '2 FROZEN {"ok":true} [1,2] null undefined\n'
    assert result.calls == (ProgramCall("CC_GET_LIMITS", {}, result.calls[0].result_chars),)


def test_run_result_is_a_frozen_record_of_text_calls_and_error():
    result = quick("console.log('hi')")
    assert dataclasses.is_dataclass(result)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.output = "changed"
    assert (result.output, result.calls, result.error) == ("hi\n", (), None)


def test_limits_are_keyword_only():
    with pytest.raises(TypeError):
        run_program("1", {}, 1.0)  # noqa


@pytest.mark.parametrize("settings, says", [
    ({"time_limit_s": 0}, "time_limit_s"), ({"time_limit_s": "5"}, "time_limit_s"),
    ({"memory_limit_mb": 1}, "memory_limit_mb"), ({"call_budget": -1}, "call_budget"),
    ({"memory_limit_mb": 32.5}, "whole numbers"), ({"time_limit_s": float("nan")}, "time_limit_s"),
    ({"time_limit_s": float("inf")}, "finite"), ({"call_budget": True}, "call_budget"),
])
def test_bad_settings_are_refused_in_one_line(settings, says):
    with pytest.raises(ValueError, match=says) as error:
        quick("1", **settings)
    assert "\n" not in str(error.value)


@pytest.mark.parametrize("tools", [["CC_GET_LIMITS"], {"X": "not a function"}, {1: lambda arguments: 1}])
def test_tools_must_map_codes_to_functions(tools):
    with pytest.raises(TypeError, match="tools must map"):
        run_program("1", tools)


def test_console_methods_models_reach_for_all_print():
    result = quick("console.info('i'); console.warn('w'); console.error('e'); console.table([1]); console.log()")
    assert result.output == "i\nw\ne\n[1]\n\n" and result.printed == result.output


def test_source_must_be_text():
    with pytest.raises(TypeError, match="JavaScript text"):
        run_program(b"console.log(1)", {})


def test_the_recorded_draft_reports_a_confident_zero_and_the_corrected_one_the_claims():
    with Registry() as registry:
        cc.register(registry, cc.DRAFT, merge=False)
        draft = runs.run_recorded(registry, runs.recorded_program(runs.DRAFT_PROGRAM))
        cc.register(registry, cc.CORRECTED)
        corrected = runs.run_recorded(registry, runs.recorded_program(runs.CORRECTED_PROGRAM, with_label=False))
    assert draft.ok and draft.output.splitlines()[-1] == "RESULT: none | 0" and draft.tool_calls == 26
    assert corrected.ok and corrected.tool_calls == 26
    assert corrected.output.splitlines()[-1] == "RESULT: SHP-2047, SHP-2052, SHP-2061 | 1920"
    assert corrected.chars_returned > 48_000 > 1_000 > corrected.chars_to_context


def test_recorded_programs_are_javascript_files_labelled_as_recordings():
    for name in (runs.DRAFT_PROGRAM, runs.CORRECTED_PROGRAM):
        assert name.endswith(".js")
        text = runs.recorded_program(name)
        assert text.startswith("// ") and "Recorded for the course" in text and "await callTool(" in text
        assert not runs.recorded_program(name, with_label=False).startswith("//")


def test_a_tool_outside_the_catalog_gets_the_same_clear_error_whether_direct_or_dropped():
    with Registry() as registry:
        cc.register(registry, access={cc.LIST: "code", cc.READINGS: "code", cc.LIMITS: "direct"})
        direct = runs.run_recorded(registry, 'await callTool("CC_GET_LIMITS", {})')
    assert "CC_GET_LIMITS is not in the catalog, so a program cannot call it" in direct.error
    from tooldesign.codemode import sizelimit
    from tooldesign.codemode.catalog import catalog_for
    with sizelimit.demo_registry() as registry:
        dropped_code = catalog_for(registry, logger=None).left_out_codes[0]
        dropped = runs.run_recorded(registry, f'await callTool("{dropped_code}", {{}})', tags=None)
    assert f"{dropped_code} is not in the catalog, so a program cannot call it" in dropped.error


def test_printed_output_is_capped_with_a_note():
    result = quick("for (let i = 0; i < 1000; i++) console.log('x'.repeat(100))", output_cap=2_000)
    assert result.error is None
    assert len(result.output) < 2_100 and result.output.endswith("[output cut at 2000 characters]\n")


def test_output_printed_before_a_stop_is_kept():
    result = quick("console.log('before'); while (true) {}", time_limit_s=0.25)  # only the limit ends it
    assert result.limit == "time" and result.output == "before\n"
    budget = quick("console.log('first'); for (;;) { await callTool('CC_GET_LIMITS', {}); console.log('again') }",
                   call_budget=2)
    assert budget.limit == "calls" and budget.output == "first\nagain\nagain\n"


def test_text_outside_ascii_crosses_both_ways_unchanged():
    echo = {"ECHO": lambda arguments: {"back": arguments["text"]}}
    result = quick('const r = await callTool("ECHO", { text: "Müller – 720 € ✓" }); console.log(r.back, "日本")', echo)
    assert result.output == "Müller – 720 € ✓ 日本\n" and result.calls[0].arguments == {"text": "Müller – 720 € ✓"}


def test_lone_surrogates_print_as_replacement_characters():
    result = quick(r'console.log("a\uD800b"); throw new Error("x\uDC00")')
    assert result.output == "a\ufffdb\n" and result.error == "Error: x\ufffd (line 1)"


def test_source_that_is_not_text_is_refused_in_one_line():
    with pytest.raises(ValueError, match="lone surrogate at position 13"):
        quick('console.log("\ud800")')


def test_programs_run_side_by_side_from_threads():
    from concurrent.futures import ThreadPoolExecutor

    programs = [f"console.log({n} * 2)" for n in range(4)] + ["while (true) {}"]
    with ThreadPoolExecutor(max_workers=3) as pool:
        results = list(pool.map(lambda source: quick(source, time_limit_s=0.5), programs))
    assert [r.output for r in results[:4]] == ["0\n", "2\n", "4\n", "6\n"] and results[4].limit == "time"


def test_a_syntax_error_names_its_line():
    result = quick("const a = 1;\nconst b = ;\n")
    assert result.error == "SyntaxError: Unexpected token ';' (line 2)"


def test_a_runtime_error_names_its_line():
    result = quick("const a = 1;\nnull.field;\n")
    assert result.error.startswith("TypeError: Cannot read properties of null") and result.error.endswith("(line 2)")


def test_context_text_is_the_marked_printout_then_the_error():
    result = quick("console.log('partial'); throw new Error('stop')")
    assert result.context_text == "| partial\nERROR: Error: stop (line 1)"


# ---------- each limit, and that the caller survives it ----------

def test_the_time_limit_stops_a_loop_within_a_generous_bound():
    started = time.monotonic()
    result = quick("while (true) {}", time_limit_s=0.5)
    assert result.limit == "time" and result.error.startswith("time limit of 0.5 s reached")
    assert time.monotonic() - started < GENEROUS


def test_the_memory_limit_stops_an_allocation_loop():
    result = quick("const keep = []; while (true) keep.push(new Array(10000).fill(Math.random()))", time_limit_s=20.0)
    assert result.limit == "memory" and result.error.startswith("memory limit of 32 MB reached")


@pytest.mark.parametrize("allocation", [
    "new Array(2 ** 30).fill(1)",                          # aborts the engine's process
    "'x'.repeat(2 ** 27).split('')",                       # so does this, at once (lesson 09 shows it)
    "const a = []; while (true) a.push('x'.repeat(1000) + Math.random())",   # the isolate's own limit
])
def test_after_running_out_of_memory_the_next_program_runs(allocation):
    stopped = quick(allocation, time_limit_s=20.0)  # time enough that only memory can stop it
    assert stopped.limit == "memory", stopped.error
    after = quick("console.log((await callTool('CC_GET_LIMITS', {})).length)")
    assert after.ok and after.output == "2\n"


def test_the_call_budget_counts_in_callTool():
    result = quick("for (let i = 0; i < 100; i++) await callTool('CC_GET_LIMITS', {})", call_budget=7)
    assert result.limit == "calls" and result.tool_calls == 7
    assert result.error.startswith("call budget of 7 tool calls used up")


def test_a_budget_of_zero_allows_no_call():
    result = quick("await callTool('CC_GET_LIMITS', {})", call_budget=0)
    assert result.limit == "calls" and result.tool_calls == 0


def test_many_runs_in_a_row_leave_nothing_behind():
    for _ in range(5):
        assert quick("while (true) {}", time_limit_s=0.2).limit == "time"
    assert quick("console.log(1)").output == "1\n"


def test_a_tool_raising_reaches_the_program_as_a_catchable_error():
    def broken(arguments):
        raise KeyError("no such row")

    result = quick("try { await callTool('T', {}) } catch (e) { console.log('caught', e.message) }", {"T": broken})
    assert result.ok and result.output == "caught T: 'no such row'\n"
    assert result.calls[0].error == "'no such row'"


def test_the_call_log_keeps_what_the_program_sent_even_if_a_tool_changes_it():
    def greedy(arguments):
        arguments["added"] = True
        return "ok"

    result = quick("await callTool('T', { a: 1 })", {"T": greedy})
    assert result.calls[0].arguments == {"a": 1}


def test_a_tool_returning_something_that_is_not_json_is_an_error_the_program_sees():
    result = quick("await callTool('T', {})", {"T": lambda arguments: {"when": object()}})
    assert result.error.startswith("Error: T: ")


# ---------- the command line ----------

def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "tooldesign.codemode", *args], capture_output=True, text=True,
                          cwd=REPO_ROOT, timeout=120)


def test_cli_runs_a_recorded_program(tmp_path):
    program = REPO_ROOT / "data" / "codemode" / runs.CORRECTED_PROGRAM
    done = cli("run", str(program))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "| RESULT: SHP-2047, SHP-2052, SHP-2061 | 1920"


@pytest.mark.parametrize("program, flags, says", [
    ("while (true) {}", ["--time-limit", "0.5"], "time limit of 0.5 s"),
    ("const a = []; for (;;) a.push(new Array(1e4).fill(1))", ["--memory-mb", "16", "--time-limit", "20"],
     "memory limit of 16 MB"),
    ("for (;;) await callTool('CC_GET_LIMITS', {})", ["--budget", "3"], "call budget of 3 tool calls"),
    ("await callTool('CC_WRITE', {})", [], "CC_WRITE is not in the catalog"),
])
def test_cli_says_in_one_line_what_stopped_a_program(tmp_path, program, flags, says):
    path = tmp_path / "program.js"
    path.write_text(program, encoding="utf-8")
    done = cli("run", str(path), *flags)
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and says in lines[0], done.stderr


@pytest.mark.parametrize("make", ["missing", "folder", "binary"])
def test_cli_refuses_a_bad_file_in_one_line(tmp_path, make):
    path = tmp_path / "program.js"
    if make == "folder":
        path.mkdir()
    elif make == "binary":
        path.write_bytes(b"\xff\xfe\x00 not text")
    done = cli("run", str(path))
    assert done.returncode == 2 and len(done.stderr.strip().splitlines()) == 1
    says = {"missing": "cannot read", "folder": "is a folder, not a file", "binary": "is not UTF-8 text"}[make]
    # The path is named (a long one clipped with …), then what is wrong and what to give instead.
    assert says in done.stderr and "give the path of a JavaScript file" in done.stderr
