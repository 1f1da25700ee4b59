"""What a lesson prints where a real model's figure goes: the records found, or one line saying how to
make one (the command, how many model calls, what a key costs at the dated price)."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import re
import shutil
from pathlib import Path

import pytest
from fake_model_server import SETTINGS, FakeModelServer, no_real_settings  # noqa: F401 (the fixture)

from tooldesign import record as rec
from tooldesign.cli import main
from tooldesign.loop.caching import price_of
from tooldesign.selection import config

pytestmark = pytest.mark.usefixtures("no_real_settings")
ROOT = Path(__file__).resolve().parent.parent


def _bench():
    spec = importlib.util.spec_from_file_location(
        "bench_record_cost", ROOT / "benchmarks" / "bench_record_cost.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("experiment", sorted(rec.EXPERIMENTS))
def test_an_empty_folder_gives_one_line_with_the_command_the_calls_and_the_cost(experiment, tmp_path):
    shown = rec.show_records(experiment, tmp_path / "runs")
    assert "\n" not in shown and shown.startswith("No record in runs/")
    assert rec.COMMAND in shown and "--provider anthropic" in shown
    assert f"{rec.RECORD_COST.calls * rec.REPEAT:,} model calls" in shown
    price = price_of(rec.PRICED_MODEL)
    dollars = rec.RECORD_COST.input_tokens * rec.REPEAT * price.input / 1_000_000
    assert f"${dollars:.2f}" in shown and price.read_on in shown and rec.PRICED_MODEL in shown


def test_the_cost_follows_the_repeat_and_the_dated_price():
    one, three = rec.how_to_record(1), rec.how_to_record(3)
    calls = [int(re.search(r"([\d,]+) model calls", line).group(1).replace(",", "")) for line in (one, three)]
    assert calls == [rec.RECORD_COST.calls, 3 * rec.RECORD_COST.calls]


def test_the_stated_calls_and_tokens_are_what_the_command_sends(monkeypatch):
    """The figures in the line are measured, not guessed: the benchmark run again must give them."""
    monkeypatch.setenv(config.KEY_ENV["anthropic"], "x")
    monkeypatch.setenv(config.BASE_URL_ENV["anthropic"], "http://127.0.0.1:9")
    parts = _bench().measure_parts()
    cost = rec.RECORD_COST
    assert parts["all"] == (cost.calls, cost.input_tokens)
    assert parts["clerk tasks"] == (cost.task_calls, cost.task_input_tokens)  # the nine tasks, both sets
    assert 0 < cost.task_calls <= rec.TASK_CALLS_AT_MOST


def test_the_line_states_the_clerk_tasks_share_and_their_ceiling():
    line = rec.how_to_record(2)
    assert f"{2 * rec.RECORD_COST.task_calls:,} of them the clerk tasks" in line
    assert f"up to {2 * rec.TASK_CALLS_AT_MOST:,}" in line


def _chooser(request, names):
    return names[len(str(request)) % len(names)]


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """One record made against the scripted server (a test, not a model's result), once per module:
    a whole record is some 560 requests, and every test below only reads it or adds a file beside it."""
    out = tmp_path_factory.mktemp("recorded") / "runs"
    with pytest.MonkeyPatch.context() as patch, FakeModelServer(_chooser) as server:
        for name in SETTINGS:  # what no_real_settings does for each test, for this one record
            patch.delenv(name, raising=False)
        patch.chdir(out.parent)
        patch.setenv(config.KEY_ENV["anthropic"], "test-key")
        patch.setenv(config.BASE_URL_ENV["anthropic"], server.url)
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            assert main(["record", "--provider", "anthropic", "--model", "fake-model", "--out", str(out)]) == 0
    return out


@pytest.fixture
def runs(recorded, tmp_path):
    """A runs/ of this test's own, holding a copy of the module's record."""
    return Path(shutil.copytree(recorded, tmp_path / "runs"))


@pytest.mark.parametrize("experiment", sorted(rec.EXPERIMENTS))
def test_a_record_in_the_folder_is_shown_labelled_instead_of_the_line(experiment, runs):
    shown = rec.show_records(experiment, runs)
    assert "No record" not in shown and rec.COMMAND not in shown
    assert shown.startswith("Recorded: ") and "(anthropic, " in shown and "fake-model" in shown


def test_a_damaged_file_beside_no_record_is_named_and_the_line_still_says_how(tmp_path):
    folder = tmp_path / "runs"
    folder.mkdir()
    (folder / "broken.json").write_text("{not json", encoding="utf-8")
    lines = rec.show_records("selection", folder).splitlines()
    assert lines[0].startswith("(skipped)") and "broken.json" in lines[0]
    assert lines[1].startswith("No record in runs/") and rec.COMMAND in lines[1]


def test_a_damaged_file_beside_a_record_leaves_the_record_shown(runs):
    (runs / "zz-broken.json").write_text(json.dumps({"format": "something else"}), encoding="utf-8")
    shown = rec.show_records("capstone", runs)
    assert "(skipped)" in shown and "Recorded: " in shown and "No record" not in shown
