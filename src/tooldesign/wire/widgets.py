"""Lesson 18's control panel: toggle the per-request controls and see the request body the SDK sends.

``request_for`` is the plain function behind it (tested without a browser): it builds the OpenAI
Responses request with the typed controls, sends it through the official client to the capture
server, and returns what arrived, or the refusal if the server refused it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from tooldesign.tools.base import ToolSet
from tooldesign.wire import capture, controls, dialects, examples


def request_for(
    tools: ToolSet, allowed: Sequence[str] = (), parallel: bool = True, defer: bool = False
) -> dict[str, Any]:
    """The Responses body for these settings, as captured; ``{"refused": message}`` on a 400."""
    import openai

    functions = [dialects.responses_tool(t) for t in tools]
    sent: list[Any] = (
        [controls.namespace("sap_orders", "SAP order tools.", functions), controls.OPENAI_TOOL_SEARCH]
        if defer
        else functions
    )
    extra: dict[str, Any] = {"parallel_tool_calls": parallel}
    if allowed:
        extra["tool_choice"] = controls.allowed_tools(allowed)
    with capture.CaptureServer([examples.responses_function_calls_reply()]) as server:
        try:
            capture.openai_client(server).responses.create(
                model="m", input=examples.REQUEST, tools=sent, **extra
            )
        except openai.BadRequestError as refused:
            return {"refused": refused.body["message"] if isinstance(refused.body, dict) else str(refused)}
    body = server.last()
    return {key: body[key] for key in ("tools", "tool_choice", "parallel_tool_calls") if key in body}


def summary(body: dict[str, Any]) -> str:
    """The body with each definition cut to its name, so the controls stand out."""

    def brief(tool: dict[str, Any]) -> Any:
        if tool.get("type") == "namespace":
            return {
                **tool,
                "tools": [
                    {"name": f["name"], "defer_loading": f.get("defer_loading")} for f in tool["tools"]
                ],
            }
        return {"type": tool["type"], "name": tool.get("name")} if tool.get("name") else tool

    shown = {**body, "tools": [brief(t) for t in body["tools"]]} if "tools" in body else body
    return json.dumps(shown, indent=1)


def controls_panel(tools: ToolSet) -> Any:
    """Checkboxes and a list of tools; the request body below follows them."""
    import ipywidgets as w

    names = list(tools.names)
    allowed = w.SelectMultiple(
        options=names,
        value=(),
        description="allowed_tools",
        rows=len(names),
        style={"description_width": "initial"},
    )
    # Whole labels at a laptop's width: a checkbox's default box cuts a long description.
    whole = {"indent": False, "layout": w.Layout(width="max-content")}
    parallel = w.Checkbox(value=True, description="parallel_tool_calls", **whole)
    defer = w.Checkbox(value=False, description="defer in a namespace + tool_search", **whole)
    out = w.HTML()

    def update(_change: Any = None) -> None:
        body = request_for(tools, allowed.value, parallel.value, defer.value)
        out.value = f"<pre>{summary(body)}</pre>"

    for control in (allowed, parallel, defer):
        control.observe(update, names="value")
    update()
    return w.VBox([w.HBox([allowed, w.VBox([parallel, defer])]), out])
