"""The lesson-17 tables, printed: ``tooldesign injection``, or ``python -m tooldesign.injection``.

The free-text lint rule on each tool set, then, per defence, how many of the poisoned records reach
a write proposal and how many a person must catch. The reader is a scripted stand-in, not a model;
``--model NAME`` (opt-in, needs the settings in docs/real-models.md) sends the same records
to a real model as well.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from tooldesign.cli import text_table
from tooldesign.command_line import CommandError, OneLineParser, model_name, run
from tooldesign.injection.measure import defence_rows, lint_rows


def _parser(prog: str) -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog=prog, description="The lesson-17 tables: the free-text lint rule, poisoned records per defence."
    )
    parser.add_argument(
        "--model",
        metavar="NAME",
        help="opt-in: also send every poisoned record to this real model",
    )
    parser.add_argument(
        "--provider",
        help="openai (any OpenAI-compatible endpoint) or anthropic; "
        "default: TOOLDESIGN_PROVIDER, else openai",
    )
    return parser


def _real_model(model: str, provider: str | None) -> int:
    from tooldesign.injection.real_model import model_for, trial, trial_rows
    from tooldesign.selection.models import ModelSetupError

    try:
        picker = model_for(model, provider)
        rows = trial_rows(trial(picker), picker.label)
    except ModelSetupError as error:
        print(
            f"error: {str(error).replace('or run offline with --sample', 'or run without --model')}",
            file=sys.stderr,
        )
        return 2
    except Exception as error:  # a network or API failure: one line, not a traceback
        print(f"error: the model call failed ({type(error).__name__}: {str(error)[:160]})", file=sys.stderr)
        return 1
    print(f"\n3. The same records read by {picker.label} (one request each; your measurement, today)\n")
    print(text_table(rows))
    return 0


def main(argv: Sequence[str] | None = None, prog: str = "python -m tooldesign.injection") -> int:
    """Print the tables (and, with --model, a real model's reading); bad input ends in one line."""
    parser = _parser(prog)
    return run(lambda: _report(parser.parse_args(argv)))


def _report(args: argparse.Namespace) -> int:
    args.model = model_name(args.model)
    if args.provider and not args.model:
        raise CommandError("--provider needs --model NAME")
    print("1. The result-free-text rule (sample calls over canary notes)\n")
    print(text_table(lint_rows()))
    print("\n2. Poisoned records per defence (scripted reader: a stand-in that obeys, not a model)\n")
    print(text_table([r.row() for r in defence_rows()]))
    return _real_model(args.model, args.provider) if args.model else 0
