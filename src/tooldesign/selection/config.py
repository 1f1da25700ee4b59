"""The one place that names models, providers and the settings a real-model picker reads.

Change a model here, or override it without editing code: ``--model`` on the CLI, or the
variable named in ``MODEL_ENV`` (in the environment or a ``.env`` file in the course folder).
Nothing here is read by the offline pickers.
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = [
    "PROVIDERS",
    "DEFAULT_MODELS",
    "MODELS_CHECKED",
    "REASONING_EFFORT",
    "MODEL_ENV",
    "PROVIDER_ENV",
    "KEY_ENV",
    "BASE_URL_ENV",
    "AICORE_ENV",
    "SYSTEM_PROMPT",
    "TEMPERATURE",
    "MAX_TOKENS",
    "TIMEOUT_SECONDS",
    "OLLAMA_BASE_URL",
    "OLLAMA_KEY",
    "PROBE_TIMEOUT_SECONDS",
    "RUNS_DIR",
    "load_env",
    "default_model",
    "default_provider",
    "ollama_base_url",
]

PROVIDERS = ("openai", "anthropic", "sap", "ollama")

# Defaults only: use a model your account offers that supports tool calling. Each was checked on the
# provider's models page on the date in MODELS_CHECKED; `make currency` lists the ones due for a re-read
# (docs/currency.csv holds the same ids, and tests/test_currency.py keeps the two in step).
DEFAULT_MODELS = {
    "openai": "gpt-6-luna",  # any OpenAI-compatible endpoint: OpenAI, Azure, Ollama, vLLM ...
    "anthropic": "claude-haiku-5-5",
    "sap": "gpt-6-luna",  # a model in your generative AI hub catalog (not checked against SAP's list)
    # Free and local: `ollama pull qwen3:4b`. Ollama's tool-calling guide uses the qwen3 family in its
    # examples; llama3.2 and qwen3:8b also call tools, the latter better and at twice the memory.
    "ollama": "qwen3:4b",
}
# Where and when each default was checked (ISO date): the provider's own page.
MODELS_CHECKED = {
    "openai": ("2026-12-05", "https://developers.openai.com/api/docs/models/gpt-6-luna"),
    "anthropic": ("2026-12-05", "https://platform.claude.com/docs/en/models/haiku-5-5/overview"),
    "sap": ("2026-12-05", "https://developers.openai.com/api/docs/deprecations"),
    "ollama": ("2026-12-05", "https://docs.ollama.com/capabilities/tool-calling"),
}
# OpenAI's GPT-6 models reason by default, and its Chat Completions endpoint takes function calling
# (and a temperature) from them only with reasoning effort "none" (OpenAI, GPT-6 Luna model page,
# read 2026-12-05). Sent only to the provider named here: a local server may not know the parameter.
REASONING_EFFORT = {"openai": "none"}
MODEL_ENV = {
    "openai": "OPENAI_MODEL",
    "anthropic": "ANTHROPIC_MODEL",
    "sap": "AICORE_MODEL",
    "ollama": "OLLAMA_MODEL",
}
PROVIDER_ENV = "TOOLDESIGN_PROVIDER"
KEY_ENV = {"openai": "OPENAI_API_KEY", "anthropic": "ANTHROPIC_API_KEY"}
BASE_URL_ENV = {"openai": "OPENAI_BASE_URL", "anthropic": "ANTHROPIC_BASE_URL", "ollama": "OLLAMA_BASE_URL"}
# Ollama serves the OpenAI chat completions API here; it needs no key, but the client sends one.
OLLAMA_BASE_URL = "http://localhost:11434/v1"
OLLAMA_KEY = "ollama"
PROBE_TIMEOUT_SECONDS = 2.0  # `workbook doctor` asks a local server this long, no longer
RUNS_DIR = "runs"  # where `select --record` files are looked for by notebook 06
AICORE_ENV = (
    "AICORE_BASE_URL",
    "AICORE_AUTH_URL",
    "AICORE_CLIENT_ID",
    "AICORE_CLIENT_SECRET",
    "AICORE_RESOURCE_GROUP",
)

SYSTEM_PROMPT = (
    "You help order-to-cash clerks with blocked SAP sales orders. Call the one tool that best "
    "fits the request. If no tool fits, answer in one sentence without calling a tool."
)
TEMPERATURE = 0
MAX_TOKENS = 512
TIMEOUT_SECONDS = 60


def load_env(path: Path | str | None = None) -> bool:
    """Read a ``.env`` file into the environment if python-dotenv is installed; True if one was read.

    Values already in the environment win, so a shell export overrides the file.
    """
    try:
        from dotenv import find_dotenv, load_dotenv
    except ImportError:
        return False
    target = str(path) if path is not None else find_dotenv(usecwd=True)
    return bool(target) and load_dotenv(target, override=False)


def default_provider() -> str:
    load_env()
    return os.environ.get(PROVIDER_ENV, "openai")


def default_model(provider: str) -> str:
    """The model for ``provider``: its environment variable if set, else the default above."""
    load_env()
    return os.environ.get(MODEL_ENV[provider]) or DEFAULT_MODELS[provider]


def ollama_base_url() -> str:
    """Where the local Ollama server answers: OLLAMA_BASE_URL if set, else localhost:11434/v1."""
    load_env()
    return (os.environ.get(BASE_URL_ENV["ollama"]) or OLLAMA_BASE_URL).rstrip("/")
