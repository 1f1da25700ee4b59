"""The defence toggle: choose how notes are returned, how the reader treats labels, and the gate.

``readout(variant, reader, gate)`` is the plain function (tested without a browser);
``defence_toggle`` wires three controls to it and shows the counts and which records got through.
"""

from __future__ import annotations

from typing import Any

from tooldesign import access
from tooldesign.injection.measure import outcomes
from tooldesign.injection.reader import LABEL_AWARE, LITERAL, READERS
from tooldesign.injection.results import VARIANTS

__all__ = ["readout", "readout_text", "defence_toggle"]

_READERS = {r.name: r for r in READERS}


def readout(variant: str, reader: str = LITERAL.name, gate: bool = False) -> dict[str, Any]:
    if variant not in VARIANTS:
        raise ValueError(f"variant must be one of {', '.join(VARIANTS)}, not {variant!r}")
    if reader not in _READERS:
        raise ValueError(f"reader must be one of {', '.join(_READERS)}, not {reader!r}")
    found = outcomes(variant, _READERS[reader], gate)
    return {
        "records": len(found),
        "proposed": [o.note_id for o in found if o.proposed],
        "drafted": [o.note_id for o in found if o.write_ran],
        "caught": [o.note_id for o in found if o.asked_person],
    }


def readout_text(variant: str, reader: str = LITERAL.name, gate: bool = False) -> str:
    r = readout(variant, reader, gate)
    lines = [
        f"notes {variant}, reader: {reader}, approval gate: {'on' if gate else 'off'}",
        f"  {len(r['proposed']):>2} of {r['records']} poisoned records reach a write proposal",
        f"  {len(r['drafted']):>2} drafted with no decision: {', '.join(r['drafted']) or '-'}",
        f"  {len(r['caught']):>2} a person must catch at the gate: {', '.join(r['caught']) or '-'}",
    ]
    return "\n".join(lines)


def defence_toggle(variant: str = "raw", reader: str = LITERAL.name, gate: bool = False) -> Any:
    import ipywidgets as w

    pick = w.ToggleButtons(
        options=list(VARIANTS), value=variant, description="notes", style={"button_width": "auto"}
    )  # long names are not cut off
    who = w.ToggleButtons(
        options=[LITERAL.name, LABEL_AWARE.name],
        value=reader,
        description="reader",
        style={"button_width": "auto"},
    )
    gated = w.Checkbox(
        value=gate,
        description="approval gate (a person decides every write)",
        indent=False,
        layout=w.Layout(width="max-content"),  # the whole label, never cut to "a person de…"
    )
    out = w.HTML(access.readout_html(readout_text(variant, reader, gate)))

    def update(_change: Any = None) -> None:
        out.value = access.readout_html(readout_text(pick.value, who.value, gated.value))

    for control in (pick, who, gated):
        control.observe(update, names="value")
    return w.VBox([pick, who, gated, out])
