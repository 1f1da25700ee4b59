"""What the course claims that the world may have changed: list the claims due for a re-read.

The course names things that change every quarter: model ids, prices, SDK versions, protocol
revisions, beta headers, parameter names, figures from vendors' pages. ``docs/currency.csv`` lists
each such claim once, with the page it came from and the date it was read. Before each run of the
course, ``make currency`` prints the claims read more than six months ago, oldest first, with their
pages: re-read each page, fix the course where the world moved, and set the row's date.

    python scripts/currency.py                      # claims older than six months, relative to today
    python scripts/currency.py --today 2027-06-01   # as of another day
    python scripts/currency.py --all                # every claim, oldest first

Plain Python 3.10 and the standard library only, so it runs before anything is installed.
Adding a claim is adding a row: id, kind, value, claim, source, read_on (YYYY-MM-DD), used_in.
``tests/test_currency.py`` fails when a notebook names a model id, a protocol revision or a pinned
SDK version the file lacks, or when a row lacks its source or date.
"""

from __future__ import annotations

import argparse
import csv
import datetime as dt
import json
import re
import sys
from dataclasses import dataclass
from pathlib import Path

MANIFEST = Path(__file__).resolve().parent.parent / "docs" / "currency.csv"
COLUMNS = ("id", "kind", "value", "claim", "source", "read_on", "used_in")
KINDS = ("spec-revision", "sdk-version", "model-id", "price", "beta-header", "parameter", "doc-figure")
MONTHS = 6
# The client libraries whose version a lesson may name; their pins live in requirements.txt.
SDKS = ("openai", "anthropic", "mcp")

# What a notebook may name that the manifest must list (the patterns say what counts as a name).
MODEL_ID = re.compile(
    r"(?<![\w/.-])(?:"
    r"gpt-(?:oss|[0-9])[\w.-]*"  # OpenAI: gpt-6-luna, gpt-4o-mini, gpt-oss-20b
    r"|o[134](?:-mini|-pro)?(?![\w-]|\.\w)"  # OpenAI's o-series
    r"|claude-(?:opus|sonnet|haiku|fable|mythos|instant|[0-9])[\w.-]*"  # Anthropic
    r"|(?:qwen|llama|mistral|gemma|phi|granite|smollm|deepseek-r)[0-9][\w.]*(?::[\w.-]+)?"  # Ollama tags
    r")"
)
MCP_NEAR = re.compile(
    r"MCP|Model Context Protocol|modelcontextprotocol|protocol version|revision", re.IGNORECASE
)
REVISION = re.compile(r"(?<![\d-])(20[0-9]{2}-[01][0-9]-[0-3][0-9])(?![\d-])")
SDK_VERSION = re.compile(r"\b(" + "|".join(SDKS) + r")(?:==|\s+v?|\s*=\s*)([0-9]+\.[0-9]+\.[0-9]+)\b")
TEXT_OUTPUTS = ("text/plain", "text/markdown", "text/html")


class ManifestError(Exception):
    """A problem with the manifest or the arguments, said in one line."""


@dataclass(frozen=True)
class Claim:
    """One version-sensitive claim of the course: what it says, where it came from, when it was read."""

    id: str
    kind: str
    value: str
    claim: str
    source: str
    read_on: dt.date
    used_in: tuple[str, ...]


def _date(text: str, where: str) -> dt.date:
    try:
        return dt.date.fromisoformat(text.strip())
    except ValueError:
        raise ManifestError(f"{where}: {text.strip()!r} is not a date; write it as YYYY-MM-DD") from None


def load(path: Path = MANIFEST) -> list[Claim]:
    """Every row of the manifest as a Claim; the first bad row stops it with a one-line error."""
    try:
        with open(path, newline="", encoding="utf-8") as handle:
            reader = csv.DictReader(handle)
            if tuple(reader.fieldnames or ()) != COLUMNS:
                raise ManifestError(f"{path}: the header must be {','.join(COLUMNS)}")
            rows = list(reader)
    except FileNotFoundError:
        raise ManifestError(
            f"{path}: no such file; run from the course folder or restore docs/currency.csv"
        ) from None
    claims, seen = [], set()
    for line, row in enumerate(rows, start=2):
        where = f"{path.name} line {line}"
        if None in row or any(row[c] is None for c in COLUMNS):
            raise ManifestError(
                f"{where}: needs exactly {len(COLUMNS)} fields ({', '.join(COLUMNS)}); quote a value with commas"
            )
        for column in ("id", "kind", "value", "claim", "source", "read_on"):
            if not row[column].strip():
                raise ManifestError(
                    f"{where}: the {column} is empty; every claim names its source and the date it was read"
                )
        if row["kind"] not in KINDS:
            raise ManifestError(f"{where}: kind {row['kind']!r} is not one of {', '.join(KINDS)}")
        if row["id"] in seen:
            raise ManifestError(f"{where}: the id {row['id']!r} is used twice; give each claim its own id")
        seen.add(row["id"])
        source = row["source"].strip()
        if not (source.startswith(("https://", "http://")) or source.startswith("docs/references.md#")):
            raise ManifestError(
                f"{where}: the source must be an address (https://...) or docs/references.md#references Rnn"
            )
        claims.append(
            Claim(
                row["id"].strip(),
                row["kind"].strip(),
                row["value"].strip(),
                row["claim"].strip(),
                source,
                _date(row["read_on"], where),
                tuple(part.strip() for part in row["used_in"].split(";") if part.strip()),
            )
        )
    return claims


def notebook_text(path: Path) -> str:
    """Markdown, code and text outputs of a notebook (images and widget state left out)."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    parts = []
    for cell in notebook.get("cells", []):
        parts.append("".join(cell.get("source", "")))
        for output in cell.get("outputs", []):
            parts.append("".join(output.get("text", "")))
            data = output.get("data", {})
            parts.extend("".join(data[kind]) for kind in TEXT_OUTPUTS if kind in data)
    return "\n".join(parts)


def names_in(text: str) -> set[tuple[str, str]]:
    """The version-sensitive names a text contains: (kind, value) for model ids, MCP revisions, SDK versions."""
    found = {("model-id", m.group(0).rstrip(".-")) for m in MODEL_ID.finditer(text)}
    for m in REVISION.finditer(text):
        if MCP_NEAR.search(text[max(0, m.start() - 80) : m.end() + 20]):
            found.add(("spec-revision", m.group(1)))
    found |= {("sdk-version", f"{m.group(1)} {m.group(2)}") for m in SDK_VERSION.finditer(text)}
    return found


def listed(claims: list[Claim]) -> set[tuple[str, str]]:
    """What the manifest lists, in the form ``names_in`` gives (an SDK row's id is sdk:NAME)."""
    names = {(c.kind, c.value) for c in claims if c.kind in ("model-id", "spec-revision")}
    names |= {
        ("sdk-version", f"{c.id.split(':', 1)[1]} {c.value}") for c in claims if c.kind == "sdk-version"
    }
    return names


def unlisted(claims: list[Claim], texts: dict[str, str]) -> list[str]:
    """One line per name a text uses that the manifest lacks: what, where, and what to do."""
    known = listed(claims)
    return [
        f"{where} names the {kind} {value!r}, which docs/currency.csv lacks: add a row with its source and date"
        for where, text in sorted(texts.items())
        for kind, value in sorted(names_in(text) - known)
    ]


def pins(requirements: Path) -> dict[str, str]:
    """The ``name==version`` pins of a requirements file, names in lower case."""
    found = {}
    for line in requirements.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if "==" in line:
            name, version = line.split("==", 1)
            found[name.strip().lower()] = version.strip()
    return found


def months_before(day: dt.date, months: int) -> dt.date:
    """The same day of the month ``months`` earlier (the month's last day when it has no such day)."""
    month_index = day.year * 12 + day.month - 1 - months
    year, month = divmod(month_index, 12)
    month += 1
    following = dt.date(year + (month == 12), month % 12 + 1, 1)
    last = (following - dt.timedelta(days=1)).day
    return dt.date(year, month, min(day.day, last))


def due(claims: list[Claim], today: dt.date, months: int = MONTHS) -> list[Claim]:
    """The claims read before ``months`` months ago, oldest first."""
    cutoff = months_before(today, months)
    return sorted((c for c in claims if c.read_on < cutoff), key=lambda c: (c.read_on, c.id))


def report(claims: list[Claim], today: dt.date, every: bool, months: int = MONTHS) -> str:
    """The lines the command prints: a heading, then one block per claim with its page."""
    shown = sorted(claims, key=lambda c: (c.read_on, c.id)) if every else due(claims, today, months)
    if every:
        head = f"All {len(shown)} claims of docs/currency.csv, oldest first:"
    elif not shown:
        return (
            f"No claim is older than {months} months on {today.isoformat()} "
            f"(the oldest was read on {min(c.read_on for c in claims).isoformat()})."
        )
    else:
        head = (
            f"{len(shown)} of {len(claims)} claims were read more than {months} months before "
            f"{today.isoformat()}: re-read each page, fix the course where it changed, set read_on."
        )
    lines = [head]
    for c in shown:
        age = (today - c.read_on).days
        lines.append(f"{c.read_on.isoformat()}  ({age} days)  {c.kind:<13} {c.id}: {c.value}")
        lines.append(f"    {c.claim}")
        lines.append(f"    {c.source}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="currency", description="List the course's claims due for a re-read."
    )
    parser.add_argument("--today", help="the day to count from, YYYY-MM-DD (default: today)")
    parser.add_argument("--all", action="store_true", help="list every claim, not only the old ones")
    parser.add_argument("--manifest", default=str(MANIFEST), help="the manifest (default: docs/currency.csv)")
    args = parser.parse_args(argv)
    try:
        today = _date(args.today, "--today") if args.today else dt.date.today()
        claims = load(Path(args.manifest))
    except ManifestError as problem:
        print(f"error: {problem}", file=sys.stderr)
        return 2
    print(report(claims, today, args.all))
    return 0


if __name__ == "__main__":
    sys.exit(main())
