"""Point the course's links to the README's old sections at the guides that now hold them.

The References table and the glossary moved from README.md to docs/references.md and docs/glossary.md,
so a link written as ``../README.md#r20``, ``../README.md#references`` or ``../README.md#glossary``
lands nowhere now. This rewrites every such link, in place, in the solution notebooks, the learner
copies, the package's strings and the docs; and a References row still written into README.md
(``| <a id="r61"></a>R61 | ...``) moves to the end of the table in docs/references.md, unless that
table has the reference already. Running it again changes nothing (a rewritten link no longer
matches, a moved row is gone); run it after merging work that still writes the old way.

    .venv/bin/python scripts/move_reference_links.py           # rewrite, and list the files changed
    .venv/bin/python scripts/move_reference_links.py --check   # list the files with an old link; exit 1 if any
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The old anchor and the guide that holds it now; r1, r20 ... are the References rows.
OLD_LINK = re.compile(r"(?P<up>(?:\.\./)*)README\.md#(?P<anchor>r\d+|references|glossary)(?![\w-])")
GUIDE = {"glossary": "glossary.md"}
PLACES = ("solutions/*.ipynb", "notebooks/*.ipynb", "src/**/*.py", "docs/*.md")
ROW = re.compile(r'^\| <a id="(r\d+)"></a>R\d+ \|.*\|\s*$', re.M)


@dataclass(frozen=True)
class Rewrite:
    path: Path
    links: int


def moved(text: str) -> tuple[str, int]:
    """The text with every old link pointed at its guide, and how many links changed."""

    def guide(match: re.Match[str]) -> str:
        anchor = match["anchor"]
        return f"{match['up']}docs/{GUIDE.get(anchor, 'references.md')}#{anchor}"

    return OLD_LINK.subn(guide, text)


def files(root: Path) -> Iterable[Path]:
    for pattern in PLACES:
        yield from sorted(root.glob(pattern))


def rewrite(root: Path, *, write: bool) -> list[Rewrite]:
    done = []
    for path in files(root):
        text = path.read_text(encoding="utf-8")
        new, count = moved(text)
        if count:
            if write:
                path.write_text(new, encoding="utf-8")
            done.append(Rewrite(path, count))
    return done


def move_rows(root: Path, *, write: bool) -> list[str]:
    """The reference rows README.md still holds, moved to the end of docs/references.md's table."""
    readme_path, table_path = root / "README.md", root / "docs" / "references.md"
    readme = readme_path.read_text(encoding="utf-8")
    rows = [match[0] for match in ROW.finditer(readme)]
    if not rows or not table_path.is_file():
        return []
    table = table_path.read_text(encoding="utf-8")
    have = {match[1] for match in ROW.finditer(table)}
    new = [row for row in rows if ROW.match(row)[1] not in have]
    if write:
        last = list(ROW.finditer(table))[-1].end() if have else len(table.rstrip("\n"))
        table = table[:last] + "".join(f"\n{row}" for row in new) + table[last:]
        table_path.write_text(table, encoding="utf-8")
        readme_path.write_text(ROW.sub("", readme).replace("\n\n\n", "\n\n"), encoding="utf-8")
    return [ROW.match(row)[1].upper() for row in rows]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="list the files with an old link; change nothing")
    parser.add_argument("--root", type=Path, default=ROOT, help="the course's folder (default: this one)")
    args = parser.parse_args(argv)
    if not (args.root / "README.md").is_file():
        print(f"{args.root} is not the course's folder (no README.md): pass --root FOLDER", file=sys.stderr)
        return 2
    moved_rows = move_rows(args.root, write=not args.check)
    if moved_rows:
        print(f"README.md: {len(moved_rows):,} reference row{'s' if len(moved_rows) != 1 else ''} "
              f"({', '.join(moved_rows)}){' to move' if args.check else ' moved'} to docs/references.md")
    done = rewrite(args.root, write=not args.check)
    for item in done:
        print(f"{item.path.relative_to(args.root)}: {item.links:,} link{'s' if item.links != 1 else ''}"
              f"{' to move' if args.check else ' moved'}")
    return 1 if args.check and (done or moved_rows) else 0


if __name__ == "__main__":
    sys.exit(main())
