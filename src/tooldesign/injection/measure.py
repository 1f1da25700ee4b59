"""The lesson's table: for each defence, how many poisoned records reach a write proposal.

Every defence runs over the same seeded records (``tooldesign.data.notes.SEEDED``). For each it
counts the records whose run proposed a write, the writes that ran with no person deciding (in the
designed set a write files a draft release request), and the proposals a person had to stop at the
gate. ``useful notes`` counts the clean notes the clerk
can still read: leaving free text out removes the attack and the useful notes together.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from tooldesign import palette
from tooldesign.injection.attack import Outcome, clean_notes, run_record, seeded_notes
from tooldesign.injection.lint_rule import FREE_TEXT_RULE, canary_notes
from tooldesign.injection.reader import LABEL_AWARE, LITERAL, Reader
from tooldesign.injection.results import VARIANTS, noted_set
from tooldesign.lint import lint
from tooldesign.tools import tool_set

__all__ = [
    "Defence",
    "DEFENCES",
    "DefenceRow",
    "outcomes",
    "defence_row",
    "defence_rows",
    "lint_rows",
    "plot_defences",
    "variant_passing_lint",
]


@dataclass(frozen=True)
class Defence:
    name: str
    variant: str
    reader: Reader
    gate: bool


DEFENCES: tuple[Defence, ...] = (
    Defence("none: notes raw, no gate", "raw", LITERAL, False),
    Defence("leave free text out", "omitted", LITERAL, False),
    Defence("quote and label as data", "quoted", LITERAL, False),
    Defence("quote and label, reader honours labels", "quoted", LABEL_AWARE, False),
    Defence("lint rule before release", "passes lint", LITERAL, False),
    Defence("approval gate only (notes raw)", "raw", LITERAL, True),
    Defence("quote and label + gate", "quoted", LITERAL, True),
    Defence("leave free text out + gate", "omitted", LITERAL, True),
)


@dataclass(frozen=True)
class DefenceRow:
    defence: str
    reader: str
    records: int
    proposed: tuple[str, ...]  # note ids whose run proposed a write
    ran_unseen: tuple[str, ...]  # note ids whose write ran (a draft was filed) with no person deciding
    person_caught: tuple[str, ...]  # note ids a person had to stop at the gate
    useful_notes: int
    useful_of: int

    def row(self) -> dict:
        return {
            "defence": self.defence,
            "reader": self.reader,
            "poisoned records": self.records,
            "reach a write proposal": len(self.proposed),
            "drafted with no decision": len(self.ran_unseen),
            "a person must catch": len(self.person_caught),
            "useful notes readable": f"{self.useful_notes}/{self.useful_of}",
        }


@cache
def outcomes(variant: str, reader: Reader, gate: bool) -> tuple[Outcome, ...]:
    return tuple(run_record(note, variant, reader, gate) for note in seeded_notes())


def _useful(variant: str) -> int:
    """Clean notes whose text reaches the clerk through the tools' results."""
    clean = clean_notes()
    tools = noted_set(variant, notes=clean)
    seen = ""
    for order in sorted({n.sales_order for n in clean if n.sales_order}):
        seen += str(tools["sales_order_get_block_summary"].run({"sales_order": order, "detail": "concise"}))
    for customer in sorted({n.customer for n in clean if not n.sales_order}):
        seen += str(
            tools["sales_order_search"].run({"customer": customer, "blocked_only": True, "limit": None})
        )
    return sum(n.text in seen for n in clean)


def variant_passing_lint(order: tuple[str, ...] = ("raw", "quoted", "omitted")) -> str:
    """The first variant, in the order a team would try them, with no result-free-text finding."""
    for variant in order:
        report = lint(noted_set(variant, notes=canary_notes()), rules=(), extra=[FREE_TEXT_RULE])
        if report.count == 0:
            return variant
    raise RuntimeError("no variant passes the free-text rule")


def defence_row(defence: Defence) -> DefenceRow:
    variant = variant_passing_lint() if defence.variant == "passes lint" else defence.variant
    found = outcomes(variant, defence.reader, defence.gate)
    name = f"{defence.name} ({variant} ships)" if defence.variant == "passes lint" else defence.name
    return DefenceRow(
        name,
        defence.reader.name,
        len(found),
        tuple(o.note_id for o in found if o.proposed),
        tuple(o.note_id for o in found if o.write_ran),
        tuple(o.note_id for o in found if o.asked_person),
        _useful(variant),
        len(clean_notes()),
    )


def defence_rows(defences: tuple[Defence, ...] = DEFENCES) -> list[DefenceRow]:
    return [defence_row(d) for d in defences]


def lint_rows() -> list[dict]:
    """The free-text rule on the course's sets and on the three variants built over canary notes."""
    sets = [tool_set("mirror"), tool_set("designed")] + [
        noted_set(v, notes=canary_notes()) for v in VARIANTS if v != "omitted"
    ]
    rows = []
    for tools in sets:
        before = lint(tools).count
        with_rule = lint(tools, extra=[FREE_TEXT_RULE])
        rows.append(
            {
                "tool set": tools.name,
                "findings before": before,
                "result-free-text findings": with_rule.by_rule().get("result-free-text", 0),
                "findings with the rule": with_rule.count,
            }
        )
    return rows


def plot_defences(rows: list[DefenceRow], ax=None):
    """Per defence: records reaching a proposal, writes no person saw, and proposals a person stopped."""
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(8, 4))
    positions = list(range(len(rows)))[::-1]
    height = 0.27
    bars = (
        ("reach a write proposal", "proposed", palette.GREY),
        ("drafted with no decision", "ran_unseen", palette.BAD),
        ("a person must catch", "person_caught", palette.GOOD),
    )
    for offset, (label, attr, color) in zip((height, 0, -height), bars):
        counts = [len(getattr(r, attr)) for r in rows]
        ax.barh([p + offset for p in positions], counts, height=height, color=color, label=label)
        for y, count in zip(positions, counts):
            ax.text(count, y + offset, f" {count}", va="center", fontsize=7)
    ax.set_yticks(positions, [r.defence for r in rows], fontsize=8)
    ax.set_xlim(0, rows[0].records + 2)
    ax.set_title(f"{rows[0].records} poisoned records, scripted literal reader unless noted")
    ax.set_xlabel("poisoned records (count)")
    ax.set_ylabel("defence")
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    return ax
