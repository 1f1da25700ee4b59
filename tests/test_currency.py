"""The currency manifest (docs/currency.csv) and `make currency`: what the course claims, and when it was read.

The manifest is the course's list of things the world changes under it. These tests keep it whole:
every notebook's model ids, MCP revisions and SDK versions are in it, its SDK rows match the pins,
its prices match the table lesson 16 computes with, and every row says where it came from and when.
"""

from __future__ import annotations

import datetime as dt
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "currency.py"
HEADER = "id,kind,value,claim,source,read_on,used_in\n"

_spec = importlib.util.spec_from_file_location("currency", SCRIPT)
currency = importlib.util.module_from_spec(_spec)
sys.modules["currency"] = currency
_spec.loader.exec_module(currency)

CLAIMS = currency.load()


def _manifest(tmp_path: Path, *rows: str) -> Path:
    path = tmp_path / "currency.csv"
    path.write_text(HEADER + "".join(row + "\n" for row in rows), encoding="utf-8")
    return path


GOOD = "m:x,model-id,gpt-6-luna,a model,https://example.org/models,2026-12-05,README.md"


# ---------- the manifest itself ----------


def test_the_manifest_loads_and_every_row_has_a_source_and_a_date():
    assert len(CLAIMS) >= 40
    for claim in CLAIMS:
        assert claim.source and isinstance(claim.read_on, dt.date), claim.id
        assert claim.kind in currency.KINDS and claim.used_in, claim.id
        assert claim.read_on <= dt.date(2026, 12, 5) or claim.read_on <= dt.date.today(), claim.id


def test_the_manifest_covers_every_kind_the_course_has_today():
    kinds = {c.kind for c in CLAIMS}
    assert {"spec-revision", "sdk-version", "model-id", "price", "parameter", "doc-figure"} <= kinds


@pytest.mark.parametrize(
    "row, fragment",
    [
        ("m:x,model-id,gpt-6-luna,a model,,2026-12-05,README.md", "the source is empty"),
        ("m:x,model-id,gpt-6-luna,a model,https://example.org,,README.md", "the read_on is empty"),
        ("m:x,model-id,gpt-6-luna,a model,https://example.org,5 December 2026,README.md", "YYYY-MM-DD"),
        ("m:x,model-id,gpt-6-luna,a model,https://example.org,2026-02-30,README.md", "not a date"),
        ("m:x,model,gpt-6-luna,a model,https://example.org,2026-12-05,README.md", "kind 'model'"),
        ("m:x,model-id,gpt-6-luna,a model,example.org,2026-12-05,README.md", "an address"),
        ("m:x,model-id,gpt-6-luna,a model,https://example.org,2026-12-05", "exactly 7 fields"),
        ("m:x,model-id,gpt-6-luna,a, model,https://example.org,2026-12-05,README.md", "exactly 7 fields"),
        (",model-id,gpt-6-luna,a model,https://example.org,2026-12-05,README.md", "the id is empty"),
        ("m:x,model-id,,a model,https://example.org,2026-12-05,README.md", "the value is empty"),
    ],
)
def test_a_bad_row_gets_a_one_line_error_naming_its_line(tmp_path, row, fragment):
    with pytest.raises(currency.ManifestError) as caught:
        currency.load(_manifest(tmp_path, GOOD.replace("m:x", "m:good"), row))
    message = str(caught.value)
    assert fragment in message and "line 3" in message and "\n" not in message


def test_a_duplicate_id_and_a_wrong_header_are_refused(tmp_path):
    with pytest.raises(currency.ManifestError, match="used twice"):
        currency.load(_manifest(tmp_path, GOOD, GOOD))
    wrong = tmp_path / "wrong.csv"
    wrong.write_text("id,kind,value\nx,model-id,y\n", encoding="utf-8")
    with pytest.raises(currency.ManifestError, match="header"):
        currency.load(wrong)
    with pytest.raises(currency.ManifestError, match="no such file"):
        currency.load(tmp_path / "missing.csv")


def test_a_row_of_the_references_counts_as_a_source(tmp_path):
    claims = currency.load(
        _manifest(tmp_path, "m:x,model-id,x-1,a,docs/references.md#references R20,2026-01-01,README.md")
    )
    assert claims[0].source == "docs/references.md#references R20"


def test_the_old_readme_address_of_the_references_is_refused(tmp_path):
    with pytest.raises(currency.ManifestError, match="docs/references.md"):
        currency.load(_manifest(tmp_path, "m:x,model-id,x-1,a,README.md#references R20,2026-01-01,README.md"))


# ---------- the notebooks against the manifest ----------


def _solution_texts() -> dict[str, str]:
    return {p.name: currency.notebook_text(p) for p in sorted((ROOT / "solutions").glob("*.ipynb"))}


def test_every_model_revision_and_sdk_version_a_notebook_names_is_in_the_manifest():
    problems = currency.unlisted(CLAIMS, _solution_texts())
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize(
    "text, name",
    [
        ("Set OPENAI_MODEL=gpt-9-nova to try it.", ("model-id", "gpt-9-nova")),
        ("the model claude-opus-7 answered", ("model-id", "claude-opus-7")),
        ("`ollama pull qwen9:2b` first", ("model-id", "qwen9:2b")),
        ("ollama pull llama9.1", ("model-id", "llama9.1")),
        ("reasoning models such as o4-mini.", ("model-id", "o4-mini")),
        ("MCP revision 2031-01-01 says so", ("spec-revision", "2031-01-01")),
        ("protocol version: 2031-02-03 | server", ("spec-revision", "2031-02-03")),
        (
            "https://modelcontextprotocol.io/specification/2031-04-05/server/tools",
            ("spec-revision", "2031-04-05"),
        ),
        ("pip install openai==9.9.9", ("sdk-version", "openai 9.9.9")),
        ("anthropic 9.1.0  mcp 9.2.0", ("sdk-version", "mcp 9.2.0")),
    ],
)
def test_a_notebook_naming_something_unlisted_fails(text, name):
    assert name in currency.names_in(text)
    problems = currency.unlisted(CLAIMS, {"99_new.ipynb": text})
    assert any(repr(name[1]) in p and "99_new.ipynb" in p and "add a row" in p for p in problems), problems


@pytest.mark.parametrize(
    "text",
    [
        "read on 2026-12-05 from the pricing page",  # a date that is no protocol revision
        "runs/qwen-heldout.json and SHP-2047",  # no model id
        "data:image/png;base64,o1o3o4",  # image bytes are never read as text
        "gpt-6-luna and claude-haiku-5-5 and qwen3:4b",  # listed names
        "mcp 2.3.0, openai 3.51.0",  # the pins
    ],
)
def test_listed_names_and_look_alikes_pass(text):
    assert currency.unlisted(CLAIMS, {"99_new.ipynb": text}) == []


def test_image_outputs_and_widget_state_are_not_scanned(tmp_path):
    import nbformat

    nb = nbformat.v4.new_notebook()
    cell = nbformat.v4.new_code_cell("x = 1")
    cell.outputs = [
        nbformat.v4.new_output("display_data", data={"image/png": "gpt-9-nova", "text/plain": "<Figure>"})
    ]
    nb.cells = [cell, nbformat.v4.new_markdown_cell("Use claude-opus-7.")]
    path = tmp_path / "n.ipynb"
    nbformat.write(nb, path)
    text = currency.notebook_text(path)
    assert "gpt-9-nova" not in text and "claude-opus-7" in text


# ---------- the manifest against the code ----------


def test_sdk_rows_match_the_requirements_pins():
    pins = currency.pins(ROOT / "requirements.txt")
    rows = {c.id.split(":", 1)[1]: c.value for c in CLAIMS if c.kind == "sdk-version"}
    assert set(rows) == {name for name in currency.SDKS if name in pins}
    for name, version in rows.items():
        assert pins[name] == version, (
            f"docs/currency.csv says {name} {version}, requirements.txt pins {pins[name]}"
        )


def test_pins_reads_a_requirements_file(tmp_path):
    req = tmp_path / "requirements.txt"
    req.write_text("# comment\nOpenAI==1.2.3  # why\nnumpy>=2\nmcp==2.0.0\n", encoding="utf-8")
    assert currency.pins(req) == {"openai": "1.2.3", "mcp": "2.0.0"}


def test_every_default_model_is_listed_with_the_date_config_gives():
    from tooldesign.selection import config

    models = {c.value: c for c in CLAIMS if c.kind == "model-id"}
    for provider, model in config.DEFAULT_MODELS.items():
        assert model in models, f"{provider}'s default {model} is not in docs/currency.csv"
        date, source = config.MODELS_CHECKED[provider]
        assert models[model].read_on.isoformat() == date or any(
            c.read_on.isoformat() == date for c in CLAIMS if c.value == model
        )


def test_price_rows_match_the_table_the_loop_lesson_computes_with():
    from tooldesign.loop.caching import PRICES

    expected = {}
    for p in PRICES:
        for field in ("input", "cache_write", "cache_write_1h", "cache_read"):
            value = getattr(p, field)
            if value is not None:
                expected[f"price:{p.model}:{field}"] = (value, p.read_on)
    rows = {c.id: c for c in CLAIMS if c.kind == "price"}
    assert set(rows) == set(expected)
    for key, (value, read_on) in expected.items():
        assert float(rows[key].value) == pytest.approx(value), key
        assert rows[key].read_on.isoformat() == read_on, key


def test_every_priced_model_and_every_default_has_a_price_row():
    from tooldesign.loop.caching import PRICES, price_of
    from tooldesign.selection import config

    for provider in ("openai", "anthropic"):
        assert price_of(config.DEFAULT_MODELS[provider]).read_on
    models = {c.value for c in CLAIMS if c.kind == "model-id"}
    assert {p.model for p in PRICES} <= models
    with pytest.raises(KeyError, match="add a row to PRICES"):
        price_of("gpt-9-nova")


# ---------- what is due ----------


def _claim(day: str, ident: str = "x") -> object:
    return currency.Claim(ident, "price", "1", "c", "https://example.org", dt.date.fromisoformat(day), ("f",))


def test_six_months_to_the_day_is_not_due_and_a_day_more_is():
    today = dt.date(2027, 6, 5)
    claims = [_claim("2026-12-05", "edge"), _claim("2026-12-04", "old"), _claim("2027-06-01", "new")]
    assert [c.id for c in currency.due(claims, today)] == ["old"]


def test_due_claims_come_oldest_first():
    claims = [_claim("2026-03-01", "b"), _claim("2025-01-01", "a"), _claim("2026-01-01", "c")]
    assert [c.id for c in currency.due(claims, dt.date(2027, 1, 1))] == ["a", "c", "b"]


@pytest.mark.parametrize(
    "day, months, expected",
    [
        ("2027-08-31", 6, "2027-02-28"),
        ("2028-08-31", 6, "2028-02-29"),
        ("2027-01-15", 6, "2026-07-15"),
        ("2027-06-30", 12, "2026-06-30"),
        ("2027-03-31", 1, "2027-02-28"),
    ],
)
def test_months_before_keeps_the_day_or_takes_the_month_end(day, months, expected):
    assert currency.months_before(dt.date.fromisoformat(day), months).isoformat() == expected


# ---------- the command ----------


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, cwd=ROOT, timeout=60
    )


def test_the_command_lists_old_claims_with_their_pages():
    done = _run("--today", "2027-12-31")
    assert done.returncode == 0 and done.stderr == ""
    lines = done.stdout.splitlines()
    assert f"of {len(CLAIMS)} claims were read more than 6 months before 2027-12-31" in lines[0]
    dates = [line[:10] for line in lines[1:] if line[:4].isdigit()]
    assert dates == sorted(dates) and len(dates) == len(CLAIMS)
    assert all(line.strip().startswith(("https://", "http://", "docs/references.md#")) for line in lines[3::3])


def test_the_command_says_so_when_nothing_is_due():
    done = _run("--today", "2026-12-05")
    assert done.returncode == 0 and done.stdout.startswith("No claim is older than 6 months on 2026-12-05")


def test_all_lists_every_claim():
    done = _run("--all", "--today", "2026-12-05")
    assert done.returncode == 0 and done.stdout.startswith(f"All {len(CLAIMS)} claims")


@pytest.mark.parametrize(
    "args, fragment",
    [
        (("--today", "2027-13-01"), "--today"),
        (("--today", "soon"), "YYYY-MM-DD"),
        (("--manifest", "nowhere.csv"), "no such file"),
    ],
)
def test_bad_input_gets_one_line_and_status_2(args, fragment):
    done = _run(*args)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("error: ") and fragment in done.stderr and done.stderr.count("\n") == 1


def test_make_currency_runs_the_command():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "\ncurrency:" in makefile and "scripts/currency.py" in makefile


def test_the_instructors_guide_tells_how_to_use_it():
    readme = (ROOT / "docs" / "instructor.md").read_text(encoding="utf-8")
    section = readme[readme.index("## Instructors") :]
    assert "make currency" in section and "docs/currency.csv" in section


def test_every_place_a_claim_is_used_in_exists():
    """A renamed lesson or module must take its manifest rows with it, or `make currency` points nowhere."""
    missing = [f"{c.id}: {place}" for c in CLAIMS for place in c.used_in if not (ROOT / place).exists()]
    assert not missing, "docs/currency.csv names files that are not in the course:\n" + "\n".join(missing)


# The API controls the wire lessons build or refuse (tooldesign.wire) and the stop reasons the capstone
# handles: each is a claim about today's API, so each has a dated row to be read again.
CONTROLS = ("allowed_tools", "parallel_tool_calls", "disable_parallel_tool_use", "pause_turn", "tool_search",
            "defer_loading", "namespace", "tool_reference", "tool_removal", "reasoning_effort", "end_turn",
            "max_tokens", "refusal", "finish_reason", "content_filter", "is_error")


@pytest.mark.parametrize("control", CONTROLS)
def test_every_api_control_the_course_teaches_has_a_dated_row(control):
    assert any(control in c.value for c in CLAIMS if c.kind == "parameter"), (
        f"add a parameter row for {control} to docs/currency.csv: its source and the day it was read")


@pytest.mark.parametrize("control", CONTROLS)
def test_each_listed_control_is_one_the_course_uses(control):
    """The list above is not padding: every control it names appears in the package."""
    assert any(control in p.read_text(encoding="utf-8") for p in (ROOT / "src" / "tooldesign").rglob("*.py")), control
