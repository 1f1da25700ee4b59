"""Open a slot after lesson N: every lesson numbered above N moves up by one, everywhere.

    .venv/bin/python scripts/renumber.py --insert-after 09 --dry-run   # print every change
    .venv/bin/python scripts/renumber.py --insert-after 09             # make them (git mv, edits)

Why a script: a lesson's number lives in many places at once (file names, exercise ids, quiz and
module names, links, the course maps, prose in notebooks, README, docs and tests), and a hand edit
misses some. The hard part is prose, where most two-digit numbers are not lessons ("10 tools",
"12 requests", "top 10"). So nothing here shifts a bare number: a number changes only inside a
context that says it is a lesson (see ``PATTERNS``): a notebook stem, an exercise id, ``lessonNN``,
``quiz("NN")``, the words notebook/lesson before it, ``NN ·``, ``NN's``, a link ``[NN](...)``, an
aside ``(NN)`` or ``(NN: ...)`` (never a call such as ``readout(10)``), a row of a course map or a
"used in" column, and in the tests a lesson's number as a string (``Claim("10", ...)``). Code that
keeps a number as bare data gets a rule of its own in ``FILE_RULES``. An aside followed by a comma,
"(15, through ...)", is left for a person: in code ``(10, 4)`` is a tuple. Every change is printed, so the list can be read by eye.

Each file is rewritten in one pass, with each lesson number mapped once (``n -> n + 1`` for
``n > N``), and files are moved from the highest number down: nothing is shifted twice. Notebooks
are edited string by string (sources, metadata, outputs) and written back as nbformat writes them.
The script does not decide what a reference *means*: a sentence about a part of a lesson that
moved to the new slot has to be retargeted by hand afterwards.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# Files whose text is read; anything else tracked (data, images) is left alone.
TEXT_SUFFIXES = (".py", ".md", ".ipynb", ".txt", ".cfg", ".toml", ".csv", ".json", ".yml", ".yaml")
TEXT_NAMES = ("Makefile",)
SKIPPED_FOLDERS = ("data/",)  # the course's data: numbers there are never lessons

NUMBER = re.compile(r"(?<!\d)\d{2}(?!\d)")
_LIST = r"\d{2}(?:(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|to|through)\s+|\s*[–-]\s*)\d{2}(?!\d))*"


def patterns(stems: list[str]) -> list[tuple[str, re.Pattern[str]]]:
    """Every context in which a two-digit number is a lesson, each named for the dry-run list."""
    names = "|".join(sorted({re.escape(stem[3:]) for stem in stems}, key=len, reverse=True))
    return [
        ("notebook stem", re.compile(rf"(?<!\d)\d{{2}}_(?:{names})(?![a-z_])")),
        ("exercise id", re.compile(r"(?<![A-Za-z0-9])ex\d{2}(?=[-_])")),
        ("lessonNN", re.compile(r"(?<![A-Za-z0-9])[Ll]esson-?\d{2}(?!\d)")),
        ("quiz(NN)", re.compile(r"""quiz\((["'])\d{2}\1\)""")),
        ("Claim(NN)", re.compile(r"""\b(?:Claim\(|evidence_from=)(["'])\d{2}\1""")),
        ("notebook/lesson NN", re.compile(rf"\b(?:[Nn]otebooks?|[Ll]essons?)\s+{_LIST}")),
        ("NB=NN", re.compile(r"\bNB=\d{2}(?!\d)")),
        ("command NN", re.compile(r"\b(?:workbook|make) (?:check|execute|release)(?: \d{2}(?!\d))+")),
        ("NN · Title", re.compile(r"(?<!\d)\d{2} ·")),
        ("NN's", re.compile(r"(?<![\d.,])\d{2}'s\b")),
        ("[NN](link)", re.compile(r"\[\d{2}\]\(")),
        ("(NN) aside", re.compile(r"(?<![\w(])\(\d{2}(?=\)|: )")),  # "a pick (06)", "(14: stop_reason)"
        ("course-map row", re.compile(r"^\| \d{2} \| \[", re.MULTILINE)),
        ("used-in column", re.compile(rf"^(?=\| (?:<a id=\"r\d+\"></a>)?R\d+ \|).*\| ({_LIST}) \|\s*$", re.MULTILINE)),
    ]


# Code that keeps a lesson's number as a bare string, where no general rule can tell it from data
# (``"12"`` is also a day of the month in the SAP data): one rule per file, naming the structure.
FILE_RULES: dict[str, list[tuple[str, re.Pattern[str]]]] = {
    "src/tooldesign/record.py": [("EXPERIMENTS value", re.compile(r'^    "\w+": "\d{2}",$', re.MULTILINE))],
    "src/workbook/edition.py": [("Phrase lessons", re.compile(r'^        \("\d{2}",\),$', re.MULTILINE))],
}

# The tests name a lesson by its number as a string: the first argument of a call or tuple
# (``Claim("10", ...)``, ``notebook_path("10")``, ``("10", "prose", ...)``), a key beside a stem
# (``{"10": "10_tool_set_size"}``) or a comparison with ``number``. In tests nothing else looks so.
TEST_RULES: list[tuple[str, re.Pattern[str]]] = [
    ('("NN", ...) in a test', re.compile(r'(?<=\()"\d{2}"(?=[,)])')),
    ('"NN": stem in a test', re.compile(r'"\d{2}"(?=: "\d{2}_[a-z])')),
    ('number == "NN" in a test', re.compile(r'\bnumber == "\d{2}"')),
]


@dataclass(frozen=True)
class Change:
    """One rewritten span: where, under which rule, and the text before and after."""

    path: str
    rule: str
    before: str
    after: str
    context: str


def shift(number: int, after: int, last: int) -> int:
    """The number a lesson has once the slot after ``after`` is open."""
    return number + 1 if after < number <= last else number


class Renumberer:
    """Rewrites text so that every lesson reference above ``after`` names the next number."""

    def __init__(self, after: int, stems: list[str]) -> None:
        self.after = after
        self.last = max(int(stem[:2]) for stem in stems)
        self.rules = patterns(stems)

    def rewrite(self, text: str, where: str, changes: list[Change]) -> str:
        """``text`` with every lesson reference shifted once; one entry per changed number goes to ``changes``.

        The rules only find the numbers; they are all shifted together afterwards, each position once,
        however many rules matched it (a stem inside a link, say), so no number moves twice.
        """
        tokens: dict[int, tuple[str, str]] = {}  # position -> (number, rule that found it)
        extra = TEST_RULES if where.startswith("tests/") and where.endswith(".py") else []
        for rule, pattern in self.rules + FILE_RULES.get(where, []) + extra:
            for match in pattern.finditer(text):
                start, end = match.span(1) if rule == "used-in column" else match.span()
                for token in NUMBER.finditer(text, start, end):
                    tokens.setdefault(token.start(), (token.group(), rule))
        out: list[str] = []
        position = 0
        for index in sorted(tokens):
            old, rule = tokens[index]
            new = f"{shift(int(old), self.after, self.last):02d}"
            if new == old:
                continue
            out.append(text[position:index])
            out.append(new)
            position = index + 2
            changes.append(Change(where, rule, old, new, _around(text, index, index + 2)))
        out.append(text[position:])
        return "".join(out)


def _around(text: str, start: int, end: int, width: int = 50) -> str:
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end == -1 else line_end
    left = max(line_start, start - width)
    right = min(line_end, end + width)
    return ("…" if left > line_start else "") + text[left:right] + ("…" if right < line_end else "")


def _strings(node: object, edit: Callable[[str], str]) -> object:
    """``node`` (parsed JSON) with ``edit`` applied to every string in it, keys left as they are."""
    if isinstance(node, str):
        return edit(node)
    if isinstance(node, list):
        return [_strings(item, edit) for item in node]
    if isinstance(node, dict):
        return {key: _strings(value, edit) for key, value in node.items()}
    return node


def tracked_files(root: Path) -> list[str]:
    listed = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True, check=True)
    return [line for line in listed.stdout.splitlines() if line]


def is_text(path: str) -> bool:
    return not path.startswith(SKIPPED_FOLDERS) and (
        path.endswith(TEXT_SUFFIXES) or Path(path).name in TEXT_NAMES
    )


def lesson_stems(root: Path) -> list[str]:
    return sorted(p.stem for p in (root / "solutions").glob("[0-9][0-9]_*.ipynb"))


def edit_text(path: str, text: str, renumberer: Renumberer, changes: list[Change]) -> str:
    """The new text of one file; a notebook is edited string by string and re-serialised."""
    if not path.endswith(".ipynb"):
        return renumberer.rewrite(text, path, changes)
    import nbformat

    try:  # nbformat joins each source and output text into one string, so a rule can span lines
        notebook = nbformat.reads(text, as_version=nbformat.NO_CONVERT)
    except Exception:  # a test's deliberately broken "notebook": plain text
        return renumberer.rewrite(text, path, changes)
    plain = json.loads(json.dumps(notebook))
    edited = _strings(plain, lambda s: renumberer.rewrite(s, path, changes))
    if edited == plain:
        return text
    return nbformat.writes(nbformat.from_dict(edited)) + "\n"


def moves(paths: list[str], renumberer: Renumberer) -> Iterator[tuple[str, str]]:
    """(old, new) for every tracked path whose name holds a lesson number that shifts, highest first."""
    found = []
    for path in paths:
        new = renumberer.rewrite(path, path, [])
        if new != path:
            found.append((path, new))
    yield from sorted(found, key=lambda pair: pair[0], reverse=True)


def run(root: Path, after: int, dry_run: bool, out: Callable[[str], None] = print) -> list[Change]:
    """Shift every lesson above ``after`` in the course at ``root``; returns the changes made (or planned)."""
    stems = lesson_stems(root)
    if not stems:
        raise SystemExit(f"no lessons in {root / 'solutions'}")
    renumberer = Renumberer(after, stems)
    paths = tracked_files(root)
    changes: list[Change] = []
    for path in paths:
        if not is_text(path) or path == "scripts/renumber.py" or path == "tests/test_renumber.py":
            continue
        file = root / path
        if not file.is_file():
            continue
        text = file.read_text(encoding="utf-8")
        new_text = edit_text(path, text, renumberer, changes)
        if new_text != text and not dry_run:
            file.write_text(new_text, encoding="utf-8")
    for change in changes:
        out(f"{change.path}: [{change.rule}] {change.before} -> {change.after}   | {change.context}")
    planned = list(moves(paths, renumberer))
    for old, new in planned:  # highest number first, so no move lands on a file not yet moved
        out(f"move {old} -> {new}")
        if not dry_run:
            subprocess.run(["git", "mv", old, new], cwd=root, check=True)
    out(f"{len(changes)} changes in {len({c.path for c in changes})} files, {len(planned)} files moved"
        + (" (dry run: nothing written)" if dry_run else ""))
    return changes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--insert-after", required=True, type=int, metavar="NN",
                        help="the lesson after which a slot opens (every later lesson moves up one)")
    parser.add_argument("--dry-run", action="store_true", help="print every change and write nothing")
    parser.add_argument("--root", type=Path, default=ROOT, help="the course folder (default: this one)")
    args = parser.parse_args(argv)
    run(args.root, args.insert_after, args.dry_run)
    return 0


if __name__ == "__main__":
    sys.exit(main())
