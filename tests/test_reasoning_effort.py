"""Every path that sends tools over Chat Completions (selection, capstone, injection) sends the provider's
reasoning effort from config.chat_options, and only to the provider it is configured for."""
from __future__ import annotations

import pytest

from fake_model_server import FakeModelServer, no_real_settings  # noqa: F401 (the fixture)
from tooldesign.capstone.agent import ChatModel, tool_definitions
from tooldesign.injection import attack, real_model
from tooldesign.selection import config
from tooldesign.selection.models import OllamaPicker, OpenAICompatiblePicker
from tooldesign.tools import tool_set

pytestmark = pytest.mark.usefixtures("no_real_settings")
GPT6 = config.DEFAULT_MODELS["openai"]


@pytest.fixture
def server():
    with FakeModelServer(models=(GPT6, config.DEFAULT_MODELS["ollama"])) as fake:
        yield fake


def _openai(server):
    return OpenAICompatiblePicker(model=GPT6, base_url=server.url + "/v1", api_key="k")


def _ollama(server):
    return OllamaPicker(model=config.DEFAULT_MODELS["ollama"], base_url=server.url + "/v1")


def _selection(picker):
    picker.pick("Why is order 4711 blocked?", tool_set("designed"))


def _capstone(picker):
    ChatModel(picker).respond([{"role": "user", "content": "Why is order 4711 blocked?"}], tool_definitions())


def _injection(picker):
    note = next(n for n in attack.seeded_notes() if n.note_id == "P01")
    real_model._one(picker, note, "raw")


PATHS = {"selection": _selection, "capstone": _capstone, "injection": _injection}


def test_the_default_openai_model_is_one_that_needs_an_effort():
    assert GPT6.startswith("gpt-6") and config.chat_options("openai") == {"reasoning_effort": "none"}
    assert config.chat_options("ollama") == {} and config.chat_options("anthropic") == {}


@pytest.mark.parametrize("path", PATHS)
def test_each_path_sends_the_effort_to_openai(server, path):
    PATHS[path](_openai(server))
    assert server.requests, "nothing reached the fake server"
    assert all(r["body"].get("reasoning_effort") == "none" for r in server.requests), path
    assert server.problems == []


@pytest.mark.parametrize("path", PATHS)
def test_no_path_sends_the_effort_to_a_local_server(server, path):
    PATHS[path](_ollama(server))
    assert server.requests and not any("reasoning_effort" in r["body"] for r in server.requests), path


@pytest.mark.parametrize("path", PATHS)
def test_the_fake_server_would_catch_a_path_that_forgot_it(server, path, monkeypatch):
    """The check above can fail: without the configured effort the fake server names the problem."""
    monkeypatch.setattr(config, "REASONING_EFFORT", {})
    try:
        PATHS[path](_openai(server))
    except Exception:
        pass  # a path may stop on the fake server's 400; the recorded problem is what counts
    assert any("reasoning_effort" in p for p in server.problems), server.problems
