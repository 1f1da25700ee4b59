"""The two commands rest on one list of pins; these tests keep it honest."""
import re
import subprocess
import sys
from pathlib import Path

import pytest

from workbook import doctor

ROOT = Path(__file__).resolve().parents[1]


def _normal(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def test_every_requirement_is_pinned_exactly():
    lines = [l.strip() for l in (ROOT / "requirements.txt").read_text().splitlines()]
    entries = [l for l in lines if l and not l.startswith("#")]
    assert entries, "requirements.txt lists no packages"
    loose = [l for l in entries if not re.fullmatch(r"[A-Za-z0-9_.\-]+==[0-9][\w.]*", l)]
    assert not loose, f"not pinned with ==: {loose}"


def test_environment_yml_uses_the_same_pins():
    """conda installs from requirements.txt itself, so the two lists cannot drift."""
    text = (ROOT / "environment.yml").read_text()
    pip_section = text.split("- pip:", 1)[1]
    assert "-r requirements.txt" in pip_section
    # No second copy of a pin hides in environment.yml.
    pinned_names = {_normal(n) for n in doctor.pinned(ROOT / "requirements.txt")}
    conda_deps = re.findall(r"^\s*-\s*([A-Za-z0-9_.\-]+)\s*[=<>]", text, re.MULTILINE)
    assert not ({_normal(n) for n in conda_deps} & pinned_names), "a pin is repeated in environment.yml"
    python = re.search(r"python=(\d+)\.(\d+)", text)
    assert python and (int(python.group(1)), int(python.group(2))) >= (3, 10)


def test_pyproject_dependencies_are_all_pinned():
    text = (ROOT / "pyproject.toml").read_text()
    block = re.search(r"^dependencies = \[(.*?)\]", text, re.MULTILINE | re.DOTALL).group(1)
    names = {_normal(re.match(r'\s*"([A-Za-z0-9_.\-]+)', line).group(1))
             for line in block.splitlines() if line.strip().startswith('"')}
    pins = {_normal(n) for n in doctor.pinned(ROOT / "requirements.txt")}
    assert names <= pins, f"in pyproject.toml but not pinned: {sorted(names - pins)}"


def test_old_python_gets_one_line_naming_the_fix():
    code = ("import sys, runpy; sys.version_info = (3, 9, 18, 'final', 0); "
            "runpy.run_path('scripts/setup_env.py', run_name='__main__')")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode != 0
    message = done.stderr.strip()
    assert len(message.splitlines()) == 1, message
    assert "3.10 or newer" in message and "3.9" in message


def test_doctor_reports_ok_in_the_course_environment(capsys):
    assert doctor.main() == 0
    out = capsys.readouterr().out
    assert "[FAIL]" not in out
    # Python, widgets, data writable, data sound, model settings; and one line per disk the course is on
    assert out.count("[OK]") == len(doctor.pinned()) + 5 + len(doctor.check_free_space())


def test_doctor_names_the_fix_for_a_wrong_version():
    finding = doctor.check_package("pandas", "0.0.1")
    assert not finding.ok
    assert "make lab" in finding.line()
    assert doctor.check_package("no-such-package-for-the-course", "1.0").line().startswith("[FAIL]")


def test_doctor_names_an_unwritable_data_folder(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    finding = doctor.check_data_writable(blocker / "data")
    assert not finding.ok and "fix:" in finding.line()


def test_ci_runs_the_readme_test_command_then_the_browser_tests():
    readme = (ROOT / "README.md").read_text()
    assert "make test" in readme and "make lab" in readme and "make test-browser" in readme
    ci = [l.strip() for l in (ROOT / ".ci/run").read_text().splitlines() if l.strip() and not l.startswith("#")]
    assert "make test" in ci and ci[-1] == "make site", "CI builds the course website last"
    # make test-browser is its two halves; CI runs both, the website's beside the grading tests.
    assert ci.index("make test") < ci.index("make browser-packages") < ci.index("make test-widgets") < ci.index("make site")
    side = next((i for i, l in enumerate(ci) if l.startswith("bash .ci/side-by-side")), None)
    assert side is not None and ci.index("make browser-packages") < side < ci.index("make test-widgets")
    step = ci[side:ci.index("make test-widgets")]
    assert "'make test-lab' \\" in step, "CI runs the lab-day set-up"
    assert "'make test-site'" in step, "CI opens the website in the browser"
    assert "make test-lab" in readme
    assert "|| true" not in "\n".join(ci), "CI must not hide a failure"
    chromium = next(i for i, l in enumerate(ci) if "apt-get install" in l and "chromium" in l)
    assert chromium < ci.index("make browser-packages"), "CI installs Debian's chromium, when missing, before a browser test"
    makefile = (ROOT / "Makefile").read_text()
    assert re.search(r"^test: setup", makefile, re.MULTILINE)
    assert re.search(r"^test-browser: test-widgets test-site\b", makefile, re.MULTILINE)
    for half in ("test-widgets", "test-site"):
        assert re.search(rf"^{half}: browser-packages\b", makefile, re.MULTILINE)
    assert re.search(r"^browser-packages: setup\b.*\n(\t.*requirements-browser.txt\n)(\t.*requirements-site.txt\n)",
                     makefile, re.MULTILINE)
    assert re.search(r"^test-lab: setup.*\n\tCOURSE_LAB_TESTS=1 .*tests/test_wheelhouse.py", makefile, re.MULTILINE)


def test_optional_extras_are_pinned_and_agree_with_requirements():
    text = (ROOT / "pyproject.toml").read_text()
    pins = doctor.pinned(ROOT / "requirements.txt")
    pins = {**pins, **doctor.pinned(ROOT / "requirements-browser.txt")}
    for extra in ("models", "sap", "browser"):
        entries = re.findall(r'"([^"]+)"', re.search(rf"^{extra} = \[(.*?)\]", text, re.MULTILINE).group(1))
        for entry in entries:
            name, _, version = entry.partition("==")
            assert version, f"{entry} in the {extra} extra is not pinned"
            if name in pins:
                assert pins[name] == version, f"{name}: {version} in pyproject.toml, {pins[name]} in requirements.txt"
