"""The course says things in its own words: no run of eight words stands as it does in a source document.

The course was written from four source documents (the seeds). Their facts, figures, API and field
names carry over; their sentences do not. This test compares every run of eight or more words of
each notebook's prose, of every quiz (in a notebook cell or in a package module, wherever the quiz
text is kept: ``tests/test_claims.py`` reads it) and of the README against the seeds, and fails on
each run they share, unless the run lies inside one of the few phrases that must match: a citation
(publisher, title and date of a row of the References table, docs/references.md, read from there), or one of
the identifiers and data values in ``ALLOWED``, each with its reason.

Where are the seeds? In ``$COURSE_SEEDS`` if set, else in ``../shared/seeds`` beside the
repository. Without them the test is skipped, with one line saying where it looked.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from test_claims import ROOT, Passage, all_passages, package_quiz_passages

RUN = 8  # words in a row that may not stand as they do in a seed

# Identifiers and data values that must read as the source reads them, normalised like the text
# (lower case, words only). Citations need no entry: they come from the References table.
ALLOWED: dict[str, str] = {
    "the description is the input not the documentation":
        "the title of the chapter whose guidance 09 quotes beside its sources (its References entry is pending)",
}


def seeds_folder() -> Path | None:
    configured = os.environ.get("COURSE_SEEDS")
    for folder in ([Path(configured)] if configured else []) + [ROOT.parent / "shared" / "seeds"]:
        if folder.is_dir() and any(folder.glob("*.txt")):
            return folder
    return None


def words(text: str) -> list[str]:
    """Lower-case words, with Markdown, code spans and links reduced to the words a reader sees."""
    text = re.sub(r"\]\([^)]*\)", "] ", text)    # a link's address is not prose
    text = re.sub(r"https?://\S+", " ", text)
    return re.findall(r"[a-z0-9_]+", text.lower().replace("’", "'").replace("'", " "))


@dataclass(frozen=True)
class Overlap:
    where: str
    words: str   # the shared run, as words
    seed: str    # the seed file it stands in


def _shingles(tokens: list[str]) -> set[tuple[str, ...]]:
    return {tuple(tokens[i:i + RUN]) for i in range(len(tokens) - RUN + 1)}


def seed_index(folder: Path) -> dict[tuple[str, ...], str]:
    index: dict[tuple[str, ...], str] = {}
    for path in sorted(folder.glob("*.txt")):
        for shingle in _shingles(words(path.read_text(encoding="utf-8", errors="replace"))):
            index.setdefault(shingle, path.name)
    return index


def citations() -> list[str]:
    """Each row of the References table (docs/references.md) as a citation reads: publisher, title, date (words only)."""
    section = (ROOT / "docs" / "references.md").read_text(encoding="utf-8").split("## References", 1)[1]
    found = []
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        key = re.sub(r'^<a id="r\d+"></a>', "", cells[0])  # each row starts with its anchor
        if len(cells) >= 5 and re.fullmatch(r"R\d+", key):
            publisher, title, date = cells[1], cells[2], cells[4]
            found += [" ".join(words(f"{publisher} {title} {date}")), " ".join(words(f"{publisher}, {title}"))]
    return found


def allowed_phrases() -> list[str]:
    return [*ALLOWED, *citations()]


def _allowed(run: list[str], phrases: list[str]) -> bool:
    joined = " ".join(run)
    return any(joined in phrase for phrase in phrases)


def overlaps(passages: list[Passage], index: dict[tuple[str, ...], str]) -> list[Overlap]:
    """Each maximal run of RUN or more words a passage shares with a seed, that no allowed phrase covers."""
    found, phrases = [], allowed_phrases()
    for passage in passages:
        text = passage.text
        if passage.kind == "readme":  # the References table's citation columns are citations, not prose
            text = re.sub(r"(?m)^\|\s*R\d+\s*\|([^|]*\|){4}", "|", text)
        tokens = words(text)
        i = 0
        while i <= len(tokens) - RUN:
            if tuple(tokens[i:i + RUN]) not in index:
                i += 1
                continue
            j = i + RUN
            while j < len(tokens) and tuple(tokens[j - RUN + 1:j + 1]) in index:
                j += 1
            run = tokens[i:j]
            if not _allowed(run, phrases):
                found.append(Overlap(passage.where, " ".join(run), index[tuple(tokens[i:i + RUN])]))
            i = j
    return found


SEEDS = seeds_folder()
needs_seeds = pytest.mark.skipif(SEEDS is None, reason="no seeds: set COURSE_SEEDS or put them in ../shared/seeds")


@needs_seeds
def test_no_sentence_of_the_course_stands_word_for_word_in_a_seed():
    assert SEEDS is not None
    found = overlaps(all_passages(), seed_index(SEEDS))
    assert found == [], "\n".join(f"{o.where}: '{o.words}' ({o.seed})" for o in found)


@needs_seeds
def test_the_allow_list_is_short_and_every_phrase_is_in_a_seed():
    assert SEEDS is not None
    assert len(ALLOWED) <= 6, "the allow-list is for identifiers and data values only; citations need no entry"
    seeds = " ".join(" ".join(words(p.read_text(encoding="utf-8", errors="replace"))) for p in SEEDS.glob("*.txt"))
    assert [p for p in ALLOWED if p not in seeds] == [], "an allowed phrase no seed holds is not needed"


def test_a_copied_sentence_is_caught_and_words_of_our_own_pass():
    seed = ("A definition says what can be called. It does not say what should be called, "
            "and the agent pays for that difference in steps.")
    index = dict.fromkeys(_shingles(words(seed)), "seed.txt")
    copied = Passage("x", "prose", "Note: a definition says what *can* be called. It does not say what *should* be called.")
    assert [o.words for o in overlaps([copied], index)] == [
        "a definition says what can be called it does not say what should be called"]
    quiz = Passage("q", "quiz", "It does not say what should be called, and the agent pays")
    assert overlaps([quiz], index), "quiz text is compared too"
    own = Passage("y", "prose", "A definition lists the calls that are possible, not the one the task needs next.")
    assert overlaps([own], index) == []
    seven = Passage("z", "prose", "it does not say what should be")  # seven words: below the run
    assert overlaps([seven], index) == []


def test_an_allowed_title_passes_and_the_words_around_it_do_not():
    title = "Writing effective tools for AI agents, using AI agents"
    assert any(" ".join(words(title)) in c for c in citations()), "the title comes from the References table"
    index = dict.fromkeys(_shingles(words(f"{title} shows that tools are a contract between systems")), "seed.txt")
    assert overlaps([Passage("t", "prose", "(Anthropic, *Writing effective tools for AI agents, using AI agents*)")],
                    index) == []
    assert overlaps([Passage("t", "prose", "AI agents shows that tools are a contract between systems")], index)


def test_quiz_text_is_found_in_notebooks_and_in_packages():
    kinds = {p.kind for p in all_passages()}
    assert {"prose", "quiz", "readme"} <= kinds
    assert any(p.kind == "quiz" and p.where.startswith("src/workbook/quizzes/") for p in all_passages())


def test_quiz_text_moved_into_a_package_module_is_still_compared(tmp_path):
    copied = "It does not say what should be called, and the agent pays for that difference in steps."
    quizzes = tmp_path / "workbook" / "quizzes"
    quizzes.mkdir(parents=True)
    (quizzes / "lesson10.py").write_text(f'QUIZ = (("Why?", (("Because", {copied!r}, True),)),)\n', encoding="utf-8")
    (tmp_path / "tooldesign").mkdir()
    (tmp_path / "tooldesign" / "levels.py").write_text(
        f"QUESTIONS = [Question({copied!r}, (Choice('a', 'b', correct=True),))]\nHELP = {copied!r}\n", encoding="utf-8")
    found = package_quiz_passages(tmp_path)
    assert {p.where.split(" line")[0] for p in found} == {"src/workbook/quizzes/lesson10.py", "src/tooldesign/levels.py"}
    assert sum(p.text == copied for p in found) == 2, "a quiz module's data, and a Question call elsewhere, not HELP"
    index = dict.fromkeys(_shingles(words(copied)), "seed.txt")
    assert len(overlaps(found, index)) == 2
