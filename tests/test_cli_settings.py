"""A real-model setting with a malformed value is one line naming the variable, the fault and a right value.

Every address the course reads (OPENAI_BASE_URL, ANTHROPIC_BASE_URL, OLLAMA_BASE_URL, AICORE_BASE_URL,
AICORE_AUTH_URL) is tried with many malformed values, from the environment and from a .env file, through
every command that reads it: ``tooldesign select``, ``tooldesign record``, ``tooldesign injection``, the
pickers themselves, and ``workbook doctor``. None of these cases may reach a network: the check comes
before any client is built. A .env file with a line that is not NAME=value, or that is not text, and a
provider or model setting that cannot be right are refused the same way.
"""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from fake_model_server import SETTINGS, no_real_settings  # noqa: F401  (the fixture)
from tooldesign.cli import main as tooldesign_main
from tooldesign.injection.cli import main as injection_main
from tooldesign.selection import config
from tooldesign.selection.models import (ModelSetupError, SettingError, local_model_status, model_picker)
from workbook import doctor

pytestmark = pytest.mark.usefixtures("no_real_settings", "fresh_file_record")

# (a malformed value, a fragment of what the one line must say about it)
MALFORMED = [
    ("http://localhost:abc/v1", "the port 'abc' is not a number from 1 to 65535"),
    ("http://localhost:70000/v1", "the port '70000' is not a number"),
    ("http://localhost:99999999999/v1", "is not a number from 1 to 65535"),
    ("http://localhost:0/v1", "the port 0"),
    ("http://localhost:-1/v1", "is not a number from 1 to 65535"),
    ("localhost:11434/v1", "does not start with http:// or https://"),
    ("api.openai.com/v1", "does not start with http:// or https://"),
    ("localhost", "does not start with http:// or https://"),
    ("ftp://example.com/v1", "ftp:// is not http:// or https://"),
    ("file:///etc/passwd", "file:// is not http:// or https://"),
    ("", "it is empty"),
    ("   ", "it is empty"),
    ("http://local host/v1", "holds a space or a line break"),
    (" http://localhost:11434/v1", "holds a space or a line break"),
    ("http://localhost:11434/v1 ", "holds a space or a line break"),
    ("http://localhost:11434/v1\n", "holds a space or a line break"),
    ("http://ü.example/v1", "'ü' is not plain ASCII"),
    ("http://localhost\uff1a11434/v1", "is not plain ASCII"),
    ("\u201chttp://localhost:11434/v1\u201d", "is not plain ASCII"),
    ('"http://localhost:11434/v1"', "the quotes are part of the value"),
    ("'http://localhost:11434/v1'", "the quotes are part of the value"),
    ("http://", "names no host"),
    ("http://:8080/v1", "names no host"),
    ("http:///v1", "names no host"),
    ("http://[::1/v1", "an unclosed ["),
    ("http://localhost:11434/v1?key=1", "no ?query or #fragment"),
    ("http://localhost:11434/v1#top", "no ?query or #fragment"),
]
WELL_FORMED = ["http://localhost:11434/v1", "https://api.openai.com/v1", "http://127.0.0.1:8000",
               "https://user:pw@proxy.example.com:8443/openai/v1", "HTTP://LOCALHOST/v1", "http://[::1]:11434/v1",
               "https://api.ai.example.cfapps.sap.hana.ondemand.com/v2"]
ADDRESSES = list(config.ENDPOINT_EXAMPLES)


@pytest.fixture
def fresh_file_record():
    config._FROM_FILE.clear()
    yield
    config._FROM_FILE.clear()


def one_line(text: str) -> bool:
    return text.count("\n") == 1 and text.endswith("\n") and "Traceback" not in text


def test_every_address_the_course_reads_is_checked():
    """A new provider's address variable must join ENDPOINT_EXAMPLES, or it would go unchecked."""
    assert set(config.BASE_URL_ENV.values()) <= set(ADDRESSES)
    assert {n for n in config.AICORE_ENV if n.endswith("_URL")} <= set(ADDRESSES)
    for name, example in config.ENDPOINT_EXAMPLES.items():
        assert config.url_problem(example) is None, name


@pytest.mark.parametrize("name", ADDRESSES)
@pytest.mark.parametrize("value, says", MALFORMED, ids=[repr(v)[:30] for v, _ in MALFORMED])
def test_a_malformed_address_names_the_variable_the_fault_and_a_right_value(monkeypatch, name, value, says):
    monkeypatch.setenv(name, value)
    with pytest.raises(SettingError) as error:
        config.endpoint(name)
    message = str(error.value)
    assert message.startswith(f"{name} is ") and says in message, message
    assert config.ENDPOINT_EXAMPLES[name] in message and "\n" not in message.replace(repr(value), "")
    assert isinstance(error.value, ModelSetupError) and error.value.status == 2


@pytest.mark.parametrize("value", WELL_FORMED)
def test_a_well_formed_address_is_taken_as_it_is(monkeypatch, value):
    monkeypatch.setenv("OPENAI_BASE_URL", value)
    assert config.endpoint("OPENAI_BASE_URL") == value
    assert config.endpoint("ANTHROPIC_BASE_URL", "dflt") == "dflt"  # unset: the default


@pytest.mark.parametrize("provider", ["openai", "anthropic", "ollama"])
@pytest.mark.parametrize("value, says", MALFORMED[::3], ids=[repr(v)[:30] for v, _ in MALFORMED[::3]])
def test_select_refuses_a_malformed_address_before_any_request(monkeypatch, capsys, provider, value, says):
    name = config.BASE_URL_ENV[provider]
    monkeypatch.setenv(name, value)
    if provider in config.KEY_ENV:
        monkeypatch.setenv(config.KEY_ENV[provider], "k")
    argv = ["select", "--provider", provider] + ([] if provider == "ollama" else ["--model", "m"])
    assert tooldesign_main(argv) == 2
    err = capsys.readouterr().err
    assert one_line(err) and err.startswith(f"error: {name} is ") and says in err, err


@pytest.mark.parametrize("provider", ["openai", "anthropic", "ollama"])
@pytest.mark.parametrize("value", ["http://localhost:abc/v1", "localhost:8000", "ftp://x/v1", ""])
def test_record_refuses_a_malformed_address_before_any_request(monkeypatch, capsys, tmp_path, provider, value):
    name = config.BASE_URL_ENV[provider]
    monkeypatch.setenv(name, value)
    if provider in config.KEY_ENV:
        monkeypatch.setenv(config.KEY_ENV[provider], "k")
    assert tooldesign_main(["record", "--provider", provider, "--out", str(tmp_path / "runs")]) == 2
    err = capsys.readouterr().err
    assert one_line(err) and name in err and "set it to an address like" in err, err
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
@pytest.mark.parametrize("value", ["http://localhost:abc/v1", "http//localhost/v1", "http://a b/v1"])
def test_the_injection_trial_refuses_a_malformed_address(monkeypatch, capsys, provider, value):
    name = config.BASE_URL_ENV[provider]
    monkeypatch.setenv(name, value)
    monkeypatch.setenv(config.KEY_ENV[provider], "k")
    assert injection_main(["--model", "m", "--provider", provider]) == 2
    err = capsys.readouterr().err
    assert err.endswith("\n") and name in err.splitlines()[-1] and "Traceback" not in err


@pytest.mark.parametrize("name", ["AICORE_BASE_URL", "AICORE_AUTH_URL"])
@pytest.mark.parametrize("value", ["api.ai.example.com/v2", "https://x:port/v2", "http://[::1/v2", "https://exa mple.com"])
def test_the_sap_settings_are_checked_too(monkeypatch, name, value):
    for setting in config.AICORE_ENV:
        monkeypatch.setenv(setting, config.ENDPOINT_EXAMPLES.get(setting, "x"))
    monkeypatch.setenv(name, value)
    with pytest.raises(SettingError, match=f"^{name} is "):
        model_picker("m", "sap")


@pytest.mark.parametrize("base_url", ["http://localhost:abc", "localhost:1", "ftp://x"])
def test_a_base_url_passed_in_code_is_checked_as_well(base_url):
    from tooldesign.selection.models import AnthropicPicker, OllamaPicker, OpenAICompatiblePicker
    for picker in (OpenAICompatiblePicker, AnthropicPicker, OllamaPicker):
        with pytest.raises(SettingError, match="the base_url .* cannot be used"):
            picker("m", base_url=base_url, api_key="k")


@pytest.mark.parametrize("value, says", [("http://localhost:abc/v1", "the port 'abc'"),
                                         ("localhost:11434", "does not start with http"),
                                         ("http://localhost:70000/v1", "'70000'")])
def test_a_malformed_address_in_dotenv_names_the_file(tmp_path, capsys, value, says):
    (tmp_path / ".env").write_text(f"OPENAI_API_KEY=k\nOPENAI_BASE_URL={value}\n")
    assert tooldesign_main(["select", "--model", "m"]) == 2
    err = capsys.readouterr().err
    assert one_line(err) and f"OPENAI_BASE_URL (in {tmp_path / '.env'}) is " in err and says in err, err


def test_ollama_from_dotenv_too(tmp_path, capsys):
    (tmp_path / ".env").write_text("OLLAMA_BASE_URL=localhost:11434/v1\n")
    assert tooldesign_main(["select", "--provider", "ollama"]) == 2
    assert "OLLAMA_BASE_URL (in " in capsys.readouterr().err


# (what the .env file holds, a fragment of the one line)
BAD_DOTENV = [
    (b"this is not a line\n", "line 1 is not NAME=value ('this is not a line')"),
    (b"OPENAI_API_KEY=k\nnot a setting at all\n", "line 2 is not NAME=value"),
    (b'OPENAI_BASE_URL="http://localhost:11434/v1\n', "line 1 is not NAME=value"),
    (b"= value without a name\n", "line 1 is not NAME=value"),
    (b"OPENAI_API_KEY k\n", "line 1 is not NAME=value"),
    (b"\xff\xfe\x00bad", "is not UTF-8 text (byte 0)"),
    (b"OPENAI_API_KEY=\xe9t\xe9\n", "is not UTF-8 text"),
]


@pytest.mark.parametrize("text, says", BAD_DOTENV, ids=[repr(t)[:25] for t, _ in BAD_DOTENV])
def test_a_dotenv_file_that_cannot_be_read_is_one_line(tmp_path, capsys, text, says):
    (tmp_path / ".env").write_bytes(text)
    assert tooldesign_main(["select", "--model", "m"]) == 2
    err = capsys.readouterr().err
    assert one_line(err) and says in err and ".env" in err, err
    assert tooldesign_main(["record", "--provider", "openai", "--out", str(tmp_path / "runs")]) == 2
    assert says in capsys.readouterr().err


def test_a_dotenv_with_comments_blank_lines_and_export_is_read(tmp_path):
    (tmp_path / ".env").write_text("# a comment\n\nexport OPENAI_MODEL=from-file\nOPENAI_BASE_URL=http://127.0.0.1:9/v1\n")
    assert config.load_env() is True
    assert config.default_model("openai") == "from-file"
    assert config.endpoint("OPENAI_BASE_URL") == "http://127.0.0.1:9/v1"


def test_a_dotenv_that_is_a_folder_is_passed_over(tmp_path):
    (tmp_path / ".env").mkdir()
    assert config.load_env() is False


@pytest.mark.parametrize("value", ["bogus", "OpenAI", "", "open ai"])
def test_an_unknown_provider_setting_names_the_variable(monkeypatch, capsys, value):
    monkeypatch.setenv(config.PROVIDER_ENV, value)
    with pytest.raises(SettingError, match=f"^{config.PROVIDER_ENV} is .*set it to one of openai"):
        config.default_provider()
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    assert tooldesign_main(["select", "--model", "m"]) == 2
    assert config.PROVIDER_ENV in capsys.readouterr().err


@pytest.mark.parametrize("value", [" ", " gpt-4o-mini", "gpt-4o-mini\n"])
def test_a_model_setting_with_spaces_around_it_is_refused(monkeypatch, value):
    monkeypatch.setenv("OPENAI_MODEL", value)
    with pytest.raises(SettingError, match="^OPENAI_MODEL is .*without spaces"):
        config.default_model("openai")


@pytest.mark.parametrize("value", ["http://localhost:abc/v1", "localhost", "", "ftp://x"])
def test_the_local_model_probe_says_the_setting_and_never_raises(monkeypatch, value):
    monkeypatch.setenv("OLLAMA_BASE_URL", value)
    status = local_model_status(timeout=0.1)
    assert not status.answers and "OLLAMA_BASE_URL is " in status.message and "\n" not in status.message


@pytest.mark.parametrize("name", ADDRESSES)
@pytest.mark.parametrize("value", ["http://localhost:abc/v1", "localhost", "ftp://x/v1", "", "http://ü/v1"])
def test_doctor_fails_on_a_malformed_address(monkeypatch, name, value):
    monkeypatch.setenv(name, value)
    finding = doctor.check_model_settings()
    assert not finding.ok and name in finding.fix and config.ENDPOINT_EXAMPLES[name] in finding.fix
    assert "runs offline without it" in finding.fix


def test_doctor_reports_a_bad_dotenv_and_passes_good_settings(monkeypatch, tmp_path):
    assert doctor.check_model_settings().ok  # none set: offline
    monkeypatch.setenv("OPENAI_BASE_URL", "https://api.openai.com/v1")
    finding = doctor.check_model_settings()
    assert finding.ok and "OPENAI_BASE_URL" in finding.what
    (tmp_path / ".env").write_text("not a line\n")
    finding = doctor.check_model_settings()
    assert not finding.ok and "line 1 is not NAME=value" in finding.fix


def test_doctor_command_ends_not_ready_on_a_malformed_address(tmp_path):
    """The whole command, as a learner runs it: one FAIL naming the variable, exit 1, no traceback."""
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS}
    env["OLLAMA_BASE_URL"] = "http://localhost:abc/v1"
    done = subprocess.run([sys.executable, "-m", "workbook", "doctor"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1 and "Traceback" not in done.stdout + done.stderr
    assert "[FAIL] a real-model setting cannot be used" in done.stdout
    assert "OLLAMA_BASE_URL is 'http://localhost:abc/v1'" in done.stdout
    assert "ready for the course" not in done.stdout


@pytest.mark.parametrize("command", [["select", "--model", "m"], ["record", "--provider", "openai"]])
def test_the_commands_as_a_learner_runs_them(tmp_path, command):
    """Through the entry point in a fresh process: the setting's line, exit 2, nothing else."""
    env = {k: v for k, v in os.environ.items() if k not in SETTINGS}
    env.update(OPENAI_API_KEY="k", OPENAI_BASE_URL="http://localhost:abc/v1")
    done = subprocess.run([sys.executable, "-m", "tooldesign", *command, "--out" if command[0] == "record" else
                           "--cases", str(tmp_path / "runs") if command[0] == "record" else "tuning"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and one_line(done.stderr), done.stderr
    assert done.stderr.startswith("error: OPENAI_BASE_URL is 'http://localhost:abc/v1': the port 'abc'")
    assert "Invalid port" not in done.stderr
