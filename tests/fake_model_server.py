"""A fake model server on 127.0.0.1 for the real-model pickers' tests: never the internet.

It speaks just enough of two APIs for the official client libraries to work against it:

* OpenAI's ``POST /v1/chat/completions`` (also what Ollama serves) and ``GET /v1/models``
* Anthropic's ``POST /v1/messages``

and it checks what it receives before answering: a model and a user message, every tool in the
provider's format with a name, description and object schema, a ``tool_choice`` spelled the way that
provider spells it, and ``strict`` set exactly on the tools whose schema is strict-ready (closed
objects, every property required). Its own strict rule is written independently of the package's checker, so the test
compares two implementations. A request that breaks a check gets a 400 whose message names the
problem (the client raises it). Otherwise it answers with a tool call chosen by ``choose``, and
reports usage in the provider's own shape, its counts made up here (input: the request body's length
/ 4; output: the answer's; ``cached`` of the input said to come from the cache):

* Anthropic (``types.Usage``): ``input_tokens`` (the input not read from or written to the cache),
  ``output_tokens``, ``cache_read_input_tokens``, ``cache_creation_input_tokens``;
* OpenAI (``types.CompletionUsage``): ``prompt_tokens`` (the cached ones included),
  ``completion_tokens``, ``total_tokens``, ``prompt_tokens_details.cached_tokens``.

``usage="counts"`` leaves out the cache fields (as Ollama's OpenAI-compatible endpoint does),
``usage="none"`` the whole ``usage`` object (OpenAI's type allows it; a server that omits it must be
recorded as "not reported"). ``usages`` keeps each answer's usage as sent.

``tool_choice`` is honoured as each provider documents it, with the SDKs' typed parameters as the
spelling (anthropic ``ToolChoiceParam``, openai ``ChatCompletionToolChoiceOptionParam``):

* Anthropic: absent or ``{"type": "auto"}`` (the chooser decides), ``{"type": "any"}`` (some call: the
  chooser's, or the first tool if it would decline), ``{"type": "tool", "name": N}`` (a call of N, which
  must be offered), ``{"type": "none"}`` (text, no call); ``disable_parallel_tool_use`` may go with the
  first three.
* OpenAI Chat Completions, and Ollama's OpenAI-compatible endpoint (its compatibility page lists
  ``tool_choice`` among the supported request fields, https://docs.ollama.com/api/openai-compatibility):
  absent or "auto", "required", ``{"type": "function", "function": {"name": N}}``, "none", and
  ``{"type": "allowed_tools", "allowed_tools": {"mode": "auto"|"required", "tools": [...]}}``.

Anything else, or a name not among the tools, is a 400 naming it. ``choices`` keeps each request's
tool_choice as the server read it: ("auto", None), ("any", None), ("tool", N) or ("none", None).
"""
from __future__ import annotations

import json
import os
from http.server import BaseHTTPRequestHandler
from typing import Any, Callable

import pytest

from tooldesign.selection import config
from tooldesign.wire.capture import LoopbackServer

# Every setting that could point a test at a real model: keys, base URLs, model names, the provider.
SETTINGS = [*config.KEY_ENV.values(), *config.BASE_URL_ENV.values(), *config.MODEL_ENV.values(),
            *config.AICORE_ENV, config.PROVIDER_ENV]


@pytest.fixture
def no_real_settings(monkeypatch, tmp_path):
    """No key, base URL or .env from the developer's machine may leak into a test, and nothing a
    test's .env sets may leak out of it. A test module uses it with
    ``pytestmark = pytest.mark.usefixtures("no_real_settings")`` after importing it."""
    saved = {name: os.environ.pop(name) for name in SETTINGS if name in os.environ}
    monkeypatch.chdir(tmp_path)
    yield
    for name in SETTINGS:
        os.environ.pop(name, None)
    os.environ.update(saved)

Chooser = Callable[[str, list[str]], "str | None"]


def first_tool(request: str, names: list[str]) -> str | None:
    return names[0] if names else None


def _closed(schema: Any) -> bool:
    """Strict-ready, by this file's own reading: every object closed and fully required."""
    if not isinstance(schema, dict):
        return True
    kinds = schema.get("type")
    kinds = kinds if isinstance(kinds, list) else [kinds]
    if "object" in kinds:
        props = schema.get("properties") or {}
        if not props or schema.get("additionalProperties") is not False:
            return False
        if sorted(schema.get("required") or []) != sorted(props):
            return False
        return all(_closed(p) for p in props.values())
    return _closed(schema.get("items")) if "items" in schema else True


def _tokens(body: dict) -> int:
    return len(json.dumps(body)) // 4


class FakeModelServer(LoopbackServer):
    """Use as a context manager; ``url`` is the base address, ``requests`` what it received
    (path, JSON body and headers with lower-case names), ``problems`` every check that failed."""

    def __init__(self, choose: Chooser = first_tool, models: tuple[str, ...] = (config.DEFAULT_MODELS["ollama"],),
                 arguments: Callable[[str], Any] | None = None, usage: str = "full", cached: int = 0) -> None:
        assert usage in ("full", "counts", "none"), usage
        self.choose = choose
        self.usage, self.cached = usage, cached
        self.usages: list[dict | None] = []
        # the arguments a call carries, by tool name (default {}); a str goes out as it is (OpenAI's
        # arguments are JSON text, so a str that is not JSON is a malformed call)
        self.arguments = arguments or (lambda tool: {})
        self.models = models
        self.requests: list[dict] = []
        self.problems: list[str] = []
        self.choices: list[tuple[str, str | None]] = []
        self._choice: tuple[str, str | None] = ("auto", None)  # the request being answered
        # Answers given before any normal one, first to last: (status, headers, raw body) for the
        # rate-limited, failing and malformed answers a real API sometimes gives.
        self.faults: list[tuple[int, dict[str, str], bytes]] = []
        super().__init__()  # the loopback lifecycle: tooldesign.wire.capture.LoopbackServer

    # ---------- checks ----------

    @staticmethod
    def _openai_choice(choice: Any, names: list[str]) -> tuple[tuple[str, str | None], list[str]]:
        if choice is None or choice == "auto":
            return ("auto", None), []
        if choice in ("required", "none"):
            return ("any" if choice == "required" else "none", None), []
        if isinstance(choice, dict) and choice.get("type") == "function" and set(choice) == {"type", "function"}:
            name = (choice.get("function") or {}).get("name")
            if name in names:
                return ("tool", name), []
            return ("auto", None), [f"tool_choice names {name!r}, which is not among the tools"]
        if isinstance(choice, dict) and choice.get("type") == "allowed_tools":
            allowed = choice.get("allowed_tools") or {}
            listed = [(t.get("function") or {}).get("name") for t in allowed.get("tools") or []]
            if allowed.get("mode") not in ("auto", "required") or not listed or any(n not in names for n in listed):
                return ("auto", None), [f"malformed allowed_tools tool_choice {choice!r:.80}"]
            return ("any" if allowed["mode"] == "required" else "auto", None), []
        return ("auto", None), [f"tool_choice {choice!r:.80} is not one Chat Completions accepts"]

    @staticmethod
    def _anthropic_choice(choice: Any, names: list[str]) -> tuple[tuple[str, str | None], list[str]]:
        if choice is None:
            return ("auto", None), []
        kind = choice.get("type") if isinstance(choice, dict) else None
        allowed = {"auto": {"type", "disable_parallel_tool_use"}, "any": {"type", "disable_parallel_tool_use"},
                   "tool": {"type", "name", "disable_parallel_tool_use"}, "none": {"type"}}
        if kind not in allowed or not set(choice) <= allowed[kind]:
            return ("auto", None), [f"tool_choice {choice!r:.80} is not one the Messages API accepts"]
        if kind == "tool":
            if choice.get("name") not in names:
                return ("auto", None), [f"tool_choice names {choice.get('name')!r}, which is not among the tools"]
            return ("tool", choice["name"]), []
        return (kind, None), []

    def _check_openai(self, body: dict) -> tuple[str, list[str]]:
        problems, names = [], []
        if not body.get("model"):
            problems.append("no model")
        users = [m for m in body.get("messages", []) if m.get("role") == "user"]
        if not users:
            problems.append("no user message")
        for entry in body.get("tools") or []:
            function = entry.get("function", {})
            if entry.get("type") != "function" or not function.get("name") or not function.get("description"):
                problems.append(f"malformed tool {entry!r:.80}")
                continue
            names.append(function["name"])
            problems += self._check_strict(function["name"], function.get("parameters"), function.get("strict"))
        if not names:
            problems.append("no tools sent")
        # As OpenAI's GPT-6 model pages say (config.REASONING_EFFORT): Chat Completions takes function
        # tools from a GPT-6 model only with reasoning effort "none".
        if str(body.get("model", "")).startswith("gpt-6") and body.get("reasoning_effort") != "none":
            problems.append(f"function tools with {body['model']} need reasoning_effort 'none'")
        self._choice, more = self._openai_choice(body.get("tool_choice"), names)
        return (users[-1]["content"] if users else ""), problems + more

    def _check_anthropic(self, body: dict) -> tuple[str, list[str]]:
        problems, names = [], []
        if not body.get("model") or not body.get("max_tokens"):
            problems.append("model and max_tokens are required")
        users = [m for m in body.get("messages", []) if m.get("role") == "user"]
        if not users:
            problems.append("no user message")
        for tool in body.get("tools") or []:
            if not tool.get("name") or not tool.get("description") or "input_schema" not in tool:
                problems.append(f"malformed tool {tool!r:.80}")
                continue
            names.append(tool["name"])
            problems += self._check_strict(tool["name"], tool["input_schema"], tool.get("strict"))
        if not names:
            problems.append("no tools sent")
        self._choice, more = self._anthropic_choice(body.get("tool_choice"), names)
        return (users[-1]["content"] if users else ""), problems + more

    def _pick(self, request: Any, names: list[str]) -> str | None:
        """The call the answer carries: the chooser's under auto, obliged or forbidden otherwise."""
        kind, name = self._choice
        self.choices.append(self._choice)
        if kind == "tool":
            return name
        if kind == "none":
            return None
        chosen = self.choose(request, names)
        return (chosen or names[0]) if kind == "any" else chosen

    def _check_strict(self, name: str, schema: Any, strict: Any) -> list[str]:
        if not isinstance(schema, dict) or schema.get("type") != "object":
            return [f"{name}: the schema must be an object schema"]
        if strict is True and not _closed(schema):
            return [f"{name}: strict is set but the schema is not strict-ready"]
        if strict is not True and _closed(schema):
            return [f"{name}: the schema is strict-ready but strict is not set"]
        return []

    # ---------- answers ----------

    def _openai_answer(self, body: dict, tool: str | None) -> dict:
        message: dict[str, Any] = {"role": "assistant", "content": None}
        if tool is None:
            message["content"] = "No tool fits that request."
        else:
            args = self.arguments(tool)
            message["tool_calls"] = [{"id": f"call_{len(self.requests)}", "type": "function",
                                      "function": {"name": tool,
                                                   "arguments": args if isinstance(args, str) else json.dumps(args)}}]
        prompt, completion = _tokens(body), _tokens(message)
        usage: dict[str, Any] = {"prompt_tokens": prompt, "completion_tokens": completion,
                                 "total_tokens": prompt + completion}
        if self.usage == "full":
            usage["prompt_tokens_details"] = {"cached_tokens": min(self.cached, prompt), "audio_tokens": 0}
            usage["completion_tokens_details"] = {"reasoning_tokens": 0, "audio_tokens": 0}
        return self._with_usage({"id": "chatcmpl-fake", "object": "chat.completion", "created": 0,
                                 "model": body["model"],
                                 "choices": [{"index": 0, "message": message,
                                              "finish_reason": "tool_calls" if tool else "stop"}]}, usage)

    def _with_usage(self, answer: dict, usage: dict) -> dict:
        kept = None if self.usage == "none" else usage
        self.usages.append(kept)
        return answer if kept is None else {**answer, "usage": kept}

    def _anthropic_answer(self, body: dict, tool: str | None) -> dict:
        content: list[dict] = ([{"type": "tool_use", "id": f"toolu_{len(self.requests)}", "name": tool,
                                 "input": self.arguments(tool)}] if tool
                               else [{"type": "text", "text": "No tool fits that request."}])
        total, output = _tokens(body), _tokens({"content": content})
        cached = min(self.cached, total)
        usage: dict[str, Any] = {"input_tokens": total - cached, "output_tokens": output}
        if self.usage == "full":
            usage.update(cache_read_input_tokens=cached, cache_creation_input_tokens=0)
        return self._with_usage({"id": "msg_fake", "type": "message", "role": "assistant", "model": body["model"],
                                 "content": content, "stop_reason": "tool_use" if tool else "end_turn",
                                 "stop_sequence": None}, usage)

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:  # keep test output clean
                pass

            def _fault(self) -> bool:
                if not server.faults:
                    return False
                status, extra, data = server.faults.pop(0)
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                for name, value in extra.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
                return True

            def _send(self, status: int, payload: dict) -> None:
                data = json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                server.requests.append({"path": self.path, "body": None,
                                        "headers": {k.lower(): v for k, v in self.headers.items()}})
                if self.path.endswith("/models"):
                    self._send(200, {"object": "list", "data": [{"id": m, "object": "model", "owned_by": "library"}
                                                                for m in server.models]})
                else:
                    self._send(404, {"error": {"type": "not_found", "message": self.path}})

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
                headers = {k.lower(): v for k, v in self.headers.items()}
                server.requests.append({"path": self.path, "body": body, "headers": headers})
                if self._fault():
                    return
                if self.path.endswith("/chat/completions"):
                    request, problems = server._check_openai(body)
                    names = [t["function"]["name"] for t in body.get("tools") or [] if "function" in t]
                    answer = server._openai_answer
                elif self.path.endswith("/messages"):
                    request, problems = server._check_anthropic(body)
                    names = [t["name"] for t in body.get("tools") or [] if "name" in t]
                    answer = server._anthropic_answer
                else:
                    self._send(404, {"error": {"type": "not_found", "message": self.path}})
                    return
                if problems:
                    server.problems.extend(problems)
                    self._send(400, {"type": "error", "error": {"type": "invalid_request_error",
                                                                "message": "; ".join(problems)}})
                    return
                self._send(200, answer(body, server._pick(request, names)))

        return Handler
