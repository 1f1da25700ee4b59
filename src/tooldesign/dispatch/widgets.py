"""An approval panel: a person allows, edits or denies a proposed write, and sees what the model reads back.

The panel is the ``person_decides`` step of the gate: whatever the dispatcher's policy check (code)
has to say is asked first, then the click answers as a person. The logic is in plain functions (``decision_from``, ``decide``) tested without a browser; the
ipywidgets layer in ``approval_panel`` only wires buttons to them. A proposal gets exactly one
decision: after a click the buttons are disabled, as a real approval would be final.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tooldesign.dispatch.calls import ToolCall, ToolResult
from tooldesign.dispatch.gate import Decision, fixed
from tooldesign.dispatch.serialisation import ArgumentsNotParsed, parse_arguments
from tooldesign.dispatch.validate import Dispatcher
from tooldesign.tools.base import echo

ACTIONS = ("allow", "edit", "deny")


def proposal_text(call: ToolCall) -> str:
    """What the person sees: the tool, and the arguments laid out one per line."""
    return f"{call.name} (call {call.id}) proposes:\n" + json.dumps(
        _plain(call.arguments), indent=2, ensure_ascii=False
    )


def _plain(arguments: Any) -> Any:
    return dict(arguments) if isinstance(arguments, Mapping) else arguments


def decision_from(action: str, edited: str = "", message: str = "") -> Decision | str:
    """Turn a click (and the text boxes) into a Decision, or into a sentence saying what is missing."""
    if action == "allow":
        return Decision.allow()
    if action == "edit":
        try:
            return Decision.allow_modified(parse_arguments(edited), note="edited by the person deciding")
        except ArgumentsNotParsed as err:
            return f"The edited arguments are not a JSON object: {err}"
    if action == "deny":
        if not message.strip():
            return "Write a reason for the denial: the model reads it and can act on it."
        return Decision.deny(message.strip())
    return f"Unknown action {echo(action)}; use one of {', '.join(ACTIONS)}."


@dataclass(frozen=True)
class PanelOutcome:
    """What one click produced: a result for the model, or a note to the person (nothing ran)."""

    result: ToolResult | None
    note: str


def decide(
    dispatcher: Dispatcher, call: ToolCall, action: str, edited: str = "", message: str = ""
) -> PanelOutcome:
    """Apply a click: the call is dispatched with this click as the person's decision."""
    decision = decision_from(action, edited, message)
    if isinstance(decision, str):
        return PanelOutcome(None, decision)
    result = dispatcher.dispatch(call, person_decides=fixed(decision))
    return PanelOutcome(result, f"a person decided: {decision.label}; ran: {result.ran}")


def _content(result: ToolResult) -> str:
    block = result.block()
    return json.dumps(block, indent=2, ensure_ascii=False)


def approval_panel(dispatcher: Dispatcher, call: ToolCall) -> Any:
    """The widget: the proposal, an editable copy of its arguments, a reason box, three buttons."""
    import ipywidgets as w  # the shell only; the logic above needs no widgets

    shown = w.HTML(f"<pre>{proposal_text(call)}</pre>")
    edited = w.Textarea(
        value=json.dumps(dict(call.arguments), indent=2, ensure_ascii=False),
        description="Edit:",
        layout=w.Layout(width="95%", height="110px"),
    )
    reason = w.Text(
        placeholder="Reason the model will read (needed to deny)",
        description="Reason:",
        layout=w.Layout(width="95%"),
    )
    buttons = [
        w.Button(description=label.capitalize(), button_style=style)
        for label, style in (("allow", "success"), ("edit", "warning"), ("deny", "danger"))
    ]
    out = w.Output()

    def click(action: str):
        def handler(_button: Any) -> None:
            outcome = decide(dispatcher, call, action, edited.value, reason.value)
            with out:
                out.clear_output()
                print(outcome.note)
                if outcome.result is not None:
                    print("the model reads:\n" + _content(outcome.result))
            if outcome.result is not None:
                for button in buttons:
                    button.disabled = True

        return handler

    for label, button in zip(ACTIONS, buttons):
        button.on_click(click(label))
    return w.VBox([shown, edited, reason, w.HBox(buttons), out])
