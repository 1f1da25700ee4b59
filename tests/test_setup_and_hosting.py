"""The set-up script and the hosted-notebook configurations stay on the one list of pins.

A dev container, mybinder.org and a learner's laptop must install the same versions; each
configuration here reads requirements.txt rather than holding a copy of it, and these tests fail
the moment one of them grows its own list, points at a notebook that is not there, or asks for a
Python the course does not support. scripts/setup_env.py must also be readable by old Pythons, so
that they reach its version check instead of a SyntaxError.
"""
from __future__ import annotations

import ast
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SETUP = ROOT / "scripts/setup_env.py"
SUPPORTED = [(3, 10), (3, 11), (3, 12), (3, 13)]
FIRST_NOTEBOOK = "notebooks/00_start_here.ipynb"


# ---------------------------------------------------------------- setup_env.py and old Pythons

PY3_ONLY_NODES = tuple(getattr(ast, name) for name in ("Nonlocal", "YieldFrom", "NamedExpr", "Match", "Await",
                                                       "AsyncFunctionDef", "AsyncFor", "AsyncWith") if hasattr(ast, name))


def _py3_only_syntax(source: str) -> list[str]:
    """Syntax Python 2.7 cannot parse, found with Python 3's own parser (the file must hold none).

    Where no Python 2 is installed this is the evidence; each form it knows is proven found below.
    """
    tree = ast.parse(source)
    futures = {alias.name for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
               and node.module == "__future__" for alias in node.names}
    found = []
    for node in ast.walk(tree):
        where = f"line {getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.JoinedStr):
            found.append(f"{where}: f-string")
        elif isinstance(node, ast.AnnAssign):
            found.append(f"{where}: variable annotation")
        elif isinstance(node, PY3_ONLY_NODES):
            found.append(f"{where}: {type(node).__name__}")
        elif isinstance(node, ast.Raise) and node.cause is not None:
            found.append(f"{where}: raise ... from")
        elif isinstance(node, ast.Dict) and None in node.keys:
            found.append(f"{where}: ** inside a dict display")
        elif isinstance(node, (ast.List, ast.Tuple, ast.Set)) and any(isinstance(e, ast.Starred) for e in node.elts):
            found.append(f"{where}: * in a display or an assignment target")
        elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
            found.append(f"{where}: @ operator")
        elif isinstance(node, ast.Constant) and node.value is Ellipsis:
            found.append(f"{where}: ... literal")
        elif isinstance(node, ast.Constant) and isinstance(node.value, bytes) and not node.value.isascii():
            found.append(f"{where}: non-ASCII bytes")
        if isinstance(node, (ast.FunctionDef, ast.Lambda)):
            args = node.args
            every = args.posonlyargs + args.args + args.kwonlyargs + [a for a in (args.vararg, args.kwarg) if a]
            if getattr(node, "returns", None) is not None or any(a.annotation is not None for a in every):
                found.append(f"{where}: annotation")
            if args.kwonlyargs or args.posonlyargs:
                found.append(f"{where}: keyword-only or positional-only arguments")
        if isinstance(node, ast.Call):
            if isinstance(node.func, ast.Name) and node.func.id == "print" and "print_function" not in futures:
                found.append(f"{where}: print() without from __future__ import print_function")
            starred = [i for i, a in enumerate(node.args) if isinstance(a, ast.Starred)]
            if len(starred) > 1 or (starred and starred[0] != len(node.args) - 1):
                found.append(f"{where}: a second *, or an argument after *")
            names = [k.arg for k in node.keywords]
            if None in names and any(n is not None for n in names[names.index(None):]):
                found.append(f"{where}: a keyword argument after **")
    return found


def test_setup_env_holds_no_syntax_that_python_2_cannot_parse():
    source = SETUP.read_text(encoding="utf-8")
    assert source.isascii(), "Python 2 reads a file without a coding line as ASCII"
    assert _py3_only_syntax(source) == []


@pytest.mark.parametrize("snippet", [
    "x = f'{1}'", "def f() -> int: return 1", "def f(a: int): pass", "x: int = 1", "def f(*, a): pass",
    "a, *b = [1, 2]", "print('x', end='')", "raise ValueError() from None", "d = {**{}}",
    "f(*a, *b)", "f(*a, b)", "f(**a, b=1)", "x = [*a]", "(y := 1)", "x = a @ b", "def f(a, /): pass",
    "async def f(): pass", "def f():\n    nonlocal x", "def f():\n    yield from g()",
])
def test_the_syntax_check_catches_what_python_2_rejects(snippet):
    """The check above is only worth something if it finds each form; a plain line passes."""
    assert _py3_only_syntax(snippet), snippet
    assert _py3_only_syntax("from __future__ import print_function\nprint('x')\nx = [1, 2]\n") == []


def _old_pythons() -> list[str]:
    """Real old interpreters on this machine (python2, python3.6-3.9, pyenv's), if any."""
    names = ["python2", "python2.7", "python3.6", "python3.7", "python3.8", "python3.9"]
    found = [shutil.which(n) for n in names]
    pyenv = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    found += [str(p) for p in sorted(pyenv.glob("[23].*/bin/python")) if re.match(r"^(2\.|3\.[6-9]\.)", p.parts[-3])]
    usable = []
    for path in dict.fromkeys(p for p in found if p):
        probe = subprocess.run([path, "-c", "import sys; sys.stdout.write('%d %d' % tuple(sys.version_info[:2]))"],
                               capture_output=True, text=True)
        if probe.returncode == 0 and tuple(map(int, probe.stdout.split())) < (3, 10):
            usable.append(path)
    return usable


def test_old_pythons_get_one_line_not_a_syntax_error():
    pythons = _old_pythons()
    if not pythons:
        pytest.skip("no Python older than 3.10 on this machine; the syntax check above stands in")
    for python in pythons:
        done = subprocess.run([python, str(SETUP)], cwd=ROOT, capture_output=True, text=True)
        lines = done.stderr.strip().splitlines()
        assert done.returncode != 0 and len(lines) == 1, (python, done.stderr)
        assert "needs Python 3.10 or newer" in lines[0] and "SyntaxError" not in done.stderr, (python, lines)


def test_setup_refuses_a_bad_option_in_one_line():
    done = subprocess.run(["python3", str(SETUP), "--wheelz", "x"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode != 0 and done.stderr.strip().startswith("usage:"), done.stderr


def _setup_module():
    import importlib.util

    spec = importlib.util.spec_from_file_location("setup_env_for_test", SETUP)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_setup_reinstalls_a_venv_that_lacks_a_command_pyproject_names(tmp_path, monkeypatch):
    """A .venv made before the entry points existed has matching pins but no .venv/bin/tooldesign."""
    setup = _setup_module()
    assert setup.entry_points() == ["tooldesign", "workbook"]
    monkeypatch.setattr(setup, "VENV", tmp_path / ".venv")
    folder = setup.venv_python().parent
    folder.mkdir(parents=True)
    suffix = ".exe" if os.name == "nt" else ""
    (folder / ("tooldesign" + suffix)).write_text("")
    assert setup.missing_entry_points() == ["workbook"]
    (folder / ("workbook" + suffix)).write_text("")
    assert setup.missing_entry_points() == []


# ---------------------------------------------------------------- hosted notebooks

def _python_of(text: str) -> tuple[int, int]:
    found = re.search(r"(?:python[:-])(\d+)\.(\d+)", text)
    assert found, f"no Python version in {text!r}"
    return int(found.group(1)), int(found.group(2))


def test_devcontainer_sets_up_from_the_pins_and_opens_notebook_00():
    config = json.loads((ROOT / ".devcontainer/devcontainer.json").read_text())
    assert _python_of(config["image"]) in SUPPORTED, config["image"]
    assert "scripts/setup_env.py" in config["postCreateCommand"], "the container must use the course's own set-up"
    opened = config["customizations"]["codespaces"]["openFiles"]
    assert FIRST_NOTEBOOK in opened and (ROOT / FIRST_NOTEBOOK).is_file()
    text = json.dumps(config)
    assert not re.search(r"[A-Za-z0-9_.\-]+==\d", text), "a pin copied into devcontainer.json can drift"
    assert ".venv/bin/python" in config["customizations"]["vscode"]["settings"]["python.defaultInterpreterPath"]


def test_binder_installs_the_roots_pins_and_the_course():
    binder = ROOT / "binder"
    lines = [l.strip() for l in (binder / "requirements.txt").read_text().splitlines()
             if l.strip() and not l.strip().startswith("#")]
    assert lines == ["-r ../requirements.txt"], "binder/ must read the root's pins, not a copy of them"
    assert (binder / lines[0].split()[1]).resolve() == (ROOT / "requirements.txt").resolve()
    assert _python_of((binder / "runtime.txt").read_text()) in SUPPORTED
    post = (binder / "postBuild").read_text()
    assert re.search(r"pip install .*--no-deps.* -e \.", post), "postBuild installs the course packages, nothing else"
    assert os.access(binder / "postBuild", os.X_OK), "repo2docker runs postBuild only when it is executable"
    default = re.search(r"default_url = '/lab/tree/([^']+)'", post)
    assert default and default.group(1) == FIRST_NOTEBOOK
    # Files through which repo2docker would install a second list of packages.
    others = {"environment.yml", "environment.yaml", "Pipfile", "Pipfile.lock", "setup.py", "Project.toml",
              "install.R", "requirements3.txt", "Dockerfile"}
    assert not others & {p.name for p in binder.iterdir()}


def test_readme_badges_open_notebook_00_in_both_services():
    readme = (ROOT / "README.md").read_text()
    binder = re.search(r"https://mybinder\.org/v2/gh/([^/\s)]+/[^/\s)]+)/[^?\s)]+\?urlpath=lab/tree/([^\s)]+)\)", readme)
    codespaces = re.search(r"https://codespaces\.new/([^/\s?)]+/[^/\s?)]+)", readme)
    assert binder and codespaces, "the README links both hosted services"
    assert binder.group(2) == FIRST_NOTEBOOK and (ROOT / binder.group(2)).is_file()
    assert binder.group(1) == codespaces.group(1), "both badges name the same repository"


def test_makefile_passes_wheels_to_the_setup_and_has_the_wheelhouse_target():
    makefile = (ROOT / "Makefile").read_text()
    setup = re.search(r"^setup:\n((?:\t.*\n)+)", makefile, re.MULTILINE).group(1)
    assert "--wheels" in setup and "$(WHEELS)" in setup
    for target in ("lab", "test", "wheelhouse"):
        assert re.search(rf"^{target}: setup", makefile, re.MULTILINE), target
    assert "scripts/wheelhouse.py" in makefile


def test_browser_pins_are_exact_and_apart_from_the_lab():
    lines = [l.strip() for l in (ROOT / "requirements-browser.txt").read_text().splitlines()
             if l.strip() and not l.startswith("#")]
    assert lines and all(re.fullmatch(r"[A-Za-z0-9_.\-]+==[0-9][\w.]*", l) for l in lines)
    lab = (ROOT / "requirements.txt").read_text()
    assert "playwright" not in lab.lower(), "learners should not download the browser tests' driver"
