"""`tooldesign record`: a real model on every experiment, end to end against fake servers on 127.0.0.1."""
import json
import os

import jsonschema
import pytest

from fake_model_server import FakeModelServer, no_real_settings  # noqa: F401 (the fixture)
from tooldesign import record as rec
from tooldesign.cli import main
from tooldesign.selection import config
from tooldesign.selection.models import AnthropicPicker, OllamaPicker, OpenAICompatiblePicker
from tooldesign.selection.record import record_runs, save

pytestmark = pytest.mark.usefixtures("no_real_settings")


def chooser(request, names):
    text = request if isinstance(request, str) else json.dumps(request)
    return None if "weather" in text.lower() else names[len(text) % len(names)]


@pytest.fixture
def server():
    with FakeModelServer(chooser) as fake:
        yield fake


def _env(monkeypatch, provider, url):
    if provider == "ollama":
        monkeypatch.setenv("OLLAMA_BASE_URL", url + "/v1")
        return []
    monkeypatch.setenv(config.KEY_ENV[provider], "test-key")
    monkeypatch.setenv(config.BASE_URL_ENV[provider], url + ("/v1" if provider == "openai" else ""))
    return ["--model", "fake-model"]


@pytest.mark.parametrize("provider, repeat", [("anthropic", 1), ("openai", 1), ("ollama", 2)])
def test_record_writes_one_schema_valid_file_that_every_lesson_shows(provider, repeat, server, monkeypatch, tmp_path, capsys):
    out = tmp_path / "runs"
    argv = ["record", "--provider", provider, *_env(monkeypatch, provider, server.url), "--repeat", str(repeat),
            "--out", str(out)]
    assert main(argv) == 0, capsys.readouterr().err
    files = list(out.glob("*.json"))
    assert len(files) == 1
    data = json.loads(files[0].read_text())
    jsonschema.validate(data, rec.SCHEMA)
    assert data["format"] == rec.FORMAT and data["provider"] == provider and data["repeat"] == repeat
    assert [s["case_set"] for s in data["selection"]] == ["tuning", "development", "held-out"]
    picks = [p for s in data["selection"] for r in s["runs"] for p in r["picks"]]
    assert picks and all(isinstance(p["input_tokens"], int) and p["input_tokens"] > 0 for p in picks)
    assert {r["repeat"] for s in data["selection"] for r in s["runs"]} == set(range(1, repeat + 1))
    assert {b["variant"] for b in data["boundary"]} == {"without clauses", "with clauses"}
    assert data["injection"] and {i["repeat"] for i in data["injection"]} == set(range(1, repeat + 1))
    assert server.problems == []
    # a second run never overwrites the first
    assert main(argv) == 0
    assert len(list(out.glob("*.json"))) == 2
    for experiment in ("selection", "boundary", "scale", "injection", "capstone"):
        shown = rec.show_records(experiment, out)
        assert f"({provider}, " in shown and "No record" not in shown, shown
    assert "boundary requests, with clauses" in rec.show_records("boundary", out)
    assert "poisoned records" in rec.show_records("injection", out)
    assert "held-out cases" in rec.show_records("selection", out)


def test_no_record_is_one_line_with_the_command(tmp_path):
    shown = rec.show_records("capstone", tmp_path / "runs")
    assert shown.count("\n") == 0 and "No record in runs/" in shown and "tooldesign record" in shown


def test_an_old_select_record_is_shown_as_the_old_version(server, tmp_path):
    picker = OpenAICompatiblePicker(model="old-model", base_url=server.url + "/v1", api_key="k")
    save(record_runs(picker, "held-out", ("designed",), 1), tmp_path / "runs" / "old.json")
    shown = rec.show_records("selection", tmp_path / "runs")
    assert "old-model (openai, " in shown and "old version, selection only" in shown
    assert "No record" in rec.show_records("boundary", tmp_path / "runs")


def test_a_damaged_file_is_named_and_skipped(tmp_path):
    (tmp_path / "bad.json").write_text('{"format": "tooldesign-record/2", "provider": 3}')
    shown = rec.show_records("selection", tmp_path)
    assert "(skipped)" in shown and "bad.json" in shown and "No record" in shown


@pytest.mark.parametrize("make", [
    lambda url: OpenAICompatiblePicker(model="m", base_url=url + "/v1", api_key="k"),
    lambda url: AnthropicPicker(model="m", base_url=url, api_key="k"),
    lambda url: OllamaPicker(model="m", base_url=url + "/v1"),
])
def test_a_429_is_retried_after_retry_after_without_sleeping(make, server):
    waits = []
    server.faults = [(429, {"retry-after": "7"}, b'{"error": {"message": "slow down"}}'),
                     (429, {"retry-after": "9999"}, b'{"error": {"message": "slow down"}}')]
    model = rec.patient(make(server.url), sleep=waits.append)
    assert model.pick("Why is order 4711 on hold?", _designed()).tool is not None
    assert waits == [7.0, rec.MAX_WAIT_S] and model.retries == 2


def test_a_429_that_never_ends_is_one_line(server, monkeypatch, tmp_path, capsys, ):
    monkeypatch.setattr(rec.time, "sleep", lambda s: None)
    server.faults = [(429, {"retry-after": "1"}, b"{}")] * (rec.MAX_RETRIES + 1)
    assert main(["record", "--provider", "anthropic", *_env(monkeypatch, "anthropic", server.url),
                 "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "rate limited" in err
    assert not list(tmp_path.glob("*.json"))


@pytest.mark.parametrize("status, body", [(500, b'{"error": "boom"}'), (200, b"not json at all"),
                                          (200, b'{"choices": "no"}'), (503, b"")])
def test_a_failing_or_malformed_answer_is_one_line_and_no_file(status, body, server, monkeypatch, tmp_path, capsys):
    server.faults = [(status, {}, body)] * 3
    assert main(["record", "--provider", "openai", *_env(monkeypatch, "openai", server.url),
                 "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: the model call failed")
    assert not list(tmp_path.glob("*.json"))


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_a_missing_key_is_one_line(provider, capsys, tmp_path):
    assert main(["record", "--provider", provider, "--model", "m", "--out", str(tmp_path)]) != 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and config.KEY_ENV[provider] in err


def test_an_unreachable_server_is_one_line(monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("OLLAMA_BASE_URL", "http://127.0.0.1:9/v1")
    assert main(["record", "--provider", "ollama", "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "ollama serve" in err


def test_repeat_must_be_positive(capsys):
    assert main(["record", "--provider", "ollama", "--repeat", "0"]) == 2


def _designed():
    from tooldesign.tools import tool_set
    return tool_set("designed")
