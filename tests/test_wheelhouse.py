"""Lab day without the package index: the wheelhouse, and setting up from it alone.

The first tests are offline and fast: every problem with a wheelhouse comes out as one line naming
the package and the platform. The last one is the real thing: it builds a wheelhouse for this
machine (downloads about 120 MB from the package index), sets up a fresh copy of the course from
it with the index unreachable, runs notebook 00 headless there and serves it with JupyterLab.
That one is lab-day work for an instructor, minutes of downloading and installing, so `make test`
leaves it to `make test-lab` (COURSE_LAB_TESTS=1), which CI runs after `make test`.
"""
from __future__ import annotations

import csv
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))
import setup_env  # noqa: E402
import wheelhouse  # noqa: E402

CLOSED_PORT = "http://127.0.0.1:9/"  # nothing listens there: any use of an index fails at once


def fake_wheelhouse(folder: Path, skip: str = "", version_of: dict | None = None) -> Path:
    """A wheelhouse whose lock names every pin, with empty stand-in files (enough for the checks before pip)."""
    (folder / "locks").mkdir(parents=True)
    lines = []
    for key, (name, version) in sorted(setup_env.wanted_pins().items()):
        if key == skip:
            continue
        version = (version_of or {}).get(key, version)
        file = f"{name.replace('-', '_')}-{version}-py3-none-any.whl"
        (folder / file).write_bytes(b"")
        lines.append(f"{name}=={version} --hash=sha256:{'0' * 64}  # file: {file}\n")
    (folder / "locks" / f"{setup_env.target_name()}.txt").write_text("".join(lines))
    return folder


def one_line(error: setup_env.WheelhouseError) -> str:
    text = str(error)
    assert "\n" not in text, text
    return text


def test_a_complete_wheelhouse_passes_the_checks(tmp_path):
    lock = setup_env.wheelhouse_lock(str(fake_wheelhouse(tmp_path / "w")))
    assert len(setup_env.lock_entries(lock)) == len(setup_env.wanted_pins())


def test_no_wheels_for_this_platform_names_platform_and_python(tmp_path):
    folder = fake_wheelhouse(tmp_path / "w")
    (folder / "locks" / f"{setup_env.target_name()}.txt").unlink()
    with pytest.raises(setup_env.WheelhouseError) as caught:
        setup_env.wheelhouse_lock(str(folder))
    line = one_line(caught.value)
    assert setup_env.this_platform() in line and "%d.%d" % sys.version_info[:2] in line
    assert f"make wheelhouse PLATFORMS={setup_env.this_platform()}" in line


def test_a_missing_package_names_package_and_platform(tmp_path):
    folder = fake_wheelhouse(tmp_path / "w", skip="pandas")
    with pytest.raises(setup_env.WheelhouseError) as caught:
        setup_env.wheelhouse_lock(str(folder))
    line = one_line(caught.value)
    assert "pandas==" in line and setup_env.this_platform() in line


def test_a_wheelhouse_for_other_pins_names_both_versions(tmp_path):
    folder = fake_wheelhouse(tmp_path / "w", version_of={"numpy": "1.0.0"})
    with pytest.raises(setup_env.WheelhouseError) as caught:
        setup_env.wheelhouse_lock(str(folder))
    line = one_line(caught.value)
    assert "numpy 1.0.0" in line and setup_env.wanted_pins()["numpy"][1] in line


def test_a_file_lost_in_copying_is_named(tmp_path):
    folder = fake_wheelhouse(tmp_path / "w")
    lost = sorted(folder.glob("jsonschema-*.whl"))[0]
    lost.unlink()
    with pytest.raises(setup_env.WheelhouseError) as caught:
        setup_env.wheelhouse_lock(str(folder))
    line = one_line(caught.value)
    assert lost.name in line and "jsonschema" in line and setup_env.this_platform() in line


def test_a_folder_that_is_not_there_is_one_line(tmp_path):
    with pytest.raises(setup_env.WheelhouseError) as caught:
        setup_env.wheelhouse_lock(str(tmp_path / "nowhere"))
    assert "there is no folder" in one_line(caught.value)


@pytest.mark.parametrize("pip_says, expected", [
    ("ERROR: Could not find a version that satisfies the requirement numpy==2.2.6 (from versions: none)\n"
     "ERROR: No matching distribution found for numpy==2.2.6", "no wheel of numpy==2.2.6 that installs on"),
    ("ERROR: THESE PACKAGES DO NOT MATCH THE HASHES FROM THE REQUIREMENTS FILE.\n"
     "    pandas==2.3.3 from file:///w/pandas.whl:\n        Expected sha256 00\n", "does not match its sha256 (pandas)"),
    ("something else went wrong\nERROR: disk full", "failed: ERROR: disk full"),
])
def test_pips_long_errors_become_one_line(pip_says, expected):
    line = setup_env.explain_pip_failure(pip_says, "/w")
    assert expected in line and "\n" not in line


def test_setup_with_a_bad_wheelhouse_says_one_line_and_creates_nothing(tmp_path):
    """Run as a learner would, in a course folder without .venv: one line, exit 1, no .venv left."""
    course = tmp_path / "course"
    (course / "scripts").mkdir(parents=True)
    for name in ("scripts/setup_env.py", "requirements.txt", "pyproject.toml"):
        shutil.copy2(ROOT / name, course / name)
    fake_wheelhouse(tmp_path / "w", skip="matplotlib")
    done = subprocess.run([sys.executable, "scripts/setup_env.py", "--wheels", str(tmp_path / "w")],
                          cwd=course, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "matplotlib" in lines[0] and setup_env.this_platform() in lines[0], done.stderr
    assert not (course / ".venv").exists()


def test_lock_lines_written_by_the_wheelhouse_are_read_by_the_setup(tmp_path):
    (tmp_path / "a-1.0-py3-none-any.whl").write_bytes(b"a")
    target = wheelhouse.Target(setup_env.this_platform(), "%d.%d" % sys.version_info[:2])
    item = wheelhouse.Item("a", "1.0", "a-1.0-py3-none-any.whl", "", "file:///x")
    wheelhouse.write_lock(wheelhouse.Outcome(target, [item]), tmp_path)
    text = (tmp_path / "locks" / f"{setup_env.target_name()}.txt").read_text()
    assert setup_env.lock_entries(text) == {"a": ("1.0", ["a-1.0-py3-none-any.whl"])}
    assert "--hash=sha256:ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb" in text


def test_the_summary_says_which_package_had_no_wheel_where(tmp_path):
    course = tmp_path / "tooldesign_workbook-0.1.0-py3-none-any.whl"
    course.write_bytes(b"c" * 1000)
    (tmp_path / "pure_pkg-1.0-py3-none-any.whl").write_bytes(b"p" * 2000)
    (tmp_path / "native-1.0.tar.gz").write_bytes(b"n" * 10)
    notes = wheelhouse.Notes(built={"pure-pkg": "pure_pkg-1.0-py3-none-any.whl"},
                             sdist_only={"native": "native-1.0.tar.gz"})
    ok = wheelhouse.Outcome(wheelhouse.Target("linux_x86_64", "3.12"),
                            [wheelhouse.Item("pure-pkg", "1.0", "pure_pkg-1.0-py3-none-any.whl", "", "")])
    failed = wheelhouse.Outcome(wheelhouse.Target("windows_amd64", "3.12"),
                                problem="no wheel of native==1.0 (only a source archive that needs a compiler)")
    size = wheelhouse.write_manifest([ok, failed], course, tmp_path, notes)
    lines = wheelhouse.summary_lines([ok, failed], size, notes, tmp_path)
    linux = next(l for l in lines if l.startswith("linux_x86_64"))
    windows = next(l for l in lines if l.startswith("windows_amd64"))
    assert "pure-pkg has no wheel, built pure_pkg-1.0-py3-none-any.whl from its sdist" in linux
    assert "Python none" in windows and "no wheel of native==1.0" in windows
    assert any(l.startswith("native:") and "native-1.0.tar.gz" in l for l in lines)
    rows = list(csv.DictReader((tmp_path / "manifest.csv").open()))
    assert {r["kind"] for r in rows} >= {"course", "wheel built from sdist", "sdist"}
    assert all(len(r["sha256"]) == 64 for r in rows)


def test_unknown_platform_or_python_is_one_line():
    with pytest.raises(SystemExit) as caught:
        wheelhouse.targets("plan9_mips", "")
    assert "unknown platform plan9_mips" in str(caught.value)
    with pytest.raises(SystemExit) as caught:
        wheelhouse.targets("", "2.7")
    assert "not 2.7" in str(caught.value)


# ---------------------------------------------------------------- the real thing

def _copy_course(into: Path) -> Path:
    """A fresh copy of the course as a clone would have it (what git tracks, and new files not ignored)."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, capture_output=True, check=True)
    for name in filter(None, listed.stdout.decode().split("\0")):
        if (ROOT / name).is_file():
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, into / name)
    return into


def _no_index_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    env.update(PIP_INDEX_URL=CLOSED_PORT, PIP_EXTRA_INDEX_URL=CLOSED_PORT, HTTP_PROXY=CLOSED_PORT,
               HTTPS_PROXY=CLOSED_PORT, http_proxy=CLOSED_PORT, https_proxy=CLOSED_PORT)
    env.pop("PYTHONPATH", None)
    return env


RUN_NOTEBOOK = """
import json, sys, nbformat, nbclient
nb = nbformat.read(sys.argv[1], as_version=4)
nbclient.NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": "notebooks"}}).execute()
errors = [o.get("ename", "") + ": " + o.get("evalue", "") for c in nb.cells if c.cell_type == "code"
          for o in c.get("outputs", []) if o.get("output_type") == "error"]
text = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", []))
print(json.dumps({"errors": errors, "not_done": "not done yet" in text, "prefix": sys.prefix}))
"""


@pytest.mark.skipif(os.environ.get("COURSE_LAB_TESTS") != "1",
                    reason="a fresh set-up from a wheelhouse runs in make test-lab (COURSE_LAB_TESTS=1)")
def test_a_fresh_clone_sets_up_from_the_wheelhouse_alone_and_runs_notebook_00(tmp_path):
    house = tmp_path / "wheelhouse"
    built = subprocess.run([sys.executable, str(ROOT / "scripts/wheelhouse.py"), "--out", str(house),
                            "--platforms", "here", "--pythons", "here"], capture_output=True, text=True, timeout=1800)
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-2000:]
    summary = (house / "summary.txt").read_text()
    assert summary.startswith(setup_env.this_platform()) and "MB" in summary, summary
    rows = list(csv.DictReader((house / "manifest.csv").open()))
    course = [r for r in rows if r["kind"] == "course"]
    assert len(course) == 1
    names = zipfile.ZipFile(house / course[0]["file"]).namelist()
    assert any(n.startswith("tooldesign/") for n in names) and any(n.startswith("workbook/") for n in names)

    clone = _copy_course(tmp_path / "clone")
    env = _no_index_env()
    started = time.monotonic()
    setup = subprocess.run(["make", "setup", f"WHEELS={house}", f"PYTHON={sys.executable}"], cwd=clone, env=env,
                           capture_output=True, text=True, timeout=1200)
    seconds = time.monotonic() - started
    assert setup.returncode == 0, setup.stdout[-2000:] + setup.stderr[-2000:]
    assert "from the wheelhouse" in setup.stdout and "--no-index" in setup.stdout
    print(f"\n[wheelhouse] set-up from the wheelhouse took {seconds:.0f} s; {summary.splitlines()[0]}")
    python = str(clone / ".venv/bin/python")

    ran = subprocess.run([python, "-c", RUN_NOTEBOOK, "notebooks/00_start_here.ipynb"], cwd=clone, env=env,
                         capture_output=True, text=True, timeout=900)
    assert ran.returncode == 0, ran.stderr[-2000:]
    result = json.loads(ran.stdout.strip().splitlines()[-1])
    assert result["errors"] == [] and result["not_done"], result
    assert Path(result["prefix"]).resolve() == (clone / ".venv").resolve()

    _serves_notebook_00(python, clone, env)

    # A copy of the folder that lost a file, and one with a file changed: one line each, naming the package.
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    (damaged / "locks").mkdir()
    for path in house.rglob("*"):
        if path.is_file():
            target = damaged / path.relative_to(house)
            os.link(path, target)
    victim = sorted(damaged.glob("pandas-*.whl"))[0]
    victim.unlink()
    again = _copy_course(tmp_path / "clone2")
    lost = subprocess.run([sys.executable, "scripts/setup_env.py", "--wheels", str(damaged)], cwd=again, env=env,
                          capture_output=True, text=True, timeout=600)
    assert lost.returncode == 1 and victim.name in lost.stderr and len(lost.stderr.strip().splitlines()) == 1
    victim.write_bytes(b"not the wheel that was downloaded")
    changed = subprocess.run([sys.executable, "scripts/setup_env.py", "--wheels", str(damaged)], cwd=again, env=env,
                             capture_output=True, text=True, timeout=600)
    assert changed.returncode == 1, changed.stdout
    assert "does not match its sha256" in changed.stderr and len(changed.stderr.strip().splitlines()) == 1, changed.stderr


def _serves_notebook_00(python: str, clone: Path, env: dict[str, str]) -> None:
    """`make lab`'s server, started from the clone's .venv, hands out notebook 00."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    token = secrets.token_hex(8)
    state = clone / ".jupyter-test"
    lab_env = dict(env, JUPYTER_CONFIG_DIR=str(state / "config"), JUPYTER_RUNTIME_DIR=str(state / "runtime"),
                   NO_PROXY="127.0.0.1", no_proxy="127.0.0.1")
    command = [python, "-m", "jupyter", "lab", "--no-browser", "--ip=127.0.0.1", f"--port={port}",
               f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={clone}", "--LabApp.news_url=",
               "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
    if os.getuid() == 0:
        command.append("--allow-root")
    server = subprocess.Popen(command, cwd=clone, env=lab_env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                with opener.open(f"http://127.0.0.1:{port}/api/contents/notebooks/00_start_here.ipynb?token={token}",
                                 timeout=10) as answer:
                    served = json.loads(answer.read())
                break
            except OSError:
                assert server.poll() is None and time.monotonic() < deadline, "JupyterLab did not answer"
                time.sleep(0.5)
        assert served["type"] == "notebook" and served["content"]["cells"]
        with opener.open(f"http://127.0.0.1:{port}/lab/tree/notebooks/00_start_here.ipynb?token={token}",
                         timeout=30) as page:
            assert page.status == 200
    finally:
        server.terminate()
        server.wait(timeout=30)


class FakePip:
    """Stands in for pip: the first resolve finds no wheel of one package; its sdist builds to ``built``."""

    def __init__(self, built: str):
        self.built, self.resolves = built, 0

    def __call__(self, *args: str, capture: bool = True) -> subprocess.CompletedProcess:
        if args[0] == "install":
            self.resolves += 1
            if self.resolves == 1:
                return subprocess.CompletedProcess(args, 1, "", "ERROR: No matching distribution found for onlysdist==1.0")
            report = Path(args[args.index("--report") + 1])
            report.write_text(json.dumps({"install": [{"metadata": {"name": "onlysdist", "version": "1.0"},
                                                       "download_info": {"url": f"file:///x/{self.built}"}}]}))
            return subprocess.CompletedProcess(args, 0, "", "")
        if args[0] == "download":
            Path(args[args.index("-d") + 1], "onlysdist-1.0.tar.gz").write_bytes(b"sdist")
        if args[0] == "wheel":
            folder = Path(args[args.index("-w") + 1])
            folder.mkdir(parents=True, exist_ok=True)
            (folder / self.built).write_bytes(b"wheel")
        return subprocess.CompletedProcess(args, 0, "", "")


def test_a_package_without_wheels_gets_a_pure_wheel_built_from_its_sdist(tmp_path, monkeypatch):
    monkeypatch.setattr(wheelhouse, "pip", FakePip("onlysdist-1.0-py3-none-any.whl"))
    notes = wheelhouse.Notes()
    outcome = wheelhouse.resolve_target(wheelhouse.Target("windows_amd64", "3.13"), tmp_path, notes)
    assert outcome.problem == "" and [i.file for i in outcome.items] == ["onlysdist-1.0-py3-none-any.whl"]
    assert notes.built == {"onlysdist": "onlysdist-1.0-py3-none-any.whl"}
    assert (tmp_path / "onlysdist-1.0-py3-none-any.whl").is_file()


def test_a_package_whose_sdist_needs_a_compiler_is_kept_as_sdist_and_named(tmp_path, monkeypatch):
    monkeypatch.setattr(wheelhouse, "pip", FakePip("onlysdist-1.0-cp313-cp313-linux_x86_64.whl"))
    notes = wheelhouse.Notes()
    outcome = wheelhouse.resolve_target(wheelhouse.Target("windows_amd64", "3.13"), tmp_path, notes)
    assert "no wheel of onlysdist==1.0" in outcome.problem and "compiler" in outcome.problem
    assert notes.sdist_only == {"onlysdist": "onlysdist-1.0.tar.gz"} and (tmp_path / "onlysdist-1.0.tar.gz").is_file()
