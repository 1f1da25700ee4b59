"""The code-mode lesson from a terminal: ``tooldesign codemode``, or ``python -m tooldesign.codemode``.

``tooldesign codemode [runs|limit|verify|all]`` prints the lesson's figures;
``tooldesign codemode run FILE.js [--time-limit S] [--memory-mb N] [--budget N]`` runs a
JavaScript program against the cold-chain catalog and prints what it printed, or one line saying
what stopped it (exit status 1).
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable, Sequence

import pandas as pd

from tooldesign.codemode import coldchain_tools as cc
from tooldesign.codemode import runner, runs, sizelimit
from tooldesign.codemode.catalog import catalog_for, model_tool_names
from tooldesign.codemode.registry import Registry
from tooldesign.command_line import CommandError, OneLineParser, run
from tooldesign.input_files import InputFileError, read_input_text

MAX_PROGRAM_BYTES = 1_000_000  # a program a model writes is a few KB; this only stops a wrong file


def show_runs() -> None:
    table = runs.compare_runs()
    columns = [
        "run",
        "model tool calls",
        "calls inside the program",
        "chars into context",
        "tokens (estimate)",
    ]
    print("Three runs, measured by the course's harness (scripted stand-in, characters):")
    print(table[columns].to_string(index=False))
    print("answers:", " / ".join(sorted(set(table["answer"]))))
    print("\nWhere the saving comes from (measured):")
    print(runs.savings(table).to_string(index=False))
    print(f"\nThe same runs with a real model, as reported by {runs.REPORTED_SOURCE} (not measured here):")
    print(runs.REPORTED.to_string(index=False))


def show_limit() -> None:
    for order, catalog in sizelimit.two_orders().items():
        print(f"registry {order} ({sizelimit.ORDERS[order]}):")
        print(catalog.report(), end="\n\n")
    print(sizelimit.three_ways().to_string(index=False))


def show_verify() -> None:
    with Registry() as registry:
        cc.register(registry, access={cc.LIST: "code", cc.READINGS: "code", cc.LIMITS: "both"})
        for row in registry.verify():
            print(f"{row[0]:<20} {row[1]:<8} {row[2]}")
        print("model's own tools:", ", ".join(model_tool_names(registry)))
        print(f"catalog: {catalog_for(registry).size_bytes:,} bytes")


def run_file(path: str, time_limit_s: float, memory_mb: int, budget: int) -> int:
    """Run one program file the way run_code would, with the lesson's catalog: bulk tools code only."""
    try:
        source = read_input_text(path, what="a JavaScript file (UTF-8 text)", limit=MAX_PROGRAM_BYTES)
    except InputFileError as error:
        raise CommandError(str(error)) from None
    with Registry() as registry:
        cc.register(registry, access={cc.LIST: "code", cc.READINGS: "code", cc.LIMITS: "both"})
        catalog = catalog_for(registry, [cc.TAG])
        tools = runner.handlers_for({code: registry.get(code).function_call for code in catalog.codes})
    try:
        result = runner.run_program(
            source, tools, time_limit_s=time_limit_s, memory_limit_mb=memory_mb, call_budget=budget
        )
    except (ValueError, TypeError, runner.EngineMissing) as error:
        raise CommandError(str(error)) from None
    # The program's lines marked as its own, so none of them passes for the stop line below.
    sys.stdout.write(result.marked_output)
    if result.error is None:
        return 0
    sys.stdout.flush()
    print(f"stopped: {result.error}", file=sys.stderr)
    return 1


def main(argv: Sequence[str] | None = None, prog: str = "python -m tooldesign.codemode") -> int:
    """Print the figures, or run one program; bad input and missing data end in one line."""
    parser = OneLineParser(
        prog=prog, description="Code mode (lessons 08 and 09): the figures, or run a program."
    )
    parser.add_argument("what", nargs="?", default="all", choices=["runs", "limit", "verify", "all", "run"])
    parser.add_argument("file", nargs="?", help="with run: the JavaScript program to run")
    parser.add_argument(
        "--time-limit",
        type=float,
        default=None,  # None: not given (only run takes it; run fills in the default)
        metavar="S",
        help=f"seconds before V8 stops the program (default {runner.DEFAULT_TIME_LIMIT_S:g})",
    )
    parser.add_argument(
        "--memory-mb",
        type=int,
        default=None,  # None: not given (only run takes it; run fills in the default)
        metavar="N",
        help=f"the isolate's hard memory limit in MB (default {runner.DEFAULT_MEMORY_LIMIT_MB})",
    )
    parser.add_argument(
        "--budget",
        type=int,
        default=None,  # None: not given (only run takes it; run fills in the default)
        metavar="N",
        help=f"tool calls a program may make (default {runner.DEFAULT_CALL_BUDGET})",
    )
    return run(lambda: _chosen(parser, parser.parse_args(argv), prog))


def _chosen(parser: OneLineParser, args: argparse.Namespace, prog: str) -> int:
    if args.what == "run":
        if not args.file:
            parser.error(f"run needs a file: {prog} run FILE.js")
        return run_file(
            args.file,
            runner.DEFAULT_TIME_LIMIT_S if args.time_limit is None else args.time_limit,
            runner.DEFAULT_MEMORY_LIMIT_MB if args.memory_mb is None else args.memory_mb,
            runner.DEFAULT_CALL_BUDGET if args.budget is None else args.budget,
        )
    if args.file:
        parser.error(f"{args.what} takes no file; to run a program use: {prog} run FILE.js")
    if any(given is not None for given in (args.time_limit, args.memory_mb, args.budget)):
        parser.error(f"--time-limit, --memory-mb and --budget apply to one program: {prog} run FILE.js")
    logging.basicConfig(
        level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s", stream=sys.stdout
    )
    pd.set_option("display.width", 160)
    shows = {
        "runs": [show_runs],
        "limit": [show_limit],
        "verify": [show_verify],
        "all": [show_verify, show_runs, show_limit],
    }[args.what]
    return _show(shows)


def _show(shows: Sequence[Callable[[], None]]) -> int:
    for number, show in enumerate(shows):
        if number:
            print("\n" + "-" * 72 + "\n")
        show()
    return 0
