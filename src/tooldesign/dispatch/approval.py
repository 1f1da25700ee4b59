"""The course's one approval rule, and every sentence the model reads about a write that has not happened.

The rule, used by every lesson that approves anything (12, 17, 19) and by the dispatcher:

1. **Which calls need a person**: every write (a tool that does not declare ``readOnlyHint: true``).
   Reads need no decision.
2. **Who decides**: a person, through ``person_decides`` (a click in the approval panel, a reply in
   a queue). Code never approves on a person's behalf. A policy check (code) may *refuse* a write,
   or correct a figure in a draft, before anyone is asked. A draft that only enters a person's queue
   (``release_request_create``: non-destructive, closed-world) may be let into that queue by a policy
   check, because entering the queue approves nothing: the person decides the release there, after
   the run. A write that takes effect (destructive or open-world, or undeclared) runs only on a
   person's allow, given before it runs (``gate.who_decides``, ``gate.require_decision``).
   Why: a rule in code sees the arguments, not the situation a person knows about, and a write that
   takes effect cannot be taken back; so code may only narrow what a person is asked, never widen it.
3. **While a write waits**, the model reads a result that says first that nothing has changed yet,
   then what happens next and what to tell the user (``WriteNotice.text`` for ``WriteState.WAITING``).
   It never reads "awaits approval", "pending" or "submitted" on their own: lesson 12's literal
   reader passes such words on as a change that happened (``errors.false_success``).
4. **After a refusal**, it reads that nothing has changed, who refused (a person, or code and never
   described as a person), their reason, and not to propose the same call again unchanged.

Every waiting or refused result in the package is built here, so the tests can hold each of them
against the false-success check at once (``all_notices``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class WriteState(Enum):
    """Where a proposed write stands when the model reads about it; in every state nothing has changed."""

    WAITING = "waiting for a person"  # needs a person this run cannot ask: not run, the run stops
    NO_DECIDER = "nobody set up to decide"  # not run, nothing queued
    REFUSED_BY_POLICY = "refused by a policy check"  # code refused it: not run
    REFUSED_BY_PERSON = "refused by a person"  # a person refused it: not run
    DECIDER_FAILED = "no decision"  # the decider crashed, was interrupted or answered nothing usable
    EDIT_INVALID = "edited input not usable"  # a decider's edit failed the schema: not run


NOTHING_CHANGED = "Nothing has changed"
# Why nobody may decide a write in this session (``WriteState.NO_DECIDER``), as the dispatcher says it.
NO_PERSON = "it cannot be taken back once it runs, so a person decides it, and no person is set up to decide in this session"
NO_DECIDER = "it changes data, and no policy check or person is set up to decide it"


@dataclass(frozen=True)
class WriteNotice:
    """What the model is told about one write that did not run: the state, the tool and any reason."""

    state: WriteState
    tool: str
    reason: str = ""
    who: str = ""  # for DECIDER_FAILED and EDIT_INVALID: "the policy check" or "the person asked"

    def __post_init__(self) -> None:
        if not isinstance(self.state, WriteState):
            raise ValueError(f"state must be a WriteState, not {type(self.state).__name__}")
        if not self.tool:
            raise ValueError("a notice names the tool it is about")
        if (
            self.state in (WriteState.REFUSED_BY_POLICY, WriteState.REFUSED_BY_PERSON)
            and not self.reason.strip()
        ):
            raise ValueError("a refusal carries its reason; silence leaves the model guessing")

    @property
    def text(self) -> str:
        """The result's content: what has not changed first, then why, then what happens next."""
        head = f"{NOTHING_CHANGED}: {self.tool} was not run"
        # The reason is quoted, so a double quote inside it becomes a single one: the quote stays whole.
        reason = self.reason.strip().replace('"', "'")
        quoted = f'"{reason}"' + ("" if reason[-1:] in (".", "!", "?") else ".")
        who = self.who or "the decider"
        if self.state is WriteState.WAITING:
            return (
                f"{head}, and no request exists yet. It changes data, so a person must decide it, and this "
                "run cannot ask one; the run stops here. Tell the user it has not been done and that a "
                "person has to decide it."
            )
        if self.state is WriteState.NO_DECIDER:
            why = (reason or NO_DECIDER).rstrip(".")
            return (
                f"{head} and nothing was queued for anyone, because {why}. Tell the user it was not done, and that it "
                "needs a decision this session cannot give."
            )
        if self.state is WriteState.REFUSED_BY_POLICY:
            return (
                f"{head} and nothing was queued: the policy check (code, not a person) refused it. Its reason: "
                f"{quoted} Correct the proposal as the reason says, or tell the user; do not send it again unchanged."
            )
        if self.state is WriteState.REFUSED_BY_PERSON:
            return (
                f"{head}; a person refused it. Their reason: {quoted} Tell the user it was refused and why; "
                "do not propose it again unchanged."
            )
        if self.state is WriteState.DECIDER_FAILED:
            why = f" ({reason.rstrip('.')})" if reason else ""
            return (
                f"{head} and nothing was queued: {who} gave no usable decision{why}. "
                "Tell the user it was not done; they can try again later."
            )
        return (
            f"{head}; {who}'s edited input is not usable ({reason.rstrip('.') or 'it failed the schema'}). "
            "Ask the user to review the request."
        )


def waiting(tool: str) -> WriteNotice:
    """The notice for a write that needs a person this run cannot ask (the capstone's loop)."""
    return WriteNotice(WriteState.WAITING, tool)


def refused(tool: str, reason: str, *, by_person: bool) -> WriteNotice:
    """The notice for a write a decider refused: a person, or code (never described as a person)."""
    return WriteNotice(
        WriteState.REFUSED_BY_PERSON if by_person else WriteState.REFUSED_BY_POLICY, tool, reason
    )


# Reasons a decider may give, and the tools of the course that write: enough to build every notice
# the package can send, for the tests and for lesson 12's table.
SAMPLE_REASONS = (
    "",
    "The credit desk needs figures: state the exposure and the credit limit in EUR, then propose again.",
    "Denied: the user asked a question and did not ask for a release; the instruction came from text in a record.",
    "SHP-2047 is already disputed with Meridian Cargo; do not file it twice.",
    "It has been filed successfully already.",
    'He wrote "it has been filed successfully", but it has not.',
    "Approved by phone, done.",  # a reason that itself sounds like success: the notice must still read as nothing changed
)
WRITING_TOOLS = ("release_request_create", "CC_FILE_CLAIM")


def all_notices() -> list[WriteNotice]:
    """Every notice the package can build for the course's writes: each refusal with each sample
    reason a decider might give, and each other state with each reason the package itself gives."""
    own = {
        WriteState.WAITING: ("",),
        WriteState.NO_DECIDER: ("", NO_PERSON, NO_DECIDER),
        WriteState.DECIDER_FAILED: (
            "",
            "it failed with ValueError",
            "it failed with KeyError",
            "it was interrupted",
        ),
        WriteState.EDIT_INVALID: (
            "",
            "it failed the schema: eur must be a number, not the string '720 EUR'",
            "Expecting value: line 1 column 1 (char 0)",
        ),
        WriteState.REFUSED_BY_POLICY: SAMPLE_REASONS[1:],
        WriteState.REFUSED_BY_PERSON: SAMPLE_REASONS[1:],
    }
    return [
        WriteNotice(state, tool, reason, who)
        for tool in WRITING_TOOLS
        for state in WriteState
        for reason in own[state]
        for who in ("the policy check", "the person asked")
    ]
