"""How every command line of the course behaves: one-line errors, and an exit code that says why.

The course has several command lines: ``tooldesign`` and ``workbook`` (the entry points, also
``python -m tooldesign`` and ``python -m workbook``) and the lessons' own ``python -m
tooldesign.codemode``, ``.loop``, ``.injection``, ``.dispatch.boundary`` and ``.scale.*``. They are
used by learners, and a traceback or a screen of usage text hides the one thing to fix, so all of
them build their parsers with :class:`OneLineParser` and run their body with :func:`run`.
Both live here, and ``workbook`` imports them, so a change to how errors read is made once.

Exit codes: 0 done, 1 something failed while running (data, a model call), 2 the input was wrong
(an option, a path, a value, a setting), 75 another run is writing the same place (try again when
it ends: ``tooldesign.atomic.write_lock``), 130 stopped with Ctrl+C, 128 + N stopped by signal N
(143 for SIGTERM, 129 for SIGHUP) while ``tooldesign.atomic.stop_on_signals`` was in force.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn

from tooldesign.command_error import CommandError

__all__ = ["CommandError", "OneLineParser", "program_name", "run", "run_report"]

MESSAGE_LIMIT = 300
"""Characters of an error message shown; the rest is cut with "…" (a pasted file can be huge)."""


def one_line(text: object, limit: int = MESSAGE_LIMIT) -> str:
    """``text`` with its whitespace folded, so a message with newlines still prints as one line."""
    from tooldesign.tools.base import clip

    return clip(" ".join(str(text).split()), limit)


class OneLineParser(argparse.ArgumentParser):
    """argparse prints usage and a message on bad input; one line with the fix reads better."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"error: {one_line(message, 200)} (see: {self.prog} --help)\n")


class _NoArgumentsParser(OneLineParser):
    def error(self, message: str) -> NoReturn:
        self.exit(2, f"error: {self.prog} takes no arguments ({one_line(message, 120)})\n")


def model_name(text: str | None) -> str | None:
    """The ``--model`` value of every command that can call a real model: a name or none, never blank."""
    if text is not None and not text.strip():
        from tooldesign.selection.config import DEFAULT_MODELS  # the one place that names models

        raise CommandError(f"--model needs a model's name, for example --model {DEFAULT_MODELS['openai']}")
    return text.strip() if text is not None else None


def program_name(entry_point: str, module: str) -> str:
    """How this command was started, for usage lines and the "see: ... --help" hint.

    The entry point as it was typed (``.venv/bin/tooldesign``; just ``tooldesign`` when the shell
    found it on PATH), and ``python -m MODULE`` otherwise, so the hint can be typed back as shown.
    """
    started = sys.argv[0] if sys.argv and sys.argv[0] else ""
    path = Path(started)
    if path.stem != entry_point:
        return f"python -m {module}"
    return path.stem if path.is_absolute() else started


def run(
    body: Callable[[], int],
    *,
    expected: tuple[type[Exception], ...] = (),
    debug_variable: str | None = None,
    stopped: str = "error: interrupted",
) -> int:
    """Run a command's body and return its exit code; whatever goes wrong becomes one line on stderr.

    The body parses the arguments too, so a command's ``main(argv)`` returns the code of a bad option
    as well (tests call it in-process) instead of raising SystemExit.

    ``expected`` are the errors whose message is the whole story (a wrong path, an unknown notebook):
    exit 2, like :class:`CommandError`. Any other error is exit 1 with its message; with
    ``debug_variable`` the line also names the error's type and how to see the traceback (except for
    the data's own errors, which already say what to do), and setting that variable lets it through.
    """
    fixable: tuple[type[Exception], ...] = (CommandError, *expected)
    try:
        return body()
    except SystemExit as stop:  # argparse's own exit (--help, or one line from OneLineParser), as a code
        if stop.code is None or isinstance(stop.code, int):
            return stop.code or 0
        _say(f"error: {one_line(stop.code)}")
        return 1
    except fixable as error:
        _say(f"error: {one_line(error)}")
        return error.status if isinstance(error, CommandError) else 2
    except OSError as error:
        line = _write_error_line(error)
        if line is None:
            return _unexpected(error, debug_variable)
        _say(line)
        return 2
    except KeyboardInterrupt:
        _say(stopped)
        return 130
    except Exception as error:  # the learner sees the cause in one line, not a traceback
        return _unexpected(error, debug_variable)
    except BaseException as error:  # a signal, as tooldesign.atomic.stop_on_signals raises it
        from tooldesign.atomic import Stopped

        if not isinstance(error, Stopped):
            raise
        _say(f"error: {error}; nothing it was writing was left half done")
        return error.status


def _unexpected(error: Exception, debug_variable: str | None) -> int:
    from tooldesign.data.files import data_error_line

    data_line = data_error_line(error)  # missing or damaged data: the message names the fix
    if data_line is not None or debug_variable is None:
        _say(f"error: {one_line(data_line or str(error) or type(error).__name__)}")
    elif os.environ.get(debug_variable):
        raise error
    else:
        text = one_line(str(error) or type(error).__name__)
        _say(f"error: {type(error).__name__}: {text} ({debug_variable}=1 shows the traceback)")
    return 1


def _write_error_line(error: OSError) -> str | None:
    """A refused permission, a full disk, a used-up quota or a read-only file system, met by any
    command: one line with the fix that fits (``tooldesign.disk``); None for any other OSError."""
    from tooldesign.disk import WriteProblem, problem_of, write_advice

    where = Path(error.filename) if error.filename else None
    problem = problem_of(error)
    if problem is WriteProblem.PERMISSION:
        shown = one_line(where, 120) if where is not None else one_line(error)
        return f"error: permission denied for {shown}; fix its permissions or work in a folder you own"
    if problem is WriteProblem.OTHER or where is None:
        return None
    what = {
        WriteProblem.FULL: "the disk is full",
        WriteProblem.QUOTA: "the disk quota is used up",
        WriteProblem.READ_ONLY: "the file system is read-only",
    }[problem]
    folder = where if where.is_dir() else where.parent
    advice = write_advice(problem, folder, one_line(folder, 120))
    return f"error: cannot write {one_line(where, 120)} ({what}); {advice}"


def _say(line: str) -> None:
    sys.stdout.flush()  # what the command printed before it stopped comes first
    print(line, file=sys.stderr)


def run_report(
    report: Callable[[], object], argv: Sequence[str] | None, *, prog: str, description: str
) -> int:
    """A command without options that prints a lesson's figures: ``--help`` works, and an argument
    given anyway is refused in one line rather than ignored (it is usually a typo for another command).
    """
    parser = _NoArgumentsParser(prog=prog, description=description)

    def body() -> int:
        parser.parse_args(argv)
        report()
        return 0

    return run(body)
