"""`tooldesign record` runs the nine clerk tasks (lesson 19 section 4) with both tool sets through the
course's loop, against fake servers on 127.0.0.1: each task's verdict, steps, tool calls, reported
tokens and time are kept, read back, and shown beside the scripted models' table."""
import json

import jsonschema
import pytest

from fake_model_server import FakeModelServer, no_real_settings  # noqa: F401 (the fixture)
from tooldesign import record as rec
from tooldesign.capstone import tasks
from tooldesign.capstone.agent import REPORTED_AS, TokenUsage
from tooldesign.selection.models import AnthropicPicker, OllamaPicker, OpenAICompatiblePicker

pytestmark = pytest.mark.usefixtures("no_real_settings")

PICKERS = {
    "openai": lambda url: OpenAICompatiblePicker(model="m", base_url=url + "/v1", api_key="k"),
    "anthropic": lambda url: AnthropicPicker(model="m", base_url=url, api_key="k"),
    "ollama": lambda url: OllamaPicker(model="m", base_url=url + "/v1"),
}
ARGS = {"release_request_create": {"sales_order": "4711", "justification": "Paid on time for years."}}
RIGHT = "release 4711"  # the one task the fake model below ends right, and only with the designed set


def drafts_4711(request, names):
    """Proposes the release of 4711 when asked for it and the set has the tool; else answers in text."""
    asked = isinstance(request, str) and "release of order 4711" in request
    return "release_request_create" if asked and "release_request_create" in names else None


def _record(provider="openai", repeat=1, usage="full"):
    with FakeModelServer(drafts_4711, arguments=lambda tool: ARGS.get(tool, {}), usage=usage) as fake:
        got = rec.record(PICKERS[provider](fake.url), repeat=repeat, parts=("tasks",))
    assert fake.problems == []
    return got, fake


def _row(got, task, tool_set, repeat=1):
    (row,) = [r for r in got.tasks if (r.task, r.tool_set, r.repeat) == (task, tool_set, repeat)]
    return row


def _table(shown):
    """The task-by-set lines under the summary: {task: line}."""
    names = {t.name for t in tasks.TASKS}
    return {name: line for line in shown.splitlines() for name in names if line.startswith(f"    {name}  ")}


@pytest.mark.parametrize("provider", PICKERS)
def test_every_task_runs_with_both_sets_and_the_record_round_trips(provider, tmp_path):
    got, fake = _record(provider)
    assert [(r.tool_set, r.task) for r in got.tasks] == [(s, t.name) for s in tasks.SETS for t in tasks.TASKS]
    bodies = [r["body"] for r in fake.requests if r["body"] is not None]
    assert sum(r.steps for r in got.tasks) == len(bodies)  # every model call is one step of one task
    right = _row(got, RIGHT, "designed")
    assert right.success and right.problems == () and right.stop == "pending_approval"
    assert (right.steps, right.tool_calls) == (1, 1)
    wrong = _row(got, RIGHT, "mirror")
    assert not wrong.success and wrong.problems == ("no release request proposed for 4711",)
    assert (wrong.stop, wrong.steps, wrong.tool_calls) == ("answered", 1, 0)
    assert [r.task for r in got.tasks if r.success] == [RIGHT]
    assert all(r.usage.input_tokens > 0 and r.usage.output_tokens > 0 for r in got.tasks)
    assert all(isinstance(r.latency_s, float) and r.latency_s >= 0 for r in got.tasks)
    path = rec.write(got, tmp_path)
    data = json.loads(path.read_text())
    jsonschema.validate(data, rec.SCHEMA)
    assert data["format"] == rec.FORMAT == "tooldesign-record/3" and len(data["tasks"]) == 18
    assert rec.read(path) == got


def test_the_task_table_is_shown_labelled_with_the_model_and_the_date(tmp_path):
    got, _ = _record("anthropic")
    rec.write(got, tmp_path)
    shown = rec.show_records("tasks", tmp_path)
    lines = shown.splitlines()
    assert lines[0].startswith("Recorded: m (anthropic, ") and got.date[:10] in lines[0]
    assert "No record" not in shown and len(lines) <= 20
    assert "tokens as anthropic reported them" in lines[1] and "input_tokens" in lines[2]
    mirror, designed = (next(line for line in lines if line.strip().startswith(s + " ")) for s in tasks.SETS)
    assert "0 of 9" in mirror and "1 of 9" in designed
    table = _table(shown)
    assert set(table) == {t.name for t in tasks.TASKS}
    assert table[RIGHT].split()[2:] == ["failed:", "no", "release", "request", "proposed", "for", "4711", "right"]
    # the whole-record view gives the tasks one line and points to the table
    assert "clerk tasks right: mirror set 0 of 9; designed set 1 of 9" in rec.show_records("capstone", tmp_path)
    assert "No record" in rec.show_records("boundary", tmp_path)  # a tasks-only record has nothing for 11


def test_a_failed_task_is_shown_as_failed_with_the_judges_reason(tmp_path):
    got, _ = _record("openai")
    rec.write(got, tmp_path)
    table = _table(rec.show_records("tasks", tmp_path))
    for task in tasks.TASKS:
        if task.name != RIGHT:
            assert table[task.name].count("failed: ") == 2, table[task.name]
    assert "failed: the answer lacks credit" in table["why 4711"]


@pytest.mark.parametrize("provider", PICKERS)
def test_an_unreported_token_count_is_kept_as_none_and_shown_as_not_reported(provider, tmp_path):
    got, fake = _record(provider, usage="none")
    assert set(fake.usages) == {None}
    assert {r.usage for r in got.tasks} == {TokenUsage(None, None, None, None)}
    path = rec.write(got, tmp_path)
    data = json.loads(path.read_text())
    assert {value for row in data["tasks"] for value in row["usage"].values()} == {None}  # null, never 0
    lines = rec.show_records("tasks", tmp_path).splitlines()
    for name in tasks.SETS:
        row = next(line for line in lines if line.strip().startswith(name + " "))
        assert row.count("not reported") == 2, row  # input and output columns
    assert REPORTED_AS[provider][0] in lines[2]


def test_a_run_that_did_not_report_beside_runs_that_did_is_named(tmp_path):
    got, _ = _record("openai")
    rows = list(got.tasks)
    rows[0] = rec.TaskRunRow(**{**rows[0].__dict__, "usage": TokenUsage()})
    rec.write(rec.Record(**{**got.__dict__, "tasks": tuple(rows)}), tmp_path)
    mirror = next(line for line in rec.show_records("tasks", tmp_path).splitlines() if " mirror " in line)
    assert "(not reported in 1 run)" in mirror and mirror.count("not reported") == 2


def test_repeats_are_counted_per_task(tmp_path):
    got, _ = _record("openai", repeat=2)
    assert len(got.tasks) == 2 * 18 and {r.repeat for r in got.tasks} == {1, 2}
    rec.write(got, tmp_path)
    shown = rec.show_records("tasks", tmp_path)
    assert "2 of 18" in shown and "right in 2 of 2 runs" in _table(shown)[RIGHT]
    assert "failed in 2 of 2 runs: no release request proposed for 4711" in _table(shown)[RIGHT]


def _older(got, tmp_path, name="before.json"):
    """The file a record of format 2 was: the same fields, without the clerk tasks."""
    data = rec._as_json(got)
    data["format"] = "tooldesign-record/2"
    data.pop("tasks")
    (tmp_path / name).write_text(json.dumps(data))
    return tmp_path / name


def test_a_record_of_the_previous_format_still_reads_and_has_no_tasks(tmp_path, monkeypatch):
    with FakeModelServer(drafts_4711) as fake:
        got = rec.record(PICKERS["openai"](fake.url), parts=("boundary", "tasks"))
    path = _older(got, tmp_path)
    jsonschema.validate(json.loads(path.read_text()), rec.SCHEMA)
    old = rec.read(path)
    assert old.format == "tooldesign-record/2" and old.tasks == () and old.boundary == got.boundary
    assert "No record" in rec.show_records("tasks", tmp_path)
    assert "boundary requests" in rec.show_records("boundary", tmp_path)


def test_the_format_says_which_fields_a_file_must_have(tmp_path):
    with FakeModelServer(drafts_4711) as fake:
        got = rec.record(PICKERS["openai"](fake.url), parts=("tasks",))
    data = rec._as_json(got)
    data.pop("tasks")  # format 3 without its tasks
    (tmp_path / "no-tasks.json").write_text(json.dumps(data))
    old = json.loads(_older(got, tmp_path, "old.json").read_text())
    old["tasks"] = []  # format 2 with tasks it never had
    (tmp_path / "old.json").write_text(json.dumps(old))
    shown = rec.show_records("tasks", tmp_path)
    assert "(skipped)" in shown and "no-tasks.json" in shown and "old.json" in shown and "No record" in shown


@pytest.mark.parametrize("damage", [
    lambda r: r.update(success="yes"),
    lambda r: r.update(stop="finished"),
    lambda r: r.update(steps=-1),
    lambda r: r["usage"].update(input_tokens=-4),
    lambda r: r.update(usage=None),
    lambda r: r.pop("problems"),
])
def test_a_damaged_task_row_is_named_and_skipped(damage, tmp_path):
    got, _ = _record("openai")
    data = rec._as_json(got)
    damage(data["tasks"][0])
    (tmp_path / "bad.json").write_text(json.dumps(data))
    shown = rec.show_records("tasks", tmp_path)
    assert "(skipped)" in shown and "bad.json" in shown and "No record" in shown


def test_a_429_inside_a_task_is_retried():
    waits = []
    with FakeModelServer(drafts_4711, arguments=lambda tool: ARGS.get(tool, {})) as fake:
        fake.faults = [(429, {"retry-after": "5"}, b"{}")]
        got = rec.record(PICKERS["anthropic"](fake.url), parts=("tasks",), sleep=waits.append)
    assert waits == [5.0] and got.retries == 1 and len(got.tasks) == 18


def test_the_scripted_table_and_the_record_judge_alike():
    """run_task is the one run both tables use: the scripted rows come out as before."""
    loop = tasks.course_loop()
    from tooldesign.capstone.scripts import scripted

    rows = tasks.task_rows(loop, {"needs_a_person": lambda: scripted("needs_a_person", seed=0)}, sets=("designed",))
    assert [r.task for r in rows if r.success] == [RIGHT]
