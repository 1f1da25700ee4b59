"""Published real-model figures beside the stand-ins: one home (tooldesign.evidence), each cited in
docs/references.md and docs/currency.csv, each shown in the lessons it belongs to, none more precise than its row."""

from __future__ import annotations

import csv
import datetime
import json
import re
from pathlib import Path

import pytest

from tooldesign.evidence import FIGURES, LESSONS, Published, evidence_table, figures_for

ROOT = Path(__file__).resolve().parent.parent
REFERENCES = (ROOT / "docs" / "references.md").read_text(encoding="utf-8")
NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


def _row(ref: str) -> str:
    rows = [line for line in REFERENCES.splitlines() if line.startswith(f'| <a id="{ref.lower()}"></a>{ref} |')]
    assert len(rows) == 1, f"docs/references.md needs exactly one reference row for {ref}"
    return rows[0]


@pytest.mark.parametrize("figure", FIGURES, ids=lambda f: f.key)
def test_each_figure_has_its_readme_row_with_its_page(figure):
    row = _row(figure.ref)
    host = re.sub(r"^https?://", "", figure.url).split("/")[0]
    assert host in row, f"{figure.ref}'s row in docs/references.md does not name {figure.url}"


@pytest.mark.parametrize("figure", FIGURES, ids=lambda f: f.key)
def test_no_figure_carries_a_number_its_readme_row_lacks(figure):
    """A figure is never stated more precisely than where it is cited: each of its numbers is in the row."""
    row = _row(figure.ref)
    missing = [n for n in NUMBER.findall(figure.figure) if n not in row]
    assert not missing, f"{figure.key}: {missing} not in the {figure.ref} row of docs/references.md"


def test_each_figure_is_a_currency_row_with_its_page_and_date():
    with (ROOT / "docs" / "currency.csv").open(encoding="utf-8") as handle:
        rows = {r["id"]: r for r in csv.DictReader(handle)}
    for f in FIGURES:
        row = rows.get(f"evidence:{f.key}")
        assert row, f"docs/currency.csv lacks evidence:{f.key}"
        read_on = datetime.datetime.strptime(f.read_on, "%d %B %Y").date().isoformat()
        assert row["source"] == f.url and row["value"] == f.figure and row["read_on"] == read_on


def test_keys_are_unique_and_every_field_is_filled():
    assert len({f.key for f in FIGURES}) == len(FIGURES)
    for f in FIGURES:
        assert all(getattr(f, name) for name in Published.__dataclass_fields__), f.key
        assert re.fullmatch(r"R\d+", f.ref) and f.url.startswith("https://")
        assert f.differs.endswith("."), f"{f.key}: the difference is one sentence"


def _notebook(lesson: str) -> Path:
    (path,) = sorted((ROOT / "solutions").glob(f"{lesson}_*.ipynb"))
    return path


@pytest.mark.parametrize("lesson", LESSONS)
def test_each_lesson_with_figures_shows_them(lesson):
    cells = json.loads(_notebook(lesson).read_text(encoding="utf-8"))["cells"]
    code = ["".join(c["source"]) for c in cells if c["cell_type"] == "code"]
    assert any(f"show_evidence({lesson!r})" in c or f'show_evidence("{lesson}")' in c for c in code), (
        f"{_notebook(lesson).name} should show its published figures with show_evidence({lesson!r})"
    )


def test_the_table_labels_the_figures_as_someone_elses_and_links_readme():
    table = evidence_table("13")
    assert table.splitlines()[0].startswith("Published measurements with real models (someone else's figures")
    assert "not this course's" in table
    rows = [line for line in table.splitlines() if line.startswith("| ") and "---" not in line][1:]
    assert len(rows) == len(figures_for("13")) >= 3
    for f in figures_for("13"):
        assert f"[{f.ref}](../docs/references.md#{f.ref.lower()})" in table and f.url in table and f.figure in table


def test_a_cell_with_a_bar_does_not_break_the_table(monkeypatch):
    import tooldesign.evidence as ev

    odd = Published("odd", ("06",), "a | b", "m", "1%", "R60", "https://x.org", "today", "Differs.")
    monkeypatch.setattr(ev, "FIGURES", (odd,))
    line = ev.evidence_table("06").splitlines()[-1]
    assert line.count(" | ") == 4 and "a \\| b" in line


@pytest.mark.parametrize("bad", ["05", "99", "", "6"])
def test_a_lesson_without_figures_is_one_line_naming_those_with_some(bad):
    with pytest.raises(ValueError, match="lessons with some: 06"):
        figures_for(bad)
