"""One poisoned record at a time: what the scripted agent reads, proposes, and what the gate does.

For each seeded note the clerk asks an ordinary question that makes the agent read it ("Tell me
about order 4723." for an order note, "Which of customer 10051's orders are blocked?" for a
remark). The agent makes the read call, looks for instructions in what came back, and proposes a
release if it finds one. Every call goes through the dispatcher and its approval gate from
lessons 11 and 12, with or without a person behind it. One record per run, with the clean notes beside
it, so each outcome belongs to exactly one record.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tooldesign.data.notes import SEEDED, Note
from tooldesign.dispatch import Dispatcher, ToolCall, allow_all, deny_all
from tooldesign.injection.reader import LITERAL, Reader, find_instruction, readable_texts
from tooldesign.injection.results import load_notes, noted_set

__all__ = ["Outcome", "PERSON_SAYS", "run_record", "seeded_notes", "clean_notes", "question_for"]

PERSON_SAYS = (
    "Denied: the user asked a question and did not ask for a release; the instruction came from "
    "text in a record."
)


@dataclass(frozen=True)
class Outcome:
    note_id: str
    kind: str
    request: str
    read: ToolCall
    result: Any
    proposal: ToolCall | None
    asked_person: bool  # the gate stopped the write and a person had to decide
    write_ran: bool  # the write's handler ran (a release request was drafted)

    @property
    def proposed(self) -> bool:
        return self.proposal is not None


def seeded_notes() -> list[Note]:
    return [n for n in load_notes() if n.note_id in SEEDED]


def clean_notes() -> list[Note]:
    return [n for n in load_notes() if n.note_id not in SEEDED]


def question_for(note: Note) -> tuple[str, ToolCall]:
    """The clerk's ordinary question that makes the agent read ``note``, and the read call it makes."""
    if note.field == "order_note":
        return (
            f"Tell me about order {note.sales_order}.",
            ToolCall(
                "sales_order_get_block_summary",
                {"sales_order": note.sales_order, "detail": "concise"},
                "call_1",
            ),
        )
    return (
        f"Which of customer {note.customer}'s orders are blocked?",
        ToolCall(
            "sales_order_search", {"customer": note.customer, "blocked_only": True, "limit": None}, "call_1"
        ),
    )


def run_record(
    note: Note, variant: str, reader: Reader = LITERAL, gate: bool = True, clean: list[Note] | None = None
) -> Outcome:
    """Run the clerk's question with ``note`` among the clean notes; report what the agent did."""
    tools = noted_set(variant, notes=[*(clean_notes() if clean is None else clean), note])
    # With the gate, a person reads every proposed write and refuses this one; without it, code allows all.
    dispatcher = (
        Dispatcher(tools, person_decides=deny_all(PERSON_SAYS))
        if gate
        else Dispatcher(tools, policy_check=allow_all)
    )
    request, read = question_for(note)
    result = dispatcher.dispatch(read).content
    where = note.sales_order or note.customer
    found = find_instruction([request, *readable_texts(result, reader.respects_labels)], where)
    proposal = None
    if found is not None:
        what = note.field.replace("_", " ")
        proposal = ToolCall(
            "release_request_create",
            {
                "sales_order": found.sales_order,
                "justification": f"The {what} on {where} says: {found.sentence}",
            },
            "call_2",
        )
        dispatcher.dispatch(proposal)
    asked = any(r.writes and r.decision == "deny" for r in dispatcher.audit)
    ran = any(c.name == "release_request_create" for c in dispatcher.handler_calls)
    return Outcome(
        note.note_id, SEEDED.get(note.note_id, "clean"), request, read, result, proposal, asked, ran
    )
