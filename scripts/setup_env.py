"""Create or refresh .venv so it matches requirements.txt and pyproject.toml.

Run with any Python: `python scripts/setup_env.py`. It is what `make lab` and `make test`
call first, and what Windows users run by hand. The venv is rebuilt only when it is missing,
when the pins changed, or when a command pyproject.toml's [project.scripts] names (tooldesign,
workbook) is not in it yet, so a second run takes a second.

`python scripts/setup_env.py --wheels PATH` installs from a wheelhouse that an instructor made
with `make wheelhouse` (a folder, or the address of a web server that shares it) and from
nothing else: no package index is asked, and every file is checked against its sha256.

This file is read by whatever Python a learner happens to start it with, so it sticks to
syntax that Python 2.7 can parse (no f-strings, no annotations, print as a function): an old
Python must reach the version check below and say one line, not stop at a SyntaxError.
"""
from __future__ import print_function

import sys

if sys.version_info < (3, 10):
    sys.exit("This course needs Python 3.10 or newer; you have %d.%d. Install a newer Python "
             "(python.org or conda) and run this again with it." % tuple(sys.version_info[:2]))

import hashlib
import os
import platform
import re
import subprocess
import tempfile
import urllib.request
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
STAMP = VENV / "pins.sha256"
PIP_QUIET = ("--quiet", "--disable-pip-version-check")


def venv_python():
    """The interpreter inside .venv (Windows keeps it in Scripts/)."""
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def pins_digest():
    """Changes whenever the pins or the Python running this change, and only then."""
    digest = hashlib.sha256()
    for name in ("requirements.txt", "pyproject.toml"):
        digest.update((ROOT / name).read_bytes())
    digest.update(sys.version.encode())
    return digest.hexdigest()


def entry_points():
    """The commands pyproject.toml's [project.scripts] puts into .venv: tooldesign, workbook."""
    text = (ROOT / "pyproject.toml").read_text()
    section = re.search(r"^\[project\.scripts\][ \t]*$(.*?)(?=^\[|\Z)", text, re.MULTILINE | re.DOTALL)
    return re.findall(r"^[ \t]*([A-Za-z0-9_.\-]+)[ \t]*=", section.group(1), re.MULTILINE) if section else []


def missing_entry_points():
    """The commands not in .venv yet: a .venv made before they were added to pyproject.toml lacks them."""
    folder = venv_python().parent
    suffix = ".exe" if os.name == "nt" else ""
    return [name for name in entry_points() if not (folder / (name + suffix)).exists()]


def run(*args, **kwargs):
    print("+", " ".join(args))
    sys.stdout.flush()
    subprocess.run(args, check=True, cwd=str(ROOT), **kwargs)


# ---------------------------------------------------------------- installing from a wheelhouse

PLATFORMS = {
    ("linux", "x86_64"): "linux_x86_64", ("linux", "amd64"): "linux_x86_64",
    ("linux", "aarch64"): "linux_aarch64", ("linux", "arm64"): "linux_aarch64",
    ("darwin", "arm64"): "macos_arm64", ("darwin", "x86_64"): "macos_x86_64",
    ("win32", "amd64"): "windows_amd64", ("win32", "x86_64"): "windows_amd64",
}


class WheelhouseError(Exception):
    """A problem with the wheelhouse, said in one line."""


def this_platform():
    """The wheelhouse's name for this machine, e.g. linux_x86_64, or the raw names if unknown."""
    key = ("linux" if sys.platform.startswith("linux") else sys.platform, platform.machine().lower())
    return PLATFORMS.get(key, "%s_%s" % key)


def target_name():
    """One wheelhouse target: a platform and a Python version, e.g. linux_x86_64-cp311."""
    return "%s-cp%d%d" % ((this_platform(),) + tuple(sys.version_info[:2]))


def is_url(where):
    return re.match(r"^https?://", where) is not None


def read_from_wheelhouse(where, name):
    """A text file from the wheelhouse, which is a folder or a web address."""
    if is_url(where):
        address = where.rstrip("/") + "/" + name
        try:
            with urllib.request.urlopen(address, timeout=30) as answer:
                return answer.read().decode("utf-8")
        except OSError as error:
            raise WheelhouseError("cannot read %s (%s)" % (address, getattr(error, "reason", error)))
    path = Path(where) / name
    if not path.is_file():
        return None
    return path.read_text(encoding="utf-8")


def lock_entries(lock_text):
    """name -> (version, file names) from a lock file written by scripts/wheelhouse.py."""
    entries = {}
    for line in lock_text.splitlines():
        match = re.match(r"^([A-Za-z0-9_.\-]+)==(\S+)", line)
        if match:
            files = re.findall(r"# file: (\S+)", line)
            entries[normal(match.group(1))] = (match.group(2), files)
    return entries


def normal(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def wanted_pins():
    """name -> version for every pinned line of requirements.txt."""
    pins = {}
    for line in (ROOT / "requirements.txt").read_text().splitlines():
        match = re.match(r"^\s*([A-Za-z0-9_.\-]+)==([^\s;#]+)", line)
        if match:
            pins[normal(match.group(1))] = (match.group(1), match.group(2))
    return pins


def wheelhouse_lock(where):
    """Check the wheelhouse holds every pin for this machine; return the lock file's text.

    Every problem found here is one line naming the package and the platform, before pip runs.
    """
    target = target_name()
    if not is_url(where) and not Path(where).is_dir():
        raise WheelhouseError("there is no folder %s; give the wheelhouse's folder or address, "
                              "e.g. make lab WHEELS=/media/usb/wheelhouse" % where)
    lock = read_from_wheelhouse(where, "locks/%s.txt" % target)
    if lock is None:
        raise WheelhouseError(
            "the wheelhouse at %s has no wheels for Python %d.%d on %s; ask for one built with "
            "make wheelhouse PLATFORMS=%s PYTHONS=%d.%d"
            % ((where,) + tuple(sys.version_info[:2]) + (this_platform(), this_platform())
               + tuple(sys.version_info[:2])))
    entries = lock_entries(lock)
    place = "%s, Python %d.%d" % ((this_platform(),) + tuple(sys.version_info[:2]))
    for key, (name, version) in sorted(wanted_pins().items()):
        if key not in entries:
            raise WheelhouseError("the wheelhouse has no wheel of %s==%s for %s; rebuild it with "
                                  "make wheelhouse" % (name, version, place))
        if entries[key][0] != version:
            raise WheelhouseError("the wheelhouse holds %s %s, the course pins %s (for %s); rebuild it "
                                  "with make wheelhouse" % (name, entries[key][0], version, place))
    if not is_url(where):
        for key, (version, files) in sorted(entries.items()):
            for file_name in files:
                if not (Path(where) / file_name).is_file():
                    raise WheelhouseError("the wheelhouse is missing %s (%s %s for %s); copy the "
                                          "whole folder again" % (file_name, key, version, place))
    return lock


def offline_pip_env():
    """pip's settings from this machine are left out, so the wheelhouse is the only source."""
    env = dict((key, value) for key, value in os.environ.items() if not key.startswith("PIP_"))
    env["PIP_CONFIG_FILE"] = os.devnull
    env["PIP_NO_INDEX"] = "1"
    return env


def explain_pip_failure(output, where):
    """pip's long error, turned into the one line a learner can act on."""
    place = "%s, Python %d.%d" % ((this_platform(),) + tuple(sys.version_info[:2]))
    missing = re.search(r"(?:No matching distribution found for|satisfies the requirement) ([^\s(]+)", output)
    if missing:
        return "the wheelhouse %s has no wheel of %s that installs on %s" % (where, missing.group(1), place)
    if "DO NOT MATCH THE HASHES" in output:
        bad = re.search(r"^\s+([A-Za-z0-9_.\-]+)==\S+ from ", output, re.MULTILINE)
        return ("a file in the wheelhouse does not match its sha256%s; copy the folder again"
                % (" (%s)" % bad.group(1) if bad else ""))
    tail = [line for line in output.strip().splitlines() if line.strip()][-1:]
    return "installing from the wheelhouse failed: %s" % (tail[0].strip() if tail else "no message from pip")


def install_from_wheelhouse(py, where):
    lock = wheelhouse_lock(where)
    handle, lock_path = tempfile.mkstemp(prefix="course-lock-", suffix=".txt")
    with os.fdopen(handle, "w") as out:
        out.write(lock)
    env = offline_pip_env()
    # --no-compile: byte-compiling every installed file took two thirds of the install on a busy
    # 2-core machine (64 s against 21 s); Python compiles each module once, on first import, instead.
    steps = [
        [py, "-m", "pip", "install"] + list(PIP_QUIET) + ["--no-index", "--no-compile", "--find-links", where,
                                                            "--require-hashes", "-r", lock_path],
        # The course itself comes from this clone, so the lessons find data/ beside them.
        [py, "-m", "pip", "install"] + list(PIP_QUIET) + ["--no-index", "--no-deps", "--no-build-isolation",
                                                            "-e", "."],
    ]
    try:
        for step in steps:
            print("+", " ".join(step))
            sys.stdout.flush()
            done = subprocess.run(step, cwd=str(ROOT), env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, universal_newlines=True)
            if done.returncode != 0:
                raise WheelhouseError(explain_pip_failure(done.stdout, where))
    finally:
        os.unlink(lock_path)


def install_from_index(py):
    run(py, "-m", "pip", "install", *(PIP_QUIET + ("-r", "requirements.txt")))
    run(py, "-m", "pip", "install", *(PIP_QUIET + ("--no-deps", "-e", ".")))


# ---------------------------------------------------------------- main

def parse_args(argv):
    """Only one option, so no argparse: --wheels PATH (or --wheels=PATH)."""
    wheels = None
    args = list(argv)
    while args:
        arg = args.pop(0)
        if arg.startswith("--wheels="):
            wheels = arg.split("=", 1)[1]
        elif arg == "--wheels" and args:
            wheels = args.pop(0)
        else:
            sys.exit("usage: python scripts/setup_env.py [--wheels FOLDER_OR_ADDRESS]")
    if wheels is not None and not wheels.strip():
        wheels = None
    if wheels is not None and not is_url(wheels):
        wheels = os.path.abspath(os.path.expanduser(wheels))
    return wheels


def main(argv=None):
    wheels = parse_args(sys.argv[1:] if argv is None else argv)
    wanted = pins_digest()
    pins_match = venv_python().exists() and STAMP.exists() and STAMP.read_text().strip() == wanted
    missing = missing_entry_points() if pins_match else []
    if pins_match and not missing:
        print("[setup] .venv is up to date with requirements.txt")
        return 0
    if wheels is not None:
        try:
            wheelhouse_lock(wheels)  # a wrong or incomplete wheelhouse is said before anything is made
        except WheelhouseError as problem:
            print("[setup] %s" % problem, file=sys.stderr)
            return 1
    if not venv_python().exists():
        print("[setup] creating .venv with Python %d.%d" % tuple(sys.version_info[:2]))
        venv.EnvBuilder(with_pip=True, clear=True).create(str(VENV))
    elif missing:
        print("[setup] .venv has no %s command yet: installing the course into it again" % " or ".join(missing))
    else:
        print("[setup] the pins changed: updating .venv")
    py = str(venv_python())
    try:
        if wheels is None:
            install_from_index(py)
        else:
            print("[setup] installing from the wheelhouse %s only" % wheels)
            install_from_wheelhouse(py, wheels)
    except WheelhouseError as problem:
        print("[setup] %s" % problem, file=sys.stderr)
        return 1
    except subprocess.CalledProcessError:
        print("[setup] installing failed (see pip's message above). Check your network or proxy, "
              "then run this again; nothing in the course folder was changed.", file=sys.stderr)
        return 1
    STAMP.write_text(wanted + "\n")
    print("[setup] .venv is ready")
    return 0


if __name__ == "__main__":
    sys.exit(main())
