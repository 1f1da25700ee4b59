"""``python -m tooldesign.injection``: the lesson-13 tables, printed.

The free-text lint rule on each tool set, then, per defence, how many of the poisoned records reach
a write proposal and how many a person must catch. The reader is a scripted stand-in, not a model.
"""
from __future__ import annotations

import sys

from tooldesign.injection.measure import defence_rows, lint_rows


def _table(rows: list[dict]) -> str:
    keys = list(rows[0])
    widths = {k: max(len(str(k)), *(len(str(r[k])) for r in rows)) for k in keys}
    lines = ["  ".join(str(k).ljust(widths[k]) for k in keys).rstrip()]
    lines += ["  ".join(str(r[k]).ljust(widths[k]) for k in keys).rstrip() for r in rows]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    if argv:
        print("error: python -m tooldesign.injection takes no arguments", file=sys.stderr)
        return 2
    print("1. The result-free-text rule (sample calls over canary notes)\n")
    print(_table(lint_rows()))
    print("\n2. Poisoned records per defence (scripted reader: a stand-in that obeys, not a model)\n")
    print(_table([r.row() for r in defence_rows()]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
