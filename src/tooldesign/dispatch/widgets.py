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

from tooldesign import access
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


def _same(updated: Any, original: Any) -> bool:
    """Whether edited arguments equal the proposed ones (given as a dict or its JSON text)."""
    try:
        proposed = parse_arguments(original) if isinstance(original, str) else _plain(original)
    except ArgumentsNotParsed:
        return False
    return bool(proposed == updated)


def _plain(arguments: Any) -> Any:
    return dict(arguments) if isinstance(arguments, Mapping) else arguments


def decision_from(action: str, edited: str = "", message: str = "", original: Any = None) -> Decision | str:
    """Turn a click (and the text boxes) into a Decision, or into a sentence saying what is missing.

    An edit that leaves the arguments as proposed (``original``) is an allow, not "allow (modified)":
    the record must say what the approver changed, and they changed nothing.
    """
    if action == "allow":
        return Decision.allow()
    if action == "edit":
        try:
            updated = parse_arguments(edited)
        except ArgumentsNotParsed as err:
            return f"The edited arguments are not a JSON object: {err}"
        if original is not None and _same(updated, original):
            return Decision.allow()
        return Decision.allow_modified(updated, note="edited by the person deciding")
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
    decision = decision_from(action, edited, message, original=call.arguments)
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

    shown = w.HTML(access.readout_html(proposal_text(call)))
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
