"""Real-model pickers, opt-in: the same ``Picker`` interface, answered by a model.

* ``OpenAICompatiblePicker``: any endpoint that speaks OpenAI's chat completions (OpenAI,
  Azure OpenAI, Ollama, vLLM ...), through the official ``openai`` client.
* ``AnthropicPicker``: Claude, through the official ``anthropic`` client.
* ``SapHubPicker``: SAP's generative AI hub orchestration service, through ``sap-ai-sdk-gen``.
* ``OllamaPicker``: a free model on your own machine, served by Ollama's OpenAI-compatible API
  (``--provider ollama``); no key, no account. ``local_model_status()`` says whether it answers.

Each sends the tool definitions with ``tool_choice`` "auto" (the model may also decline to
call) unless ``pick`` is given another one (lesson 12's settings, in Anthropic's spelling, which
``chat_tool_choice`` translates for OpenAI-compatible endpoints), asks strict mode for every tool
whose schema is strict-ready, and reads the first tool call. Settings come from the environment or a ``.env`` file (see ``config``). A missing library
or key raises :class:`ModelSetupError` whose one-line message names exactly what is missing.
Client libraries are imported only when a picker is built, so the offline course never needs them.
"""

from __future__ import annotations

import importlib
import json
import os
import time
import urllib.error
import urllib.request
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tooldesign.selection import config
from tooldesign.selection.config import SettingError
from tooldesign.selection.pickers import PickedTool
from tooldesign.tools.base import Tool, ToolSet
from tooldesign.tools.schema import is_strict_ready

__all__ = [
    "ModelSetupError",
    "SettingError",
    "OpenAICompatiblePicker",
    "AnthropicPicker",
    "SapHubPicker",
    "OllamaPicker",
    "model_picker",
    "openai_tools",
    "anthropic_tools",
    "chat_tool_choice",
    "system_prompt",
    "LocalModelStatus",
    "local_model_status",
]


# One class for both: config raises it for a malformed setting (SettingError), this module for a missing one.
ModelSetupError = config.ModelSetupError


def _library(module: str, pip_name: str) -> Any:
    try:
        return importlib.import_module(module)
    except ImportError:
        raise ModelSetupError(
            f"the Python package '{pip_name}' is not installed; install it with "
            f"`pip install {pip_name}`, or run offline with --sample"
        ) from None


def _settings(names: Sequence[str], provider: str) -> dict[str, str]:
    config.load_env()
    missing = [name for name in names if not os.environ.get(name)]
    if missing:
        raise ModelSetupError(
            f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} not set; put "
            f"{'it' if len(missing) == 1 else 'them'} in the environment or in .env for "
            f"--provider {provider}, or run offline with --sample"
        )
    for name in names:  # an address among them is checked as every address the course reads is
        if name in config.ENDPOINT_EXAMPLES:
            config.endpoint(name)
    return {n: os.environ[n] for n in names}


def openai_tools(tools: ToolSet | Sequence[Tool]) -> list[dict]:
    """Definitions in OpenAI's function format; strict only where the schema allows it."""
    out = []
    for tool in tools:
        function = dict(tool.definition())
        if is_strict_ready(tool.parameters):
            function["strict"] = True
        out.append({"type": "function", "function": function})
    return out


def anthropic_tools(tools: ToolSet | Sequence[Tool]) -> list[dict]:
    """Definitions in Anthropic's format (input_schema); strict only where the schema allows it."""
    out = []
    for tool in tools:
        entry: dict[str, Any] = {
            "name": tool.name,
            "description": tool.description,
            "input_schema": dict(tool.parameters),
        }
        if is_strict_ready(tool.parameters):
            entry["strict"] = True
        out.append(entry)
    return out


AUTO: dict[str, Any] = {"type": "auto"}


def chat_tool_choice(choice: Mapping[str, Any]) -> Any:
    """A tool_choice in Anthropic's spelling (auto, any, tool NAME, none) as Chat Completions spells it:
    "auto", "required", ``{"type": "function", "function": {"name": NAME}}``, "none" (the SDKs' typed
    ``ToolChoiceParam`` and ``ChatCompletionToolChoiceOptionParam``). Anything else is a ValueError."""
    kind = choice.get("type")
    if kind == "tool" and isinstance(choice.get("name"), str):
        return {"type": "function", "function": {"name": choice["name"]}}
    spelled = {"auto": "auto", "any": "required", "none": "none"}
    if kind not in spelled:
        raise ValueError(f"tool_choice type must be auto, any, tool (with a name) or none, not {kind!r}")
    return spelled[kind]


def system_prompt(instructions: str = "") -> str:
    """The course's system prompt, with a lesson's extra instruction (lesson 12's "call X first") after it."""
    return f"{config.SYSTEM_PROMPT}\n\n{instructions}" if instructions else config.SYSTEM_PROMPT


def _picked(
    name: str | None, text: str, label: str, input_tokens: Any = None, latency_s: float | None = None
) -> PickedTool:
    tokens = input_tokens if type(input_tokens) is int else None  # as the API reported them, or unknown
    latency = round(latency_s, 3) if latency_s is not None else None
    if name:
        return PickedTool(name, why=f"{label} called {name}", input_tokens=tokens, latency_s=latency)
    said = " ".join((text or "").split())[:120]
    return PickedTool(
        None, why=f"{label} answered without a tool call: {said!r}", input_tokens=tokens, latency_s=latency
    )


def _client(provider: str, class_name: str, api_key: str | None, base_url: str | None) -> Any:
    """The provider's official client, with the key and base URL from the arguments or the settings."""
    library = _library(provider, provider)
    if api_key is None:
        api_key = _settings([config.KEY_ENV[provider]], provider)[config.KEY_ENV[provider]]
    if base_url is not None:
        _checked(base_url)
    else:  # passed on explicitly: left None, the library would read the variable again, unchecked
        base_url = config.endpoint(config.BASE_URL_ENV[provider])
    return getattr(library, class_name)(
        api_key=api_key, base_url=base_url, timeout=config.TIMEOUT_SECONDS, max_retries=1
    )


def _checked(base_url: str) -> str:
    """A base URL given in code, checked as the settings' are (``config.url_problem``)."""
    problem = config.url_problem(base_url)
    if problem:
        raise SettingError(f"the base_url {base_url[:60]!r} cannot be used: {problem}")
    return base_url


class _ClientPicker:
    """What the pickers built on an official client library share: model, label and client.

    A ``client`` passed in is used as it is (tests pass a fake one); otherwise ``new_client``
    builds the provider's client from the arguments or the settings.
    """

    offline = False
    provider = ""
    shown_as = ""  # how the label names the provider

    def __init__(
        self,
        model: str | None = None,
        base_url: str | None = None,
        api_key: str | None = None,
        client: Any = None,
    ) -> None:
        self.model = model or config.default_model(self.provider)
        self.label = f"model {self.model} ({self.shown_as})"
        self.client = client if client is not None else self.new_client(api_key, base_url)

    def new_client(self, api_key: str | None, base_url: str | None) -> Any:
        raise NotImplementedError


class OpenAICompatiblePicker(_ClientPicker):
    """Asks an OpenAI-compatible chat completions endpoint for the first tool call.

    ``base_url``, ``api_key`` and ``model`` default to OPENAI_BASE_URL, OPENAI_API_KEY and the
    configured model; for a local server without keys (Ollama, vLLM) any non-empty key works.
    """

    provider = "openai"
    shown_as = "OpenAI-compatible"
    temperature = config.TEMPERATURE

    def new_client(self, api_key: str | None, base_url: str | None) -> Any:
        return _client("openai", "OpenAI", api_key, base_url)

    def pick(
        self,
        request: str,
        tools: ToolSet | Sequence[Tool],
        tool_choice: Mapping[str, Any] = AUTO,
        instructions: str = "",
    ) -> PickedTool:
        started = time.perf_counter()
        response = self.client.chat.completions.create(
            model=self.model,
            temperature=config.TEMPERATURE,
            messages=[
                {"role": "system", "content": system_prompt(instructions)},
                {"role": "user", "content": request},
            ],
            tools=openai_tools(tools),
            tool_choice=chat_tool_choice(tool_choice),
            **config.chat_options(self.provider),
        )
        latency = time.perf_counter() - started
        message = response.choices[0].message
        calls = message.tool_calls or []
        usage = getattr(response, "usage", None)
        return _picked(
            calls[0].function.name if calls else None,
            message.content or "",
            self.model,
            getattr(usage, "prompt_tokens", None),
            latency,
        )


class OllamaPicker(OpenAICompatiblePicker):
    """A local model served by Ollama (https://ollama.com), through the same OpenAI client.

    Free and offline once the model is pulled: no key, no account. The base URL defaults to
    ``config.OLLAMA_BASE_URL`` (override with OLLAMA_BASE_URL), the model to ``config.DEFAULT_MODELS``
    (override with OLLAMA_MODEL or ``--model``).
    """

    provider = "ollama"
    shown_as = "Ollama, local"

    def new_client(self, api_key: str | None, base_url: str | None) -> Any:
        return _library("openai", "openai").OpenAI(
            api_key=api_key or config.OLLAMA_KEY,
            base_url=_checked(base_url) if base_url is not None else config.ollama_base_url(),
            timeout=config.TIMEOUT_SECONDS,
            max_retries=1,
        )


class AnthropicPicker(_ClientPicker):
    """Asks Claude (Messages API) for the first tool call; key from ANTHROPIC_API_KEY."""

    provider = "anthropic"
    shown_as = "Anthropic"
    temperature = None  # the request leaves Anthropic's default in place

    def new_client(self, api_key: str | None, base_url: str | None) -> Any:
        return _client("anthropic", "Anthropic", api_key, base_url)

    def pick(
        self,
        request: str,
        tools: ToolSet | Sequence[Tool],
        tool_choice: Mapping[str, Any] = AUTO,
        instructions: str = "",
    ) -> PickedTool:
        started = time.perf_counter()
        response = self.client.messages.create(
            model=self.model,
            max_tokens=config.MAX_TOKENS,
            system=system_prompt(instructions),
            messages=[{"role": "user", "content": request}],
            tools=anthropic_tools(tools),
            tool_choice=dict(tool_choice),
        )
        latency = time.perf_counter() - started
        blocks = list(response.content or [])
        name = next((b.name for b in blocks if getattr(b, "type", "") == "tool_use"), None)
        text = " ".join(getattr(b, "text", "") for b in blocks if getattr(b, "type", "") == "text")
        return _picked(
            name, text, self.model, getattr(getattr(response, "usage", None), "input_tokens", None), latency
        )


class SapHubPicker:
    """Asks a model through SAP's generative AI hub (orchestration service, V2 API).

    Needs sap-ai-sdk-gen and the AICORE_ settings of a service key (see ``config.AICORE_ENV``).
    One orchestration service per tool set, built on first use, because the tools are part of
    the orchestration configuration.
    """

    offline = False
    provider = "sap"
    temperature = config.TEMPERATURE

    def __init__(self, model: str | None = None) -> None:
        self.model = model or config.default_model("sap")
        self.label = f"model {self.model} (SAP generative AI hub)"
        _settings(config.AICORE_ENV, "sap")
        self._hub = _library("gen_ai_hub.orchestration_v2", "sap-ai-sdk-gen")
        self._services: dict[tuple[str, ...], Any] = {}

    def _service(self, tools: ToolSet | Sequence[Tool]) -> Any:
        key = tuple(t.name + t.description for t in tools)
        if key not in self._services:
            hub = self._hub
            functions = [
                hub.FunctionTool(
                    function=hub.FunctionObject(
                        name=t.name,
                        description=t.description,
                        parameters=dict(t.parameters),
                        strict=is_strict_ready(t.parameters),
                    )
                )
                for t in tools
            ]
            template = hub.Template(
                template=[
                    hub.SystemMessage(content=config.SYSTEM_PROMPT),
                    hub.UserMessage(content="{{?request}}"),
                ],
                tools=functions,
            )
            model = hub.LLMModelDetails(name=self.model, params={"temperature": config.TEMPERATURE})
            modules = hub.ModuleConfig(
                prompt_templating=hub.PromptTemplatingModuleConfig(prompt=template, model=model)
            )
            self._services[key] = hub.OrchestrationService(config=hub.OrchestrationConfig(modules=modules))
        return self._services[key]

    def pick(self, request: str, tools: ToolSet | Sequence[Tool]) -> PickedTool:
        started = time.perf_counter()
        result = self._service(tools).run(placeholder_values={"request": request})
        latency = time.perf_counter() - started
        message = result.final_result.choices[0].message
        calls = getattr(message, "tool_calls", None) or []
        usage = getattr(result.final_result, "usage", None)
        return _picked(
            calls[0].function.name if calls else None,
            getattr(message, "content", "") or "",
            self.model,
            getattr(usage, "prompt_tokens", None),
            latency,
        )


def model_picker(model: str | None = None, provider: str | None = None) -> Any:
    """A real-model picker for ``provider`` ("openai", "anthropic", "sap" or "ollama"; default from
    TOOLDESIGN_PROVIDER, else "openai"). Raises ModelSetupError naming anything missing."""
    provider = provider or config.default_provider()
    builders = {
        "openai": OpenAICompatiblePicker,
        "anthropic": AnthropicPicker,
        "sap": SapHubPicker,
        "ollama": OllamaPicker,
    }
    if provider not in builders:
        raise ModelSetupError(f"unknown provider {provider!r}; choose one of {', '.join(config.PROVIDERS)}")
    return builders[provider](model=model)


# ---------- is a local model server there? ----------


@dataclass(frozen=True)
class LocalModelStatus:
    """What a short probe of the local (Ollama) server found. ``answers``: the server replied;
    ``models``: the model names it serves; ``has_model``: the configured model is among them;
    ``message``: one line for `workbook doctor`, saying what to do next if anything is missing."""

    url: str
    answers: bool
    model: str
    models: tuple[str, ...]
    message: str

    @property
    def has_model(self) -> bool:
        return any(m == self.model or m.split(":")[0] == self.model for m in self.models)


def local_model_status(
    base_url: str | None = None, model: str | None = None, timeout: float = config.PROBE_TIMEOUT_SECONDS
) -> LocalModelStatus:
    """Ask the local server for its models (GET {base_url}/models), waiting at most ``timeout`` seconds.

    Never raises and never leaves this machine unless OLLAMA_BASE_URL points elsewhere: the course is
    offline by default, and a missing server is an ordinary answer ("not running"), not an error.
    """
    try:
        url = (base_url or config.ollama_base_url()).rstrip("/")
        model = model or config.default_model("ollama")
    except SettingError as error:  # a malformed OLLAMA_ setting or .env: said as it is, never raised
        return LocalModelStatus(base_url or "", False, model or "", (), f"no local model asked: {error}")
    try:
        with urllib.request.urlopen(url + "/models", timeout=timeout) as response:
            body = json.loads(response.read().decode("utf-8") or "{}")
    except (urllib.error.URLError, OSError, ValueError) as error:
        reason = getattr(error, "reason", error)
        return LocalModelStatus(
            url,
            False,
            model,
            (),
            f"no local model server answers at {url} ({reason}); "
            "optional: install Ollama and run `ollama serve` (see docs/real-models.md, A free local model)",
        )
    names = tuple(sorted(str(m.get("id", "")) for m in body.get("data", []) if isinstance(m, dict)))
    status = LocalModelStatus(url, True, model, names, "")
    if status.has_model:
        message = f"local model server answers at {url} and serves {model}"
    else:
        message = (
            f"local model server answers at {url}, but {model} is not pulled yet: run `ollama pull {model}`"
        )
    return LocalModelStatus(url, True, model, names, message)
