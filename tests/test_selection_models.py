"""Real-model pickers through the official clients, against a fake server on 127.0.0.1."""
import os
import sys

import pytest

from fake_model_server import FakeModelServer, no_real_settings  # noqa: F401 (the fixture)
from tooldesign.selection import Picker, WordMatchPicker, run_selection
from tooldesign.selection import config
from tooldesign.selection.models import (AnthropicPicker, ModelSetupError, OpenAICompatiblePicker, SapHubPicker,
                                         anthropic_tools, model_picker, openai_tools)
from tooldesign.tools import tool_set

SETS = {name: tool_set(name) for name in ("mirror", "designed")}
STAND_IN = WordMatchPicker()


def like_the_stand_in(request, names):
    """The fake model answers what the word stand-in would, so the scores are known."""
    for tools in SETS.values():
        if tools.names == names:
            return STAND_IN.pick(request, tools).tool
    return names[0]


@pytest.fixture
def server():
    with FakeModelServer(like_the_stand_in) as fake:
        yield fake


pytestmark = pytest.mark.usefixtures("no_real_settings")


def test_openai_compatible_picker_end_to_end(server):
    picker = OpenAICompatiblePicker(model="fake-gpt", base_url=server.url + "/v1", api_key="test-key")
    assert isinstance(picker, Picker) and not picker.offline
    # the fake server answers with the word-matching stand-in, so the model picker must agree with it
    assert run_selection(picker, SETS["designed"]).right == run_selection(STAND_IN, SETS["designed"]).right
    assert run_selection(picker, SETS["mirror"]).right == run_selection(STAND_IN, SETS["mirror"]).right
    assert server.problems == []
    body = server.requests[0]["body"]
    assert body["model"] == "fake-gpt" and body["tool_choice"] == "auto"
    assert server.requests[0]["headers"]["authorization"] == "Bearer test-key"
    assert all(t["function"]["strict"] is True for t in body["tools"])


def test_openai_sends_strict_only_where_the_schema_allows(server):
    picker = OpenAICompatiblePicker(model="m", base_url=server.url + "/v1", api_key="k")
    choice = picker.pick("Why is order 4711 on hold?", SETS["mirror"])
    assert choice.tool == "get_order" and "called" in choice.why
    assert all("strict" not in t["function"] for t in server.requests[-1]["body"]["tools"])
    assert server.problems == []


def test_no_tool_call_means_no_call(server):
    picker = OpenAICompatiblePicker(model="m", base_url=server.url + "/v1", api_key="k")
    choice = picker.pick("Book a meeting room for Friday morning.", SETS["designed"])
    assert choice.tool is None and "without a tool call" in choice.why


def test_anthropic_picker_end_to_end(server):
    picker = AnthropicPicker(model="fake-claude", base_url=server.url, api_key="test-key")
    result = run_selection(picker, SETS["designed"])
    assert result.right == run_selection(STAND_IN, SETS["designed"]).right and server.problems == []
    body = server.requests[0]["body"]
    assert body["tool_choice"] == {"type": "auto"} and body["max_tokens"] == config.MAX_TOKENS
    assert all(t["strict"] is True and "input_schema" in t for t in body["tools"])
    headers = server.requests[0]["headers"]
    assert "test-key" in (headers.get("x-api-key", "") + headers.get("authorization", ""))
    assert "anthropic-version" in headers
    mirror = run_selection(picker, SETS["mirror"])
    assert mirror.right == run_selection(STAND_IN, SETS["mirror"]).right


def test_the_fake_server_rejects_a_wrong_strict_flag(server):
    import openai

    client = openai.OpenAI(base_url=server.url + "/v1", api_key="k", max_retries=0)
    tools = openai_tools(SETS["mirror"])
    tools[0]["function"]["strict"] = True
    with pytest.raises(openai.BadRequestError, match="strict is set but the schema is not strict-ready"):
        client.chat.completions.create(model="m", messages=[{"role": "user", "content": "x"}], tools=tools,
                                       tool_choice="auto")


def test_the_fake_server_honours_a_forced_tool_choice_and_refuses_one_it_cannot(server):
    """Anthropic's "any" obliges a call; a named tool that is not offered is a 400 (as the API answers)."""
    import anthropic

    client = anthropic.Anthropic(base_url=server.url, api_key="k", max_retries=0)
    reply = client.messages.create(model="m", max_tokens=10, messages=[{"role": "user", "content": "x"}],
                                   tools=anthropic_tools(SETS["designed"]), tool_choice={"type": "any"})
    assert reply.stop_reason == "tool_use" and server.choices[-1] == ("any", None)
    with pytest.raises(anthropic.BadRequestError, match="tool_choice names 'sales_order_get'"):
        client.messages.create(model="m", max_tokens=10, messages=[{"role": "user", "content": "x"}],
                               tools=anthropic_tools(SETS["designed"]),
                               tool_choice={"type": "tool", "name": "sales_order_get"})


def test_keys_are_read_from_a_dotenv_file(server, tmp_path, monkeypatch):
    (tmp_path / ".env").write_text(f"OPENAI_API_KEY=from-dotenv\nOPENAI_BASE_URL={server.url}/v1\n"
                                   "OPENAI_MODEL=model-from-dotenv\n")
    picker = model_picker(provider="openai")
    assert picker.model == "model-from-dotenv"
    picker.pick("Why is order 4711 on hold?", SETS["designed"])
    assert server.requests[-1]["headers"]["authorization"] == "Bearer from-dotenv"


@pytest.mark.parametrize("provider, missing", [("openai", "OPENAI_API_KEY"), ("anthropic", "ANTHROPIC_API_KEY"),
                                               ("sap", "AICORE_BASE_URL, AICORE_AUTH_URL, AICORE_CLIENT_ID")])
def test_a_missing_key_is_named(provider, missing):
    with pytest.raises(ModelSetupError, match=missing) as info:
        model_picker("some-model", provider)
    assert "\n" not in str(info.value) and "--sample" in str(info.value)


def test_a_missing_library_is_named(monkeypatch):
    for name in config.AICORE_ENV:  # addresses must look like addresses (tests/test_cli_settings.py)
        monkeypatch.setenv(name, config.ENDPOINT_EXAMPLES.get(name, "x"))
    monkeypatch.setitem(sys.modules, "gen_ai_hub", None)
    monkeypatch.setitem(sys.modules, "gen_ai_hub.orchestration_v2", None)
    with pytest.raises(ModelSetupError, match="'sap-ai-sdk-gen' is not installed; install it with"):
        SapHubPicker("m")
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    monkeypatch.setitem(sys.modules, "openai", None)
    with pytest.raises(ModelSetupError, match="'openai' is not installed"):
        OpenAICompatiblePicker("m")


def test_unknown_provider_and_model_names_in_one_place():
    with pytest.raises(ModelSetupError, match="unknown provider"):
        model_picker("m", "nowhere")
    assert set(config.DEFAULT_MODELS) == set(config.PROVIDERS)


def test_openai_sends_the_configured_reasoning_effort(server):
    # OpenAI's GPT-6 models take tools on Chat Completions only with reasoning effort "none".
    OpenAICompatiblePicker(model="m", base_url=server.url + "/v1", api_key="k").pick("Why is 4711 held?", SETS["designed"])
    assert server.requests[-1]["body"]["reasoning_effort"] == config.REASONING_EFFORT["openai"] == "none"


def test_ollama_gets_no_reasoning_effort(server):
    from tooldesign.selection.models import OllamaPicker

    OllamaPicker(base_url=server.url + "/v1").pick("Why is 4711 held?", SETS["designed"])
    assert "reasoning_effort" not in server.requests[-1]["body"]


def test_no_reasoning_effort_when_config_names_none(server, monkeypatch):
    monkeypatch.setitem(config.REASONING_EFFORT, "openai", None)
    OpenAICompatiblePicker(model="m", base_url=server.url + "/v1", api_key="k").pick("Why is 4711 held?", SETS["designed"])
    assert "reasoning_effort" not in server.requests[-1]["body"]


def test_every_default_model_says_where_and_when_it_was_checked():
    import datetime as dt

    assert set(config.MODELS_CHECKED) == set(config.DEFAULT_MODELS)
    for provider, (date, source) in config.MODELS_CHECKED.items():
        dt.date.fromisoformat(date)
        assert source.startswith("https://"), provider
