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
from tooldesign.selection.record import FORMAT as OLD_FORMAT
from tooldesign.selection.record import record_runs

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


# The writing step is the same for every provider, so one of them also records a second time.
@pytest.mark.parametrize("provider, repeat, again", [("anthropic", 1, True), ("openai", 1, False), ("ollama", 2, False)])
def test_record_writes_one_schema_valid_file_that_every_lesson_shows(provider, repeat, again, server, monkeypatch, tmp_path,
                                                                      capsys):
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
    assert [c["repeat"] for c in data["capstone"]] == list(range(1, repeat + 1))
    assert all(c["usage"]["input_tokens"] > 0 and c["usage"]["output_tokens"] > 0 for c in data["capstone"])
    assert len(data["tasks"]) == 18 * repeat and {t["tool_set"] for t in data["tasks"]} == {"mirror", "designed"}
    assert server.problems == []
    if again:  # a second run never overwrites the first
        assert main(argv) == 0
        assert len(list(out.glob("*.json"))) == 2
    for experiment in ("selection", "boundary", "scale", "injection", "capstone", "tasks"):
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
    _old_file(record_runs(picker, "held-out", ("designed",), 1), tmp_path / "runs" / "old.json")
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


def _old_file(run, path):
    """A file of the first format, as `select --record` wrote it before there was one writer."""
    from dataclasses import asdict
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"format": OLD_FORMAT, **asdict(run)}), encoding="utf-8")
    return path


def _designed():
    from tooldesign.tools import tool_set
    return tool_set("designed")


# ---------- tool_choice: the fake servers honour each provider's spelling, record runs lesson 12's ----------

from tooldesign.dispatch import choice as tc  # noqa: E402
from tooldesign.selection.models import chat_tool_choice  # noqa: E402
from tooldesign.wire.dialects import TOOL_CHOICE  # noqa: E402

PICKERS = {
    "openai": lambda url: OpenAICompatiblePicker(model="m", base_url=url + "/v1", api_key="k"),
    "anthropic": lambda url: AnthropicPicker(model="m", base_url=url, api_key="k"),
    "ollama": lambda url: OllamaPicker(model="m", base_url=url + "/v1"),
}


def declines(request, names):
    return None


@pytest.mark.parametrize("provider", PICKERS)
@pytest.mark.parametrize("setting, want", [
    (tc.AUTO, None),  # the chooser declines and auto lets it
    (tc.ANY, "first"),  # some call is obliged: the server's fallback is the first tool
    (tc.named("customer_get_credit_exposure"), "customer_get_credit_exposure"),
    (tc.NONE, None),
])
def test_each_tool_choice_is_sent_in_the_providers_spelling_and_honoured(provider, setting, want):
    with FakeModelServer(declines) as fake:
        picked = PICKERS[provider](fake.url).pick("Why is order 4711 on hold?", _designed(), tool_choice=setting)
    sent = fake.requests[-1]["body"]["tool_choice"]
    assert fake.problems == []
    assert sent == (setting if provider == "anthropic" else chat_tool_choice(setting))
    assert picked.tool == (_designed().names[0] if want == "first" else want)
    assert fake.choices[-1][0] == setting["type"]


@pytest.mark.parametrize("setting", [row["Anthropic"] for row in TOOL_CHOICE])
def test_the_chat_spelling_is_the_one_the_tool_choice_lesson_shows(setting):
    row = next(r for r in TOOL_CHOICE if r["Anthropic"] == setting)
    named = setting.get("name")
    want = row["OpenAI Chat Completions"]
    assert chat_tool_choice(setting) == want, named


@pytest.mark.parametrize("bad", [{"type": "required"}, {"type": "tool"}, {"type": "function", "name": "x"}, {}])
def test_a_tool_choice_no_api_takes_is_refused_before_sending(bad):
    with pytest.raises(ValueError, match="tool_choice"):
        chat_tool_choice(bad)


@pytest.mark.parametrize("provider, body", [
    ("anthropic", {"type": "tool", "name": "no_such_tool"}),
    ("anthropic", {"type": "required"}),
    ("anthropic", {"type": "none", "disable_parallel_tool_use": True}),
    ("openai", {"type": "function", "function": {"name": "no_such_tool"}}),
    ("openai", "any"),
    ("openai", {"type": "tool", "name": "sales_order_search"}),
    ("openai", {"type": "allowed_tools", "allowed_tools": {"mode": "sometimes", "tools": []}}),
])
def test_the_fake_server_refuses_a_tool_choice_its_provider_would(provider, body):
    picker = PICKERS[provider]
    with FakeModelServer() as fake:
        model = picker(fake.url)
        client = model.client.with_options(max_retries=0)
        with pytest.raises(Exception) as raised:
            if provider == "anthropic":
                client.messages.create(model="m", max_tokens=5, messages=[{"role": "user", "content": "hi"}],
                                       tools=[{"name": "sales_order_search", "description": "d",
                                               "input_schema": {"type": "object", "properties": {"q": {}}}}],
                                       tool_choice=body)
            else:
                client.chat.completions.create(model="m", messages=[{"role": "user", "content": "hi"}],
                                               tools=[{"type": "function", "function": {
                                                   "name": "sales_order_search", "description": "d",
                                                   "parameters": {"type": "object", "properties": {"q": {}}}}}],
                                               tool_choice=body)
    assert getattr(raised.value, "status_code", None) == 400 and "tool_choice" in str(raised.value)


def test_allowed_tools_required_obliges_a_call():
    with FakeModelServer(declines) as fake:
        client = PICKERS["openai"](fake.url).client
        response = client.chat.completions.create(
            model="m", messages=[{"role": "user", "content": "hi"}],
            tools=[{"type": "function", "function": {"name": "sales_order_search", "description": "d",
                                                      "parameters": {"type": "object", "properties": {"q": {}}}}}],
            tool_choice={"type": "allowed_tools", "allowed_tools": {
                "mode": "required", "tools": [{"type": "function", "function": {"name": "sales_order_search"}}]}})
    assert response.choices[0].message.tool_calls[0].function.name == "sales_order_search"


@pytest.mark.parametrize("provider", PICKERS)
def test_record_asks_every_tool_choice_setting_and_keeps_each_first_call(provider, tmp_path):
    with FakeModelServer(chooser) as fake:
        got = rec.record(PICKERS[provider](fake.url), repeat=2, parts=("tool_choice",))
    settings = tc.lesson_settings()
    assert [r.setting for r in got.tool_choice] == [s.label for s in settings] * 2
    assert {r.repeat for r in got.tool_choice} == {1, 2}
    by_label = {r.setting: r for r in got.tool_choice if r.repeat == 1}
    assert by_label["tool_choice names it"].first_call == tc.FIRST_STEP
    assert by_label["tool_choice names it"].tool_choice == f"tool {tc.FIRST_STEP}"
    assert by_label["tool_choice none"].first_call is None
    assert by_label["tool_choice any"].first_call is not None
    assert all(r.input_tokens > 0 and r.latency_s >= 0 for r in got.tool_choice)
    # the instruction reached the system prompt, and the choice the wire
    bodies = [r["body"] for r in fake.requests if r["body"]]
    system = [b.get("system") or b["messages"][0]["content"] for b in bodies]
    assert any("MUST ALWAYS call sales_order_get_block_summary first" in s for s in system)
    assert [c[0] for c in fake.choices[:6]] == ["auto", "auto", "auto", "tool", "any", "none"]
    path = rec.write(got, tmp_path)
    again = rec.read(path)
    assert again.tool_choice == got.tool_choice
    shown = rec.show_records("tool_choice", tmp_path)
    assert "tool_choice none (tool_choice none)" in shown and f"first call {tc.FIRST_STEP} 2 (of 2)" in shown, shown
    assert "No record" in rec.show_records("injection", tmp_path)


def test_a_record_without_tool_choice_rows_still_reads(tmp_path, server):
    got = rec.record(PICKERS["openai"](server.url), parts=("boundary",))
    data = rec._as_json(got)
    data.pop("tool_choice")
    (tmp_path / "before.json").write_text(json.dumps(data))
    assert rec.read(tmp_path / "before.json").tool_choice == ()
    assert "No record" in rec.show_records("tool_choice", tmp_path)


def test_a_malformed_tool_choice_row_is_named_and_skipped(tmp_path, server):
    got = rec.record(PICKERS["openai"](server.url), parts=("tool_choice",))
    data = rec._as_json(got)
    data["tool_choice"][0]["input_tokens"] = -3
    (tmp_path / "bad.json").write_text(json.dumps(data))
    shown = rec.show_records("tool_choice", tmp_path)
    assert "(skipped)" in shown and "bad.json" in shown and "No record" in shown


def test_a_429_in_the_tool_choice_settings_is_retried(server):
    waits = []
    server.faults = [(429, {"retry-after": "2"}, b"{}")]
    got = rec.record(PICKERS["anthropic"](server.url), parts=("tool_choice",), sleep=waits.append)
    assert waits == [2.0] and got.retries == 1 and len(got.tool_choice) == len(tc.lesson_settings())


def test_unknown_parts_are_refused(server):
    with pytest.raises(ValueError, match="parts"):
        rec.record(PICKERS["openai"](server.url), parts=("capstones",))


# ---------- retries in the injection trials (their multi-turn requests use the picker's client) ----------

@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_a_429_in_the_injection_trials_is_retried_and_every_trial_kept(provider, server):
    waits = []
    plain = rec.record(PICKERS[provider](server.url), parts=("injection",))
    server.faults = [(429, {"retry-after": "3"}, b"{}"), (429, {}, b"{}")]
    got = rec.record(PICKERS[provider](server.url), parts=("injection",), sleep=waits.append)
    assert waits == [3.0, 1.0] and got.retries == 2
    assert len(got.injection) == len(plain.injection) and got.injection == plain.injection


def test_a_429_that_never_ends_in_the_injection_trials_is_rate_limited(server):
    server.faults = [(429, {"retry-after": "1"}, b"{}")] * (rec.MAX_RETRIES + 1)
    with pytest.raises(rec.RateLimited, match="rate limited"):
        rec.record(PICKERS["openai"](server.url), parts=("injection",), sleep=lambda s: None)


def test_a_failing_answer_in_the_injection_trials_is_not_retried(server):
    waits = []
    server.faults = [(500, {}, b'{"error": "boom"}')] * 3
    with pytest.raises(Exception) as raised:
        rec.record(PICKERS["openai"](server.url), parts=("injection",), sleep=waits.append)
    assert not isinstance(raised.value, rec.RateLimited) and waits == []


# ---------- the capstone task through the course's loop, and the real-model adapters ----------

import sys  # noqa: E402

from tooldesign.capstone.agent import REQUEST, ChatModel, MessagesModel, real_model  # noqa: E402
from tooldesign.capstone.reference import reference_loop  # noqa: E402

ARGS = {"sales_order_search": {"customer": "10023", "blocked_only": True, "limit": 5},
        "release_request_create": {"sales_order": "4711", "justification": "Paid in full on 1 December."}}


def agent_server(plan):
    """A fake server that plays ``plan`` (one tool per model call, None: answer in text) and then answers."""
    fake = FakeModelServer(lambda request, names: plan[min(fake_calls(fake), len(plan)) - 1]
                           if fake_calls(fake) <= len(plan) else None,
                           arguments=lambda tool: ARGS.get(tool, {}))
    return fake


def fake_calls(fake):
    return sum(1 for r in fake.requests if r["body"] is not None)


def _loop_run(provider, plan, max_steps=6):
    with agent_server(plan) as fake:
        model = real_model(PICKERS[provider](fake.url))
        report = reference_loop()(model, REQUEST, max_steps)
    return report, fake


@pytest.mark.parametrize("provider", PICKERS)
def test_the_real_model_adapters_run_the_loop_end_to_end(provider):
    report, fake = _loop_run(provider, ["sales_order_search", None])
    assert fake.problems == [] and report.stop.value == "answered" and report.steps == 2
    assert [(c.name, c.outcome.value) for c in report.calls] == [("sales_order_search", "ran")]
    assert report.answer == "No tool fits that request."
    # the second request carried the call and its result, paired by id, in the provider's own form
    second = [r["body"] for r in fake.requests if r["body"]][1]
    call_id = report.calls[0].id
    adapter = real_model(PICKERS[provider]("http://127.0.0.1:9"))
    assert isinstance(adapter, MessagesModel if provider == "anthropic" else ChatModel)
    if provider == "anthropic":
        turns = second["messages"]
        assert turns[1]["content"][0]["id"] == call_id
        assert turns[2]["content"][0] == {**turns[2]["content"][0], "type": "tool_result", "tool_use_id": call_id}
    else:
        tool_messages = [m for m in second["messages"] if m["role"] == "tool"]
        assert [m["tool_call_id"] for m in tool_messages] == [call_id]
        assert second["messages"][2]["tool_calls"][0]["function"]["name"] == "sales_order_search"
        assert "parameters" in second["tools"][0]["function"]


@pytest.mark.parametrize("provider", PICKERS)
def test_a_write_stops_the_loop_at_the_gate_with_a_real_model(provider):
    report, _ = _loop_run(provider, ["sales_order_search", "release_request_create"])
    assert report.stop.value == "pending_approval" and report.pending == (report.calls[1].id,)


@pytest.mark.parametrize("provider", PICKERS)
def test_a_model_that_never_stops_meets_the_budget(provider):
    report, _ = _loop_run(provider, ["customer_get_address_gaps"] * 20, max_steps=3)
    assert report.stop.value == "budget" and report.steps == 3


def test_malformed_chat_arguments_are_refused_not_raised():
    with FakeModelServer(lambda r, n: "sales_order_search" if isinstance(r, str) and "10023" in r else None,
                         arguments=lambda tool: '{"customer": "10023", ') as fake:
        first = fake.choose
        fake.choose = lambda r, n: first(r, n) if fake_calls(fake) == 1 else None  # then answer in text
        report = reference_loop()(real_model(PICKERS["openai"](fake.url)), REQUEST, 4)
    assert [c.outcome.value for c in report.calls] == ["refused"] and report.stop.value == "answered"
    result = report.transcript[2]["content"][0]
    assert result["is_error"] is True


def test_sap_is_refused_in_one_line():
    class Sap:
        provider = "sap"
    with pytest.raises(ValueError, match="anthropic, openai or ollama"):
        real_model(Sap())
    with pytest.raises(ValueError, match="ChatModel"):
        MessagesModel(Sap())


@pytest.mark.parametrize("provider", PICKERS)
def test_record_runs_the_capstone_task_and_every_lesson_shows_it(provider, tmp_path):
    with agent_server(["sales_order_search", "release_request_create"]) as fake:
        # only the capstone: the plan counts this run's model calls from the first
        got = rec.record(PICKERS[provider](fake.url), parts=("capstone",))
    (run,) = got.capstone
    assert (run.request, run.stop, run.steps) == (REQUEST, "pending_approval", 2)
    assert run.calls == (("sales_order_search", "ran"), ("release_request_create", "pending"))
    assert any("tool_result" in line for line in run.transcript)
    path = rec.write(got, tmp_path)
    jsonschema.validate(json.loads(path.read_text()), rec.SCHEMA)
    assert rec.read(path) == got
    shown = rec.show_records("capstone", tmp_path)
    assert "capstone task, run 1: pending_approval after 2 model calls" in shown, shown
    assert "transcript of run 1:" in shown and "tool_use" in shown and "tool_result" in shown
    assert len(shown.splitlines()) <= 4 + rec.TRANSCRIPT_LINES + 1 + 20  # a screen, with the other parts


def test_a_429_inside_the_capstone_loop_is_retried(tmp_path):
    waits = []
    with agent_server(["sales_order_search", None]) as fake:
        fake.faults = [(429, {"retry-after": "4"}, b"{}")]
        got = rec.record(PICKERS["anthropic"](fake.url), parts=("capstone",), sleep=waits.append)
    assert waits == [4.0] and got.retries == 1 and got.capstone[0].stop == "answered"


def test_a_damaged_capstone_row_is_named_and_skipped(tmp_path):
    with agent_server([None]) as fake:
        got = rec.record(PICKERS["openai"](fake.url), parts=("capstone",))
    data = rec._as_json(got)
    data["capstone"][0]["stop"] = "finished"
    (tmp_path / "bad.json").write_text(json.dumps(data))
    shown = rec.show_records("capstone", tmp_path)
    assert "(skipped)" in shown and "bad.json" in shown and "No record" in shown


def test_without_the_courses_loop_the_capstone_step_is_one_line_and_skipped(server, monkeypatch, tmp_path, capsys):
    monkeypatch.setitem(sys.modules, "tooldesign.capstone.reference", None)  # as in the student edition
    assert rec.capstone_loop() is None
    argv = ["record", "--provider", "openai", *_env(monkeypatch, "openai", server.url), "--out", str(tmp_path)]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.count(rec.CAPSTONE_SKIPPED) == 1 and "lesson 19" in out and "ex19-agent-loop" in out
    (path,) = tmp_path.glob("*.json")
    assert json.loads(path.read_text())["capstone"] == [] and json.loads(path.read_text())["tasks"] == []
    assert "No record" in rec.show_records("tasks", tmp_path)


def test_with_the_courses_loop_record_says_nothing_of_skipping(server, monkeypatch, tmp_path, capsys):
    argv = ["record", "--provider", "openai", *_env(monkeypatch, "openai", server.url), "--out", str(tmp_path)]
    assert main(argv) == 0
    assert "skipped" not in capsys.readouterr().out
    (path,) = tmp_path.glob("*.json")
    assert len(json.loads(path.read_text())["capstone"]) == 1


# ---------- the capstone record carries tokens as each provider reported them ----------

from dataclasses import fields  # noqa: E402

from fake_model_server import _tokens  # noqa: E402
from tooldesign.capstone import agent  # noqa: E402
from tooldesign.capstone.agent import TokenUsage, total_usage  # noqa: E402


def _cost(shown):
    """The lines under "capstone tokens per run", one per reported field and the time."""
    lines = shown.splitlines()
    start = next(n for n, line in enumerate(lines) if line.startswith("  capstone tokens per run, as "))
    return lines[start + 1:start + 6]


def _capstone_record(provider, plan, repeat=1, **server_options):
    fake = agent_server(plan)
    fake.usage, fake.cached = server_options.get("usage", "full"), server_options.get("cached", 0)
    with fake:
        got = rec.record(PICKERS[provider](fake.url), repeat=repeat, parts=("capstone",))
    return got, fake


@pytest.mark.parametrize("provider", PICKERS)
def test_the_capstone_record_sums_the_usage_each_provider_reports(provider, tmp_path):
    got, fake = _capstone_record(provider, ["sales_order_search", "customer_get_credit_exposure", None], cached=7)
    (run,) = got.capstone
    bodies = [r["body"] for r in fake.requests if r["body"] is not None]
    assert run.steps == len(bodies) == len(fake.usages) == 3
    sent = sum(_tokens(b) for b in bodies)  # the fake's own count of what it was sent, computed apart
    if provider == "anthropic":  # input_tokens leaves the cache out; the cache fields sit beside it
        want = TokenUsage(sent - 7 * 3, sum(u["output_tokens"] for u in fake.usages), 7 * 3, 0)
    else:  # prompt_tokens counts the cached ones too; no cache_write_tokens was sent: not reported
        want = TokenUsage(sent, sum(u["completion_tokens"] for u in fake.usages), 7 * 3, None)
    assert run.usage == want and run.usage.output_tokens > 3
    assert isinstance(run.latency_s, float) and run.latency_s >= 0
    path = rec.write(got, tmp_path)
    data = json.loads(path.read_text())
    jsonschema.validate(data, rec.SCHEMA)
    assert data["capstone"][0]["usage"] == {f.name: getattr(want, f.name) for f in fields(TokenUsage)}
    assert rec.read(path) == got
    shown = rec.show_records("capstone", tmp_path)
    names = agent.REPORTED_AS[provider]
    assert f"capstone tokens per run, as {provider} reported them:" in shown
    cost = _cost(shown)
    assert cost[:4] == [f"    {names[0]} {want.input_tokens}", f"    {names[1]} {want.output_tokens}",
                        f"    {names[2]} 21", f"    {names[3]} {'0' if provider == 'anthropic' else 'not reported'}"]
    assert cost[4].startswith("    model time, seconds: ")


@pytest.mark.parametrize("provider", PICKERS)
def test_a_server_that_omits_usage_is_recorded_as_not_reported_never_as_0(provider, tmp_path):
    got, fake = _capstone_record(provider, ["sales_order_search", None], usage="none")
    (run,) = got.capstone
    assert fake.usages == [None, None] and run.steps == 2
    assert run.usage == TokenUsage(None, None, None, None)
    path = rec.write(got, tmp_path)
    data = json.loads(path.read_text())
    jsonschema.validate(data, rec.SCHEMA)
    assert set(data["capstone"][0]["usage"].values()) == {None}
    cost = _cost(rec.show_records("capstone", tmp_path))
    names = agent.REPORTED_AS[provider]
    assert cost[:4] == [f"    {name} not reported" for name in names], cost


@pytest.mark.parametrize("provider", PICKERS)
def test_counts_without_cache_fields_keep_the_cache_not_reported(provider, tmp_path):
    got, fake = _capstone_record(provider, [None], usage="counts")
    (run,) = got.capstone
    assert run.usage.input_tokens == sum(_tokens(r["body"]) for r in fake.requests if r["body"])
    assert run.usage.output_tokens > 0
    assert (run.usage.cache_read_tokens, run.usage.cache_write_tokens) == (None, None)
    rec.write(got, tmp_path)
    cost = _cost(rec.show_records("capstone", tmp_path))
    names = agent.REPORTED_AS[provider]
    assert cost[0] == f"    {names[0]} {run.usage.input_tokens}"
    assert cost[2:4] == [f"    {names[2]} not reported", f"    {names[3]} not reported"]


def test_the_tokens_of_repeated_runs_are_shown_with_their_spread(tmp_path):
    # the plan is played once: the first run searches then answers, the second answers at once
    got, _ = _capstone_record("openai", ["sales_order_search", None], repeat=2)
    first, second = got.capstone
    assert (first.steps, second.steps) == (2, 1)
    assert first.usage.input_tokens > second.usage.input_tokens > 0
    rec.write(got, tmp_path)
    shown = rec.show_records("capstone", tmp_path)
    low, high = second.usage.input_tokens, first.usage.input_tokens
    mean = f"{(low + high) / 2:.1f}".removesuffix(".0")
    assert f"    prompt_tokens {mean} (lowest {low}, highest {high}, 2 runs)" in shown.splitlines(), shown


def test_a_run_that_reported_no_tokens_beside_one_that_did_is_named(tmp_path):
    got, _ = _capstone_record("anthropic", [None], repeat=2)
    rows = (got.capstone[0], rec.CapstoneRow(**{**got.capstone[1].__dict__, "usage": TokenUsage()}))
    rec.write(rec.Record(**{**got.__dict__, "capstone": rows}), tmp_path)
    cost = _cost(rec.show_records("capstone", tmp_path))
    assert cost[0] == f"    input_tokens {rows[0].usage.input_tokens}, not reported in 1 run", cost


def test_a_capstone_record_made_before_tokens_were_kept_still_reads(tmp_path):
    got, _ = _capstone_record("openai", ["sales_order_search", None])
    data = json.loads(json.dumps(rec._as_json(got)))
    for row in data["capstone"]:
        row.pop("usage"), row.pop("latency_s")
    jsonschema.validate(data, rec.SCHEMA)
    (tmp_path / "before.json").write_text(json.dumps(data))
    (run,) = rec.read(tmp_path / "before.json").capstone
    assert run.usage is None and run.latency_s is None and run.calls == got.capstone[0].calls
    shown = rec.show_records("capstone", tmp_path)
    assert "capstone tokens: not recorded" in shown and "capstone task, run 1" in shown, shown


@pytest.mark.parametrize("damage", [
    lambda u: u.update(input_tokens=-1),
    lambda u: u.update(output_tokens="12"),
    lambda u: u.update(cache_read_tokens=1.5),
    lambda u: u.pop("cache_write_tokens"),
    lambda u: u.update(total_tokens=3),
])
def test_a_damaged_usage_is_named_and_skipped(damage, tmp_path):
    got, _ = _capstone_record("anthropic", [None])
    data = rec._as_json(got)
    damage(data["capstone"][0]["usage"])
    (tmp_path / "bad.json").write_text(json.dumps(data))
    shown = rec.show_records("capstone", tmp_path)
    assert "(skipped)" in shown and "bad.json" in shown and "No record" in shown


@pytest.mark.parametrize("usages, want", [
    ([], TokenUsage()),
    ([TokenUsage(10, 2, 0, 0)], TokenUsage(10, 2, 0, 0)),
    ([TokenUsage(10, 2, 0, None), TokenUsage(5, 1, 3, None)], TokenUsage(15, 3, 3, None)),
    ([TokenUsage(10, 2, 0, 0), TokenUsage()], TokenUsage()),  # one call unreported: the run's sum is unknown
    ([TokenUsage(0, 0, 0, 0), TokenUsage(0, 0, 0, 0)], TokenUsage(0, 0, 0, 0)),  # a reported 0 stays 0
])
def test_usage_is_summed_only_where_every_call_reported_it(usages, want):
    assert total_usage(usages) == want


@pytest.mark.parametrize("provider", PICKERS)
def test_malformed_counts_are_not_reported_not_trusted(provider):
    bad = {"input_tokens": -4, "output_tokens": True, "prompt_tokens": "12", "completion_tokens": None,
           "cache_read_input_tokens": 2.0, "prompt_tokens_details": {"cached_tokens": -1}}

    class Response:
        usage = type("Usage", (), {**bad, "prompt_tokens_details": type("D", (), bad["prompt_tokens_details"])})

    read = agent.messages_usage if provider == "anthropic" else agent.chat_usage
    assert read(Response()) == TokenUsage()


@pytest.mark.parametrize("provider", PICKERS)
def test_both_adapters_send_the_loops_own_system_prompt(provider):
    with agent_server(["sales_order_search", None]) as fake:
        reference_loop()(real_model(PICKERS[provider](fake.url)), REQUEST, 4)
    bodies = [r["body"] for r in fake.requests if r["body"]]
    systems = [b["system"] if provider == "anthropic" else b["messages"][0]["content"] for b in bodies]
    if provider != "anthropic":
        assert all(b["messages"][0]["role"] == "system" for b in bodies)
    assert systems == [agent.SYSTEM_PROMPT] * 2 and agent.SYSTEM_PROMPT != config.SYSTEM_PROMPT
    assert "Call the one tool" not in agent.SYSTEM_PROMPT  # the selection test's instruction, not a loop's
