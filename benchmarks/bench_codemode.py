"""What the code-mode machinery costs in time: the isolate's start-up, each callTool, the catalog.

Run: python benchmarks/bench_codemode.py
Prints medians of repeated runs on this machine; the figures vary between machines, the ratios
less. Nothing here is asserted: the tests never depend on speed.

* start-up: an empty program, so a child process, V8, a fresh isolate and the prelude, and back.
* per call: a program making 200 calls to a tool that returns at once, minus the empty program,
  divided by 200: JSON out of the isolate, a pipe to this process and back, JSON in again.
"""
from __future__ import annotations


from timing import median_ms  # benchmarks/timing.py, beside this script
from tooldesign.codemode import coldchain_tools as cc
from tooldesign.codemode import runs, sizelimit
from tooldesign.codemode.catalog import catalog_for
from tooldesign.codemode.runner import run_program

CALLS = 200



def main() -> None:
    program = runs.recorded_program(with_label=False)
    cc.list_shipments({})  # warm the data caches so file reading is not timed
    cc.get_readings({"shipment_id": 101})
    cc.get_limits({})
    ping = {"PING": lambda arguments: {"pong": True}}
    many = f"for (let i = 0; i < {CALLS}; i++) await callTool('PING', {{}})"
    startup = median_ms(lambda: run_program("", ping))
    with_calls = median_ms(lambda: run_program(many, ping, call_budget=CALLS))
    spin = "let n = 0; for (let i = 0; i < 2000000; i++) n += i; console.log(n)"
    rows = [
        ("start-up: an empty program, fresh isolate", startup),
        (f"{CALLS} calls to a tool that returns at once", with_calls),
        ("per call (the line above, minus start-up, / 200)", (with_calls - startup) / CALLS),
        ("the corrected program: 26 calls, 58,010 characters of results", median_ms(lambda: run_program(program, cc.HANDLERS))),
        ("a 2,000,000-step loop (V8 without its JIT)", median_ms(lambda: run_program(spin, {}), 5)),
        ("registry with 12 tools, in memory", median_ms(lambda: sizelimit.demo_registry().close())),
    ]
    with sizelimit.demo_registry() as registry:
        rows.append(("catalog of 12 tools within 31,855 bytes", median_ms(lambda: catalog_for(registry, logger=None))))
    width = max(len(name) for name, _ in rows)
    for name, ms in rows:
        print(f"{name:<{width}}  {ms:9.3f} ms")
    print("\nEach program pays for a process and an isolate of its own, and every call crosses two JSON"
          "\nboundaries and a pipe. Both stay far below one model round trip, which takes seconds.")


if __name__ == "__main__":
    main()
