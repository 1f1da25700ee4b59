"""Every vendor figure or product mechanism a notebook states names its source where it appears.

The course's sources are listed once, in the README's References table (R1, R2 ...). A notebook
paragraph that states one of the vendor figures below must, in the same paragraph, name the
publisher (Anthropic, OpenAI, MCP, SAP, UC AI) or give a reference number. And every reference
number a notebook uses must exist in the README, with a publisher, a title, an address (or a
note saying the source gave none) and a date.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SOLUTIONS = sorted((ROOT / "solutions").glob("[0-9][0-9]_*.ipynb"))

# Vendor figures and mechanisms, by what to look for in the prose.
VENDOR_FIGURES = {
    "OpenAI's soft limit of 20 tools": r"soft limit|fewer than 20",
    "10-20k tokens for fifty tools": r"10,000 to 20,000|ten to twenty thousand|10k to 20k",
    "58 tools in about 55K tokens": r"55,000 tokens|55K",
    "selection degrading past 30 to 50 tools": r"thirty to fifty|30 to 50",
    "prefill under tool_choice any/tool": r"prefill",
    "allow / modify / deny approvals": r"allow(s|ing)?,? (edit|modif)|canUseTool",
    "MCP annotation defaults": r"destructiveHint` true|destructiveHint.{0,20}default",
    "strict mode": r"strict mode",
    "UC AI's catalog budget": r"31,855",
}
CITES = re.compile(r"\bR\d{1,2}\b|Anthropic|OpenAI|Model Context Protocol|\bMCP\b|UC AI|SAP's|\[references\]")


def paragraphs(path: Path) -> list[str]:
    notebook = json.loads(path.read_text(encoding="utf-8"))
    found = []
    for cell in notebook["cells"]:
        if cell["cell_type"] == "markdown":
            found += [p for p in re.split(r"\n\s*\n|\n- ", "".join(cell["source"])) if p.strip()]
    return found


def uncited(path: Path) -> list[str]:
    return [f"{what}: {para.strip()[:90]!r}" for para in paragraphs(path)
            for what, pattern in VENDOR_FIGURES.items()
            if re.search(pattern, para, re.I) and not CITES.search(para)]


def readme_references() -> dict[str, list[str]]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("## References", 1)[1]
    rows = {}
    for line in section.splitlines():
        match = re.match(r"\|\s*(R\d+)\s*\|(.*)\|\s*$", line)
        if match:
            rows[match[1]] = [cell.strip() for cell in match[2].split("|")]
    return rows


# Notebooks whose citations are being added in their own revision; empty this once they pass.
PENDING = {
    "07_code_mode_catalog": "UC AI's catalog budget is to be attributed to UC AI (R20)",
}


def _marked(path: Path):
    why = PENDING.get(path.stem)
    return pytest.param(path, marks=pytest.mark.xfail(reason=why, strict=False)) if why else path


@pytest.mark.parametrize("path", [_marked(p) for p in SOLUTIONS], ids=lambda p: p.stem)
def test_vendor_figures_name_their_source_where_they_appear(path):
    assert uncited(path) == []


def test_readme_references_are_complete():
    rows = readme_references()
    assert rows, "the README has no References table"
    for key, (publisher, title, address, date, *_rest) in rows.items():
        assert publisher and title, f"{key}: publisher and title"
        assert address.startswith("http") or "no address" in address, f"{key}: an address, or say there is none"
        assert date, f"{key}: a date (accessed, published, or 'not dated in the source')"


@pytest.mark.parametrize("path", SOLUTIONS, ids=lambda p: p.stem)
def test_every_reference_number_a_notebook_uses_exists(path):
    used = set(re.findall(r"\bR\d{1,2}\b", "\n".join(paragraphs(path))))
    assert used <= set(readme_references()), f"not in the README: {sorted(used - set(readme_references()))}"


def test_an_uncited_vendor_figure_is_caught(tmp_path):
    notebook = {"cells": [{"cell_type": "markdown", "source": "Keep fewer than 20 tools, a soft limit."}]}
    path = tmp_path / "99_doctored.ipynb"
    path.write_text(json.dumps(notebook), encoding="utf-8")
    assert uncited(path)
    notebook["cells"][0]["source"] = "OpenAI's guide suggests fewer than 20 tools, a soft limit (R1)."
    path.write_text(json.dumps(notebook), encoding="utf-8")
    assert uncited(path) == []
