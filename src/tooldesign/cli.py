"""The course's command line: ``tooldesign COMMAND`` (the entry point; also ``python -m tooldesign``).

    data                                  build the fictional data files, list what was written
    lint [--set mirror|designed|both]     check tool definitions against the design rules
    respond                               what each tool set returns for the same five questions
    select [--sample | --picker bm25 | --model NAME [--provider openai|anthropic|sap|ollama]]
           [--cases tuning|development|held-out] [--record FILE] [--repeat K]
                                          which tool is picked first for each clerk request
    record --provider anthropic|openai|ollama [--model NAME] [--repeat K] [--out FOLDER]
                                          a real model on every experiment, one dated file in runs/
    serve [--set designed|mirror] [--transport stdio|http] [--port N]
                                          the tools over MCP (HTTP binds 127.0.0.1 only)

    codemode, loop, injection, boundary, scale growth|search|consolidate
                                          a lesson's figures: the same command as
                                          ``python -m tooldesign.codemode`` and so on

Everything runs offline except ``select --model`` and ``select --provider ollama`` (a model on
your own machine). Bad input ends with a one-line error and a
non-zero exit code, never a traceback: the CLI is for learners, and a traceback hides the fix.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tooldesign.command_line import CommandError, OneLineParser, model_name, program_name
from tooldesign.command_line import run as run_command
from tooldesign.tokens import ESTIMATE_LABEL

__all__ = ["main", "build_parser", "LESSON_TOOLS"]


def _cmd_data(args: argparse.Namespace) -> int:
    from tooldesign import DATA_DIR
    from tooldesign.atomic import stop_on_signals, write_lock
    from tooldesign.data import build_all
    from tooldesign.data.files import ensure_writable

    ensure_writable(DATA_DIR)  # before the lock goes in: an unwritable data/ gets the data's own advice
    with stop_on_signals(), write_lock(DATA_DIR, "tooldesign data"):
        written = build_all()
    for path in written:
        print(path)
    print(f"{len(written)} files written")
    return 0


def _cmd_lint(args: argparse.Namespace) -> int:
    from tooldesign.lint import lint
    from tooldesign.tools import SET_NAMES, tool_set

    names = list(SET_NAMES) if args.set == "both" else [args.set]
    reports = {name: lint(tool_set(name)) for name in names}
    for report in reports.values():
        print(report.format(details=args.set != "both"))
        print()
    if args.set == "both":
        ratio = reports["designed"].tokens / max(reports["mirror"].tokens, 1)
        print(f"The designed definitions are about {ratio:.1f}x the mirror's tokens ({ESTIMATE_LABEL}).")
        print("For every finding, add --set mirror or --set designed.")
    return 0


def _cmd_respond(args: argparse.Namespace) -> int:
    from tooldesign.tools.respond import PAIRS, compare, format_response

    responses = compare()
    for number, pair in enumerate(PAIRS, start=1):
        print(f"{number}. {pair.title}")
        for response in (r for r in responses if r.pair == pair.title):
            print(format_response(response))
        print()
    sizes = {s: sum(r.size for r in responses if r.call.set_name == s) for s in ("mirror", "designed")}
    print(
        f"Characters returned in total: mirror {sizes['mirror']}, designed {sizes['designed']}. The mirror "
        "hands back whole records, codes and bare statuses; the designed set hands back the few fields a "
        "clerk's next step needs, and errors that tell the model what to send instead."
    )
    return 0


def _picker(args: argparse.Namespace):
    from tooldesign.selection import offline_picker

    if args.model or args.provider == "ollama":
        from tooldesign.selection.models import model_picker

        return model_picker(args.model, args.provider)
    return offline_picker(args.picker or "words")


def _print_case_sets() -> None:
    from tooldesign.selection.report import score_rows, score_text

    print(
        "\nAll three case sets, offline pickers (held-out is the headline; tuning is what the wording was "
        "fitted to):"
    )
    print(score_text(score_rows()))


def _cmd_select(args: argparse.Namespace) -> int:
    from tooldesign.selection import run_selection
    from tooldesign.selection.cases import case_set
    from tooldesign.tools import SET_NAMES, tool_set

    if (args.record is not None or args.repeat != 1) and not (args.model or args.provider == "ollama"):
        print(
            "error: --record and --repeat are for real models (--model NAME or --provider ollama); the offline "
            "pickers give the same answer every time",
            file=sys.stderr,
        )
        return 2
    _check_repeat(args.repeat)
    if args.record is not None:
        from pathlib import Path

        from tooldesign.input_files import InputFileError, check_writable

        _plain_path(args.record, "--record", "a new file name such as runs/heldout.json")
        if Path(args.record).exists():
            print(
                f"error: {args.record} exists; choose a new file name, a record is never overwritten",
                file=sys.stderr,
            )
            return 2
        try:  # before any model call: a record that cannot be written would waste every one
            check_writable(args.record, what="the record")
        except InputFileError as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
    picker = _picker(args)
    cases = case_set(args.cases)
    print(f"Which tool is picked first for each request?  [{picker.label}; {cases.name} cases]\n")
    if not picker.offline:
        return _select_with_model(picker, args)
    results = []
    for name in SET_NAMES:
        result = run_selection(picker, tool_set(name), cases.cases, name)
        results.append(result)
        print(result.format())
        print()
    for result in results:
        print(result.summary())
    _print_case_sets()
    print(
        f"\n[{picker.label}] Offline stand-in: the gap between the sets is the lesson, not the digits. "
        "Run with --model NAME or --provider ollama for a real model."
    )
    return 0


def _select_with_model(picker, args: argparse.Namespace) -> int:
    from tooldesign.record import record as measure
    from tooldesign.record import save

    try:  # the one record writer: a selection-only record of format tooldesign-record/2
        measured = measure(picker, args.repeat, parts=("selection",), case_sets=(args.cases,))
    except Exception as error:  # a network or API failure from a real model
        hint = (
            "; is Ollama running? Start it with `ollama serve` (docs/real-models.md: A free local model)"
            if getattr(picker, "provider", "") == "ollama" and "connect" in str(error).lower()
            else ""
        )
        print(
            f"error: the model call failed: {type(error).__name__}: {' '.join(str(error).split())[:300]}{hint}",
            file=sys.stderr,
        )
        return 1
    (record,) = measured.selection
    for run in record.runs:
        if args.repeat == 1:
            print(f"== {run.tool_set}")
            for p in run.picks:
                print(f"  {'right' if p.right else 'WRONG'}  {p.pick or '(no call)':<31} <- {p.request}")
            print()
    for row in record.summary():
        spread = (
            ""
            if row["repeats"] == 1
            else f" (lowest {row['lowest']}, highest {row['highest']} over {row['repeats']} runs)"
        )
        tokens = row["input tokens per call"]
        print(
            f"{row['tool set']:<9} {row['mean right']:g}/{row['total']} right{spread}; input tokens per call "
            f"{tokens if tokens is not None else 'not reported'}, median latency {row['median latency (s)']} s"
        )
    if args.record:
        from tooldesign.atomic import stop_on_signals

        with stop_on_signals():  # a signal while the record is written leaves no half file
            saved = save(measured, args.record)
        print(f"\nrecorded: {saved} ({record.provider}, {record.model}, {record.date})")
    return 0


def _cmd_serve(args: argparse.Namespace) -> int:
    # Imported here: the mcp SDK loads only when a server is asked for, not with every command.
    from tooldesign.mcp import run

    if args.port is not None and args.transport != "http":
        print("error: --port only applies together with --transport http", file=sys.stderr)
        return 2
    if args.port is not None and not 1 <= args.port <= 65535:
        print(f"error: --port needs a port number from 1 to 65535, not {args.port}", file=sys.stderr)
        return 2
    served = run.served_set(args.set)
    try:
        if args.transport == "http":
            run.run_http(served, run.DEFAULT_PORT if args.port is None else args.port)
        else:
            run.run_stdio(served)
    except KeyboardInterrupt:  # Ctrl+C is how a learner stops a server: not an error
        pass
    print("server stopped", file=sys.stderr)
    return 0


def text_table(rows: list[dict]) -> str:
    """Rows of one shape as an aligned plain-text table, for the lessons' ``python -m`` commands."""
    keys = list(rows[0])
    widths = {k: max(len(str(k)), *(len(str(r[k])) for r in rows)) for k in keys}
    lines = ["  ".join(str(k).ljust(widths[k]) for k in keys).rstrip()]
    lines += ["  ".join(str(r[k]).ljust(widths[k]) for k in keys).rstrip() for r in rows]
    return "\n".join(lines)


@dataclass(frozen=True)
class LessonTool:
    """A lesson's own command line, run as ``tooldesign WORDS ...`` and as ``python -m MODULE ...``.

    Its module has ``main(argv, prog) -> int``; both spellings call it, so the two cannot drift.
    It is imported only when asked for: the lessons' modules load pandas and the data.
    """

    words: tuple[str, ...]
    module: str
    help: str


LESSON_TOOLS = (
    LessonTool(
        ("codemode",),
        "tooldesign.codemode.cli",
        "lessons 08 and 09: code mode's figures, or run a JavaScript file",
    ),
    LessonTool(("boundary",), "tooldesign.dispatch.boundary", "lesson 11: boundary clauses, offline pickers"),
    LessonTool(
        ("scale", "growth"), "tooldesign.scale.growth", "lesson 13: tokens and accuracy as the set grows"
    ),
    LessonTool(
        ("scale", "search"), "tooldesign.scale.search", "lesson 13: tool search against loading everything"
    ),
    LessonTool(
        ("scale", "consolidate"), "tooldesign.scale.consolidate", "lesson 13: consolidated tool shapes"
    ),
    LessonTool(("loop",), "tooldesign.loop.cli", "lesson 16: what results cost across the loop"),
    LessonTool(("injection",), "tooldesign.injection.cli", "lesson 17: poisoned records per defence"),
)


def _lesson_tool(argv: Sequence[str]) -> LessonTool | None:
    return next((t for t in LESSON_TOOLS if tuple(argv[: len(t.words)]) == t.words), None)


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "data": _cmd_data,
    "lint": _cmd_lint,
    "respond": _cmd_respond,
    "select": _cmd_select,
}
COMMANDS["serve"] = _cmd_serve


def _cmd_record(args: argparse.Namespace) -> int:
    from tooldesign.record import CAPSTONE_SKIPPED, RateLimited, capstone_loop, record, write
    from tooldesign.selection.models import model_picker

    _check_repeat(args.repeat)
    if args.out is not None:  # before any model call: a record that cannot be written wastes them all
        from tooldesign.input_files import InputFileError, check_writable_folder

        _plain_path(args.out, "--out", "a folder such as runs")
        try:
            check_writable_folder(args.out, what="the record")
        except InputFileError as error:
            raise CommandError(f"--out: {error}") from None
    picker = model_picker(args.model, args.provider)  # a missing key is a ModelSetupError: one line
    if capstone_loop() is None:  # the student edition: the loop is the learner's to write
        print(CAPSTONE_SKIPPED)
    try:
        rec = record(picker, args.repeat)
    except RateLimited as error:
        print(f"error: {error}; try again later or with a smaller --repeat", file=sys.stderr)
        return 1
    except Exception as error:  # a network, API or malformed-answer failure from the model
        hint = (
            "; is the server running (for Ollama: `ollama serve`)?" if "connect" in str(error).lower() else ""
        )
        print(
            f"error: the model call failed: {type(error).__name__}: {' '.join(str(error).split())[:300]}{hint}",
            file=sys.stderr,
        )
        return 1
    from tooldesign.atomic import stop_on_signals

    with stop_on_signals():  # a signal while the record is written leaves no half file
        path = write(rec, args.out)
    print(f"recorded: {path} ({rec.provider}, {rec.model}, {rec.date}; {rec.retries} rate-limit retries)")
    return 0


COMMANDS["record"] = _cmd_record

MAX_REPEAT = 100  # each repeat sends every case again: a larger count is a typo, and a bill


def _check_repeat(repeat: int) -> None:
    if not 1 <= repeat <= MAX_REPEAT:
        raise CommandError(f"--repeat must be 1 or more, and at most {MAX_REPEAT}; not {repeat}")


def _plain_path(text: str, option: str, example: str) -> None:
    """Refuse an empty path, or one holding a line break or tab (pasted by mistake), in one line."""
    if not text.strip():
        raise CommandError(f"{option} needs {example}, not an empty name")
    odd = next((c for c in text if ord(c) < 32 or ord(c) == 127), None)
    if odd is not None:
        raise CommandError(f"{option} {text[:60]!r} holds a control character ({odd!r}); give {example}")


def build_parser(prog: str = "tooldesign") -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog=prog,
        description="Tool design for agents: data, lint, respond, select, serve, and each lesson's figures.",
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=OneLineParser)
    sub.add_parser("data", help="build the fictional data files and list what was written")
    lint = sub.add_parser("lint", help="check tool definitions against the design rules")
    lint.add_argument(
        "--set",
        choices=["mirror", "designed", "both"],
        default="both",
        help="which tool set (default: both, one line per tool)",
    )
    sub.add_parser("respond", help="compare what each tool set returns")
    select = sub.add_parser("select", help="the selection test: which tool is picked first")
    how = select.add_mutually_exclusive_group()
    how.add_argument("--sample", action="store_true", help="the crude word-matching stand-in (default)")
    how.add_argument("--picker", choices=["words", "bm25"], help="an offline picker")
    how.add_argument(
        "--model", metavar="NAME", help="a real model (needs a key; see tooldesign.selection.config)"
    )
    select.add_argument(
        "--provider",
        choices=["openai", "anthropic", "sap", "ollama"],
        help="who serves --model (default: TOOLDESIGN_PROVIDER, else openai); ollama is a free "
        "local model and needs no --model",
    )
    select.add_argument(
        "--cases",
        choices=["tuning", "development", "held-out"],
        default="tuning",
        help="which case set (default: tuning); held-out is the headline",
    )
    select.add_argument(
        "--record", metavar="FILE", help="write every pick, tokens and latency to FILE (JSON)"
    )
    select.add_argument("--repeat", metavar="K", type=int, default=1, help="run K times to see the spread")
    serve = sub.add_parser("serve", help="serve a tool set over MCP (stdio for a host, or HTTP on 127.0.0.1)")
    serve.add_argument(
        "--set", choices=["designed", "mirror"], default="designed", help="which tool set (default: designed)"
    )
    serve.add_argument(
        "--transport",
        choices=["stdio", "http"],
        default="stdio",
        help="stdio for a host that starts the server (default), http for a URL",
    )
    serve.add_argument("--port", type=int, help="HTTP port on 127.0.0.1 (default: 8000)")
    rec = sub.add_parser("record", help="record a real model on every experiment, to one dated file in runs/")
    rec.add_argument(
        "--provider", choices=["anthropic", "openai", "ollama"], required=True, help="who serves it"
    )
    rec.add_argument("--model", metavar="NAME", help="the model (default: the provider's setting)")
    rec.add_argument("--repeat", metavar="K", type=int, default=1, help="run each experiment K times")
    rec.add_argument("--out", metavar="FOLDER", help="where the record goes (default: runs/)")
    _add_lesson_tools(sub)
    return parser


def _group_help(group: str) -> str:
    """The group's line in --help, such as "lesson 13: growth, search or consolidate"."""
    tools = [t for t in LESSON_TOOLS if t.words[0] == group]
    names = [t.words[1] for t in tools]
    return f"{tools[0].help.split(':')[0]}: {', '.join(names[:-1])} or {names[-1]}"


def _add_lesson_tools(sub: argparse._SubParsersAction) -> None:
    """Listed in --help and in the choices; main() hands them their arguments before this parser runs."""
    groups: dict[str, argparse._SubParsersAction] = {}
    for tool in LESSON_TOOLS:
        if len(tool.words) == 1:
            sub.add_parser(tool.words[0], help=tool.help, add_help=False)
            continue
        group, name = tool.words
        if group not in groups:
            parent = sub.add_parser(group, help=_group_help(group))
            groups[group] = parent.add_subparsers(dest="table", required=True, parser_class=OneLineParser)
        groups[group].add_parser(name, help=tool.help, add_help=False)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; return the exit code. Errors become one line on stderr."""
    argv = sys.argv[1:] if argv is None else list(argv)
    prog = program_name("tooldesign", "tooldesign")
    tool = _lesson_tool(argv)
    if tool is not None:  # imported inside the runner too: a broken install is one line, not a traceback
        shown = " ".join((prog, *tool.words))
        return run_command(
            lambda: int(importlib.import_module(tool.module).main(argv[len(tool.words) :], prog=shown))
        )
    parser = build_parser(prog)
    return run_command(lambda: _dispatch(parser.parse_args(argv)))


def _dispatch(args: argparse.Namespace) -> int:
    if hasattr(args, "model"):
        args.model = model_name(args.model)
    if (
        args.command != "record"
        and getattr(args, "provider", None) not in (None, "ollama")
        and not getattr(args, "model", None)
    ):
        raise CommandError("--provider only applies together with --model NAME")
    return COMMANDS[args.command](args)
