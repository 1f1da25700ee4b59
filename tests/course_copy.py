"""A throw-away copy of the course, for tests that break its data or its notebooks on purpose.

The packages resolve ``data/``, ``notebooks/`` and ``solutions/`` from their own location, so a
subprocess run with ``PYTHONPATH=<copy>/src`` works on the copy and never touches the real course.
"""
from __future__ import annotations

import atexit
import multiprocessing
import os
import runpy
import shutil
import subprocess
import sys
import tempfile
import traceback
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KEEP = ("src", "data", "notebooks", "solutions", "requirements.txt", "pyproject.toml", "Makefile", "scripts")


def make_copy(target: Path) -> Path:
    """Copy what the command lines need (not .venv, not .git) into ``target``."""
    target.mkdir(parents=True, exist_ok=True)
    for name in KEEP:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, target / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        elif source.exists():
            shutil.copy2(source, target / name)
    return target


def course_env(course: Path) -> dict[str, str]:
    """This environment for a command run in ``course``: its packages first, no model keys or provider
    settings (a bad-input case must never turn into a real model call)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI", "ANTHROPIC", "AICORE", "TOOLDESIGN"))}
    env.update(PYTHONPATH=str(course / "src"), PYTHONDONTWRITEBYTECODE="1")
    return env


def run_in(course: Path, *argv: str, timeout: float = 300) -> subprocess.CompletedProcess:
    """``python ARGV...`` with the course venv's Python, importing the packages of ``course``."""
    return subprocess.run([sys.executable, *argv], cwd=course, env=course_env(course), capture_output=True,
                          text=True, timeout=timeout)


# ---------- the same command, forked from a Python that has already imported the heavy packages ----------

# Third-party packages the course's command lines import on their way to an answer. Importing them
# takes most of a command's second; the fork server imports them once, and each command is a fork of it.
# None of the course's own packages is among them: each command imports those fresh, from its copy.
PRELOAD = ("numpy", "pandas", "matplotlib", "matplotlib.pyplot", "jsonschema", "nbformat", "nbclient", "httpx",
           "pydantic", "openai", "anthropic", "mcp", "ipywidgets", "jupyter_client", "zmq", "tqdm")
COURSE_PACKAGES = ("tooldesign", "workbook")  # imported afresh from the copy in each child


@cache
def _fork_server() -> multiprocessing.context.ForkServerContext:
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(list(PRELOAD))
    return context


def run_preloaded(course: Path, *argv: str, timeout: float = 300) -> subprocess.CompletedProcess:
    """What ``run_in(course, "-m", MODULE, ...)`` returns, from a fork of a Python that has ``PRELOAD``
    imported: the module runs as ``__main__`` with the same arguments, folder and environment, its
    exit code and both streams collected. (``test_cli_bad_input`` proves both give the same answers.)"""
    if argv[:1] != ("-m",) or len(argv) < 2 or "forkserver" not in multiprocessing.get_all_start_methods():
        return run_in(course, *argv, timeout=timeout)  # (Windows has no fork server: a real subprocess)
    with tempfile.TemporaryDirectory(prefix="forked-") as folder:
        out, err = Path(folder) / "stdout", Path(folder) / "stderr"
        child = _fork_server().Process(target=_run_module, args=(str(course), argv[1], list(argv[2:]),
                                                                  course_env(course), str(out), str(err)))
        child.start()
        child.join(timeout)
        if child.is_alive():
            child.kill()
            child.join()
            raise subprocess.TimeoutExpired([sys.executable, *argv], timeout)
        return subprocess.CompletedProcess([sys.executable, *argv], child.exitcode,
                                           out.read_text(errors="replace"), err.read_text(errors="replace"))


def _run_module(course: str, module: str, args: list[str], env: dict[str, str], out: str, err: str) -> None:
    """In the forked child: become ``python -m MODULE ARGS`` run in ``course``, then exit with its code."""
    for fd, path in ((1, out), (2, err)):
        target = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC)
        os.dup2(target, fd)
        os.close(target)
    os.chdir(course)
    os.environ.clear()
    os.environ.update(env)
    sys.dont_write_bytecode = True
    sys.path.insert(0, str(Path(course) / "src"))
    for name in [name for name in sys.modules if name.partition(".")[0] in COURSE_PACKAGES]:
        del sys.modules[name]  # imported by whatever started the server: the copy's own are imported instead
    sys.argv = ["-m", *args]
    code: int = 0
    try:
        runpy.run_module(module, run_name="__main__", alter_sys=True)
    except SystemExit as stop:
        if stop.code is None:
            code = 0
        elif isinstance(stop.code, int):
            code = stop.code
        else:  # what the interpreter does with sys.exit("message")
            print(stop.code, file=sys.stderr)
            code = 1
    except BaseException:
        traceback.print_exc()
        code = 1
    finally:
        atexit._run_exitfuncs()  # as the interpreter would on its way out
        sys.stdout.flush()
        sys.stderr.flush()
    os._exit(code)
