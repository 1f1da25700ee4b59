"""Create or refresh .venv so it matches requirements.txt and pyproject.toml.

Run with any Python: `python scripts/setup_env.py`. It is what `make lab` and `make test`
call first, and what Windows users run by hand. The venv is rebuilt only when it is missing
or when the pins changed, so a second run takes a second.
"""
import sys

if sys.version_info < (3, 10):
    sys.exit("This course needs Python 3.10 or newer; you have %d.%d. Install a newer Python "
             "(python.org or conda) and run this again with it." % sys.version_info[:2])

import hashlib
import os
import subprocess
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
VENV = ROOT / ".venv"
STAMP = VENV / "pins.sha256"


def venv_python() -> Path:
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def pins_digest() -> str:
    digest = hashlib.sha256()
    for name in ("requirements.txt", "pyproject.toml"):
        digest.update((ROOT / name).read_bytes())
    digest.update(sys.version.encode())
    return digest.hexdigest()


def run(*args: str) -> None:
    print("+", " ".join(args), flush=True)
    subprocess.run(args, check=True, cwd=ROOT)


def main() -> int:
    wanted = pins_digest()
    if venv_python().exists() and STAMP.exists() and STAMP.read_text().strip() == wanted:
        print("[setup] .venv is up to date with requirements.txt")
        return 0
    if not venv_python().exists():
        print("[setup] creating .venv with Python %d.%d" % sys.version_info[:2])
        venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
    else:
        print("[setup] the pins changed: updating .venv")
    py = str(venv_python())
    try:
        run(py, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-r", "requirements.txt")
        run(py, "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "--no-deps", "-e", ".")
    except subprocess.CalledProcessError:
        print("[setup] installing failed (see pip's message above). Check your network or proxy, "
              "then run this again; nothing in the course folder was changed.", file=sys.stderr)
        return 1
    STAMP.write_text(wanted + "\n")
    print("[setup] .venv is ready")
    return 0


if __name__ == "__main__":
    sys.exit(main())
