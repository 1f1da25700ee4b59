"""The one place that names models, providers and the settings a real-model picker reads.

Change a model here, or override it without editing code: ``--model`` on the CLI, or the
variable named in ``MODEL_ENV`` (in the environment or a ``.env`` file in the course folder).
Nothing here is read by the offline pickers.
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from urllib.parse import urlsplit

from tooldesign.command_error import CommandError

__all__ = [
    "PROVIDERS",
    "DEFAULT_MODELS",
    "MODELS_CHECKED",
    "REASONING_EFFORT",
    "chat_options",
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
    "ModelSetupError",
    "SettingError",
    "ENDPOINT_EXAMPLES",
    "endpoint",
    "url_problem",
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


def chat_options(provider: str) -> dict[str, str]:
    """The provider's extra Chat Completions fields, for every caller that sends tools (selection,
    capstone, injection): one place, so no path calls a reasoning model without its effort."""
    effort = REASONING_EFFORT.get(provider)
    return {"reasoning_effort": effort} if effort else {}


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


class ModelSetupError(RuntimeError):
    """A real model cannot be used yet; the message says what is missing and how to fix it."""


class SettingError(ModelSetupError, CommandError):
    """A setting (in the environment or a ``.env`` file) holds a value the course cannot use. One line:
    the variable, where it was set, what is wrong, and a value that would work. Exit code 2: the input
    was wrong, like a bad option."""

    def __init__(self, message: str) -> None:
        RuntimeError.__init__(self, message)
        self.status = 2


# Every address the course reads from a setting, with a right value to show beside a wrong one. The
# AICORE_ shapes are those of SAP's generative-ai-hub-sdk page on PyPI (the service's URL "with suffix
# /v2", and the token service's), https://pypi.org/project/generative-ai-hub-sdk/ (read 5 December 2026).
ENDPOINT_EXAMPLES = {
    "OPENAI_BASE_URL": "https://api.openai.com/v1",
    "ANTHROPIC_BASE_URL": "https://api.anthropic.com",
    "OLLAMA_BASE_URL": OLLAMA_BASE_URL,
    "AICORE_BASE_URL": "https://api.ai.YOUR-REGION.cfapps.sap.hana.ondemand.com/v2",
    "AICORE_AUTH_URL": "https://YOUR-SUBDOMAIN.authentication.sap.hana.ondemand.com",
}
ENV_FILE_LIMIT = 1024 * 1024  # bytes; a .env of settings is a few hundred
_FROM_FILE: dict[str, str] = {}  # variable -> the .env file it was read from (for the messages)


def _where(name: str) -> str:
    return f"{name} (in {_FROM_FILE[name]})" if name in _FROM_FILE else name


def _checked_env_text(path: str) -> str:
    """The .env file's text, or a SettingError naming the file, the line and what to do."""
    from dotenv.parser import parse_stream

    from tooldesign.input_files import InputFileError, read_input

    try:
        raw = read_input(path, what="a .env file of NAME=value lines", limit=ENV_FILE_LIMIT)
        text = raw.decode("utf-8-sig")
    except InputFileError as error:
        raise SettingError(f"the settings file .env cannot be used: {error}") from None
    except UnicodeDecodeError as error:
        raise SettingError(
            f"{path} is not UTF-8 text (byte {error.start}); save it as UTF-8 text of NAME=value lines"
        ) from None
    for binding in parse_stream(io.StringIO(text)):
        if binding.error:
            line = " ".join(binding.original.string.split())
            shown = line if len(line) <= 40 else line[:39] + "…"
            raise SettingError(
                f"{path} line {binding.original.line} is not NAME=value ({shown!r}); fix it, or put # "
                "in front of it to keep it as a comment"
            )
    return text


def load_env(path: Path | str | None = None) -> bool:
    """Read a ``.env`` file into the environment if python-dotenv is installed; True if one was read.

    Values already in the environment win, so a shell export overrides the file. A line that is not
    ``NAME=value``, or a file that is not text, is a :class:`SettingError` naming the file and line
    (python-dotenv itself would warn and skip it, and the setting would silently be missing).
    """
    try:
        from dotenv import dotenv_values, find_dotenv, load_dotenv
    except ImportError:
        return False
    target = str(path) if path is not None else find_dotenv(usecwd=True)
    if not target or not os.path.isfile(target):
        return False
    text = _checked_env_text(target)
    for name, value in dotenv_values(stream=io.StringIO(text)).items():
        if value is not None and name not in os.environ:
            _FROM_FILE[name] = target
    return load_dotenv(stream=io.StringIO(text), override=False)


def endpoint(name: str, default: str | None = None) -> str | None:
    """The address in setting ``name`` (after ``.env``), checked; ``default`` when it is not set.

    A client library given a malformed address fails late and vaguely ("Invalid port", "Connection
    error"), naming neither the setting nor the fix; this says both, before any request.
    """
    load_env()
    value = os.environ.get(name)
    if value is None:
        return default
    problem = url_problem(value)
    if problem:
        example = ENDPOINT_EXAMPLES.get(name, "https://api.example.com/v1")
        shown = value if len(value) <= 60 else value[:59] + "…"
        raise SettingError(
            f"{_where(name)} is {shown!r}: {problem}; set it to an address like {example}, or "
            "remove it to use the default"
        )
    return value


def url_problem(value: str) -> str | None:
    """What is wrong with ``value`` as the base address of an HTTP API, as a clause; None when nothing."""
    if not value.strip():
        return "it is empty"
    if value != value.strip() or any(c.isspace() for c in value):
        return "it holds a space or a line break"
    odd = next((c for c in value if ord(c) > 126 or ord(c) < 32), None)
    if odd is not None:
        return f"the character {odd!r} is not plain ASCII (pasted from a document?)"
    if value[0] in "\"'" or value[-1] in "\"'":
        return "the quotes are part of the value; remove them"
    scheme, sep, _ = value.partition("://")
    if not sep:
        return "it does not start with http:// or https://"
    if scheme.lower() not in ("http", "https"):
        return f"{scheme[:20]}:// is not http:// or https://, the only kinds the clients speak"
    try:
        parts = urlsplit(value)
    except ValueError:  # an unclosed [ of an IPv6 address
        return "its host is not a name or an address (an unclosed [ ?)"
    if not parts.hostname:
        return "it names no host after the //"
    try:
        port = parts.port
    except ValueError:
        port_text = parts.netloc.rsplit(":", 1)[-1]
        return f"the port {port_text[:20]!r} is not a number from 1 to 65535"
    if port == 0:
        return "the port 0 is not a number from 1 to 65535"
    if "?" in value or "#" in value:
        return "a base address has no ?query or #fragment"
    return None


def default_provider() -> str:
    load_env()
    provider = os.environ.get(PROVIDER_ENV, "openai")
    if provider not in PROVIDERS:
        raise SettingError(
            f"{_where(PROVIDER_ENV)} is {provider[:40]!r}; set it to one of {', '.join(PROVIDERS)}, or "
            "remove it to use openai"
        )
    return provider


def default_model(provider: str) -> str:
    """The model for ``provider``: its environment variable if set, else the default above."""
    load_env()
    name = MODEL_ENV[provider]
    value = os.environ.get(name)
    if value and (not value.strip() or value != value.strip()):
        raise SettingError(
            f"{_where(name)} is {value[:40]!r}; set it to a model's name without spaces around it, for "
            f"example {DEFAULT_MODELS[provider]}, or remove it to use that default"
        )
    return value or DEFAULT_MODELS[provider]


def ollama_base_url() -> str:
    """Where the local Ollama server answers: OLLAMA_BASE_URL if set (and well formed), else
    localhost:11434/v1."""
    return (endpoint(BASE_URL_ENV["ollama"]) or OLLAMA_BASE_URL).rstrip("/")
