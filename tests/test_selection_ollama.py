"""A free local model (Ollama) and recorded runs, driven through the fake server on 127.0.0.1."""
from __future__ import annotations

import json
import os
from datetime import datetime, timezone

import pytest

from fake_model_server import FakeModelServer
from tooldesign.cli import main
from tooldesign.selection import WordMatchPicker, run_selection
from tooldesign.selection import config
from tooldesign.selection.cases import case_set
from tooldesign.selection.models import OllamaPicker, local_model_status, model_picker
from tooldesign import record as rec
from tooldesign.selection.record import RecordError, load_record, record_runs
from tooldesign.tools import tool_set

STAND_IN = WordMatchPicker()
SETS = {name: tool_set(name) for name in ("mirror", "designed")}
SETTINGS = [*config.KEY_ENV.values(), *config.BASE_URL_ENV.values(), *config.MODEL_ENV.values(),
            *config.AICORE_ENV, config.PROVIDER_ENV]


def like_the_stand_in(request, names):
    for tools in SETS.values():
        if tools.names == names:
            return STAND_IN.pick(request, tools).tool
    return names[0]


@pytest.fixture(autouse=True)
def no_real_settings(monkeypatch, tmp_path):
    for name in SETTINGS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def server():
    with FakeModelServer(like_the_stand_in) as fake:
        yield fake


def test_defaults_live_in_config():
    assert "ollama" in config.PROVIDERS
    assert config.OLLAMA_BASE_URL == "http://localhost:11434/v1"
    assert config.default_model("ollama") == config.DEFAULT_MODELS["ollama"]
    assert config.ollama_base_url() == config.OLLAMA_BASE_URL


def test_ollama_picker_needs_no_key_and_speaks_the_openai_api(server):
    picker = OllamaPicker(base_url=server.url + "/v1")
    assert not picker.offline and picker.provider == "ollama" and picker.model == config.DEFAULT_MODELS["ollama"]
    result = run_selection(picker, SETS["designed"])
    assert result.right == run_selection(STAND_IN, SETS["designed"]).right
    assert server.problems == []
    request = server.requests[0]
    assert request["path"] == "/v1/chat/completions"
    assert request["headers"]["authorization"] == f"Bearer {config.OLLAMA_KEY}"
    assert request["body"]["model"] == config.DEFAULT_MODELS["ollama"]


def test_model_picker_reads_the_base_url_and_model_from_the_environment(server, monkeypatch):
    monkeypatch.setenv("OLLAMA_BASE_URL", server.url + "/v1")
    monkeypatch.setenv("OLLAMA_MODEL", "llama3.2")
    picker = model_picker(provider="ollama")
    assert isinstance(picker, OllamaPicker) and picker.model == "llama3.2"
    assert picker.pick("Why is sales order 4711 on hold?", SETS["designed"]).tool == "sales_order_get_block_summary"
    assert server.requests[-1]["body"]["model"] == "llama3.2"


def test_a_pick_carries_the_tokens_the_api_reported_and_the_latency(server):
    choice = OllamaPicker(base_url=server.url + "/v1").pick("Unblock 4711 please.", SETS["designed"])
    body = server.requests[-1]["body"]
    assert choice.input_tokens == len(json.dumps(body)) // 4  # the fake server's own count, passed through
    assert choice.latency_s is not None and choice.latency_s >= 0


def test_local_model_status_when_the_server_answers(server):
    status = local_model_status(server.url + "/v1")
    assert status.answers and status.has_model and f"serves {config.DEFAULT_MODELS['ollama']}" in status.message
    missing = local_model_status(server.url + "/v1", model="llama3.2")
    assert missing.answers and not missing.has_model and "ollama pull llama3.2" in missing.message


def test_local_model_status_when_nothing_listens():
    status = local_model_status("http://127.0.0.1:9/v1", timeout=2)  # the discard port: nothing listens
    assert not status.answers and status.models == ()
    assert "no local model server answers" in status.message and "\n" not in status.message


def test_record_has_every_field_and_round_trips(server, tmp_path):
    picker = OllamaPicker(base_url=server.url + "/v1")
    when = datetime(2026, 12, 1, 9, 0, tzinfo=timezone.utc)
    record = record_runs(picker, "held-out", ("mirror", "designed"), repeat=2, now=when)
    cases = case_set("held-out")
    assert (record.provider, record.model, record.date, record.case_set) == (
        "ollama", config.DEFAULT_MODELS["ollama"], "2026-12-01T09:00:00+00:00", "held-out")
    assert record.temperature == config.TEMPERATURE
    assert len(record.runs) == 4 and all(len(r.picks) == len(cases.cases) for r in record.runs)
    pick = record.runs[0].picks[0]
    assert pick.request == cases.cases[0].request and pick.input_tokens > 0 and pick.latency_s >= 0
    assert record.scores("designed") == [record.runs[1].right, record.runs[3].right]
    # the one writer: tooldesign.record, whose selection part holds one such record per case set
    measured = rec.record(picker, 2, now=when, parts=("selection",), case_sets=("held-out",))
    (kept,) = measured.selection
    assert (kept.provider, kept.date, kept.case_set, len(kept.runs)) == ("ollama", record.date, "held-out", 4)
    path = rec.save(measured, tmp_path / "runs" / "ollama.json")
    assert rec.read(path) == measured
    with pytest.raises(FileExistsError):
        rec.save(measured, path)
    (tmp_path / "runs" / "broken.json").write_text("{not json", encoding="utf-8")
    records, problems = rec.records_in(tmp_path / "runs")
    assert records == [measured] and len(problems) == 1 and "broken.json" in problems[0]


def test_record_summary_shows_the_spread(server):
    record = record_runs(OllamaPicker(base_url=server.url + "/v1"), "tuning", ("designed",), repeat=3)
    (row,) = record.summary()
    assert row["repeats"] == 3 and row["lowest"] <= row["mean right"] <= row["highest"]
    assert row["input tokens per call"] > 0


def test_a_foreign_json_file_is_refused_with_its_name(tmp_path):
    path = tmp_path / "other.json"
    path.write_text(json.dumps({"format": "something else"}), encoding="utf-8")
    with pytest.raises(RecordError, match="other.json"):
        load_record(path)


def test_cli_records_a_local_run(server, monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("OLLAMA_BASE_URL", server.url + "/v1")
    target = tmp_path / "runs" / "local.json"
    code = main(["select", "--provider", "ollama", "--cases", "held-out", "--record", str(target), "--repeat", "2"])
    out = capsys.readouterr().out
    assert code == 0 and "recorded:" in out and "lowest" in out
    data = json.loads(target.read_text(encoding="utf-8"))
    assert data["format"] == rec.FORMAT  # the one record format, not the old selection-only one
    assert {"provider", "model", "date", "temperature", "selection"} <= set(data)
    (selection,) = data["selection"]
    assert data["provider"] == "ollama" and selection["case_set"] == "held-out" and len(selection["runs"]) == 4
    assert data["boundary"] == data["injection"] == data["tool_choice"] == []
    assert {"request", "pick", "right", "input_tokens", "latency_s"} <= set(selection["runs"][0]["picks"][0])
    shown = rec.show_records("selection", target.parent)
    assert "old version" not in shown and "held-out cases" in shown
    assert main(["select", "--provider", "ollama", "--record", str(target)]) == 2  # never overwritten
    assert "never overwritten" in capsys.readouterr().err


@pytest.mark.parametrize("argv, fragment", [
    (["select", "--record", "x.json"], "for real models"),
    (["select", "--repeat", "3"], "for real models"),
    (["select", "--provider", "ollama", "--repeat", "0"], "1 or more"),
])
def test_bad_record_arguments_are_one_line(capsys, argv, fragment):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert fragment in err and err.count("\n") == 1


def test_ollama_not_running_is_one_line_with_the_fix(monkeypatch, capsys):
    monkeypatch.setenv("OLLAMA_BASE_URL", "http://127.0.0.1:9/v1")
    assert main(["select", "--provider", "ollama"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: the model call failed:") and "ollama serve" in err and err.count("\n") == 1


def test_cli_records_a_hosted_openai_compatible_run_too(server, monkeypatch, capsys, tmp_path):
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    monkeypatch.setenv("OPENAI_BASE_URL", server.url + "/v1")
    target = tmp_path / "hosted.json"
    assert main(["select", "--model", "fake-gpt", "--cases", "development", "--record", str(target)]) == 0
    (record,) = rec.read(target).selection
    assert (record.provider, record.model, record.case_set) == ("openai", "fake-gpt", "development")
    assert all(p.input_tokens and p.input_tokens > 0 for run in record.runs for p in run.picks)
    out = capsys.readouterr().out
    assert "== designed" in out and "input tokens per call" in out
