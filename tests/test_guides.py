"""The README fits on a page and its guides in docs/ keep every instruction it used to give.

The README once held every guide (over 600 lines); now it says what the course is, the two commands,
the lesson map, prerequisites and duration, and links one guide per reader. No command was lost in the
move: ``tests/fixtures/readme_commands_40cf6dd.txt`` lists every command the README taught before it,
and each must still appear, as written, in the README or a guide.
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
FIXTURE = ROOT / "tests" / "fixtures" / "readme_commands_40cf6dd.txt"
GUIDES = ("learner.md", "instructor.md", "lab-day.md", "real-models.md", "mcp-server.md", "references.md",
          "glossary.md", "AUTHORING.md")
MOST_LINES = 150


def flat(text: str) -> str:
    """Text with line continuations joined and every run of whitespace one space."""
    return " ".join(text.replace("\\\n", " ").split())


def taught() -> list[str]:
    lines = FIXTURE.read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line.strip() and not line.startswith("#")]


def guides_text(root: Path = ROOT) -> str:
    return flat("\n".join((root / p).read_text(encoding="utf-8")
                          for p in ("README.md", *(f"docs/{g}" for g in GUIDES))))


def lost(commands: list[str], text: str) -> list[str]:
    return [command for command in commands if command not in text]


def test_the_fixture_holds_the_old_readmes_commands():
    commands = taught()
    assert len(commands) >= 80, "the old README taught some ninety commands"
    for command in ("make lab", "make test", "make grade SUBMISSIONS=submissions", "ollama pull qwen3:4b",
                    ".venv/bin/tooldesign serve --transport http --port 8000", "make currency ALL=1"):
        assert command in commands, command


@pytest.mark.parametrize("command", taught())
def test_every_command_the_old_readme_taught_is_in_a_guide(command):
    assert command in guides_text(), f"{command!r} is in no guide: the README's move to docs/ lost it"


def test_a_lost_command_is_caught():
    text = guides_text()
    assert lost(["make lab", "make wheelhouse PLATFORMS=\"linux_x86_64\" PYTHONS=\"3.9\""], text) == [
        "make wheelhouse PLATFORMS=\"linux_x86_64\" PYTHONS=\"3.9\""]
    assert lost(["ollama pull qwen3:4b"], flat("ollama pull\nqwen3:4b")) == []  # a line break is no loss
    assert lost(["ollama pull qwen3:4b"], "ollama pull qwen3") == ["ollama pull qwen3:4b"]


def test_the_readme_fits_on_a_page():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= MOST_LINES, f"the README has {len(readme.splitlines())} lines; at most {MOST_LINES}"
    for needed in ("make lab", "make test", "## The course map", "## Before you start", "minutes in all"):
        assert needed in readme, needed


def test_the_readme_links_one_guide_per_reader():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    linked = set(re.findall(r"\]\(docs/([\w.-]+\.md)\)", readme))
    assert set(GUIDES) <= linked, f"the README links no {sorted(set(GUIDES) - linked)}"
    for name in GUIDES:
        assert (ROOT / "docs" / name).is_file(), name


def test_each_guide_answers_its_reader():
    """What each reader looks for is in that reader's guide."""
    wants = {
        "learner.md": ("make lab", "make check NB=02", "make doctor", "Without make (Windows)", "## Get help",
                       "real-models.md"),
        "instructor.md": ("make handout", "make grade", "--export", "Gradescope", "--hand-grades", "make currency"),
        "lab-day.md": ("make wheelhouse", "WHEELS=", "devcontainer", "mybinder.org", "## Troubleshooting"),
        "real-models.md": ("OPENAI_API_KEY", "ollama serve", "--record"),
        "mcp-server.md": ("mcpServers", "--transport http", "Inspector"),
        "references.md": ('<a id="r1"></a>R1', "## References"),
        "glossary.md": ("## Glossary", "boundary clause"),
    }
    for name, phrases in wants.items():
        text = (ROOT / "docs" / name).read_text(encoding="utf-8")
        for phrase in phrases:
            assert phrase in text, f"docs/{name} lacks {phrase!r}"


def test_no_link_points_at_the_readmes_old_sections():
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "move_reference_links.py"), "--check"],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0 and done.stdout == "", done.stdout
    assert "## References" not in (ROOT / "README.md").read_text(encoding="utf-8")
