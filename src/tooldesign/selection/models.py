"""Real-model pickers, opt-in: the same ``Picker`` interface, answered by a model.

* ``OpenAICompatiblePicker``: any endpoint that speaks OpenAI's chat completions (OpenAI,
  Azure OpenAI, Ollama, vLLM ...), through the official ``openai`` client.
* ``AnthropicPicker``: Claude, through the official ``anthropic`` client.
* ``SapHubPicker``: SAP's generative AI hub orchestration service, through ``sap-ai-sdk-gen``.

Each sends the tool definitions with ``tool_choice`` "auto" (the model may also decline to
call), asks strict mode for every tool whose schema is strict-ready, and reads the first tool
call. Settings come from the environment or a ``.env`` file (see ``config``). A missing library
or key raises :class:`ModelSetupError` whose one-line message names exactly what is missing.
Client libraries are imported only when a picker is built, so the offline course never needs them.
"""
from __future__ import annotations

import importlib
import os
from typing import Any, Sequence

from tooldesign.selection import config
from tooldesign.selection.pickers import Choice
from tooldesign.tools.base import Tool
from tooldesign.tools.schema import is_strict_ready

__all__ = ["ModelSetupError", "OpenAICompatiblePicker", "AnthropicPicker", "SapHubPicker", "model_picker",
           "openai_tools", "anthropic_tools"]


class ModelSetupError(RuntimeError):
    """A real model cannot be used yet; the message says what is missing and how to fix it."""


def _library(module: str, pip_name: str) -> Any:
    try:
        return importlib.import_module(module)
    except ImportError:
        raise ModelSetupError(f"the Python package '{pip_name}' is not installed; install it with "
                              f"`pip install {pip_name}`, or run offline with --sample") from None


def _settings(names: Sequence[str], provider: str) -> dict[str, str]:
    config.load_env()
    missing = [name for name in names if not os.environ.get(name)]
    if missing:
        raise ModelSetupError(f"{', '.join(missing)} {'is' if len(missing) == 1 else 'are'} not set; put "
                              f"{'it' if len(missing) == 1 else 'them'} in the environment or in .env for "
                              f"--provider {provider}, or run offline with --sample")
    return {n: os.environ[n] for n in names}


def openai_tools(tools: Sequence[Tool]) -> list[dict]:
    """Definitions in OpenAI's function format; strict only where the schema allows it."""
    out = []
    for tool in tools:
        function = dict(tool.definition())
        if is_strict_ready(tool.parameters):
            function["strict"] = True
        out.append({"type": "function", "function": function})
    return out


def anthropic_tools(tools: Sequence[Tool]) -> list[dict]:
    """Definitions in Anthropic's format (input_schema); strict only where the schema allows it."""
    out = []
    for tool in tools:
        entry = {"name": tool.name, "description": tool.description, "input_schema": dict(tool.parameters)}
        if is_strict_ready(tool.parameters):
            entry["strict"] = True
        out.append(entry)
    return out


def _choice(name: str | None, text: str, label: str) -> Choice:
    if name:
        return Choice(name, why=f"{label} called {name}")
    said = " ".join((text or "").split())[:120]
    return Choice(None, why=f"{label} answered without a tool call: {said!r}")


def _client(provider: str, class_name: str, api_key: str | None, base_url: str | None) -> Any:
    """The provider's official client, with the key and base URL from the arguments or the settings."""
    library = _library(provider, provider)
    if api_key is None:
        api_key = _settings([config.KEY_ENV[provider]], provider)[config.KEY_ENV[provider]]
    base_url = base_url or os.environ.get(config.BASE_URL_ENV[provider]) or None
    return getattr(library, class_name)(api_key=api_key, base_url=base_url, timeout=config.TIMEOUT_SECONDS,
                                        max_retries=1)


class OpenAICompatiblePicker:
    """Asks an OpenAI-compatible chat completions endpoint for the first tool call.

    ``base_url``, ``api_key`` and ``model`` default to OPENAI_BASE_URL, OPENAI_API_KEY and the
    configured model; for a local server without keys (Ollama, vLLM) any non-empty key works.
    """
    offline = False

    def __init__(self, model: str | None = None, base_url: str | None = None, api_key: str | None = None,
                 client: Any = None) -> None:
        self.model = model or config.default_model("openai")
        self.label = f"model {self.model} (OpenAI-compatible)"
        self.client = client if client is not None else _client("openai", "OpenAI", api_key, base_url)

    def pick(self, request: str, tools: Sequence[Tool]) -> Choice:
        response = self.client.chat.completions.create(
            model=self.model, temperature=config.TEMPERATURE,
            messages=[{"role": "system", "content": config.SYSTEM_PROMPT}, {"role": "user", "content": request}],
            tools=openai_tools(tools), tool_choice="auto")
        message = response.choices[0].message
        calls = message.tool_calls or []
        return _choice(calls[0].function.name if calls else None, message.content or "", self.model)


class AnthropicPicker:
    """Asks Claude (Messages API) for the first tool call; key from ANTHROPIC_API_KEY."""
    offline = False

    def __init__(self, model: str | None = None, base_url: str | None = None, api_key: str | None = None,
                 client: Any = None) -> None:
        self.model = model or config.default_model("anthropic")
        self.label = f"model {self.model} (Anthropic)"
        self.client = client if client is not None else _client("anthropic", "Anthropic", api_key, base_url)

    def pick(self, request: str, tools: Sequence[Tool]) -> Choice:
        response = self.client.messages.create(
            model=self.model, max_tokens=config.MAX_TOKENS,
            system=config.SYSTEM_PROMPT, messages=[{"role": "user", "content": request}],
            tools=anthropic_tools(tools), tool_choice={"type": "auto"})
        blocks = list(response.content or [])
        name = next((b.name for b in blocks if getattr(b, "type", "") == "tool_use"), None)
        text = " ".join(getattr(b, "text", "") for b in blocks if getattr(b, "type", "") == "text")
        return _choice(name, text, self.model)


class SapHubPicker:
    """Asks a model through SAP's generative AI hub (orchestration service, V2 API).

    Needs sap-ai-sdk-gen and the AICORE_ settings of a service key (see ``config.AICORE_ENV``).
    One orchestration service per tool set, built on first use, because the tools are part of
    the orchestration configuration.
    """
    offline = False

    def __init__(self, model: str | None = None) -> None:
        self.model = model or config.default_model("sap")
        self.label = f"model {self.model} (SAP generative AI hub)"
        _settings(config.AICORE_ENV, "sap")
        self._hub = _library("gen_ai_hub.orchestration_v2", "sap-ai-sdk-gen")
        self._services: dict[tuple[str, ...], Any] = {}

    def _service(self, tools: Sequence[Tool]) -> Any:
        key = tuple(t.name + t.description for t in tools)
        if key not in self._services:
            hub = self._hub
            functions = [hub.FunctionTool(function=hub.FunctionObject(
                name=t.name, description=t.description, parameters=dict(t.parameters),
                strict=is_strict_ready(t.parameters))) for t in tools]
            template = hub.Template(template=[hub.SystemMessage(content=config.SYSTEM_PROMPT),
                                              hub.UserMessage(content="{{?request}}")], tools=functions)
            model = hub.LLMModelDetails(name=self.model, params={"temperature": config.TEMPERATURE})
            modules = hub.ModuleConfig(prompt_templating=hub.PromptTemplatingModuleConfig(prompt=template,
                                                                                          model=model))
            self._services[key] = hub.OrchestrationService(config=hub.OrchestrationConfig(modules=modules))
        return self._services[key]

    def pick(self, request: str, tools: Sequence[Tool]) -> Choice:
        result = self._service(tools).run(placeholder_values={"request": request})
        message = result.final_result.choices[0].message
        calls = getattr(message, "tool_calls", None) or []
        return _choice(calls[0].function.name if calls else None, getattr(message, "content", "") or "", self.model)


def model_picker(model: str | None = None, provider: str | None = None) -> Any:
    """A real-model picker for ``provider`` ("openai", "anthropic" or "sap"; default from
    TOOLDESIGN_PROVIDER, else "openai"). Raises ModelSetupError naming anything missing."""
    provider = provider or config.default_provider()
    builders = {"openai": OpenAICompatiblePicker, "anthropic": AnthropicPicker, "sap": SapHubPicker}
    if provider not in builders:
        raise ModelSetupError(f"unknown provider {provider!r}; choose one of {', '.join(config.PROVIDERS)}")
    return builders[provider](model=model)
