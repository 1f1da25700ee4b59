"""How far the course's quizzes can be answered without reading them: the figures, and the worst lessons.

A learner who always picks the longest choice (or the shortest, or the one at a fixed place) should
score near chance. Prints, course-wide and per lesson: questions, the share whose right answer is the
longest choice and the shortest, the fewest choices a question offers, and where the right answers
are shown. tests/test_quiz_figures.py fails past the same limits.

    .venv/bin/python scripts/quiz_figures.py
"""

from __future__ import annotations

from workbook.quiz import course_figures

LONGEST_LIMIT = SHORTEST_LIMIT = 0.40
BETWEEN_LIMIT = 0.55  # with three choices chance is a third; past a half the middle becomes the tell


def main() -> None:
    figures = course_figures()
    n = figures.questions
    print(f"questions: {n:,} in {len(figures.lessons):,} quizzes")
    print(f"right answer is the longest choice:  {figures.longest_share:.0%} (limit {LONGEST_LIMIT:.0%})")
    print(f"right answer is the shortest choice: {figures.shortest_share:.0%} (limit {SHORTEST_LIMIT:.0%})")
    print(f"right answer neither longest nor shortest: {figures.between_share:.0%} (limit {BETWEEN_LIMIT:.0%})")
    print(f"fewest choices in a question: {figures.fewest_choices:,}")
    places = ", ".join(f"{chr(65 + p)} {c:,}" for p, c in enumerate(figures.places))
    print(f"right answer shown at: {places} (a blind guesser expects {figures.chance:.1f} right)")
    print()
    print("lesson  questions  longest  shortest  fewest choices  on its outputs  places")
    worst = sorted(figures.lessons, key=lambda f: (-max(f.longest, f.shortest) / f.questions, f.lesson))
    for f in figures.lessons:
        print(f"{f.lesson:>6}  {f.questions:>9}  {f.longest:>7}  {f.shortest:>8}  {f.fewest_choices:>14}  "
              f"{f.reads:>14}  {' '.join(str(c) for c in f.places)}")
    print()
    print("worst lessons (largest share answerable by length alone):")
    for f in worst[:5]:
        share = max(f.longest, f.shortest) / f.questions
        side = "longest" if f.longest >= f.shortest else "shortest"
        print(f"  {f.lesson}: {share:.0%} of {f.questions:,} questions have the {side} choice right")


if __name__ == "__main__":
    main()
